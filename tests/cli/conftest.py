"""Fixtures of the long-running CLI tests: an environment in tmp_path, and subprocesses that are always reaped."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from cli_proc import Spawner, agent_env
from scene_agent.scene import ensure_demo_scene


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
