"""Fixtures of the CLI tests: an environment in tmp_path, subprocesses that are always reaped, a question dialog on a pipe."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_proc import Spawner, agent_env
from question_dialog_helpers import Keyboard, Screen
from rich.console import Console

from scene_agent.cli.question_dialog import TerminalQuestions
from scene_agent.demo.place import ensure_demo_scene


@pytest.fixture(scope="module")
def demo() -> Path:
    """The demo scene's manifest (what commands use when no --scene is given)."""
    return ensure_demo_scene()


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
