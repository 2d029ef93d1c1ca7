"""The chat shows what comes: it scrolls to each new answer unless the user scrolled up to read (then "Newest ↓"
takes them there); addresses in answers are links, built as DOM nodes (no HTML from the model's text); the cards of
each run come back after a reload."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chat_ui import ChatUI
from llm_stub import LLMStub, text
from playwright.sync_api import Locator, expect

QUESTIONS = ["how many chairs are there?", "how many beds are there?", "show me room 0-2", "how many sofas are there?"]


def in_view(ui: ChatUI, el: Locator) -> bool:
    """Whether the top of `el` is inside the visible part of the chat's message list."""
    return ui.page.evaluate("""el => { const log = document.querySelector('[data-testid=chat-log]').getBoundingClientRect();
                                       const r = el.getBoundingClientRect();
                                       return r.top >= log.top - 1 && r.top < log.bottom - 20; }""", el.element_handle())


def scroll_top(ui: ChatUI) -> float:
    return ui.page.evaluate("document.querySelector('[data-testid=chat-log]').scrollTop")


def test_each_new_answer_is_scrolled_into_view(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.page.set_viewport_size({"width": 1280, "height": 520})  # a short list: it overflows after a turn or two
    for question in QUESTIONS:
        ui.ask(question)
        final = ui.wait_final()
        ui.page.wait_for_function("el => { const log = document.querySelector('[data-testid=chat-log]'); "
                                  "const r = el.getBoundingClientRect(), l = log.getBoundingClientRect(); "
                                  "return r.top >= l.top - 1 && r.top < l.bottom - 20; }", arg=final.element_handle())
        assert in_view(ui, final), question
    assert ui.page.evaluate("(() => { const l = document.querySelector('[data-testid=chat-log]'); "
                            "return l.scrollHeight > l.clientHeight; })()")  # it did overflow


def test_a_reader_scrolled_up_stays_put_and_newest_takes_them_down(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.page.set_viewport_size({"width": 1280, "height": 520})
    for question in QUESTIONS[:2]:
        ui.ask(question)
        ui.wait_final()
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    log = ui.by_testid("chat-log")
    log.hover()
    ui.page.mouse.wheel(0, -2000)  # the user scrolls up to read an earlier answer
    ui.page.wait_for_function("document.querySelector('[data-testid=chat-log]').scrollTop === 0")
    ui.pick(session["session_id"], session["candidates"][0])
    final = ui.wait_final()
    expect(ui.by_testid("chat-jump")).to_be_visible()
    assert scroll_top(ui) == 0 and not in_view(ui, final)  # left where they were reading
    ui.by_testid("chat-jump").click()
    ui.page.wait_for_function("el => { const r = el.getBoundingClientRect(), "
                              "l = document.querySelector('[data-testid=chat-log]').getBoundingClientRect(); "
                              "return r.top >= l.top - 1 && r.top < l.bottom - 20; }", arg=final.element_handle())
    expect(ui.by_testid("chat-jump")).to_be_hidden()


def test_addresses_in_an_answer_are_links(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("show me room 0-2")
    final = ui.wait_final()
    link = final.locator(".msg-text a")
    expect(link).to_have_count(1)
    href = link.get_attribute("href") or ""
    assert href.startswith("http://") and "manifest=" in href and link.inner_text() == href
    assert "noopener" in (link.get_attribute("rel") or "").split() and link.get_attribute("target") == "_blank"


def test_a_models_text_is_never_html(chat: Callable[..., ChatUI], model: Callable[..., LLMStub]) -> None:
    model(text('See <img src=x onerror="window.pwned=1"> and javascript:alert(1) or https://example.org/a_(b)?c=1&d=<2>. '
               'Also http://127.0.0.1:9/x, (https://example.com/in-brackets).'))
    ui = chat()
    ui.ask("tell me")
    final = ui.wait_final()
    text_el = final.locator(".msg-text")
    expect(text_el.locator("img")).to_have_count(0)
    assert ui.page.evaluate("window.pwned") is None
    assert '<img src=x onerror="window.pwned=1">' in text_el.inner_text()
    hrefs = [a.get_attribute("href") for a in text_el.locator("a").all()]
    assert hrefs == ["https://example.org/a_(b)?c=1&d=", "http://127.0.0.1:9/x", "https://example.com/in-brackets"]


def test_cards_come_back_after_a_reload(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.ask("how many chairs are there?")
    ui.wait_final()
    ui.ask("what's the color of the chair?")
    session: dict[str, Any] = ui.pending_selection()
    ui.pick(session["session_id"], session["candidates"][1])
    ui.wait_final()
    cards = ui.card_views()
    swatches = ui.by_testid("swatch").count()
    shown = ui.page.url
    assert len(cards) >= 4 and swatches > 0
    ui.page.reload()
    ui.wait_state("idle")
    expect(ui.by_testid("final-answer")).to_have_count(2)
    assert ui.card_views() == cards  # the same calls, tools and outcomes, in the same order
    expect(ui.notice).to_have_attribute("data-status", "received")
    expect(ui.by_testid("swatch")).to_have_count(swatches)
    assert ui.page.url == shown  # the cards shown again open nothing in the viewer
    ui.by_testid("new-chat").click()
    ui.page.reload()
    ui.wait_state("idle")
    expect(ui.cards).to_have_count(0)
