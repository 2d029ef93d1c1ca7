"""`scene-agent bench handoff`: the real command in a subprocess (shape of its JSON, never its speed)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from cli_run import run_cli

from scene_bench.handoff import once_a_second_wait


def test_bench_handoff_json(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    out = run_cli("bench", "handoff", "--n", "5", "--idle-seconds", "0.2", "--json", env={"TMPDIR": str(tmpdir)},
                  timeout=300)
    assert out.returncode == 0, out.stderr
    [line] = out.stdout.splitlines()
    report = json.loads(line)
    assert [r["method"] for r in report["results"]] == ["watchdog", "polling", "legacy-1s"]
    for row in report["results"]:
        assert set(row) == {"method", "n", "p50_ms", "p95_ms", "p99_ms", "max_ms"}
        assert row["n"] == 5
        assert 0 <= row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"] <= row["max_ms"], row
    for key in ("idle_cpu_percent_1000_waiters", "idle_cpu_percent_1000_waiters_legacy"):
        assert isinstance(report[key], (int, float)) and report[key] >= 0, key
    assert list(tmpdir.iterdir()) == []  # the bench's temporary directory is gone


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
