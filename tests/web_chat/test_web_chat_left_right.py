"""'What colour is the chair on the left?' typed beside the 3D view is about the chair on the left of the screen: a
row of chairs alike (same label, same colour) seen from the south, then from the north after orbiting half round,
then from straight above. Which chair is leftmost is worked out from the camera the page reports and the chairs'
boxes (and checked against where the page draws them), never written into the test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import BrowserPage, WebServer, save_screenshot
from chat_ui import ChatUI
from http_client import call
from small_scene import ROW_CHAIRS, ROW_ROOM, across_screen, centre_of, left_to_right, write_chair_row

CAMERA = "window.sceneViewer.camera"
QUESTION = "what colour is the chair on the left?"
CLEAR = 0.02  # across the screen (tangent of the angle): the leftmost and the next are told apart by about 1°


@pytest.fixture
def row_chat(page: BrowserPage, web_server: Callable[..., WebServer], tmp_path: Path, offline: None) -> ChatUI:
    """The page on a new server for a room holding a row of four chairs alike, looking inside the room."""
    ui = ChatUI(page, web_server(write_chair_row(tmp_path / "row")))
    ui.open(f"?room={ROW_ROOM}")
    ui.page.wait_for_function(f"() => window.sceneViewer.state === 'ready' && window.sceneViewer.drillRoom === '{ROW_ROOM}'")
    return ui


def chair_centres(ui: ChatUI) -> dict[str, tuple[float, float, float]]:
    """Each chair's box centre, from the scene manifest the server serves."""
    manifest = call("GET", f"{ui.server.url}/api/scenes/chair-row").json()
    objects = [obj for floor in manifest["floors"] for room in floor["rooms"] for obj in room["objects"]]
    return {obj["code"]: centre_of(obj["bounds"]) for obj in objects if obj["code"] in ROW_CHAIRS}


def leftmost_on_screen(ui: ChatUI, centres: dict[str, tuple[float, float, float]]) -> tuple[str, dict[str, Any]]:
    """The chair the page's camera draws furthest left, clearly apart from the next; and that camera. The order
    worked out from the camera is the order the page draws the chairs in (their boxes on the canvas)."""
    camera = ui.page.evaluate(CAMERA)
    order = left_to_right(camera, centres)
    drawn = across_screen(camera, centres)
    assert drawn[order[1]] - drawn[order[0]] > CLEAR, f"no chair clearly leftmost: {drawn}"
    boxes = ui.page.evaluate("codes => codes.map(c => window.sceneViewer.view.screenBox(c))", order)
    middles = [(box["left"] + box["right"]) / 2 for box in boxes]
    assert middles == sorted(middles), f"the page draws them in another order: {dict(zip(order, middles, strict=True))}"
    return order[0], camera


def ask_about_the_left(ui: ChatUI, sent: list[dict[str, Any]], expected: str, camera: dict[str, Any]) -> str:
    """Ask in the chat; the answer, once shown, is about `expected` alone. Returns its words."""
    ui.ask(QUESTION)
    final = ui.wait_final("answered")
    text = final.inner_text()
    assert sent[-1]["message"] == QUESTION and sent[-1]["camera"] == camera, "the message carried this camera"
    assert ui.run_state()["final"]["codes"] == [expected], text
    assert expected in text and not any(code in text for code in ROW_CHAIRS if code != expected), text
    assert "red" in text, text
    return text


def orbit_half_round(ui: ChatUI) -> None:
    """Drag across half the canvas' height, which turns the view 180° about the vertical (three.js OrbitControls: a
    full turn per canvas height); wait until the camera is on the other side of its target."""
    before = ui.page.evaluate(CAMERA)
    height = ui.page.evaluate("document.querySelector('.sv-canvas').clientHeight")
    ui.drag(height / 2, 0, steps=20)
    ui.page.wait_for_function(f"""b => {{
        const c = {CAMERA}, h = p => [p.position[0] - p.target[0], p.position[1] - p.target[1]];
        const [x0, y0] = h(b), [x1, y1] = h(c);
        return (x0 * x1 + y0 * y1) / (Math.hypot(x0, y0) * Math.hypot(x1, y1)) < Math.cos(175 * Math.PI / 180);
    }}""", arg=before)


def test_the_chair_on_the_left_follows_the_camera(row_chat: ChatUI) -> None:
    ui = row_chat
    centres = chair_centres(ui)
    sent = ui.chat_requests()

    # Framed from the south, above: the row runs across the screen.
    first, camera = leftmost_on_screen(ui, centres)
    ask_about_the_left(ui, sent, first, camera)
    save_screenshot(ui.page, "left-1-south.png")

    # Orbited half round: seen from the north, the other end of the row is on the left.
    orbit_half_round(ui)
    second, camera = leftmost_on_screen(ui, centres)
    assert second == left_to_right(sent[-1]["camera"], centres)[-1] != first, "the other end chair"
    ask_about_the_left(ui, sent, second, camera)
    save_screenshot(ui.page, "left-2-north.png")

    # Back round to the south, then dragged down until it looks straight down: no horizontal line of sight, yet the
    # screen has a left (the camera's up says which way is up on it).
    orbit_half_round(ui)
    ui.drag(0, 400, steps=20)
    ui.page.wait_for_function(f"""() => {{
        const c = {CAMERA}, dz = c.position[2] - c.target[2];
        return Math.hypot(c.position[0] - c.target[0], c.position[1] - c.target[1]) < 1e-3 * dz;
    }}""")
    third, camera = leftmost_on_screen(ui, centres)
    assert abs(camera["up"][2]) < 1e-3 and third != second
    ask_about_the_left(ui, sent, third, camera)
    save_screenshot(ui.page, "left-3-above.png")
    assert ui.uncaught_errors() == []
