"""Every chat message carries the viewer's camera in scene coordinates, as the person sees the scene when they send
it: after framing, orbiting, and looking straight down. The run's viewpoint then has left and right exactly where
the screen has them: each object drawn wholly left of the line of sight is left of the viewpoint."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from chat_ui import ChatUI
from http_client import call

from scene_agent.resolution.viewpoint import Viewpoint

ROOM = "0-1"
OBJECTS = ["0-1-1", "0-1-2", "0-1-3", "0-1-4"]  # four things in a row along x
CAMERA = "window.sceneViewer.camera"


def centre(boxes: list[dict[str, list[float]]]) -> list[float]:
    """The centre of the boxes' union: where framing them points the camera."""
    return [(min(b["min"][a] for b in boxes) + max(b["max"][a] for b in boxes)) / 2 for a in range(3)]


def bounds_of(ui: ChatUI) -> dict[str, dict[str, list[float]]]:
    """Each room's and object's bounds, from the scene manifest the server serves."""
    manifest = call("GET", f"{ui.server.url}/api/scenes/small").json()
    rooms = [room for floor in manifest["floors"] for room in floor["rooms"]]
    return {item["code"]: item["bounds"] for room in rooms for item in [room, *room["objects"]]}


def screen_sides(ui: ChatUI) -> dict[str, str]:
    """Which side of the line of sight each object is drawn on, for those drawn wholly on one side. The orbit
    target (on the line of sight) is drawn at the middle of the part of the canvas the last framing used."""
    return ui.page.evaluate("""codes => {
        const view = window.sceneViewer.view, framed = view.framedRect(), middle = (framed.left + framed.right) / 2;
        const sides = {};
        for (const code of codes) {
            const box = view.screenBox(code);
            if (box && box.right < middle - 2) sides[code] = "left";
            else if (box && box.left > middle + 2) sides[code] = "right";
        }
        return sides;
    }""", OBJECTS)


def viewpoint_sides(viewpoint: Viewpoint, bounds: dict[str, dict[str, list[float]]], codes: list[str]) -> dict[str, str]:
    """The side of the viewpoint each object's centre is on."""
    sides = {}
    for code in codes:
        x, y, _ = centre([bounds[code]])
        sides[code] = "left" if viewpoint.across(x, y) < 0 else "right"
    return sides


def send_and_check(ui: ChatUI, sent: list[dict[str, Any]], bounds: dict[str, dict[str, list[float]]]) -> dict[str, Any]:
    """Ask a question; the message's camera is the viewer's, and the run's viewpoint has the screen's left and right.
    Returns the camera sent."""
    camera = ui.page.evaluate(CAMERA)
    ui.ask("how many chairs are there?")
    ui.wait_final("answered")
    assert ui.page.evaluate(CAMERA) == camera, "the camera stayed where it was"
    body = sent[-1]
    assert body["message"] == "how many chairs are there?"
    assert body["camera"] == camera  # the same numbers: JSON carries doubles exactly
    viewpoint = ui.server.app.extensions["scene_agent.chat"].run(ui.hooks("runId")).viewpoint
    assert viewpoint is not None and viewpoint.source == "camera"
    assert viewpoint.position == pytest.approx(tuple(camera["position"]))
    on_screen = screen_sides(ui)
    assert set(on_screen.values()) == {"left", "right"}, f"something on each side, to tell them apart: {on_screen}"
    assert viewpoint_sides(viewpoint, bounds, list(on_screen)) == on_screen
    return body["camera"]


def test_each_message_carries_the_camera_as_the_person_sees_the_scene(chat: Callable[..., ChatUI]) -> None:
    ui = chat()
    ui.open(f"?room={ROOM}")  # the page's URL state: looking inside the kitchen
    ui.page.wait_for_function(f"() => window.sceneViewer.state === 'ready' && window.sceneViewer.drillRoom === '{ROOM}'")
    bounds = bounds_of(ui)
    sent = ui.chat_requests()

    # The room framed from the south, above (viewer/src/viewer/stage/framing.ts): in scene coordinates, z up.
    first = send_and_check(ui, sent, bounds)
    assert first["target"] == pytest.approx(centre([bounds[ROOM], *(bounds[c] for c in OBJECTS)]), abs=1e-6)
    assert first["position"][1] < first["target"][1] and first["position"][2] > first["target"][2]
    assert first["up"][2] > 0.5

    # One object framed from the room's list: the camera looks at its centre.
    ui.page.locator(f'[data-object-code="{OBJECTS[2]}"]').click()
    ui.page.wait_for_function(f"t => {CAMERA}.target.every((v, a) => Math.abs(v - t[a]) < 1e-6)",
                              arg=centre([bounds[OBJECTS[2]]]))
    framed = send_and_check(ui, sent, bounds)

    # Orbited by dragging: the camera moves around the same target; left and right follow the screen.
    ui.drag(160, 0)
    ui.page.wait_for_function(f"p => {CAMERA}.position.some((v, a) => Math.abs(v - p[a]) > 0.1)", arg=framed["position"])
    orbited = send_and_check(ui, sent, bounds)
    assert orbited["target"] == pytest.approx(framed["target"], abs=1e-6)

    # Dragged down until it looks straight down: no horizontal direction from the camera to its target, yet the
    # screen still has a left and a right, and so has the viewpoint (from the camera's up).
    ui.drag(0, 400)
    ui.page.wait_for_function(f"""() => {{
        const c = {CAMERA}, dz = c.position[2] - c.target[2];
        return Math.hypot(c.position[0] - c.target[0], c.position[1] - c.target[1]) < 1e-3 * dz;
    }}""")
    above = send_and_check(ui, sent, bounds)
    assert abs(above["up"][2]) < 1e-3  # up on the screen is a horizontal direction
    assert ui.uncaught_errors() == []
