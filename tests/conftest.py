"""Shared fixtures: a small real scene (manifest + PLY point files) written into tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest
from small_scene import write_small_scene

pytest_plugins = ["browser_fixtures", "thread_check"]


@pytest.fixture(scope="session")
def small_scene_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small two-floor scene shared by read-only tests."""
    return write_small_scene(tmp_path_factory.mktemp("scenes") / "small")
