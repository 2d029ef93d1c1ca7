"""The same picks on the 2026-07-28 protocol (elicitation as an `input_required` result the client answers and
retries) and over streamable HTTP; and a running API server used rather than a second one started."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from cli_proc import CliProcess
from http_client import call
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.session import ClientRequestContext
from mcp_helpers import pick, session_state, settings_of
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.demo.place import ensure_demo_scene

QUESTION = "what's the color of the chair in the kitchen?"
TIMEOUT_S = 120


def stdio(env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "scene_agent", "mcp"], env={**os.environ, **env})


def bounded(body: Callable[[], Awaitable[None]]) -> None:
    async def run() -> None:
        with anyio.fail_after(TIMEOUT_S):
            await body()

    anyio.run(run)


def test_on_2026_07_28_the_pick_is_an_input_required_round(env: dict[str, str]) -> None:
    asked: list[tuple[str, types.ElicitRequestParams]] = []

    async def answer(context: ClientRequestContext, request: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append((str(context.request_id), request))
        assert isinstance(request, types.ElicitRequestURLParams)
        assert await anyio.to_thread.run_sync(lambda: pick(request.url, "0-3-5")) == 200
        return types.ElicitResult(action="accept")

    async def body() -> None:
        async with Client(stdio(env), elicitation_callback=answer) as client:
            assert client.protocol_version in MODERN_PROTOCOL_VERSIONS
            answered = await client.call_tool("ask", {"question": QUESTION})
            assert not answered.is_error and answered.structured_content is not None
            assert answered.structured_content["codes"] == ["0-3-5"] and "yellow" in answered.structured_content["answer"]
            [(key, request)] = asked
            assert key == "pick" and "selectionMode=true" in request.url

    bounded(body)


def test_on_2026_07_28_a_declined_pick_cancels_the_session(env: dict[str, str]) -> None:
    urls: list[str] = []

    async def decline(context: ClientRequestContext, request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestURLParams)
        urls.append(request.url)
        return types.ElicitResult(action="decline")

    async def body() -> None:
        async with Client(stdio(env), elicitation_callback=decline) as client:
            answered = await client.call_tool("visualize", {"codes": ["0-3-2", "0-3-3"], "selection_mode": True})
            assert answered.structured_content is not None
            assert answered.structured_content["selection"]["status"] == "cancelled"
            assert session_state(urls[0])["status"] == "cancelled"

    bounded(body)


@pytest.fixture
def http_mcp(env: dict[str, str]) -> Iterator[str]:
    """`scene-agent mcp --http --port 0 --json`: the URL it says it listens at."""
    process = CliProcess("mcp", "--http", "--port", "0", "--json", env=env)
    try:
        said = process.json_line(timeout=TIMEOUT_S)
        assert said["viewer_url"] == env["SCENE_AGENT_VIEWER_URL"]
        yield str(said["url"])
    finally:
        process.kill()


def test_streamable_http_serves_the_same_tools_on_loopback(http_mcp: str, env: dict[str, str]) -> None:
    assert http_mcp.startswith("http://127.0.0.1:") and http_mcp.endswith("/mcp")

    async def answer(context: ClientRequestContext, request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestURLParams)
        assert await anyio.to_thread.run_sync(lambda: pick(request.url, "0-3-3")) == 200
        return types.ElicitResult(action="accept")

    async def body() -> None:
        async with Client(http_mcp, elicitation_callback=answer) as client:
            assert client.protocol_version in MODERN_PROTOCOL_VERSIONS
            tools = {t.name for t in (await client.list_tools()).tools}
            assert "ask" in tools and "wait_for_selection" in tools
            answered = await client.call_tool("ask", {"question": QUESTION})
            assert answered.structured_content is not None and answered.structured_content["codes"] == ["0-3-3"]

    bounded(body)
    foreign = call("POST", http_mcp, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers={"Host": "evil.example"})
    assert foreign.status == 421  # a DNS-rebinding page cannot drive it


def test_a_server_already_answering_at_the_viewer_url_is_used(env: dict[str, str], tmp_path: Path) -> None:
    settings = settings_of(env)
    port = int(env["SCENE_AGENT_VIEWER_URL"].rsplit(":", 1)[1].strip("/"))
    app = create_app({"SCENE_PATH": str(ensure_demo_scene()), "SETTINGS": settings})
    with BackgroundServer(app, port=port):
        out = subprocess.run([sys.executable, "-m", "scene_agent", "mcp"], input="", text=True, capture_output=True,
                             timeout=TIMEOUT_S, env={**os.environ, **env})
    assert out.returncode == 0, out.stderr
    assert f"Using the scene-agent server already running at http://127.0.0.1:{port}" in out.stderr
    assert out.stdout == ""


def test_on_2026_07_28_a_form_pick_is_answered_in_the_retry(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    declared = ClientSession._build_capabilities

    def form_only(self: ClientSession, version: str) -> types.ClientCapabilities:
        capabilities = declared(self, version)
        capabilities.elicitation = types.ElicitationCapability(form=types.FormElicitationCapability())
        return capabilities

    monkeypatch.setattr(ClientSession, "_build_capabilities", form_only)

    async def choose(context: ClientRequestContext, request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestFormParams), request
        return types.ElicitResult(action="accept", content={"choice": "0-3-2"})

    async def body() -> None:
        async with Client(stdio(env), elicitation_callback=choose) as client:
            answered = await client.call_tool("ask", {"question": QUESTION})
            assert answered.structured_content is not None and answered.structured_content["codes"] == ["0-3-2"]
            assert "red" in answered.structured_content["answer"]

    bounded(body)
