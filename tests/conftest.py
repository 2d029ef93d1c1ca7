"""Shared fixtures: a small real scene (manifest + PLY point files) written into tmp_path."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from redis_server import RedisServer
from small_scene import write_small_scene

from scene_agent.config import Settings
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.file_channel import FileChannel
from scene_agent.selection.redis_channel import RedisBroker, RedisChannel

pytest_plugins = ["browser_fixtures", "thread_check"]


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


class Channels:
    """Selection channels of one kind for one test: `channels(settings)` makes one on those settings.

    For Redis, every channel uses this test's own server (`redis`, which the test may stop and start) through
    one broker (one pool and one listener thread), as the channels of one process do; `env(settings)` are the
    environment variables a subprocess needs to use the same channel.
    """

    def __init__(self, kind: str, redis: RedisServer | None = None):
        self.kind = kind
        self.redis = redis
        self.broker = RedisBroker(redis.url) if redis else None

    def settings(self, settings: Settings) -> Settings:
        """The settings with this channel's broker (unchanged for files)."""
        return replace(settings, broker=self.redis.url) if self.redis else settings

    def __call__(self, settings: Settings) -> SelectionChannel:
        if self.broker is None:
            return FileChannel(settings)
        return RedisChannel(self.settings(settings), self.broker)

    def env(self, settings: Settings) -> dict[str, str]:
        """SCENE_AGENT_* variables for a subprocess on the same directories and broker."""
        env = {"SCENE_AGENT_STATE_DIR": str(settings.state_dir), "SCENE_AGENT_SELECTION_DIR": str(settings.selection_dir)}
        return env | ({"SCENE_AGENT_BROKER": self.redis.url} if self.redis else {})

    def close(self) -> None:
        if self.broker is not None:
            self.broker.close()
        if self.redis is not None:
            self.redis.stop()


@pytest.fixture(params=["file", "redis"])
def channels(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Channels]:
    """Each selection channel in turn: the files of one machine, and Redis (a server of the test's own)."""
    made = Channels("file") if request.param == "file" else Channels("redis", RedisServer(tmp_path / "redis").start())
    yield made
    made.close()
