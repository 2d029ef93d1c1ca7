"""Clicking where a scene point is drawn, as a user aiming at it would, for the measuring and info-card tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

STABLE_FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"
WIDE = {"width": 1600, "height": 1000}


def settle(page: Any) -> None:
    """Two animation frames: a camera just framed is drawn (its matrices current) before anything is aimed at."""
    page.evaluate(STABLE_FRAMES_JS)


def on_canvas(page: Any, point: Sequence[float]) -> tuple[int, int]:
    """The whole client pixel where a scene point is drawn (a click lands on whole pixels); fails unless the canvas is
    what is there (no panel or button over it)."""
    at = page.evaluate("p => window.sceneViewer.screenPoint(p)", [float(v) for v in point])
    assert at is not None, f"{list(point)} is not drawn on the canvas"
    x, y = round(at["x"]), round(at["y"])
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.tagName", [x, y])
    assert hit == "CANVAS", f"{list(point)} at ({x}, {y}) is under a {hit}, not the canvas"
    return x, y


def click_point(page: Any, point: Sequence[float]) -> None:
    """Click where the scene point is drawn."""
    x, y = on_canvas(page, point)
    page.mouse.click(x, y)


def tap_point(page: Any, point: Sequence[float]) -> None:
    """Tap (a touch screen) where the scene point is drawn."""
    x, y = on_canvas(page, point)
    page.touchscreen.tap(x, y)
