"""Shared fixtures: a small real scene (manifest + PLY point files) written into tmp_path, and the demo home."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from channels import KINDS, Channels
from llm_stub import LLMStub
from redis_server import RedisServer
from small_scene import write_small_scene

from scene_agent.config import Settings
from scene_agent.demo.place import ensure_demo_scene
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.selection.channel import SelectionChannel

pytest_plugins = ["browser_fixtures", "thread_check"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that drive the browser run last, in each xdist worker too (items reach a worker in this order).
    Playwright's sync API keeps an event loop running in the main thread from its first use to the end of the
    session, and the MCP client tests' asyncio.run cannot start beside it."""
    items.sort(key=lambda item: "browser" in getattr(item, "fixturenames", ()))


@pytest.fixture(scope="session", autouse=True)
def cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's cache directory of this run (the point-file digest memos, scene/digest.py), inherited by the
    commands the tests start: a run leaves nothing in the machine's own ~/.cache."""
    with pytest.MonkeyPatch.context() as patch:
        home = tmp_path_factory.mktemp("cache-home")
        patch.setenv("XDG_CACHE_HOME", str(home))
        yield home


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


# What configures a model: without them the chat's conversations get the offline planner.
MODEL_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "SCENE_AGENT_MODEL", "SCENE_AGENT_NO_QUESTIONS")


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No model configured (whatever the machine's environment says): new conversations get the offline planner."""
    for name in MODEL_ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch, offline: None) -> Iterator[Callable[..., LLMStub]]:
    """`model(*replies)`: an OpenAI-compatible stub server scripted with `replies`; new conversations use it."""
    stubs: list[LLMStub] = []

    def start(*replies: Any) -> LLMStub:
        stub = LLMStub(*replies).__enter__()
        stubs.append(stub)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
        monkeypatch.setenv("SCENE_AGENT_MODEL", "stub-model")
        return stub

    try:
        yield start
    finally:
        for stub in stubs:
            stub.close()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A real redis-server of this test's own, on a free loopback port, keeping nothing on disk."""
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that uses a selection channel runs on each kind its module names (CHANNELS, tests/channels.py)."""
    if "channels" in metafunc.fixturenames:
        kinds = getattr(metafunc.module, "CHANNELS", ("file",))
        assert set(kinds) <= set(KINDS), kinds
        metafunc.parametrize("channels", kinds, indirect=True)


@pytest.fixture
def channels(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Channels]:
    """The kind of selection channel a test runs on: files, unless its module names others (CHANNELS)."""
    kind = request.param
    made = Channels(kind, RedisServer(tmp_path / "redis").start() if kind == "redis" else None)
    yield made
    made.close()


@pytest.fixture
def channel(channels: Channels, settings: Settings) -> SelectionChannel:
    """The test's selection channel, on its settings (the one the app serves, the agent's and the waiter's)."""
    return channels(settings)
