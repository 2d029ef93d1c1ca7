"""`scene-agent mcp` under the official TypeScript SDK's client (tests/mcp_clients/ts_host.mjs), with its default
60 s request timeout, which progress notifications do not extend: a pick made after 70 s is still answered, as the
server returns the call in time and the host follows it with wait_for_selection; no request times out."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import pick, session_state

CLIENTS = Path(__file__).resolve().parents[1] / "mcp_clients"
LINE_TIMEOUT_S = 120.0


class TsHost:
    """ts_host.mjs on a fresh `scene-agent mcp`; its JSON lines as they come."""

    def __init__(self, env: dict[str, str], *options: str):
        if not (CLIENTS / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
            pytest.fail("the TypeScript MCP SDK is not installed: run `make test` (npm ci in tests/mcp_clients)")
        self.process = subprocess.Popen(
            ["node", "ts_host.mjs", *options, "--", sys.executable, "-m", "scene_agent", "mcp"],
            cwd=CLIENTS, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def next(self, timeout: float = LINE_TIMEOUT_S) -> dict[str, Any] | None:
        """The next line, or None when the host ended; fails after `timeout` s without one."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"the host said nothing for {timeout:.0f} s")

    def quiet_for(self, seconds: float) -> list[dict[str, Any]]:
        """Every line the host says in the next `seconds`."""
        said, deadline = [], time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            said.append(line)
        return said

    def rest(self) -> list[dict[str, Any]]:
        """The lines until the host ends."""
        said = []
        while (line := self.next()) is not None:
            said.append(line)
        return said

    def close(self) -> None:
        self.process.kill()
        self.process.wait(10)
        self.reader.join(10)
        assert self.process.stdout is not None
        self.process.stdout.close()


def test_a_pick_made_after_70_s_is_answered_under_the_typescript_clients_default_timeout(env: dict[str, str]) -> None:
    host = TsHost(env, "--elicit", "url")
    try:
        started = time.monotonic()
        opened = host.next()
        assert opened is not None and opened["event"] == "elicit" and opened["mode"] == "url", opened
        candidates = session_state(opened["url"])["candidates"]
        # the user takes 70 s: meanwhile the host only hears results that keep the pick open, never an error
        meanwhile = host.quiet_for(70.0 - (time.monotonic() - started))
        assert not [line for line in meanwhile if line["event"] == "error"], meanwhile
        assert pick(opened["url"], candidates[0]) == 200
        said = meanwhile + host.rest()
    finally:
        host.close()
    errors = [line for line in said if line["event"] == "error"]
    assert not errors, errors
    first = next(line for line in said if line["tool"] == "ask")
    assert first["structured"]["status"] == "selection_required"  # returned in time, the viewer still open
    assert "viewer is open" in first["structured"]["answer"]
    done = [line["structured"] for line in said if line.get("tool") == "wait_for_selection"
            and line["structured"]["status"] == "done"]
    assert len(done) == 1 and done[0]["ask"]["status"] == "answered"
    assert done[0]["ask"]["codes"] == [candidates[0]]
