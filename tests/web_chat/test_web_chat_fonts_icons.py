"""The page reads on a machine without CJK or emoji fonts (Debian's Chromium here has neither): it ships its own
Chinese font, fetched from the server in the pieces the page's text needs, and draws its icons as SVG."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from chat_ui import ChatUI
from playwright.sync_api import expect

# Pictographs and dingbats an emoji font would be needed for.
EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\u2b50\u23f0-\u23ff]")


def test_chinese_is_drawn_with_the_font_the_page_ships(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    fetched: list[tuple[str, int]] = []
    ui.page.on("response", lambda response: fetched.append((response.url, response.status)))
    ui.by_testid("lang-zh").click()
    faces: Any = ui.page.evaluate("""async () => {
        const loaded = await document.fonts.load('16px "Noto Sans SC"', '中文沙发是什么颜色');
        return loaded.map(face => ({family: face.family, status: face.status}));
    }""")
    assert faces and all(face == {"family": "Noto Sans SC", "status": "loaded"} for face in faces)
    pieces = [(url, status) for url, status in fetched if "noto-sans-sc" in url]
    assert pieces and all(url.startswith(ui.server.url) and status == 200 for url, status in pieces)
    assert len(pieces) < 20  # the pieces holding these glyphs, not the hundred the font is split into
    assert ui.page.evaluate("document.fonts.check('16px \"Noto Sans SC\"', '中文')")


def test_cards_and_the_pick_notice_draw_their_icons(chat: Callable[..., ChatUI]) -> None:
    ui = chat(CHAT_SELECTION_TIMEOUT=30)
    ui.ask("what colour is the chair in the kitchen?")
    expect(ui.notice).to_be_visible()
    expect(ui.notice.locator("svg.notice-icon[data-icon=pick]")).to_have_count(1)
    session_id = ui.pending_selection()["session_id"]
    ui.pick(session_id, "0-1-2")
    ui.wait_final("answered")
    icons = ui.cards.locator("svg.card-icon")
    expect(icons).to_have_count(ui.cards.count())
    assert set(icons.evaluate_all("els => els.map(e => e.dataset.icon)")) == {"done"}
    text = ui.page.locator("#app").inner_text()
    assert not EMOJI.search(text), EMOJI.findall(text)
    assert ui.uncaught_errors() == []
