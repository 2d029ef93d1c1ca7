"""`scene-agent doctor`: what is in place, what is not, and the exit status that says so."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from cli_run import run_cli
from redis_server import RedisServer


def checks(out: subprocess.CompletedProcess[str]) -> dict[str, dict]:
    said = json.loads(out.stdout)
    return {c["name"]: c for c in said["checks"]} | {"ok": said["ok"]}


def test_on_one_machine_the_channel_is_the_directories(env: dict[str, str], small_scene_path: Path) -> None:
    out = run_cli("doctor", "--json", "--scene", str(small_scene_path), env=env)
    assert out.returncode == 0, out.stderr
    found = checks(out)
    assert found["ok"] is True
    assert found["scene"]["verdict"] == "ok" and "'small'" in found["scene"]["detail"]
    channel = found["selection channel"]
    assert channel["verdict"] == "ok" and env["SCENE_AGENT_SELECTION_DIR"] in channel["detail"]
    assert found["server"]["verdict"] == "note"  # nobody serves at the viewer URL: said, not a failure


def test_with_a_broker_it_says_whether_redis_answers(env: dict[str, str], small_scene_path: Path,
                                                    redis_server: RedisServer) -> None:
    out = run_cli("doctor", "--json", "--scene", str(small_scene_path), env=env | {"SCENE_AGENT_BROKER": redis_server.url})
    assert out.returncode == 0, out.stderr
    channel = checks(out)["selection channel"]
    assert channel["verdict"] == "note" and f"Redis at {redis_server.url}" in channel["detail"]
    assert "appendonly off" in channel["detail"]  # and what that risks: a Redis without replicas is said to be one
    assert "no replica must have a pick before it is acknowledged (min_replicas=0)" in channel["detail"]
    redis_server.stop()
    out = run_cli("doctor", "--scene", str(small_scene_path), env=env | {"SCENE_AGENT_BROKER": redis_server.url})
    assert out.returncode == 1
    assert "not reachable" in out.stdout and "✘" in out.stdout


def test_a_password_in_the_broker_url_is_never_printed(env: dict[str, str], small_scene_path: Path) -> None:
    url = "redis://:s3cret@127.0.0.1:1/0"
    out = run_cli("doctor", "--json", "--scene", str(small_scene_path), env=env | {"SCENE_AGENT_BROKER": url})
    assert out.returncode == 1
    assert "s3cret" not in out.stdout + out.stderr
    assert "redis://:***@127.0.0.1:1/0" in checks(out)["selection channel"]["detail"]


def test_a_broker_that_is_not_a_redis_url_is_a_problem_named(env: dict[str, str], small_scene_path: Path) -> None:
    out = run_cli("doctor", "--json", "--scene", str(small_scene_path), env=env | {"SCENE_AGENT_BROKER": "http://cache:6379"})
    assert out.returncode == 1
    settings = checks(out)["settings"]
    assert settings["verdict"] == "problem" and "SCENE_AGENT_BROKER must be a Redis URL" in settings["detail"]
