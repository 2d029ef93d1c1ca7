"""`scene-agent bench handoff`: the real command in a subprocess (shape of its JSON, never its speed); the Redis the
Redis rows of the benchmarks run on (scene_bench/redis_server.py)."""

from __future__ import annotations

import json
import shutil
import socket
import threading
from pathlib import Path

import pytest
from cli_run import run_cli

from scene_bench.handoff import HandoffReport, HandoffRow, once_a_second_wait
from scene_bench.redis_server import NoRedisError, bench_redis


def test_bench_handoff_json(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    # SCENE_AGENT_BROKER emptied: the bench starts a redis-server of its own, in the temporary directory
    out = run_cli("bench", "handoff", "--n", "5", "--idle-seconds", "0.2", "--json",
                  env={"TMPDIR": str(tmpdir), "SCENE_AGENT_BROKER": ""}, timeout=300)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert [r["method"] for r in report["results"]] == ["watchdog", "polling", "legacy-1s", "redis"]
    assert report["redis"].startswith("redis://127.0.0.1:") and report["redis"].endswith("(started by the bench)")
    for row in report["results"]:
        assert set(row) == {"method", "n", "p50_ms", "p95_ms", "p99_ms", "max_ms"}
        assert row["n"] == 5
        assert 0 <= row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"] <= row["max_ms"], row
    for key in ("idle_cpu_percent_1000_waiters", "idle_cpu_percent_1000_waiters_legacy",
                "idle_cpu_percent_1000_waiters_redis", "idle_cpu_percent_1000_waiters_redis_server"):
        assert isinstance(report[key], (int, float)) and report[key] >= 0, key
    assert list(tmpdir.iterdir()) == []  # the bench's temporary directories (its own, redis-server's) are gone


def test_a_skipped_redis_row_says_why() -> None:
    row = HandoffRow("watchdog", 5, 0.1, 0.2, 0.3, 0.4)
    report = HandoffReport((row,), 1000, 0.2, 0.1, 0.1, "skipped: no redis-server on PATH")
    document = report.as_json()
    assert document["redis"] == "skipped: no redis-server on PATH"
    assert [r["method"] for r in document["results"]] == ["watchdog"]
    assert "idle_cpu_percent_1000_waiters_redis" not in document


def test_without_redis_server_or_broker_there_is_no_redis() -> None:
    with pytest.raises(NoRedisError, match="SCENE_AGENT_BROKER"), bench_redis(None, None):
        pass


def test_a_broker_given_is_used_as_it_is() -> None:
    with bench_redis("redis://127.0.0.1:1/0", shutil.which("redis-server")) as redis:
        assert (redis.url, redis.pid) == ("redis://127.0.0.1:1/0", None)
        assert "SCENE_AGENT_BROKER" in redis.where


def _pong(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"PING\r\n")
        return sock.recv(16)


def test_a_throwaway_redis_server_is_stopped_and_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # where tempfile makes its directory, read at the next call
    monkeypatch.setattr("tempfile.tempdir", None)
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    with bench_redis(None, binary) as redis:
        port = int(redis.url.rsplit(":", 1)[1].split("/")[0])
        assert _pong(port).startswith(b"+PONG")
        assert redis.pid and "started by the bench" in redis.where
    with pytest.raises(OSError):
        _pong(port)
    assert list(tmp_path.iterdir()) == []


def test_bench_handoff_rejects_n_below_one() -> None:
    out = run_cli("bench", "handoff", "--n", "0", "--json")
    assert out.returncode == 2
    assert "--n" in out.stderr


def test_once_a_second_loop_reads_and_consumes_a_file_already_there(tmp_path: Path) -> None:
    path = tmp_path / "viewer_selection_x.json"
    path.write_text('{"status": "confirmed"}', encoding="utf-8")
    assert once_a_second_wait(path, timeout=5) == {"status": "confirmed"}
    assert not path.exists()


def test_once_a_second_loop_ends_on_stop(tmp_path: Path) -> None:
    stop = threading.Event()
    looked = threading.Event()

    def first_look() -> None:
        looked.set()
        stop.set()  # the loop sees it at its next look, one second later

    assert once_a_second_wait(tmp_path / "absent.json", timeout=30, stop=stop, on_check=first_look) is None
    assert looked.is_set()
