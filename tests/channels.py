"""Selection channels of one kind for one test (the `channels` and `channel` fixtures of tests/conftest.py).

A test's channel is on files; a module whose rules hold on every channel says so with `CHANNELS = EVERY_CHANNEL`
(files, then Redis), or names the kinds it runs on (`CHANNELS = ("file", "redis", "memory")`): each test of it that
uses a channel runs on each (tests/conftest.py: pytest_generate_tests)."""

from __future__ import annotations

from dataclasses import replace

from memory_backend import MemoryBackend
from redis_server import RedisServer

from scene_agent.config import Settings
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import RedisBroker

# The kinds: files; files whose answers a child process records (files/deliverer.py); Redis (a server of the test's
# own); the in-memory backend of tests/memory_backend.py (the channel's rules without any store).
KINDS = ("file", "file-child", "redis", "memory")
EVERY_CHANNEL = ("file", "redis")


class Channels:
    """Selection channels of one kind for one test: `channels(settings)` makes one on those settings.

    For Redis, every channel uses this test's own server (`redis`, which the test may stop and start) through
    one broker (one pool and one listener thread), as the channels of one process do; `env(settings)` are the
    environment variables a subprocess needs to use the same channel.
    """

    def __init__(self, kind: str, redis: RedisServer | None = None):
        assert kind in KINDS, kind
        self.kind = kind
        self.redis = redis
        self.broker = RedisBroker(redis.url) if redis else None
        self.made: list[SelectionChannel] = []

    def settings(self, settings: Settings) -> Settings:
        """The settings with this channel's broker (unchanged for files)."""
        return replace(settings, broker=self.redis.url) if self.redis else settings

    def __call__(self, settings: Settings) -> SelectionChannel:
        if self.broker is not None:
            channel = SelectionChannel(RedisBackend(self.settings(settings), self.broker))
        elif self.kind == "memory":
            channel = SelectionChannel(MemoryBackend(settings))
        else:
            channel = SelectionChannel(FileBackend(settings))
            if self.kind == "file-child":
                channel.deliver_in_child()
        self.made.append(channel)
        return channel

    def env(self, settings: Settings) -> dict[str, str]:
        """SCENE_AGENT_* variables for a subprocess on the same directories and broker."""
        env = {"SCENE_AGENT_STATE_DIR": str(settings.state_dir), "SCENE_AGENT_SELECTION_DIR": str(settings.selection_dir)}
        return env | ({"SCENE_AGENT_BROKER": self.redis.url} if self.redis else {})

    def close(self) -> None:
        for channel in self.made:
            channel.close()
        if self.broker is not None:
            self.broker.close()
        if self.redis is not None:
            self.redis.stop()
