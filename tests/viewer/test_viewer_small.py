"""Small things that matter: the first candidate opens without a focus ring that reads as a pick (it shows once the
keyboard is used, and looks unlike a pick), and Escape asks before it cancels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from viewer_helpers import Viewer

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]
ROW_LOOK = """code => { const s = getComputedStyle(document.querySelector(`#viewer [data-code="${code}"]`));
                        return {outline: s.outlineStyle, border: s.borderColor, background: s.backgroundColor}; }"""


def test_the_first_candidate_has_the_focus_but_no_ring_until_the_keyboard_is_used(viewer: Callable[..., Viewer],
                                                                                  open_vis: Callable[..., Any]) -> None:
    v = viewer(open_vis(CHAIRS, selection_mode=True))
    assert v.page.evaluate("document.activeElement.dataset.code") == "0-1-1"  # the keyboard contract holds
    assert v.page.evaluate(ROW_LOOK, "0-1-1")["outline"] == "none"
    assert v.hook("hovered") is None  # nor is it highlighted on the canvas
    v.page.keyboard.press("ArrowDown")
    focused = v.page.evaluate(ROW_LOOK, "0-1-2")
    assert focused["outline"] == "dashed" and v.hook("hovered") == "0-1-2"
    v.page.keyboard.press("Space")
    picked = v.page.evaluate(ROW_LOOK, "0-1-2")
    v.page.keyboard.press("ArrowDown")
    unpicked_focus = v.page.evaluate(ROW_LOOK, "0-1-3")
    assert picked["border"] != unpicked_focus["border"] and picked["background"] != unpicked_focus["background"]


def test_escape_asks_before_it_cancels(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    v.click_item("0-1-1")
    question = v.page.get_by_test_id("escape-question")
    v.page.keyboard.press("Escape")
    question.wait_for()
    assert v.state() == "ready" and v.session(vis.session_id)["status"] == "pending"
    v.page.get_by_test_id("escape-no").click()  # Keep picking
    question.wait_for(state="hidden")
    assert v.state() == "ready" and v.hook("selected") == ["0-1-1"]
    v.page.keyboard.press("Escape")
    question.wait_for()
    v.page.get_by_test_id("escape-yes").click()
    v.wait_state("cancelled")
    assert v.session(vis.session_id)["status"] == "cancelled"
