"""A message that cannot reach the server says so in people's words (never the browser's "TypeError: Failed to
fetch"), and gives the words back to send again."""

from __future__ import annotations

from collections.abc import Callable

from chat_ui import ChatUI
from playwright.sync_api import expect


def test_a_message_that_cannot_reach_the_server(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.page.route("**/api/chat", lambda route: route.abort("connectionrefused"))
    ui.input.fill("how big is the sofa?")
    ui.input.press("Enter")
    error = ui.by_testid("chat-error").last
    expect(error).to_contain_text("Lost contact with the server: nothing was sent.")
    assert "TypeError" not in (error.text_content() or "") and "fetch" not in (error.text_content() or "")
    expect(ui.input).to_have_value("how big is the sofa?")
    ui.page.unroute("**/api/chat")
    ui.input.press("Enter")  # the server is reachable again: the same words go
    ui.wait_final("answered")
