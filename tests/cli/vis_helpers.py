"""`vis --select` as a subprocess: start it, read its VisOutput line, finish it and read its SelectionResult."""

from __future__ import annotations

import json
from pathlib import Path

from cli_proc import CliProcess, Spawner

CHAIRS = ("0-1-1", "0-1-2", "0-1-3")


def chair(code: str) -> dict[str, str]:
    """A chair of the small scene's kitchen as the selection result names it."""
    return {"itemCode": code, "type": "object", "label": "chair"}


def start_select(spawn: Spawner, scene: Path, *codes: str, extra: tuple[str, ...] = (), env: dict[str, str] | None = None,
                 timeout: str = "30") -> tuple[CliProcess, dict]:
    """`vis CODES --select --json`, once it has printed its VisOutput line."""
    process = spawn("vis", *codes, "--select", "--json", "--timeout", timeout, "--scene", str(scene), *extra, env=env)
    return process, process.json_line()


def finish(process: CliProcess) -> tuple[int, dict]:
    """Exit status and the SelectionResult line."""
    status = process.finish()
    lines = process.rest()
    assert len(lines) == 1, f"exit {status}, expected one SelectionResult line; stderr: {''.join(process.stderr)}"
    return status, json.loads(lines[0])
