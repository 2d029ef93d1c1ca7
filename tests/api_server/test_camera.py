"""The viewer's camera read as a viewpoint: left and right of the viewpoint are left and right on the screen,
for oblique views and for views straight down; a camera without `up` looking straight down gives none."""

from __future__ import annotations

import math

import numpy as np
import pytest

from api_server.camera import Camera


def look_at(eye: np.ndarray, target: np.ndarray, hint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A camera's screen right and screen up as three.js's lookAt makes them (right-handed, z up)."""
    back = (eye - target) / np.linalg.norm(eye - target)
    right = np.cross(hint, back)
    right /= np.linalg.norm(right)
    return right, np.cross(back, right)


def camera(eye: np.ndarray, target: np.ndarray, up: np.ndarray | None) -> Camera:
    body = {"position": eye.tolist(), "target": target.tolist()} | ({"up": up.tolist()} if up is not None else {})
    return Camera.model_validate(body, strict=False)


def cameras() -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Cameras in every direction: oblique ones (up hint z, as the viewer's orbit keeps it) and ones straight down
    turned every way (up hint horizontal)."""
    rng = np.random.default_rng(3)
    made = []
    for _ in range(40):
        target = rng.uniform(-20, 20, 3)
        azimuth, elevation = rng.uniform(0, 2 * math.pi), rng.uniform(-1.2, 1.45)
        back = np.array([math.cos(azimuth) * math.cos(elevation), math.sin(azimuth) * math.cos(elevation), math.sin(elevation)])
        made.append((target + rng.uniform(0.5, 30) * back, target, np.array([0.0, 0.0, 1.0])))
    for k in range(12):
        target = rng.uniform(-20, 20, 3)
        turn = 2 * math.pi * k / 12
        made.append((target + np.array([0.0, 0.0, rng.uniform(1, 30)]), target, np.array([math.cos(turn), math.sin(turn), 0.0])))
    return made


@pytest.mark.parametrize(("eye", "target", "hint"), cameras())
def test_left_and_right_are_the_screen_s(eye: np.ndarray, target: np.ndarray, hint: np.ndarray) -> None:
    right, up = look_at(eye, target, hint)
    viewpoint = camera(eye, target, up).viewpoint()
    assert viewpoint is not None and viewpoint.source == "camera" and viewpoint.position == tuple(eye)
    assert math.hypot(*viewpoint.forward) == pytest.approx(1.0)
    rng = np.random.default_rng(int(abs(eye[0]) * 1000))
    for point in target + rng.uniform(-5, 5, (30, 3)):
        on_screen = float(np.dot(point - eye, right))  # > 0: drawn right of the line of sight
        if abs(on_screen) > 1e-6:
            assert math.copysign(1, viewpoint.across(point[0], point[1])) == math.copysign(1, on_screen)
            assert viewpoint.across(point[0], point[1]) == pytest.approx(on_screen, abs=1e-9)


def test_without_up_the_viewpoint_looks_from_position_to_target_and_straight_down_gives_none() -> None:
    oblique = camera(np.array([0.0, -3.0, 4.0]), np.array([0.0, 0.0, 0.0]), None).viewpoint()
    assert oblique is not None and oblique.forward == pytest.approx((0.0, 1.0))
    assert camera(np.array([1.0, 2.0, 9.0]), np.array([1.0, 2.0, 0.0]), None).viewpoint() is None


def test_a_camera_rolled_a_quarter_turn_looks_along_its_level_line_of_sight() -> None:
    # looking north, level, with east at the top of the screen: the screen's right points straight down
    viewpoint = camera(np.array([0.0, 0.0, 1.5]), np.array([0.0, 5.0, 1.5]), np.array([1.0, 0.0, 0.0])).viewpoint()
    assert viewpoint is not None and viewpoint.forward == pytest.approx((0.0, 1.0))
