"""A pick among many like candidates spread over a building (48 chairs: 3 floors × 4 flats' kitchens × 4 chairs of
different colours): a list grouped by room whose rows tell the chairs apart in words and colour swatches, a filter
box, a first framing of one kitchen's chairs big enough to pick with the others listed with "Show", and labels that
are few enough to read, never over each other nor over a chair."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import BrowserPage, WebServer, local_url
from small_scene import FLAT_CHAIR_CODES as ALL
from small_scene import FLAT_FLOORS as FLOORS
from small_scene import FLAT_PALETTE as PALETTE
from small_scene import FLATS, write_flats
from viewer_helpers import Viewer, draw_now, label_rects, overlap, rgb_of_hex, screen_box

from scene_agent.scene.loader import load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.files.claims import WaitingClaim
from scene_agent.selection.files.store import SessionStore
from scene_agent.tools.visualize import VisualizeInput, open_view

READABLE = 12  # labelLayout.ts: at most this many labels on a desktop canvas
MIN_PX = 60  # each chair of the first framing at least this big on a 1280 × 800 desktop


@dataclass
class Pick:
    viewer: Viewer
    session_id: str
    manifest: dict[str, Any]

    def item(self, code: str) -> dict[str, Any]:
        return next(i for i in self.manifest["items"] if i["code"] == code)


@pytest.fixture
def pick(tmp_path: Path, page: BrowserPage, web_server: Callable[..., WebServer]) -> Iterator[Callable[..., Pick]]:
    """A selection over every chair, opened as the agent's visualize tool opens it, shown in the page."""
    path = write_flats(tmp_path / "flats")
    server = web_server(path)
    claims: list[WaitingClaim] = []

    def open_pick(query: str = "") -> Pick:
        vis, _ = open_view(load_scene(path), VisualizeInput(codes=ALL, selection_mode=True, prompt="Which chair do you mean?"),
                           server.settings, SelectionChannel(FileBackend(server.settings)))
        assert vis.session_id
        claims.append(SessionStore(server.settings).claim_waiting(vis.session_id))
        url = local_url(server, vis.viewer_url or "")
        manifest_path = url.split("manifest=")[1].split("&")[0].replace("%2F", "/")
        with urllib.request.urlopen(f"{server.url}{manifest_path}") as response:
            manifest = json.loads(response.read())
        page.page.goto(url + query)
        v = Viewer(page.page, server, page.errors)
        v.wait_state("ready")
        draw_now(v)
        return Pick(v, vis.session_id, manifest)

    yield open_pick
    for claim in claims:
        claim.release()


ROWS = """() => [...document.querySelectorAll('#viewer [data-code]')].map(row => ({
    code: row.dataset.code,
    text: row.querySelector('.sv-row-text').textContent,
    group: row.closest('[data-group]').dataset.group,
    heading: row.closest('[data-group]').querySelector('.sv-group-title').textContent,
    swatch: getComputedStyle(row.querySelector('[data-testid=swatch]')).backgroundColor,
    shown: !!row.getClientRects().length,
    show: !!row.querySelector('[data-testid=show-candidate]'),
}))"""


def rows(v: Viewer) -> list[dict[str, Any]]:
    return v.page.evaluate(ROWS)


def english(basic: str) -> str:
    return "grey" if basic == "gray" else basic


def drawn_big_enough(v: Viewer, code: str) -> None:
    """A frame drawn, and the candidate at least MIN_PX across on screen."""
    draw_now(v)
    box = screen_box(v, code)
    assert box and min(box[2] - box[0], box[3] - box[1]) >= MIN_PX, (code, box)


def check_labels(v: Viewer) -> dict[str, tuple[float, float, float, float]]:
    """The labels drawn: at most READABLE, none over another, over a chair's box or over the side panel; on a floor
    shown alone, only its chairs (the others are not drawn)."""
    floor = v.hook("floor")
    shown = [code for code in ALL if floor is None or code.split("-")[0] == floor]
    labels = label_rects(v)
    assert set(labels) <= set(shown), (floor, labels)
    assert len(labels) == v.hook("labelsDrawn") and 0 < len(labels) <= READABLE, labels
    keys = sorted(labels)
    assert [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:] if overlap(labels[a], labels[b])] == []
    p = v.page.locator("#viewer .sv-panel").bounding_box()
    panel = (p["x"], p["y"], p["x"] + p["width"], p["y"] + p["height"])
    for key, rect in labels.items():
        assert not overlap(rect, panel), key
        for code in shown:
            box = screen_box(v, code)
            assert box is None or not overlap(rect, box), (key, code)
    return labels


def test_the_list_tells_the_chairs_apart_and_filters(pick: Callable[..., Pick]) -> None:
    p = pick()
    v = p.viewer
    listed = rows(v)
    assert [r["code"] for r in listed] == ALL  # in the candidates' order, grouped by room (they are in room order)
    for row in listed:
        item = p.item(row["code"])
        assert row["text"] == f"{english(item['color']['basic'])} chair · {item['room_name']}", row
        assert row["group"] == item["room"] and row["heading"] == item["room_name"]
        assert row["swatch"] == rgb_of_hex(item["color"]["hex"]), row  # its own colour, not one amber for all
    assert len({r["swatch"] for r in listed}) == len(PALETTE)
    assert v.page.locator("#viewer li[data-group]").count() == FLOORS * len(FLATS)
    # a long list scrolls inside the panel: Confirm stays in sight
    assert v.page.evaluate("(() => { const l = document.querySelector('#viewer [role=listbox]'); return l.scrollHeight > l.clientHeight; })()")
    assert v.page.get_by_test_id("confirm").is_visible()

    box = v.page.get_by_test_id("candidate-filter")
    target = p.item("2-3-2")  # "Kitchen, flat 3C"
    box.fill("flat 3C")
    assert [r["code"] for r in rows(v) if r["shown"]] == ["2-3-1", "2-3-2", "2-3-3", "2-3-4"]
    assert v.page.locator("#viewer li[data-group]:visible").count() == 1
    box.fill(f"{english(target['color']['basic'])} 3c")  # any words, any order and case
    shown = [r["code"] for r in rows(v) if r["shown"]]
    assert "2-3-2" in shown and all(p.item(c)["room"] == "2-3" for c in shown) and len(shown) < 4
    box.fill("1-4-2")  # a code
    assert [r["code"] for r in rows(v) if r["shown"]] == ["1-4-2"]
    box.fill("nothing like it")
    assert [r for r in rows(v) if r["shown"]] == []
    assert v.page.get_by_test_id("no-match").is_visible()
    box.fill("")
    assert all(r["shown"] for r in rows(v))
    assert v.errors == []


def test_the_first_framing_shows_one_kitchen_big_and_lists_the_rest(pick: Callable[..., Pick]) -> None:
    p = pick()
    v = p.viewer
    framed, far = v.hook("framed"), v.hook("far")
    assert framed == ["0-1-1", "0-1-2", "0-1-3", "0-1-4"]  # the first kitchen's chairs
    assert far == [c for c in ALL if c not in framed]
    assert v.hook("floor") == "0"  # their floor alone: the floors above would be drawn over it
    c = v.page.locator("#viewer canvas").bounding_box()
    canvas = (c["x"], c["y"], c["x"] + c["width"], c["y"] + c["height"])
    for code in framed:
        box = screen_box(v, code)
        assert box and canvas[0] <= box[0] and box[2] <= canvas[2] and canvas[1] <= box[1] and box[3] <= canvas[3], code
        assert min(box[2] - box[0], box[3] - box[1]) >= MIN_PX, (code, box)
    assert {r["code"] for r in rows(v) if r["show"]} == set(far)  # the others offer "Show"
    labels = check_labels(v)
    assert set(framed) <= set(labels)  # the framed chairs are named

    # "Show" frames a far chair without picking it (on its own floor)
    v.page.click("#viewer [data-testid=show-candidate][data-show='2-4-3']")
    v.page.wait_for_function("window.sceneViewer.framed.join() === '2-4-3'")
    assert v.hook("floor") == "2"
    drawn_big_enough(v, "2-4-3")
    assert v.hook("selected") == []
    check_labels(v)

    # all floors and "Frame all": every chair, still no more labels than can be read, none over another or a chair
    v.page.click("[data-floor=all]")
    v.page.wait_for_function("window.sceneViewer.floor === null")
    v.page.get_by_test_id("frame-all").click()
    v.page.wait_for_function(f"window.sceneViewer.framed.length === {len(ALL)}")
    draw_now(v)
    check_labels(v)
    assert v.errors == []


def test_a_row_or_a_label_picks_and_confirm_sends_it(pick: Callable[..., Pick]) -> None:
    p = pick()
    v = p.viewer
    # a row of another floor's kitchen: picked, and framed with its room's chairs
    v.page.locator("#viewer [data-code='1-3-2']").scroll_into_view_if_needed()
    v.page.click("#viewer [data-code='1-3-2']")
    v.page.wait_for_function("window.sceneViewer.selected.join() === '1-3-2'")
    v.page.wait_for_function("window.sceneViewer.framed.join() === '1-3-1,1-3-2,1-3-3,1-3-4'")
    assert v.hook("floor") == "1"
    drawn_big_enough(v, "1-3-2")
    assert v.page.get_attribute("#viewer [data-code='1-3-2']", "aria-selected") == "true"

    # a click on a chair's label picks that chair
    labels = check_labels(v)
    other = next(k for k in sorted(labels) if k != "1-3-2")
    x0, y0, x1, y1 = labels[other]
    v.page.mouse.click((x0 + x1) / 2, (y0 + y1) / 2)
    v.page.wait_for_function("code => window.sceneViewer.selected.join() === code", arg=other)

    v.page.click("[data-testid=confirm]")
    v.wait_state("submitted")
    assert [s["itemCode"] for s in v.session(p.session_id)["selections"]] == [other]
    assert v.errors == []


def test_the_list_in_chinese(pick: Callable[..., Pick]) -> None:
    p = pick("&lang=zh")
    words = {"red": "红色", "blue": "蓝色", "green": "绿色", "yellow": "黄色", "orange": "橙色", "purple": "紫色",
             "pink": "粉色", "brown": "棕色", "gray": "灰色", "black": "黑色", "white": "白色"}
    for row in rows(p.viewer):
        item = p.item(row["code"])
        assert row["text"] == f"{words[item['color']['basic']]}{item['label_zh']} · {item['name_zh']}", row
        assert row["heading"] == item["name_zh"]
    assert p.item("0-1-1")["name_zh"] == "厨房，公寓 1A"
    labels = label_rects(p.viewer)
    assert labels and all(p.viewer.page.inner_text(f".sv-label[data-label='{k}']") == f"{k} · 椅子" for k in labels)
