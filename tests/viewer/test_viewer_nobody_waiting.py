"""The viewer when nobody waits for the pick any more, and when a pick could not be delivered (real Chromium)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browser_fixtures import WebServer
from playwright.sync_api import Route
from viewer_helpers import Viewer

from scene_agent.selection.files.store import SessionStore

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]
NOBODY = "Nobody is waiting for this pick any more"
SESSION_READS = "**/api/sessions/*"


def message(v: Viewer) -> str:
    return v.page.inner_text("[data-testid=message]")


def test_a_session_nobody_waits_for_says_so_and_takes_no_pick(viewer: Callable[..., Viewer], open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True, waiting=False)
    v = viewer(vis, wait=("abandoned",))
    assert message(v).startswith(NOBODY)
    assert v.page.locator("[data-testid=confirm]").is_disabled()
    v.click_item("0-1-2")
    assert v.hook("selected") == [] and v.session(vis.session_id)["status"] == "pending"


def test_the_page_notices_when_the_waiting_program_stops(viewer: Callable[..., Viewer], open_vis: Callable[..., Any],
                                                         server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True, waiting=False)
    claim = SessionStore(server.settings).claim_waiting(vis.session_id)
    try:
        v = viewer(vis)
        v.click_item("0-1-1")
    finally:
        claim.release()  # the agent stops (as a kill -9 would)
    v.wait_state("abandoned")  # on the page's next look at the session
    assert message(v).startswith(NOBODY)


def test_confirm_to_nobody_says_so(viewer: Callable[..., Viewer], open_vis: Callable[..., Any], server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True, waiting=False)
    claim = SessionStore(server.settings).claim_waiting(vis.session_id)
    v = viewer(vis)
    v.page.route(SESSION_READS, lambda route: route.abort())  # the page does not learn of it before the click
    v.click_item("0-1-3")
    claim.release()
    v.page.click("[data-testid=confirm]")
    v.wait_state("abandoned")
    assert message(v).startswith(NOBODY)
    assert v.session(vis.session_id)["status"] == "pending"  # nothing was recorded


def test_a_pick_that_was_not_delivered_is_sent_again_by_itself(viewer: Callable[..., Viewer],
                                                                 open_vis: Callable[..., Any]) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    refused: list[str] = []

    def first_fails(route: Route) -> None:
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=503, content_type="application/json",
                          body='{"error": "selection_not_delivered", "message": "the answer could not be written"}')
        else:
            route.continue_()

    v.page.route("**/api/submit-selection", first_fails)
    v.click_item("0-1-2")
    v.page.click("[data-testid=confirm]")
    v.page.wait_for_function("document.querySelector('[data-testid=message]').textContent.startsWith("
                             "'The selection service is recovering; sending again in 1 s (try 1)')")
    v.wait_state("submitted")  # sent again, without a second click
    assert v.session(vis.session_id)["status"] == "confirmed" and len(refused) == 1
