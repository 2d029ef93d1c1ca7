"""`scene-agent bench api`: the real command in a subprocess (shape of its JSON, never its speed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run_cli

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.selection.files.store import SessionStore
from scene_bench.api import RunningServer, _create_sessions, measure, wait_like_agents

ROW_FIELDS = {"server", "endpoint", "load", "requests", "concurrency", "req_per_s", "p50_ms", "p99_ms", "errors"}
LOADS = ["500 idle connections", "500 idle connections", "event streams", "event streams"]


def test_bench_api_json(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    # SCENE_AGENT_BROKER emptied: the bench starts a redis-server of its own for the shared rows
    out = run_cli("bench", "api", "--requests", "30", "--concurrency", "3", "--load-requests", "6", "--json",
                  env={"TMPDIR": str(tmpdir), "SCENE_AGENT_BROKER": ""}, timeout=600)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert set(report) == {"results", "redis", "fsync"}
    assert report["redis"].endswith("(started by the bench)"), report["redis"]
    assert set(report["fsync"]) == {"journal_ms", "file_ms", "directory_ms", "samples"}
    assert min(report["fsync"][k] for k in ("journal_ms", "file_ms", "directory_ms")) > 0, report["fsync"]
    rows = report["results"]
    assert [(r["server"], r["endpoint"], r["load"]) for r in rows[:4]] == [
        ("waitress", "POST /api/submit-selection", "none"), ("waitress", "GET /api/health", "none"),
        ("waitress-no-fsync", "POST /api/submit-selection", "none"), ("werkzeug-dev", "POST /api/submit-selection", "none")]
    assert [(r["server"], r["endpoint"], r["load"]) for r in rows[20:]] == [
        ("waitress×2+redis", "POST /api/submit-selection", "none"), ("waitress×2+redis", "GET /api/health", "none")]
    slow = rows[12:20]
    assert [r["server"] for r in slow] == ["waitress"] * 4 + ["waitress-unguarded"] * 4
    assert [r["load"] for r in slow[:4]] == ["1,100 slow clients (11 addresses) + 500 idle"] * 2 + [
        "5,000 slow clients (1 address) + 500 idle"] * 2
    loaded = rows[4:12]
    assert [r["server"] for r in loaded] == ["waitress"] * 4 + ["waitress-before"] * 4
    assert [r["endpoint"] for r in loaded] == ["GET /api/health", "POST /api/submit-selection"] * 4
    assert all(load in r["load"] for r, load in zip(loaded, LOADS * 2, strict=True)), [r["load"] for r in loaded]
    assert [r["load"] for r in loaded[2:4]] == ["100 of 100 event streams + 500 idle connections"] * 2
    for row in rows:
        assert set(row) == ROW_FIELDS
        assert (row["requests"], row["concurrency"]) == ((30, 3) if row["load"] == "none" else (6, 3)), row
        assert row["req_per_s"] > 0, row
        assert 0 < row["p50_ms"] <= row["p99_ms"], row
    baselines = ("waitress-before", "waitress-unguarded")
    assert all(row["errors"] == 0 for row in rows if row["server"] not in baselines), rows  # the shared rows too
    assert list(tmpdir.iterdir()) == []  # sessions, selection files and server logs went with the temporary directory


@pytest.mark.parametrize("args", [("--requests", "0"), ("--concurrency", "0"), ("--concurrency", "65")])
def test_bench_api_rejects_out_of_range_options(args: tuple[str, str]) -> None:
    out = run_cli("bench", "api", *args, "--json")
    assert out.returncode == 2
    assert args[0] in out.stderr


def _settings(root: Path) -> Settings:
    return Settings(state_dir=root / "state", selection_dir=root / "selection", viewer_url="http://localhost:5173/")


def test_every_submit_answers_its_own_session(small_scene_path: Path, tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    with BackgroundServer(create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings})) as server:
        examples: list[str] = []
        row = measure(RunningServer("waitress", server.port, "small", settings), "submit", 12, 4, examples)
    assert (row.requests, row.concurrency, row.errors, examples) == (12, 4, 0, [])
    assert len(list(settings.selection_dir.glob("viewer_selection_*.json"))) == 12
    store = SessionStore(settings)
    answered = [p.name.removesuffix(".outcome.json") for p in settings.sessions_dir.glob("*.outcome.json")
                if p.stat().st_size]
    assert len(answered) == 12 and not any(store.someone_waits(sid) for sid in answered)  # the claims were let go


def test_sessions_are_waited_for_as_an_agent_waits(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    opened = _create_sessions(settings, 3, "small")
    sessions = [s.session_id for s in opened]
    claims = wait_like_agents(settings, opened)
    assert claims is not None and len(claims) == 3
    store = SessionStore(settings)
    assert all(store.someone_waits(sid) and (settings.sessions_dir / f"{sid}.lock").exists() for sid in sessions)
    for claim in claims:
        claim.release()
    assert not any(store.someone_waits(sid) for sid in sessions)


def test_failed_requests_are_counted_and_shown(small_scene_path: Path, tmp_path: Path) -> None:
    # The server looks for sessions in another state directory than the one the bench creates them in: all 404.
    app = create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": _settings(tmp_path / "server")})
    with BackgroundServer(app) as server:
        examples: list[str] = []
        row = measure(RunningServer("waitress", server.port, "small", _settings(tmp_path / "bench")), "submit", 7, 2, examples)
    assert row.errors == 7
    assert examples and all("HTTP 404" in e and "session_not_found" in e for e in examples), examples
