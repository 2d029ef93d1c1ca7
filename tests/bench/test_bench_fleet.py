"""`scene-agent bench fleet`: the real command in a subprocess, with real servers, agents and Redis (never its speed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run_cli
from redis_server import RedisServer

from scene_bench.fleet_agent import candidates_of


def test_a_small_fleet_delivers_every_pick_once_to_its_own_agent(tmp_path: Path, redis_server: RedisServer) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    # SCENE_AGENT_BROKER set: the bench uses that Redis (this test's) and starts none of its own
    out = run_cli("bench", "fleet", "--sessions", "40", "--servers", "2", "--agents", "2", "--seed", "3", "--json",
                  env={"TMPDIR": str(tmpdir), "SCENE_AGENT_BROKER": redis_server.url}, timeout=300)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert (report["sessions_asked"], report["servers"], report["agents"], report["seed"]) == (40, 2, 2, 3)
    assert report["redis"] == f"{redis_server.url} (SCENE_AGENT_BROKER)"
    assert (report["lost"], report["duplicated"], report["cross_delivered"]) == (0, 0, 0), report["examples"]
    assert report["sessions"] == report["acknowledged"] == report["delivered"] == 40, report["examples"]
    assert report["sessions"] == report["delivered"] + report["lost"] + report["refused"]
    assert (report["refused"], report["agent_errors"], report["examples"]) == (0, 0, [])
    assert report["second_picks"] > 0 and report["second_refused_409"] == report["second_picks"]
    assert 0 <= report["returned_before_ack"] <= report["delivered"]
    assert 0 <= report["p50_ms"] <= report["p95_ms"] <= report["p99_ms"] <= report["max_ms"], report
    assert list(tmpdir.iterdir()) == []  # servers' and agents' directories went with the temporary directory


def test_without_any_redis_the_fleet_says_so(tmp_path: Path) -> None:
    # No redis-server on PATH and no SCENE_AGENT_BROKER: one clear error, nothing started.
    out = run_cli("bench", "fleet", "--sessions", "4", "--json", env={"PATH": str(tmp_path), "SCENE_AGENT_BROKER": ""})
    assert out.returncode == 1, out.stderr
    error = json.loads(out.stdout or out.stderr)
    assert "no redis-server on PATH" in json.dumps(error), error


def test_no_two_sessions_of_a_run_share_a_candidate() -> None:
    codes = [c for agent in range(4) for seq in range(300) for c in candidates_of(agent, seq)]
    assert len(set(codes)) == len(codes)


@pytest.mark.parametrize("args", [("--sessions", "0"), ("--servers", "0"), ("--agents", "0")])
def test_bench_fleet_rejects_out_of_range_options(args: tuple[str, str]) -> None:
    out = run_cli("bench", "fleet", *args, "--json")
    assert out.returncode == 2
    assert args[0] in out.stderr
