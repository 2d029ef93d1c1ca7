"""A pick the agent waits for, answered in words typed in the chat ("the red one", "0-1-2", "取消") instead of a
click in the viewer; words that pick nothing are explained and the pick keeps waiting; answers in the question's
language whatever the page's language is."""

from __future__ import annotations

import re
from collections.abc import Callable

from browser_fixtures import save_screenshot
from chat_ui import ChatUI
from http_client import call
from playwright.sync_api import expect

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_WORDS = re.compile(r"\b(is|are|you|picked|chair)\b", re.IGNORECASE)


def test_a_pick_is_answered_in_words(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    sent = ui.chat_requests()
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.wait_viewer_selection(session["session_id"])
    ui.wait_state("waiting")
    expect(ui.input).to_be_enabled()
    expect(ui.input).to_have_attribute("placeholder", "Type which one (e.g. “the red one” or “0-3-2”), or pick in the viewer…")
    expect(ui.by_testid("chat-send")).to_be_enabled()
    expect(ui.by_testid("chat-stop")).to_be_visible()
    save_screenshot(ui.page, "chat-pick-in-words.png")
    note = ui.answer_pick("the red one")
    expect(note).to_have_attribute("data-testid", "pick-note")
    expect(note).to_have_text("Picked 0-1-1 from your words.")
    expect(ui.notice).to_have_attribute("data-status", "received")
    expect(ui.by_testid("selection-outcome")).to_have_text("Picked 0-1-1 (you said “the red one”)")
    # The viewer beside the chat shows the pick as made elsewhere.
    ui.page.wait_for_function("() => document.body.dataset.viewerState === 'submitted'")
    assert ui.page.evaluate("window.sceneViewer.selected") == ["0-1-1"]
    final = ui.wait_final("answered")
    expect(final.locator(".msg-text")).to_contain_text("0-1-1")
    expect(final.locator(".msg-text")).to_contain_text("red")
    expect(ui.input).to_have_attribute("placeholder", re.compile(r"^Ask about the scene"))
    assert ui.by_testid("user-message").all_inner_texts()[-1].endswith("the red one")
    recorded = call("GET", f"{ui.server.url}/api/sessions/{session['session_id']}").json()
    assert recorded["status"] == "confirmed" and [s["itemCode"] for s in recorded["selections"]] == ["0-1-1"]
    assert [(b["message"], b.get("lang")) for b in sent] == [("what's the color of the chair?", "en"), ("the red one", "en")]
    assert sent[1]["conversation_id"] == ui.hooks("conversationId")
    assert ui.uncaught_errors() == []


def test_words_that_pick_nothing_are_explained_and_the_pick_waits(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the chair?")
    ui.pending_selection()
    ui.wait_state("waiting")
    refused = ui.answer_pick("the purple one")
    expect(refused).to_have_attribute("data-testid", "chat-error")
    expect(refused).to_contain_text("There is no purple chair")
    for colour in ("red", "blue", "green", "yellow"):
        expect(refused).to_contain_text(colour)
    expect(ui.notice).to_have_attribute("data-status", "pending")  # the pick still waits
    ui.wait_state("waiting")
    expect(ui.input).to_be_enabled()
    expect(ui.input).to_be_focused()  # ready for another try
    expect(ui.input).to_have_value("")
    note = ui.answer_pick("0-1-2")
    expect(note).to_have_text("Picked 0-1-2 from your words.")
    expect(ui.notice).to_have_attribute("data-status", "received")
    expect(ui.by_testid("selection-outcome")).to_have_text("Picked 0-1-2 (you said “0-1-2”)")
    final = ui.wait_final("answered")
    expect(final.locator(".msg-text")).to_contain_text("blue")
    texts = ui.by_testid("user-message").all_inner_texts()
    assert [t.splitlines()[-1] for t in texts] == ["what's the color of the chair?", "the purple one", "0-1-2"]
    assert ui.uncaught_errors() == []


def test_words_that_fit_several_where_one_is_asked_say_which_fit(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the chair?")
    ui.pending_selection()
    refused = ui.answer_pick("the chair in the kitchen")
    expect(refused).to_have_attribute("data-testid", "chat-error")
    expect(refused).to_contain_text("0-1-1")
    expect(ui.notice).to_have_attribute("data-status", "pending")
    ui.wait_state("waiting")
    expect(ui.input).to_be_enabled()


def test_cancel_in_words_ends_the_pick_and_the_run(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.open("?lang=zh")
    ui.ask("椅子是什么颜色？")
    ui.pending_selection()
    ui.wait_state("waiting")
    expect(ui.input).to_have_attribute("placeholder", "输入是哪一个（例如“红色的那个”或“0-3-2”），或在查看器中选择……")
    note = ui.answer_pick("取消")
    expect(note).to_have_text("已按您说的取消选择。")
    expect(ui.notice).to_have_attribute("data-status", "cancelled")
    expect(ui.by_testid("selection-outcome")).to_have_text("已按您说的取消选择")
    ui.wait_final("cancelled")
    ui.by_testid("lang-switch").locator('[data-lang="en"]').click()
    expect(ui.by_testid("selection-outcome")).to_have_text("Selection cancelled, as you said")


def test_words_typed_after_the_pick_was_made_in_the_viewer_start_no_new_question(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.wait_state("waiting")
    ui.input.fill("the green one")
    ui.pick(session["session_id"], "0-1-3")  # answered in the viewer meanwhile
    final = ui.wait_final("answered")
    expect(final.locator(".msg-text")).to_contain_text("green")
    expect(ui.by_testid("selection-outcome")).to_have_text("Picked 0-1-3")
    expect(ui.input).to_have_value("the green one")  # still there, sent only when the user sends it
    expect(ui.by_testid("user-message")).to_have_count(1)


def test_a_chinese_question_is_answered_in_chinese(chat: Callable[..., ChatUI]) -> None:
    ui = chat()  # the page in English
    ui.ask("椅子是什么颜色？")
    ui.pending_selection()
    ui.wait_state("waiting")
    note = ui.answer_pick("红色的那个")
    expect(note).to_have_text("已根据您的话选择了0-1-1。")
    expect(ui.by_testid("selection-outcome")).to_have_text("Picked 0-1-1 (you said “红色的那个”)")  # the page's language
    final = ui.wait_final("answered")
    answer = final.locator(".msg-text").inner_text()
    assert "红色" in answer and "0-1-1" in answer, answer
    assert not ENGLISH_WORDS.search(answer), answer


def test_an_english_question_on_a_chinese_page_is_answered_in_english(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.open("?lang=zh")
    sent = ui.chat_requests()
    expect(ui.by_testid("chat-send")).to_have_text("发送")
    ui.ask("what's the color of the sofa?")
    final = ui.wait_final("answered")
    answer = final.locator(".msg-text").inner_text()
    assert "0-2-1" in answer and re.search(r"\bis gr[ae]y\b", answer) and not CJK.search(answer), answer
    assert [b.get("lang") for b in sent] == ["zh"]
