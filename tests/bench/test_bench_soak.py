"""`scene-agent bench soak`: the real command in a subprocess, with real server restarts (SIGTERM and SIGKILL)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import run_cli


def test_a_short_soak_loses_nothing(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    out = run_cli("bench", "soak", "--minutes", "0.15", "--agents", "4", "--restart-every", "2.5", "--json",
                  env={"TMPDIR": str(tmpdir)}, timeout=300)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert (report["lost"], report["duplicated"], report["cross_delivered"]) == (0, 0, 0), report["examples"]
    assert report["server_restarts"] >= 2 and report["killed"] >= 1
    assert report["sessions"] == report["picked"] + report["cancelled"] + report["timed_out"] + report["stopped"]
    assert report["delivered"] > 0 and report["delivered"] == report["picked"] + report["cancelled"] - report["refused"]
    assert list(tmpdir.iterdir()) == []  # the run's state went with it


def test_a_short_soak_on_redis_sentinel_with_the_primary_killed_loses_nothing_and_refuses_nothing(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    out = run_cli("bench", "soak", "--broker", "sentinel", "--minutes", "0.3", "--agents", "4", "--restart-every", "4",
                  "--json", env={"TMPDIR": str(tmpdir), "SCENE_AGENT_BROKER": ""}, timeout=300)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert (report["lost"], report["duplicated"], report["cross_delivered"]) == (0, 0, 0), report["examples"]
    assert report["failovers"] >= 1 and report["server_restarts"] >= 1, report  # the primary was killed, and the server
    assert (report["false_refusals"], report["refused"]) == (0, 0), report["examples"]
    assert report["delivered"] > 0 and report["delivered"] == report["picked"] + report["cancelled"]
    assert list(tmpdir.iterdir()) == []
