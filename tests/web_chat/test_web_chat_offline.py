"""The chat panel end to end with the offline planner: cards, a pick in the viewer, not found, Stop, languages."""

from __future__ import annotations

import re
from collections.abc import Callable

from browser_fixtures import save_screenshot
from chat_ui import ChatUI
from playwright.sync_api import expect


def test_a_clear_question_is_answered_with_its_tool_cards(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("how many chairs are there?")
    final = ui.wait_final("answered")
    expect(final).to_contain_text("chair")
    expect(final.get_by_test_id("final-status")).to_have_count(0)  # a plain answer carries no status badge
    expect(ui.input).to_be_enabled()
    expect(ui.input).to_be_focused()  # ready for the next question
    [card] = ui.card_views()
    assert (card.tool, card.status) == ("find", "done") and card.call_id.startswith("call_")
    found = ui.card(card.call_id)
    expect(found.locator("svg.card-icon")).to_have_attribute("data-icon", "done")  # drawn, no emoji font needed
    expect(found.locator(".card-time")).to_have_text(re.compile(r"^(<1 ms|\d+ ms|\d+\.\d s)$"))
    found.get_by_text("Arguments").click()
    expect(found.get_by_test_id("card-args")).to_contain_text('"query"')
    found.get_by_text("Result").click()
    expect(found.get_by_test_id("card-result")).to_contain_text('"candidates"')
    assert ui.hooks("receivedIds()") == list(range(1, ui.run_state()["events"] + 1))
    assert ui.uncaught_errors() == []


def test_an_ambiguous_question_asks_for_a_pick_then_answers_with_swatches(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.wait_state("waiting")
    expect(ui.notice).to_contain_text("Pick in the viewer")
    expect(ui.by_testid("selection-countdown")).to_have_text(re.compile(r"^\d+:\d\d left$"))
    expect(ui.input).to_be_enabled()  # one may type which one instead (tests/web_chat/test_web_chat_pick_in_words.py)
    expect(ui.input).to_have_attribute("placeholder", re.compile(r"^Type which one"))
    expect(ui.by_testid("new-chat")).to_be_disabled()
    waiting_card = ui.cards.filter(has_text="visualize")
    expect(waiting_card).to_have_attribute("data-status", "running")  # the call waits for the pick
    expect(waiting_card.locator("svg.card-icon")).to_have_attribute("data-icon", "running")
    expect(ui.by_testid("chat-stop")).to_be_enabled()
    save_screenshot(ui.page, "chat-waiting-for-pick.png")
    pick = session["candidates"][1]
    ui.pick(session["session_id"], pick)
    expect(ui.notice).to_have_attribute("data-status", "received")
    expect(ui.by_testid("selection-outcome")).to_contain_text(f"Picked {pick}")
    final = ui.wait_final("answered")
    group = final.locator(f'[data-testid="swatch-group"][data-code="{pick}"]')
    expect(group).to_be_visible()
    swatch = group.get_by_test_id("swatch").first
    assert (swatch.get_attribute("data-hex") or "").startswith("#")
    expect(swatch).to_contain_text("%")
    views = ui.card_views()
    assert [v.tool for v in views][:2] == ["find", "visualize"] and "color" in [v.tool for v in views]
    assert {v.status for v in views} == {"done"}
    save_screenshot(ui.page, "chat-answer-with-swatches.png")
    assert ui.uncaught_errors() == []


def test_nothing_found_says_so(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the piano?")
    final = ui.wait_final("not_found")
    expect(final.get_by_test_id("final-status")).to_have_text("Not found")
    ui.wait_state("idle")


def test_stop_while_waiting_for_a_pick_cancels_the_run(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the chair?")
    ui.pending_selection()
    ui.by_testid("chat-stop").click()
    expect(ui.notice).to_have_attribute("data-status", "cancelled")
    final = ui.wait_final("cancelled")
    expect(final.get_by_test_id("final-status")).to_have_text("Cancelled")
    assert "running" not in {v.status for v in ui.card_views()}
    expect(ui.by_testid("chat-stop")).to_be_hidden()
    expect(ui.input).to_be_enabled()


def test_a_pick_nobody_makes_times_out(chat: Callable[..., ChatUI]) -> None:
    ui = chat(CHAT_SELECTION_TIMEOUT=1.0)
    ui.ask("what's the color of the chair?")
    expect(ui.notice).to_have_attribute("data-status", "timeout")
    expect(ui.by_testid("selection-outcome")).to_have_text("Nobody picked in time")
    final = ui.wait_final("timeout")
    expect(final.get_by_test_id("final-status")).to_have_text("Timed out")


def test_a_later_turn_continues_the_conversation_and_new_chat_starts_over(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("how many chairs are there?")
    ui.wait_final()
    conversation = ui.hooks("conversationId")
    ui.ask("how many beds are there?")
    ui.wait_final()
    assert ui.hooks("conversationId") == conversation
    expect(ui.by_testid("final-answer")).to_have_count(2)
    ui.by_testid("new-chat").click()
    expect(ui.by_testid("final-answer")).to_have_count(0)
    ui.ask("how many beds are there?")
    ui.wait_final()
    assert ui.hooks("conversationId") != conversation


def test_every_string_switches_to_chinese_and_back(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.by_testid("lang-switch").locator('[data-lang="zh"]').click()
    assert ui.page.evaluate("document.documentElement.lang") == "zh-CN"
    expect(ui.by_testid("chat-stop")).to_have_text("停止")
    expect(ui.notice).to_contain_text("请在查看器中选择")
    expect(ui.by_testid("selection-countdown")).to_contain_text("剩余")
    expect(ui.cards.first.locator(".card-status")).to_have_text("完成")
    ui.pick(session["session_id"], session["candidates"][0])
    final = ui.wait_final("answered")
    expect(final.locator(".sw-title")).to_have_text("颜色")
    expect(ui.by_testid("selection-outcome")).to_contain_text("已选择")
    expect(ui.by_testid("chat-send")).to_have_text("发送")
    assert ui.input.get_attribute("placeholder").startswith("询问场景")
    expect(ui.by_testid("lang-switch").locator('[data-lang="zh"]')).to_have_attribute("aria-pressed", "true")
    ui.by_testid("lang-switch").locator('[data-lang="en"]').click()
    expect(ui.by_testid("chat-send")).to_have_text("Send")
    expect(final.locator(".sw-title")).to_have_text("Colours")
    expect(ui.by_testid("selection-outcome")).to_contain_text("Picked")
    ui.page.reload()
    expect(ui.by_testid("chat-send")).to_have_text("Send")  # the choice is remembered


def test_the_viewer_switches_to_selection_in_place_and_the_pick_made_there_answers(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.page.evaluate("() => { window.samePage = true; }")
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.page.wait_for_function("id => window.sceneViewer && window.sceneViewer.mode === 'selection' && "
                              "window.sceneViewer.sessionId === id && document.body.dataset.viewerState === 'ready'",
                              arg=session["session_id"])
    assert ui.page.evaluate("window.samePage") is True  # switched in place, no page load
    assert "selectionMode=true" in ui.page.evaluate("location.search")
    pick = session["candidates"][2]
    ui.page.locator(f'#viewer [data-code="{pick}"]').first.click()
    ui.page.wait_for_function("code => window.sceneViewer.selected.includes(code)", arg=pick)
    ui.page.get_by_test_id("confirm").click()
    expect(ui.notice).to_have_attribute("data-status", "received")
    final = ui.wait_final("answered")
    expect(final.locator(f'[data-testid="swatch-group"][data-code="{pick}"]')).to_be_visible()
    assert ui.uncaught_errors() == []


def test_show_me_opens_the_view_in_the_viewer(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("show me room 0-2")
    final = ui.wait_final("answered")
    [vis] = [v for v in ui.card_views() if v.tool == "visualize"]
    assert vis.status == "done"
    ui.page.wait_for_function("() => new URLSearchParams(location.search).get('manifest') !== null && "
                              "window.sceneViewer && window.sceneViewer.mode === 'view'")
    assert "selectionMode" not in ui.page.evaluate("location.search")
    expect(final).to_contain_text("0-2")
