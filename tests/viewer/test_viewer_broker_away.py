"""The viewer on servers that share a Redis which goes away while the person confirms (real Chromium, a real
redis-server, the waiting agent in this process): the page says it is sending again, and does, by itself, until
Redis is back and the agent has put its session back; the agent gets the pick. Never "not found" or "nobody is
waiting" meanwhile."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from browser_fixtures import WebServer, local_url
from redis_server import RedisServer
from viewer_helpers import Viewer

from scene_agent.config import Settings
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import RedisBroker
from scene_agent.tools.visualize import VisualizeInput, open_view

CHAIRS = ["0-1-1", "0-1-2", "0-1-3"]
RETRYING = "The selection service is recovering; sending again in"


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


def test_confirm_while_redis_is_away_is_sent_again_until_it_is_back(
        page, web_server: Callable[..., WebServer], small_scene_path: Path, scene: Scene, redis_server: RedisServer,
        tmp_path: Path) -> None:
    settings = Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "selection",
                        viewer_url="http://localhost:8090/", broker=redis_server.url)
    served = web_server(small_scene_path, SETTINGS=settings)
    agent_broker = RedisBroker(redis_server.url)  # the agent's process: its own connections and listener
    try:
        agent = SelectionChannel(RedisBackend(replace(settings, selection_dir=tmp_path / "agent"), agent_broker))
        vis, session = open_view(scene, VisualizeInput(codes=CHAIRS, selection_mode=True), settings, agent)
        assert session is not None
        pending = agent.watch(session)
        page.page.goto(local_url(served, vis.viewer_url or ""))
        v = Viewer(page.page, served, page.errors)
        v.wait_state("ready")
        v.click_item("0-1-3")
        redis_server.stop()  # Redis goes away (and will come back empty)
        v.page.click("[data-testid=confirm]")
        v.page.wait_for_function(f"document.querySelector('[data-testid=message]').textContent.startsWith('{RETRYING}')")
        redis_server.start()
        v.wait_state("submitted")
        assert pending.wait().codes == ["0-1-3"]
        text = v.page.inner_text("[data-testid=message]")
        assert text.startswith("Sent: the agent continues with 0-1-3"), text
    finally:
        agent_broker.close()
