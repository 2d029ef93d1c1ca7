"""More time to pick: the viewer's "More time" extends the session on the server (POST /api/extend-selection) and
its countdown follows the server's answer; a refusal is said in words."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from viewer_helpers import Viewer

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]


def seconds_shown(v: Viewer) -> int:
    match = re.match(r"(\d+) s left", v.page.inner_text("[data-testid=countdown]"))
    assert match, v.page.inner_text("[data-testid=countdown]")
    return int(match.group(1))


def test_more_time_moves_the_deadline_on_the_server_and_the_countdown_follows(viewer: Callable[..., Viewer],
                                                                             open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True, timeout=30)
    v = viewer(vis)
    assert v.page.locator("[data-testid=more-time]").is_visible()  # beside the countdown from the start
    assert seconds_shown(v) <= 30 and v.session(vis.session_id)["seconds_left"] <= 30
    v.page.click("[data-testid=more-time]")
    v.page.wait_for_function("parseInt(document.querySelector('[data-testid=countdown]').textContent) > 60")
    assert 60 < seconds_shown(v) <= 90
    assert 60 < v.session(vis.session_id)["seconds_left"] <= 90
    assert v.page.inner_text("[data-testid=message]").startswith("One more minute")
    v.click_item("0-1-2")  # and the pick goes on as before
    v.page.click("[data-testid=confirm]")
    v.wait_state("submitted")
    assert v.page.locator("[data-testid=more-time]").is_hidden()


def test_more_time_beyond_an_hour_is_refused_in_words(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True, timeout=3570)
    v = viewer(vis)
    v.page.click("[data-testid=more-time]")
    v.page.wait_for_function("document.querySelector('[data-testid=message]').textContent !== ''")
    assert v.page.inner_text("[data-testid=message]") == "No more time can be added: a pick can wait an hour at most."
    assert v.state() == "ready" and v.session(vis.session_id)["seconds_left"] <= 3570
