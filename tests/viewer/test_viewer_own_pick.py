"""A pick you made is told as yours: Back to a pick confirmed in this tab says "You picked …", and a pick typed in
words in the chat says so; a pick made in another window is still "answered elsewhere"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browser_fixtures import WebServer
from viewer_helpers import Viewer

from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]


def test_back_to_your_own_pick_says_you_picked_it(viewer: Callable[..., Viewer], open_vis: Callable[..., Any],
                                                  server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    v.click_item(CHAIRS[2])
    v.page.get_by_test_id("confirm").click()
    v.wait_state("submitted")
    other = open_vis(["0-2"])
    v.page.goto(f"{server.url}/?manifest=/manifests/{other.view}.json")
    v.wait_state("ready")
    v.page.go_back()
    v.wait_state("submitted")
    assert v.page.inner_text("[data-testid=message]") == f"You picked {CHAIRS[2]}."
    assert v.hook("selected") == [CHAIRS[2]]


def test_a_pick_in_words_is_told_as_yours(viewer: Callable[..., Viewer], open_vis: Callable[..., Any],
                                          server: WebServer) -> None:
    vis = open_vis(CHAIRS, selection_mode=True)
    v = viewer(vis)
    assert vis.session_id is not None
    SelectionChannel(FileBackend(server.settings)).submit(vis.session_id, [CHAIRS[0]], by="words", words="the red one")
    v.wait_state("submitted")
    assert v.page.inner_text("[data-testid=message]") == f"You picked {CHAIRS[0]} in the chat."
