"""`ask` as a task (protocol 2025-11-25) under the official TypeScript SDK's client (tests/mcp_clients/ts_host.mjs,
`callToolStream`), whose requests give up after 60 s: the call returns a task at once and the host polls it, so a
pick made after 70 s is answered in the same call; the pick is asked on the connection naming the task, or its link
is in the task's status; cancelling the task cancels the pick. The Python SDK's client checks what is advertised."""

from __future__ import annotations

import re
import time
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_helpers import host, outcome_of, pick, session_of, session_state
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from test_mcp_protocols import stdio
from ts_host import TsHost

CHAIR_ZH = '{"question": "椅子是什么颜色的？"}'


def _events(said: list[dict[str, Any]], event: str) -> list[dict[str, Any]]:
    return [line for line in said if line["event"] == event]


def test_a_pick_made_after_70_s_is_answered_when_ask_runs_as_a_task(env: dict[str, str]) -> None:
    host_ = TsHost(env, "--elicit", "url", "--task", "yes")
    try:
        started = time.monotonic()
        created = host_.next()
        assert created is not None and created["event"] == "task" and created["status"] == "working", created
        opened = host_.next()
        assert opened is not None and opened["event"] == "elicit" and opened["mode"] == "url", opened
        assert opened["relatedTask"] == created["taskId"]  # the viewer is opened for this task
        candidates = session_state(opened["url"])["candidates"]
        meanwhile = host_.quiet_for(70.0 - (time.monotonic() - started))  # the user takes 70 s
        assert pick(opened["url"], candidates[1]) == 200
        said = meanwhile + host_.rest()
    finally:
        host_.close()
    assert not _events(said, "error"), said
    statuses = [line["status"] for line in _events(said, "task")]
    assert statuses[-1] == "completed" and set(statuses) <= {"working", "completed"}, statuses  # never blocked on
    assert any("viewer is open" in (line["message"] or "") for line in _events(said, "task"))  # tasks/result
    [answered] = _events(said, "result")
    assert not answered["isError"] and answered["structured"]["status"] == "answered"
    assert answered["structured"]["codes"] == [candidates[1]]
    assert "blue" in answered["structured"]["answer"]


def test_a_host_without_elicitation_reads_the_link_in_the_tasks_status_in_the_questions_language(
        env: dict[str, str]) -> None:
    host_ = TsHost(env, "--elicit", "none", "--task", "yes", "--arguments", CHAIR_ZH)
    try:
        while (line := host_.next()) is not None and not (line["event"] == "task" and line["message"]):
            assert line["event"] == "task", line
        assert line is not None and line["status"] == "working"
        assert "3D 查看器" in line["message"] and "任务" in line["message"], line["message"]
        url = re.search(r"http://\S+", line["message"])
        assert url is not None
        assert pick(url.group(0).rstrip("，"), "0-3-2") == 200
        said = host_.rest()
    finally:
        host_.close()
    assert not _events(said, "error"), said
    [answered] = _events(said, "result")
    assert answered["structured"]["codes"] == ["0-3-2"] and "红" in answered["structured"]["answer"]


def test_cancelling_the_task_cancels_the_pick(env: dict[str, str]) -> None:
    host_ = TsHost(env, "--elicit", "none", "--task", "yes", "--cancel-after", "3")
    try:
        said = host_.rest()
    finally:
        host_.close()
    [listed] = _events(said, "listed")
    waiting, *_ = [line for line in _events(said, "task") if "http://" in (line["message"] or "")]
    assert listed["tasks"] == [{"taskId": waiting["taskId"], "status": "working"}]
    assert [line["status"] for line in _events(said, "cancelled")] == ["cancelled"]
    assert _events(said, "task")[-1] == {"event": "task", "status": "cancelled", "message": "cancelled by the MCP host",
                                         "taskId": waiting["taskId"]}
    assert any("cancelled" in line["message"] for line in _events(said, "error") if line["tool"] == "ask"), said
    url = re.search(r"http://\S+", waiting["message"])
    assert url is not None
    outcome = outcome_of(env, session_of(url.group(0)))
    assert outcome is not None and outcome.status == "cancelled"  # the viewer says the pick was cancelled


def test_tasks_are_offered_on_2025_11_25_only_and_for_ask_only(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, elicit=None) as (session, _):
            assert session.protocol_version == "2025-11-25"
            capabilities = session.server_capabilities
            assert capabilities is not None and capabilities.tasks is not None
            assert capabilities.tasks.requests is not None and capabilities.tasks.requests.tools is not None
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            assert tools["ask"].execution == types.ToolExecution(task_support="optional")
            assert all(tool.execution is None for name, tool in tools.items() if name != "ask")
            as_task = types.CallToolRequest(params=types.CallToolRequestParams(
                name="find", arguments={"query": "chair"}, task=types.TaskMetadata(ttl=5000)))
            with pytest.raises(MCPError, match="find does not run as a task; call it without 'task'"):
                await session.send_request(as_task, types.CallToolResult)
        async with Client(stdio(env)) as client:
            assert client.protocol_version in MODERN_PROTOCOL_VERSIONS
            assert client.server_capabilities.tasks is None
            assert all(tool.execution is None for tool in (await client.list_tools()).tools)

    async def bounded() -> None:
        with anyio.fail_after(60):
            await body()

    anyio.run(bounded)
