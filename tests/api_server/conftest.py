"""A real API server on a loopback port per test, with its state and selection directories in tmp_path."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import Settings
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.pending import PendingSelection
from scene_agent.tools.visualize import VisOutput, VisualizeInput, open_view

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]


@pytest.fixture
def viewer_url() -> str:
    """A viewer of another origin (a Vite dev server), the one the API lets in across origins."""
    return "http://localhost:5173/"


@pytest.fixture
def scene(small_scene_path: Path) -> Scene:
    return load_scene(small_scene_path)


@pytest.fixture
def app(small_scene_path: Path, settings: Settings, channel: SelectionChannel, tmp_path: Path) -> Flask:
    return create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings, "CHANNEL": channel,
                       "VIEWER_DIST": str(tmp_path / "dist")})


@pytest.fixture
def server(app: Flask) -> Iterator[BackgroundServer]:
    with BackgroundServer(app) as running:
        yield running


@pytest.fixture
def open_selection(scene: Scene, settings: Settings, channel: SelectionChannel) -> Iterator[Callable[..., VisOutput]]:
    """Ask to pick among codes, as the agent does (the visualize tool's open_view), and return its VisOutput.

    The test then waits for the session as the agent would (its claim held, the answer listened for) unless
    `waiting=False`; the waits are ended after the test.
    """
    waits: list[PendingSelection] = []

    def make(codes: list[str] | None = None, *, waiting: bool = True, **kwargs: object) -> VisOutput:
        out, session = open_view(scene, VisualizeInput(codes=codes or CHAIRS, selection_mode=True, **kwargs), settings, channel)
        if waiting and session is not None:
            waits.append(channel.watch(session))
        return out

    yield make
    for pending in waits:
        pending.cancel()
        pending.wait()


@pytest.fixture
def chat_server(small_scene_path: Path, settings: Settings, tmp_path: Path, offline: None) -> Iterator[Callable[..., BackgroundServer]]:
    """`chat_server(**config)`: a real server for the small scene with the given app config (timeouts, stream limits)."""
    started: list[BackgroundServer] = []

    def start(**config: object) -> BackgroundServer:
        app = create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings,
                          "VIEWER_DIST": str(tmp_path / "dist"), **config})
        started.append(BackgroundServer(app).__enter__())
        return started[-1]

    yield start
    for server in started:
        server.close()
