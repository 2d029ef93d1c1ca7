"""The event stream of a run survives drops: the panel reconnects after the last id and shows each event once."""

from __future__ import annotations

from collections.abc import Callable

from chat_ui import ChatUI
from playwright.sync_api import expect
from sse_client import read_run


def assert_each_event_once(ui: ChatUI) -> None:
    """The page handed on events 1..n of the run exactly once, and shows one card per tool call."""
    state = ui.run_state()
    assert state["status"] == "finished"
    assert ui.hooks("receivedIds()") == list(range(1, state["events"] + 1))
    events, _ = read_run(f"{ui.server.url}/api/runs/{state['run_id']}/events")
    call_ids = list(dict.fromkeys(e.json()["id"] for e in events if e.json()["type"].startswith("tool_call_")))
    assert [v.call_id for v in ui.card_views()] == call_ids
    expect(ui.by_testid("final-answer")).to_have_count(1)
    expect(ui.by_testid("agent-message")).to_have_count(sum(e.json()["type"] == "message" for e in events))


def test_events_sent_while_disconnected_arrive_once_after_reconnecting(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.page.evaluate("() => window.sceneChat.dropStream(true)")  # the connection is gone and stays gone for now
    expect(ui.by_testid("reconnecting")).to_be_visible()
    ui.pick(session["session_id"], session["candidates"][0])
    _, ended = read_run(f"{ui.server.url}/api/runs/{ui.hooks('runId')}/events")  # the run finishes meanwhile
    assert ended
    expect(ui.by_testid("final-answer")).to_have_count(0)  # nothing arrived while away
    ui.page.evaluate("() => window.sceneChat.resumeStream()")
    ui.wait_final("answered")
    expect(ui.by_testid("reconnecting")).to_be_hidden()
    assert_each_event_once(ui)


def test_a_drop_in_the_middle_of_a_run_loses_and_repeats_nothing(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.page.evaluate("() => window.sceneChat.dropStream()")  # reconnects on its own
    ui.pick(session["session_id"], session["candidates"][2])
    ui.wait_final("answered")
    assert_each_event_once(ui)


def test_the_server_closing_streams_often_is_invisible(chat: Callable[..., ChatUI]) -> None:
    ui = chat(SSE_MAX_S=0.2)  # every stream ends after 0.2 s; the page resumes each time
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.page.wait_for_function("() => window.sceneChat.reconnects >= 3")
    ui.pick(session["session_id"], session["candidates"][1])
    ui.wait_final("answered")
    assert_each_event_once(ui)
    assert ui.uncaught_errors() == []
