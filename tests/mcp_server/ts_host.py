"""A host on the official TypeScript MCP SDK (tests/mcp_clients/ts_host.mjs) on a fresh `scene-agent mcp`, for the
tests to read line by line."""

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
