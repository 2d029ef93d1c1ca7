"""A tool the page was not built for (tests/count_tool.py, registered for the test) gets a card like any other: its
name, its arguments while it runs, then the server's one-line summary and its result."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from chat_ui import ChatUI
from count_tool import registered
from llm_stub import LLMStub, call, text, tool_calls
from playwright.sync_api import expect


@pytest.fixture
def counting() -> Iterator[None]:
    with registered():
        yield


def test_a_tool_the_page_does_not_know_gets_a_card_with_its_summary(chat: Callable[..., ChatUI],
                                                                   model: Callable[..., LLMStub], counting: None) -> None:
    model(tool_calls(call("count", {"label": "chair"})), text("There are 4 chairs."))
    ui = chat()
    ui.ask("how many chairs are there?")
    ui.wait_final("answered")
    [view] = ui.card_views()
    assert (view.tool, view.status) == ("count", "done")
    card = ui.card(view.call_id)
    expect(card.locator(".card-tool")).to_have_text("count")
    expect(card.locator(".card-summary")).to_have_text("4 × chair: 0-1-1, 0-1-2, 0-1-3, 1-4-1")
    result = json.loads(card.get_by_test_id("card-result").text_content() or "{}")
    assert result == {"label": "chair", "count": 4, "codes": ["0-1-1", "0-1-2", "0-1-3", "1-4-1"]}
    assert ui.uncaught_errors() == []
