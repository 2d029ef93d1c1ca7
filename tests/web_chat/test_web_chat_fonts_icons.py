"""The page reads on a machine without CJK or emoji fonts (Debian's Chromium here has neither): it ships its own
Chinese font, fetched from the server in the pieces the page's text needs, and draws its icons as SVG."""

from __future__ import annotations

import re
from collections.abc import Callable

from chat_ui import ChatUI
from playwright.sync_api import expect

# Pictographs and dingbats an emoji font would be needed for.
EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\u2b50\u23f0-\u23ff]")


# Whether a loaded face of the shipped font holds a code point (its unicode-range, "U+4e00-4e2f, U+5f20, …").
HOLDS = """cp => [...document.fonts].some(face => face.family.replace(/"/g, '') === 'Noto Sans SC'
    && face.status === 'loaded' && face.unicodeRange.split(',').some(range => {
        const [lo, hi] = range.trim().slice(2).split('-').map(h => parseInt(h, 16));
        return lo <= cp && cp <= (hi ?? lo);
    }))"""


# The shipped face comes before any generic family in the font stack of an element showing Chinese: after one
# (`system-ui` above all), Chromium on Linux draws boxes and never fetches the face's pieces.
SHIPPED_FIRST = """el => {
    const families = getComputedStyle(el).fontFamily.split(',').map(f => f.trim().replace(/"/g, ''));
    const generic = families.findIndex(f => ['system-ui', 'sans-serif', 'serif', '-apple-system'].includes(f));
    const shipped = families.indexOf('Noto Sans SC');
    return shipped >= 0 && (generic < 0 || shipped < generic);
}"""


def test_chinese_is_drawn_with_the_font_the_page_ships(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.open("?lang=en")
    fetched: list[tuple[str, int]] = []
    ui.page.on("response", lambda response: fetched.append((response.url, response.status)))
    switch = ui.by_testid("lang-zh")
    assert switch.evaluate(SHIPPED_FIRST)  # "中文" on an English page
    ui.page.wait_for_function(HOLDS, arg=ord("中"))
    ui.ask("沙发是什么颜色？")  # Chinese words on an English page are marked so, and drawn in the face
    assert ui.page.locator("[data-testid=user-message] .msg-text").last.evaluate(SHIPPED_FIRST)
    switch.click()
    assert ui.page.locator("#app").evaluate(SHIPPED_FIRST)
    # the page's own text asks for the pieces: nothing here loads them (no machine font has these glyphs)
    for char in "中文沙发新对话送":  # the switch, the question, "新对话" (New chat), "发送" (Send)
        ui.page.wait_for_function(HOLDS, arg=ord(char))
    pieces = [(url, status) for url, status in fetched if "noto-sans-sc" in url]
    assert pieces and all(url.startswith(ui.server.url) and status == 200 for url, status in pieces)
    assert len(pieces) < 20  # the pieces holding these glyphs, not the hundred the font is split into


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
