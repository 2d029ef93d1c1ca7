"""Selection channels of one kind for one test (the `channels` fixture of tests/conftest.py)."""

from __future__ import annotations

from dataclasses import replace

from redis_server import RedisServer

from scene_agent.config import Settings
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import RedisBroker


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
            return SelectionChannel(FileBackend(settings))
        return SelectionChannel(RedisBackend(self.settings(settings), self.broker))

    def env(self, settings: Settings) -> dict[str, str]:
        """SCENE_AGENT_* variables for a subprocess on the same directories and broker."""
        env = {"SCENE_AGENT_STATE_DIR": str(settings.state_dir), "SCENE_AGENT_SELECTION_DIR": str(settings.selection_dir)}
        return env | ({"SCENE_AGENT_BROKER": self.redis.url} if self.redis else {})

    def close(self) -> None:
        if self.broker is not None:
            self.broker.close()
        if self.redis is not None:
            self.redis.stop()
