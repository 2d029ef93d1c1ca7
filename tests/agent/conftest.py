"""Fixtures of the OpenAI planner tests: the small scene, settings in tmp_path, planners and agents on the LLM stub."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_stub import LLMStub

from scene_agent.agent.openai_planner import OpenAIPlanner
from scene_agent.agent.scene_agent import AgentResult, SceneAgent
from scene_agent.config import ModelSettings, Settings
from scene_agent.scene.loader import Scene, load_scene


@pytest.fixture(scope="module")
def scene(small_scene_path: Path) -> Scene:
    """The small two-floor scene, loaded once per module."""
    return load_scene(small_scene_path)


@pytest.fixture
def viewer_url() -> str:
    """A viewer nobody serves: the agent's links are checked, never opened."""
    return "http://127.0.0.1:9/"


@pytest.fixture
def planners() -> Iterator[Any]:
    """Makes OpenAI planners for a base URL and closes their clients afterwards."""
    made: list[OpenAIPlanner] = []

    def make(base_url: str, **kwargs: Any) -> OpenAIPlanner:
        made.append(OpenAIPlanner(ModelSettings(api_key="k", base_url=base_url, model="stub-model", timeout_s=10), **kwargs))
        return made[-1]

    yield make
    for planner in made:
        planner.model.close()


@pytest.fixture
def ask(scene: Scene, settings: Settings, planners: Any) -> Any:
    """Run one query through a real SceneAgent whose planner talks to `stub`."""

    def run(stub: LLMStub | str, query: str, *, max_steps: int = 12, on_event: Any = None, **agent_kwargs: Any) -> AgentResult:
        base_url = stub if isinstance(stub, str) else stub.base_url
        agent = SceneAgent(scene, settings, planners(base_url, max_steps=max_steps), **agent_kwargs)
        return agent.query(query, on_event=on_event)

    return run
