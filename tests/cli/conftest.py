"""Fixtures of the CLI tests: an environment in tmp_path, subprocesses that are always reaped, a question dialog on a pipe."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_proc import Spawner, agent_env
from question_dialog_helpers import Keyboard, Screen
from rich.console import Console

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.cli.question_dialog import TerminalQuestions
from scene_agent.config import Settings


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return agent_env(tmp_path)


@pytest.fixture
def spawn(env: dict[str, str]) -> Iterator[Spawner]:
    spawner = Spawner(env)
    try:
        yield spawner
    finally:
        spawner.close()


@pytest.fixture
def keyboard() -> Iterator[Keyboard]:
    """A real pipe to type the dialog's input into, closed afterwards."""
    kb = Keyboard()
    try:
        yield kb
    finally:
        kb.close()


@pytest.fixture
def screen() -> Screen:
    """What the dialog prints."""
    return Screen()


@pytest.fixture
def dialog(keyboard: Keyboard, screen: Screen) -> TerminalQuestions:
    """An English question dialog reading `keyboard` and printing to `screen`."""
    console = Console(file=screen, width=100, color_system=None, highlight=False)
    return TerminalQuestions(keyboard.stdin, console, lang="en", slice_s=0.05)


@pytest.fixture
def server(tmp_path: Path, small_scene_path: Path, env: dict[str, str]) -> Iterator[BackgroundServer]:
    """The API server in this process, sharing the CLI's state and selection directories; the env links to it."""
    settings = Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "selections", viewer_url="http://127.0.0.1:9/")
    with BackgroundServer(create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings})) as background:
        env["SCENE_AGENT_VIEWER_URL"] = background.url + "/"
        yield background
