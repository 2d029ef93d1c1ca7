"""Waiting for a pick over MCP without a client timing out, and ending one: `wait_for_selection` waits a bounded
time and a host that gives up on it leaves the user's pick open; `cancel_selection` is what cancels a pick; a
question in Chinese is answered in Chinese, the viewer URL given once."""

from __future__ import annotations

import json

import anyio
from mcp_helpers import host, pick, session_state
from test_mcp_stdio import KITCHEN_CHAIRS, run, structured

QUESTION = "what's the color of the chair in the kitchen?"


def test_a_host_giving_up_on_a_wait_leaves_the_pick_open(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, elicit=None) as (session, _):
            pending = structured(await session.call_tool("ask", {"question": QUESTION}))
            sid, url = pending["pick"]["session_id"], pending["pick"]["viewer_url"]

            async def give_up(progress: float, total: float | None, message: str | None) -> None:
                scope.cancel()

            with anyio.CancelScope() as scope:
                await session.call_tool("wait_for_selection", {"session_id": sid}, progress_callback=give_up)
            assert scope.cancelled_caught
            # the call that asked still waits: a later wait finds it waiting, and the user's pick is taken
            still = structured(await session.call_tool("wait_for_selection", {"session_id": sid, "timeout": 0.5}))
            assert still["status"] == "waiting"
            assert (await anyio.to_thread.run_sync(session_state, url))["status"] == "pending"
            assert await anyio.to_thread.run_sync(lambda: pick(url, "0-3-2")) == 200
            done = structured(await session.call_tool("wait_for_selection", {"session_id": sid}))
            assert done["status"] == "done" and done["ask"]["codes"] == ["0-3-2"] and "red" in done["ask"]["answer"]

    run(body)


def test_wait_for_selection_waits_at_most_50_s_per_call(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, elicit=None) as (session, _):
            tools = {t.name: t for t in (await session.list_tools()).tools}
            timeout = tools["wait_for_selection"].input_schema["properties"]["timeout"]
            assert timeout["default"] < 60 and timeout["maximum"] == 50
            pending = structured(await session.call_tool("ask", {"question": QUESTION}))
            refused = await session.call_tool("wait_for_selection", {"session_id": pending["pick"]["session_id"],
                                                                     "timeout": 120})
            assert refused.is_error and "timeout" in refused.content[0].text

    run(body)


def test_cancel_selection_cancels_the_pick_and_the_call_waiting_on_it(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, elicit=None) as (session, _):
            pending = structured(await session.call_tool("ask", {"question": QUESTION}))
            sid, url = pending["pick"]["session_id"], pending["pick"]["viewer_url"]
            cancelled = structured(await session.call_tool("cancel_selection", {"session_id": sid}))
            assert cancelled == {"session_id": sid, "status": "cancelled"}
            assert (await anyio.to_thread.run_sync(session_state, url))["status"] == "cancelled"
            assert await anyio.to_thread.run_sync(lambda: pick(url, "0-3-2")) == 409
            ended = structured(await session.call_tool("wait_for_selection", {"session_id": sid}))
            assert ended["status"] == "done" and ended["ask"]["status"] == "cancelled"
            again = structured(await session.call_tool("cancel_selection", {"session_id": sid}))
            assert again["status"] == "ended"
            unknown = await session.call_tool("cancel_selection", {"session_id": "0" * 32})
            assert unknown.is_error and "no call of this server waits on selection session" in unknown.content[0].text

    run(body)


def test_a_chinese_question_is_answered_in_chinese_with_the_url_once(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, elicit=None) as (session, _):
            called = await session.call_tool("ask", {"question": "厨房里的椅子是什么颜色？"})
            pending = structured(called)
            assert pending["status"] == "selection_required" and pending["pick"]["candidates"] == KITCHEN_CHAIRS
            assert "wait_for_selection" in pending["answer"] and "用户" in pending["answer"]
            assert "The user" not in pending["answer"] and "picks in" not in pending["answer"]
            assert json.dumps(pending, ensure_ascii=False).count(pending["pick"]["viewer_url"]) == 1

    run(body)


def test_the_pick_prompt_and_the_answer_name_a_colour_alike(env: dict[str, str]) -> None:
    async def body() -> None:
        async with host(env, elicit=None) as (session, _):
            pending = structured(await session.call_tool("ask", {"question": "what's the color of the chair?"}))
            assert "the gray office chair (0-4-2)" in pending["pick"]["prompt"]
            assert await anyio.to_thread.run_sync(lambda: pick(pending["pick"]["viewer_url"], "0-4-2")) == 200
            done = structured(await session.call_tool("wait_for_selection", {"session_id": pending["pick"]["session_id"]}))
            assert "is gray" in done["ask"]["answer"]

    run(body)
