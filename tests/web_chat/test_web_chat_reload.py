"""A reload keeps the tab's conversation: its turns come back, a run still going is followed again, New chat forgets."""

from __future__ import annotations

from collections.abc import Callable

from chat_ui import ChatUI
from playwright.sync_api import expect


def test_a_reload_shows_the_turns_so_far_and_the_next_question_continues_the_conversation(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("how many chairs are there?")
    answer = ui.wait_final("answered").locator(".msg-text").inner_text()
    conversation = ui.hooks("conversationId")
    ui.page.reload()
    ui.wait_state("idle")
    expect(ui.by_testid("user-message").locator(".msg-text")).to_have_text(["how many chairs are there?"])
    expect(ui.final.locator(".msg-text")).to_have_text(answer)
    assert ui.hooks("conversationId") == conversation
    ui.ask("how many beds are there?")
    ui.wait_final("answered")
    assert ui.hooks("conversationId") == conversation


def test_a_reload_while_the_agent_waits_for_a_pick_follows_the_run_again(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.page.reload()
    ui.wait_state("waiting")
    expect(ui.by_testid("user-message").locator(".msg-text")).to_have_text(["what's the color of the chair?"])
    expect(ui.notice).to_have_attribute("data-session-id", session["session_id"])
    ui.page.wait_for_function("sid => window.sceneViewer.sessionId === sid", arg=session["session_id"])
    ui.pick(session["session_id"], session["candidates"][0])
    final = ui.wait_final("answered")
    expect(final).to_contain_text(session["candidates"][0])
    assert ui.uncaught_errors() == []


def test_new_chat_is_forgotten_by_a_reload_too(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("how many beds are there?")
    ui.wait_final("answered")
    ui.by_testid("new-chat").click()
    ui.page.reload()
    ui.wait_state("idle")
    expect(ui.by_testid("user-message")).to_have_count(0)
    assert ui.hooks("conversationId") is None


def test_a_conversation_the_server_forgot_starts_over_quietly(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.page.evaluate("() => sessionStorage.setItem('scene-agent.conversation', '0'.repeat(32))")
    ui.page.reload()
    ui.wait_state("idle")
    assert ui.hooks("conversationId") is None
    ui.ask("how many beds are there?")
    ui.wait_final("answered")
    assert ui.hooks("conversationId") not in (None, "0" * 32)
