"""More time from the viewer beside the chat: the run learns the new deadline (selection_extended) and the chat's
selection notice counts down to it."""

from __future__ import annotations

import re
from collections.abc import Callable

from chat_ui import ChatUI
from playwright.sync_api import expect


def test_more_time_in_the_viewer_moves_the_chats_countdown(chat: Callable[..., ChatUI]) -> None:
    ui = chat(CHAT_SELECTION_TIMEOUT=30)
    ui.ask("what's the color of the chair?")
    session = ui.pending_selection()
    ui.wait_viewer_selection(session["session_id"])
    countdown = ui.by_testid("selection-countdown")
    expect(countdown).to_have_text(re.compile(r"^0:[0-3]\d left$"))
    ui.by_testid("more-time").click()
    expect(countdown).to_have_text(re.compile(r"^1:[0-3]\d left$"))
    ui.pick(session["session_id"], session["candidates"][0])
    ui.wait_final("answered")
