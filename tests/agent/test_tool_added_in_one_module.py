"""A tool is one module and one line of registration: `count` (tests/count_tool.py), registered by the registry's
public `register`, is offered to a model and run by the real toolbox (the real `openai` client on the LLM stub),
travels as its own typed `tool_call_result` (JSON, the OpenAPI document), gets its card on the terminal, and is
listed and answered by the MCP server — with no edit outside the tests."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from io import StringIO
from typing import Any

import anyio
import pytest
from count_tool import CountResult, registered
from llm_stub import LLMStub, call, text, tool_calls
from mcp import Client
from planner_helpers import of, tool_messages, types
from rich.console import Console

from api_server.openapi_dump import openapi_document
from mcp_server.scene_source import SceneSource
from mcp_server.server import build_server
from scene_agent.agent.events import ToolCallError, ToolCallResult, ToolCallStart, event_json, parse_event, tool_call_result
from scene_agent.cli.cards import CardRenderer
from scene_agent.config import Settings
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import open_channel
from scene_agent.tools.registry import TOOLS
from scene_agent.tools.tool import Tool

CHAIRS = ["0-1-1", "0-1-2", "0-1-3", "1-4-1"]
DESCRIPTION = "Count the objects of the scene that have a label. Returns how many there are and their codes."


@pytest.fixture
def counting() -> Iterator[Tool]:
    """`count` registered for the test, and gone afterwards."""
    with registered() as tool:
        yield tool
    assert "count" not in TOOLS


def test_a_model_is_offered_the_tool_and_the_toolbox_runs_its_call(ask: Any, counting: Tool) -> None:
    with LLMStub(tool_calls(call("count", {"label": "chair"})), text("There are 4 chairs.")) as stub:
        result = ask(stub, "how many chairs are there?")
    offered = {t["function"]["name"]: t["function"] for t in stub.requests[0]["tools"]}
    assert list(offered) == ["find", "visualize", "color", "volume", "measure", "question", "count"]
    assert offered["count"]["description"] == DESCRIPTION
    assert offered["count"]["parameters"]["required"] == ["label"]
    assert set(offered["count"]["parameters"]["properties"]) == {"label", "room"}

    assert types(result) == ["tool_call_start", "tool_call_result", "final"]
    (start,), (done,) = of(result, ToolCallStart), of(result, ToolCallResult)
    assert (start.id, start.tool_name) == (done.id, "count") and type(done).__name__ == "CountCallResult"
    assert isinstance(done.result, CountResult) and done.result.codes == CHAIRS
    assert done.summary.en == "4 × chair: 0-1-1, 0-1-2, 0-1-3, 1-4-1" and done.summary.tone == "done"
    assert json.loads(tool_messages(stub.requests[1])[0]["content"]) == {"label": "chair", "count": 4, "codes": CHAIRS}
    assert (result.status, result.answer) == ("answered", "There are 4 chairs.")


def test_arguments_that_do_not_fit_its_input_model_come_back_as_an_error(ask: Any, counting: Tool) -> None:
    with LLMStub(tool_calls(call("count", {"room": "0-1"})), text("I could not count.")) as stub:
        result = ask(stub, "how many?")
    (failed,) = of(result, ToolCallError)
    assert failed.tool_name == "count" and failed.error.code == "invalid_arguments" and "label" in failed.error.message
    assert json.loads(tool_messages(stub.requests[1])[0]["content"])["error"] == "invalid_arguments"


def test_its_result_event_is_typed_in_json_and_in_the_openapi_document(counting: Tool) -> None:
    event = tool_call_result("call_1", "count", {"label": "bed"}, CountResult(label="bed", count=2, codes=["1-1-1", "1-2-1"]), 3.0)
    again = parse_event(event_json(event))
    assert type(again) is type(event) and again == event and isinstance(again.result, CountResult)
    schemas = openapi_document()["components"]["schemas"]
    assert schemas["ToolCallResult"]["discriminator"]["mapping"]["count"] == "#/components/schemas/CountCallResult"
    assert schemas["CountCallResult"]["properties"]["result"] == {"$ref": "#/components/schemas/CountResult"}
    assert {"summary", "result", "type", "tool_name", "ts"} <= set(schemas["CountCallResult"]["required"])


def test_without_registering_it_nothing_knows_it() -> None:
    mapping = openapi_document()["components"]["schemas"]["ToolCallResult"]["discriminator"]["mapping"]
    assert "count" not in TOOLS and "count" not in mapping


def test_the_cli_cards_show_its_call_and_its_summary(ask: Any, counting: Tool) -> None:
    err, out = StringIO(), StringIO()
    cards = CardRenderer(Console(file=err, width=200, color_system=None), Console(file=out, width=200, color_system=None),
                         live=False, lang="en")
    with LLMStub(tool_calls(call("count", {"label": "bed"})), text("There are 2 beds.")) as stub:
        ask(stub, "how many beds are there?", on_event=cards.render)
    started, finished = err.getvalue().splitlines()
    assert started == """🔧 count '{"label": "bed"}' …"""
    assert re.fullmatch(r"✅ count \(\d+ ms\) → 2 × bed: 1-1-1, 1-2-1", finished), finished
    assert out.getvalue().strip() == "There are 2 beds."


def test_the_mcp_server_lists_it_and_answers_a_call(scene: Scene, settings: Settings, counting: Tool) -> None:
    channel = open_channel(settings)
    server, jobs = build_server(SceneSource.of(scene), settings, channel)

    async def body() -> None:
        with anyio.fail_after(60):
            await talk()

    async def talk() -> None:
        async with Client(server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert "count" in tools and "question" not in tools
            assert set(tools["count"].input_schema["properties"]) == {"label", "room"}
            assert tools["count"].input_schema["required"] == ["label"]
            assert tools["count"].output_schema is not None and "count" in tools["count"].output_schema["properties"]
            assert tools["count"].description == DESCRIPTION
            counted = await client.call_tool("count", {"label": "chair", "room": "0-1"})
            assert not counted.is_error and counted.structured_content == {"label": "chair", "count": 3, "codes": CHAIRS[:3]}
            assert counted.content[0].text.startswith("3 × chair: 0-1-1, 0-1-2, 0-1-3\n\n")
            refused = await client.call_tool("count", {"room": "0-1"})
            assert refused.is_error and "label" in refused.content[0].text

    try:
        anyio.run(body)
    finally:
        jobs.stop_all("the test is over")
        channel.close()
