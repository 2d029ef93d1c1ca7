"""Shared fixtures: a small real scene (manifest + PLY point files) written into tmp_path, and the demo home."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from channels import Channels
from redis_server import RedisServer
from small_scene import write_small_scene

from scene_agent.config import Settings
from scene_agent.demo.place import ensure_demo_scene
from scene_agent.scene.loader import Scene, load_scene

pytest_plugins = ["browser_fixtures", "thread_check"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that drive the browser run last, in each xdist worker too (items reach a worker in this order).
    Playwright's sync API keeps an event loop running in the main thread from its first use to the end of the
    session, and the MCP client tests' asyncio.run cannot start beside it."""
    items.sort(key=lambda item: "browser" in getattr(item, "fixturenames", ()))


@pytest.fixture
def viewer_url() -> str:
    """Where the settings say the viewer is (a folder whose tests check another origin overrides it)."""
    return "http://localhost:8090/"


@pytest.fixture
def settings(tmp_path: Path, viewer_url: str) -> Settings:
    """State and selection directories of the test's own, as two processes would share them."""
    return Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "selection", viewer_url=viewer_url)


@pytest.fixture(scope="session")
def demo_path() -> Path:
    """The demo home's manifest, built once for every test (what commands use when no --scene is given)."""
    return ensure_demo_scene()


@pytest.fixture(scope="session")
def demo(demo_path: Path) -> Scene:
    """The demo home, loaded once and shared by the tests that only read it."""
    return load_scene(demo_path)


@pytest.fixture(scope="session")
def small_scene_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small two-floor scene shared by read-only tests."""
    return write_small_scene(tmp_path_factory.mktemp("scenes") / "small")


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A real redis-server of this test's own, on a free loopback port, keeping nothing on disk."""
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


@pytest.fixture(params=["file", "redis"])
def channels(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Channels]:
    """Each selection channel in turn: the files of one machine, and Redis (a server of the test's own)."""
    made = Channels("file") if request.param == "file" else Channels("redis", RedisServer(tmp_path / "redis").start())
    yield made
    made.close()
