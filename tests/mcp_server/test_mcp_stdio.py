"""`scene-agent mcp` over stdio, driven by the MCP SDK's own client as a host would: tools and their schemas,
the agent's tools, `ask` with the pick through URL elicitation (answered in the real API server), form
elicitation, no elicitation (`wait_for_selection`), a declined elicitation, a host that cancels mid-wait, bad
arguments, resources, and a server given a wrong scene."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp_helpers import Answer, host, pick, progress_to, session_of, session_state

from mcp_server.models import AskInput
from scene_agent.tools.find import FindInput
from scene_agent.tools.visualize import VisualizeInput

KITCHEN_CHAIRS = ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]
BEDROOMS = ["1-2", "1-3", "1-4"]
CALL_TIMEOUT_S = 60


def structured(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def accept_and_pick(*codes: str) -> Answer:
    """Open the viewer (accept), and there pick `codes` and Confirm, from a thread, as a user would."""

    async def answer(request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestURLParams), request
        status = await anyio.to_thread.run_sync(lambda: pick(request.url, *codes))
        assert status == 200
        return types.ElicitResult(action="accept")

    return answer


def run(body: Callable[[], Awaitable[None]]) -> None:
    """Run an async test body, failing it after CALL_TIMEOUT_S × 2."""

    async def bounded() -> None:
        with anyio.fail_after(CALL_TIMEOUT_S * 2):
            await body()

    anyio.run(bounded)


def test_the_tools_and_their_schemas_are_the_agents(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env) as (session, _):
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert sorted(tools) == ["ask", "cancel_selection", "color", "find", "measure", "visualize", "volume",
                                    "wait_for_selection"]
            assert set(tools["find"].input_schema["properties"]) == set(FindInput.model_fields)
            assert set(tools["visualize"].input_schema["properties"]) == set(VisualizeInput.model_fields)
            assert tools["visualize"].input_schema["required"] == ["codes"]
            assert set(tools["ask"].input_schema["properties"]) == set(AskInput.model_fields)
            description = tools["find"].input_schema["properties"]["query"]["description"]
            assert description == FindInput.model_fields["query"].description
            for name in tools:
                assert tools[name].output_schema is not None and tools[name].description
            # what a host may run without asking: the tools that only read the scene (and the wait for a pick)
            hints = {name: tool.annotations for name, tool in tools.items()}
            assert all(h is not None and h.open_world_hint is False and h.destructive_hint is False for h in hints.values())
            assert sorted(name for name, h in hints.items() if h and h.read_only_hint) == [
                "color", "find", "measure", "volume", "wait_for_selection"]

    run(body)


def test_find_color_and_volume_answer_with_text_and_structured_content(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env) as (session, _):
            found = await session.call_tool("find", {"query": "the chairs in the kitchen"})
            assert [c["code"] for c in structured(found)["candidates"]] == KITCHEN_CHAIRS
            assert found.content[0].text.startswith("4 candidates: 0-3-2")
            red = structured(await session.call_tool("color", {"code": "0-3-2"}))
            assert red["dominant"]["basic"] == "red"
            sofa = structured(await session.call_tool("volume", {"code": "0-2-1"}))
            assert sofa["volume_m3"] > 0 and sofa["method"]

    run(body)


def test_measure_answers_with_numbers_and_says_what_is_missing(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env) as (session, _):
            apart = await session.call_tool("measure", {"measure": "distance", "code": "0-2-1", "to": "0-2-6"})
            assert not apart.is_error and structured(apart)["distance"]["gap_m"] > 0
            assert apart.content[0].text.startswith("0-2-1: ") and " m apart at the closest" in apart.content[0].text
            tall = structured(await session.call_tool("measure", {"measure": "dimensions", "code": "0-3-4"}))
            assert 0.85 < tall["dimensions"]["height_m"] < 0.95
            missing = await session.call_tool("measure", {"measure": "fit", "code": "0-2-1"})
            assert missing.is_error and "give `to`" in missing.content[0].text

    run(body)


@pytest.mark.parametrize(("arguments", "says"), [
    ({"code": "9-9-9"}, ["no object 9-9-9"]),
    ({}, ["code", "Field required"]),
    ({"code": 7}, ["code", "string"]),
    ({"code": "the sofa"}, ["the sofa"]),
    ({"code": "0-2-1", "colour": "red"}, ["volume takes no argument 'colour'; its arguments are code"]),
])
def test_bad_arguments_are_a_tool_error_and_the_server_goes_on(env: dict[str, str], arguments: dict, says: list[str]) -> None:
    async def body() -> None:
        async with host(env) as (session, _):
            failed = await session.call_tool("volume", arguments)
            assert failed.is_error and all(s in failed.content[0].text for s in says), failed.content
            assert not (await session.call_tool("volume", {"code": "0-2-1"})).is_error

    run(body)


def test_show_me_a_room_opens_the_viewer_without_asking(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env) as (session, seen):
            answered = structured(await session.call_tool("ask", {"question": "show me room 0-7"}))
            assert answered["status"] == "answered" and "0-7" in answered["answer"]
            assert answered["viewer_url"].startswith(env["SCENE_AGENT_VIEWER_URL"] + "?manifest=/manifests/view-")
            assert seen.elicitations == []

    run(body)


def test_the_bedrooms_colour_is_asked_through_url_elicitation(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, answer=accept_and_pick("1-3")) as (session, seen):
            answered = await session.call_tool("ask", {"question": "what's the color of the bedroom?"},
                                               progress_callback=await progress_to(seen))
            outcome = structured(answered)
            assert (outcome["status"], outcome["codes"]) == ("answered", ["1-3"])
            [request] = seen.elicitations
            assert isinstance(request, types.ElicitRequestURLParams)
            assert "selectionMode=true" in request.url and request.elicitation_id == session_of(request.url)
            assert "bedroom" in request.message.lower()
            assert session_state(request.url)["status"] == "confirmed"
            assert seen.completed == [request.elicitation_id]

    run(body)


def test_comparing_the_kitchen_chairs_picks_several(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, answer=accept_and_pick("0-3-2", "0-3-5")) as (session, seen):
            outcome = structured(await session.call_tool("ask", {"question": "compare the chairs in the kitchen"}))
            assert outcome["status"] == "answered" and sorted(outcome["codes"]) == ["0-3-2", "0-3-5"]
            [request] = seen.elicitations
            assert session_state(request.url)["multiple"] is True

    run(body)


def test_a_host_with_forms_only_picks_inline_among_titled_codes(env: dict[str, str]) -> None:
    async def choose(request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestFormParams), request
        field = request.requested_schema["properties"]["choice"]
        assert [o["const"] for o in field["oneOf"]] == KITCHEN_CHAIRS
        assert field["oneOf"][1]["title"] == "chair 0-3-3 · Kitchen"
        return types.ElicitResult(action="accept", content={"choice": "0-3-3"})

    async def body() -> None:
        async with host(env, elicit="form", answer=choose) as (session, seen):
            outcome = structured(await session.call_tool("ask", {"question": "what's the color of the chair in the kitchen?"}))
            assert (outcome["status"], outcome["codes"]) == ("answered", ["0-3-3"])
            assert "blue" in outcome["answer"]
            assert len(seen.elicitations) == 1

    run(body)


def test_a_form_answered_outside_the_choices_is_asked_again(env: dict[str, str]) -> None:
    asked: list[str] = []

    async def choose(request: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(request.message)
        return types.ElicitResult(action="accept", content={"choice": "9-9-9" if len(asked) == 1 else "0-3-3"})

    async def body() -> None:
        async with host(env, elicit="form", answer=choose) as (session, _):
            outcome = structured(await session.call_tool("ask", {"question": "what's the color of the chair in the kitchen?"}))
            assert (outcome["status"], outcome["codes"]) == ("answered", ["0-3-3"])
            assert len(asked) == 2 and asked[1].startswith("'9-9-9' is none of them.")

    run(body)


def test_a_form_answered_outside_the_choices_twice_cancels_the_pick(env: dict[str, str]) -> None:
    async def choose(request: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"choice": "the wooden one"})

    async def body() -> None:
        async with host(env, elicit="form", answer=choose) as (session, _):
            refused = await session.call_tool("ask", {"question": "what's the color of the chair in the kitchen?"})
            said = refused.content[0].text
            assert refused.is_error and "none of the candidates (0-3-2, 0-3-3, 0-3-4, 0-3-5)" in said, said
            assert "Traceback" not in said and "validation error" not in said
            # the session is closed as cancelled, not left pending
            sessions = Path(env["SCENE_AGENT_STATE_DIR"]) / "sessions"
            ids = {p.name.split(".")[0] for p in sessions.iterdir()}
            assert len(ids) == 1
            viewer = env["SCENE_AGENT_VIEWER_URL"]
            state = session_state(f"{viewer}?sessionId={ids.pop()}")
            assert state["status"] == "cancelled", state

    run(body)


def test_a_form_for_several_is_a_list_of_codes(env: dict[str, str]) -> None:
    async def choose(request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestFormParams)
        field = request.requested_schema["properties"]["choice"]
        assert field["type"] == "array" and [o["const"] for o in field["items"]["anyOf"]] == KITCHEN_CHAIRS
        return types.ElicitResult(action="accept", content={"choice": ["0-3-4", "0-3-2"]})

    async def body() -> None:
        async with host(env, elicit="form", answer=choose) as (session, _):
            outcome = structured(await session.call_tool("ask", {"question": "compare the chairs in the kitchen"}))
            assert sorted(outcome["codes"]) == ["0-3-2", "0-3-4"]

    run(body)


def test_without_elicitation_the_url_comes_back_and_wait_for_selection_finishes(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, elicit=None) as (session, seen):
            pending = structured(await session.call_tool("ask", {"question": "what's the color of the chair in the kitchen?"}))
            assert pending["status"] == "selection_required"
            sid, url = pending["pick"]["session_id"], pending["pick"]["viewer_url"]
            assert pending["pick"]["candidates"] == KITCHEN_CHAIRS and session_of(url) == sid
            assert "wait_for_selection" in pending["answer"]
            waiting = structured(await session.call_tool("wait_for_selection", {"session_id": sid, "timeout": 0.5}))
            assert waiting["status"] == "waiting" and waiting["seconds_left"] > 0
            assert pick(url, "0-3-4") == 200
            done = structured(await session.call_tool("wait_for_selection", {"session_id": sid},
                                                      progress_callback=await progress_to(seen)))
            assert done["status"] == "done" and done["ask"]["codes"] == ["0-3-4"] and "green" in done["ask"]["answer"]

    run(body)


def test_visualize_in_selection_mode_waits_for_the_pick(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, answer=accept_and_pick("0-3-5")) as (session, _):
            called = await session.call_tool("visualize", {"codes": KITCHEN_CHAIRS, "selection_mode": True})
            shown = structured(called)
            assert shown["requires_selection"] and shown["selection"]["codes"] == ["0-3-5"]
            # no file of this machine is handed to the host: not the selection file, not the state directory
            for local in ("selection_file", env["SCENE_AGENT_SELECTION_DIR"], env["SCENE_AGENT_STATE_DIR"]):
                assert local not in json.dumps(shown) and local not in called.content[0].text, local

    run(body)


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_a_declined_elicitation_ends_the_call_cancelled(env: dict[str, str], action: str) -> None:
    urls: list[str] = []

    async def refuse(request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestURLParams)
        urls.append(request.url)
        return types.ElicitResult(action=action)

    async def body() -> None:
        async with host(env, answer=refuse) as (session, _):
            outcome = structured(await session.call_tool("ask", {"question": "what's the color of the chair in the kitchen?"}))
            said = {"decline": "declined", "cancel": "cancelled"}[action]
            assert outcome["status"] == "cancelled" and f"the pick was {said} in the MCP host" in outcome["answer"]
            assert session_state(urls[0])["status"] == "cancelled"

    run(body)


def test_a_host_that_cancels_mid_wait_cancels_the_session(env: dict[str, str]) -> None:
    urls: list[str] = []

    async def open_only(request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestURLParams)
        urls.append(request.url)
        return types.ElicitResult(action="accept")  # the user looks, and never picks

    async def body() -> None:
        async with host(env, answer=open_only) as (session, seen):
            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                seen.progress.append((progress, total, message))
                scope.cancel()  # the host gives up once the wait is under way

            with anyio.CancelScope() as scope:
                await session.call_tool("ask", {"question": "what's the color of the chair in the kitchen?"},
                                        progress_callback=on_progress)
            assert scope.cancelled_caught and seen.progress and "left to pick" in (seen.progress[0][2] or "")
            # The server stops the job: the session ends as cancelled by the agent, and takes no pick.
            state = await anyio.to_thread.run_sync(session_state, urls[0])
            while state["status"] == "pending":  # each look is a round trip to the API server
                state = await anyio.to_thread.run_sync(session_state, urls[0])
            assert state["status"] == "cancelled"
            assert await anyio.to_thread.run_sync(lambda: pick(urls[0], "0-3-2")) == 409

    run(body)


def test_the_scene_is_offered_as_resources(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env) as (session, _):
            resources = {str(r.uri): r for r in (await session.list_resources()).resources}
            assert sorted(resources) == ["scene://demo/manifest", "scene://demo/summary", "ui://scene-agent/viewer.html"]
            assert resources["ui://scene-agent/viewer.html"].mime_type == "text/html;profile=mcp-app"
            manifest = (await session.read_resource("scene://demo/manifest")).contents[0]
            assert manifest.mime_type == "application/json" and json.loads(manifest.text)["scene_id"] == "demo"
            summary = (await session.read_resource("scene://demo/summary")).contents[0]
            assert "12 rooms" in summary.text and "**0-3** Kitchen" in summary.text

    run(body)


def test_a_wrong_scene_is_a_clear_error_at_start(env: dict[str, str], tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "scene.json"
    out = subprocess.run([sys.executable, "-m", "scene_agent", "mcp", "--scene", str(missing)], input="", text=True,
                         capture_output=True, timeout=CALL_TIMEOUT_S, env={**env, "PATH": "/usr/bin:/bin"})
    assert out.returncode == 1
    assert out.stdout == ""  # nothing on the protocol's stream
    assert str(missing) in out.stderr and "Traceback" not in out.stderr


def test_a_host_that_cancels_while_asking_cancels_the_session(env: dict[str, str]) -> None:
    urls: list[str] = []
    asked = anyio.Event()

    async def never_answers(request: types.ElicitRequestParams) -> types.ElicitResult:
        assert isinstance(request, types.ElicitRequestURLParams)
        urls.append(request.url)
        asked.set()
        await anyio.sleep_forever()  # the host shows the prompt; nobody answers it
        raise AssertionError("unreachable")

    async def body() -> None:
        async with host(env, answer=never_answers) as (session, _):
            async with anyio.create_task_group() as tasks:
                async def ask() -> None:
                    await session.call_tool("ask", {"question": "what's the color of the chair in the kitchen?"})

                tasks.start_soon(ask)
                await asked.wait()
                tasks.cancel_scope.cancel()
            state = await anyio.to_thread.run_sync(session_state, urls[0])
            while state["status"] == "pending":  # each look is a round trip to the API server
                state = await anyio.to_thread.run_sync(session_state, urls[0])
            assert state["status"] == "cancelled"

    run(body)
