"""How `scene-agent mcp` ends with a pick still open: the host closes stdin, or the process gets SIGTERM or SIGINT
(as hosts stop their servers). Every open pick is closed as cancelled, saying why, and the process exits at once
rather than hanging on its read of stdin. The host is played in raw JSON-RPC so that the test owns the process."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from typing import Any

import anyio
import pytest
from cli_proc import CliProcess
from mcp import Client
from mcp_helpers import outcome_of

EXIT_TIMEOUT_S = 5.0  # the server says it ends within 2 s; this only keeps a hang from stalling the suite


class RawHost:
    """`scene-agent mcp` on pipes, spoken to in newline-delimited JSON-RPC (protocol 2025-11-25, no elicitation)."""

    def __init__(self, env: dict[str, str]):
        self.process = subprocess.Popen([sys.executable, "-m", "scene_agent", "mcp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **env},
                                        text=True)
        self.ids = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.ids += 1
        self.send({"id": self.ids, "method": method, "params": params})
        assert self.process.stdout is not None
        while line := self.process.stdout.readline():
            message = json.loads(line)
            if message.get("id") == self.ids:
                return dict(message["result"])
        pytest.fail(f"the server ended before answering {method}")

    def start(self) -> None:
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "raw-host", "version": "1"}})
        self.send({"method": "notifications/initialized"})

    def ended(self) -> tuple[int, str]:
        """Exit code and stderr, once the process ends (killed, and the test failed, if it does not)."""
        try:
            self.process.wait(timeout=EXIT_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            pytest.fail(f"scene-agent mcp still ran {EXIT_TIMEOUT_S:.0f} s after being told to stop")
        finally:
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None and not pipe.closed:
                    pipe.close()
        assert self.process.stderr is not None
        with self.process.stderr:
            return self.process.returncode, self.process.stderr.read()


def cancelled(env: dict[str, str], session_id: str) -> None:
    """The pick's session ended as cancelled because the server stopped (read from the test's state directory)."""
    outcome = outcome_of(env, session_id)
    assert outcome is not None and outcome.status == "cancelled", outcome
    assert outcome.reason == "the MCP server stopped"


@pytest.mark.parametrize("stop", ["stdin closed", "SIGTERM", "SIGINT"])
def test_an_open_pick_is_cancelled_and_the_server_exits_when_it_is_stopped(env: dict[str, str], stop: str) -> None:
    host = RawHost(env)
    host.start()
    asked = host.request("tools/call", {"name": "ask", "arguments": {"question": "what is the color of the chair?"}})
    pick = asked["structuredContent"]["pick"]
    if stop == "stdin closed":
        assert host.process.stdin is not None
        host.process.stdin.close()
    else:
        host.process.send_signal(getattr(signal, stop))
    code, stderr = host.ended()
    assert code == 0, stderr
    assert "raw-host 1 gets picks as a viewer link in the result, then wait_for_selection" in stderr
    assert stderr.count("gets picks as") == 1  # said once, when the host initialized
    if stop != "stdin closed":
        assert f"{stop}: cancelling the picks still open and stopping" in stderr
    cancelled(env, pick["session_id"])


def test_a_pick_of_a_task_is_cancelled_too_when_the_server_is_stopped(env: dict[str, str]) -> None:
    host = RawHost(env)
    host.start()
    task = host.request("tools/call", {"name": "ask", "arguments": {"question": "what is the color of the chair?"},
                                       "task": {"ttl": 60000}})["task"]
    assert task["status"] == "working"
    deadline = time.monotonic() + 30  # the task's status names the pick's viewer once the pick is there
    while "sessionId=" not in (status := host.request("tasks/get", {"taskId": task["taskId"]})).get("statusMessage", ""):
        assert time.monotonic() < deadline, status  # each round trip paces the next
    session_id = re.search(r"sessionId=(\w+)", status["statusMessage"])
    assert session_id is not None
    host.process.send_signal(signal.SIGTERM)
    code, stderr = host.ended()
    assert code == 0, stderr
    cancelled(env, session_id.group(1))


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT"])
def test_over_http_too_an_open_pick_is_cancelled_when_the_server_is_stopped(env: dict[str, str], stop: str) -> None:
    process = CliProcess("mcp", "--http", "--port", "0", "--json", env=env)
    try:
        url = str(process.json_line()["url"])

        async def ask() -> str:
            async with Client(url) as client:  # no elicitation: the pick is left open, waited for by the server
                asked = await client.call_tool("ask", {"question": "what is the color of the chair?"})
                assert asked.structured_content is not None
                return str(asked.structured_content["pick"]["session_id"])

        session_id = anyio.run(ask)
        process.proc.send_signal(getattr(signal, stop))
        assert process.finish(EXIT_TIMEOUT_S) == 0, process.stderr
    finally:
        process.kill()
    cancelled(env, session_id)

