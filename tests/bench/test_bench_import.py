"""`bench import` runs every importer on one generated room, each in its own process, and prints a table or one JSON
line (no speed is asserted)."""

from __future__ import annotations

import json

from cli_run import run_cli

IMPORTERS = ["scannet", "hovsg", "labelled-ply", "labelled-ply-labels", "las", "laz"]


def test_bench_import_json_rows() -> None:
    result = run_cli("bench", "import", "--points", "6000", "--json", timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["points"], report["baseline"]) == (6000, "scannet") and report["imports_rss_mb"] > 0
    rows = report["rows"]
    assert [r["importer"] for r in rows] == IMPORTERS
    for row in rows:
        assert set(row) == {"importer", "points", "input_mb", "seconds", "points_per_s", "vs_baseline", "peak_rss_mb", "rooms",
                            "objects"}
        # every importer read the same room whole: its structure one room, its eleven pieces of furniture objects
        assert (row["points"], row["rooms"], row["objects"]) == (6000, 1, 11), row
        assert row["seconds"] > 0 and row["points_per_s"] > 0 and row["peak_rss_mb"] >= report["imports_rss_mb"] * 0.9
    assert rows[0]["vs_baseline"] == 1.0
    assert "Importing with laz …" in result.stderr


def test_bench_import_table_and_its_limits() -> None:
    table = run_cli("bench", "import", "--points", "3000", env={"COLUMNS": "200"}, timeout=300)
    assert table.returncode == 0, table.stderr
    assert "bench import (3,000 points of one synthetic room)" in table.stdout
    assert all(f"│ {name} " in table.stdout for name in IMPORTERS), table.stdout
    too_few = run_cli("bench", "import", "--points", "10")
    assert too_few.returncode == 2 and "--points" in too_few.stderr
