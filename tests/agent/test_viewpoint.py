"""The turn's viewpoint (what the person sees now) reaches every tool call of the turn: `SceneAgent.query(…,
viewpoint=…)` builds the tools' context with it, and the find tool passes it to `find`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import scene_agent.tools.find as find_tool
import scene_agent.tools.registry as registry
from scene_agent.agent.offline_planner import OfflinePlanner
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.config import Settings
from scene_agent.resolution.viewpoint import Viewpoint
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.tools.context import ToolContext
from scene_agent.tools.find import FindInput, FindResult

SEEN = Viewpoint(position=(2.0, -4.0, 1.6), forward=(0.0, 1.0))


@pytest.fixture(scope="module")
def scene(small_scene_path: Path) -> Scene:
    return load_scene(small_scene_path)


@pytest.fixture
def find_calls(monkeypatch: pytest.MonkeyPatch) -> list[Viewpoint | None]:
    """The viewpoint of every find the find tool makes (the real find does the work)."""
    seen: list[Viewpoint | None] = []
    real: Callable[..., Any] = find_tool.find

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("viewpoint"))
        return real(*args, **kwargs)

    monkeypatch.setattr(find_tool, "find", spy)  # what the find tool (its module's TOOL) calls
    return seen


def test_the_find_tool_passes_the_context_s_viewpoint(scene: Scene, settings: Settings,
                                                     find_calls: list[Viewpoint | None]) -> None:
    tool = registry.TOOLS["find"]
    found = tool.run(ToolContext(scene, settings, viewpoint=SEEN), FindInput(query="chairs in 0-1"))
    assert isinstance(found, FindResult) and {c.code for c in found.candidates} == {"0-1-1", "0-1-2", "0-1-3"}
    tool.run(ToolContext(scene, settings), FindInput(query="chairs in 0-1"))
    assert find_calls == [SEEN, None]


def test_a_turn_s_tool_calls_run_with_its_viewpoint_and_the_next_turn_with_its_own(
        scene: Scene, settings: Settings, find_calls: list[Viewpoint | None]) -> None:
    agent = SceneAgent(scene, settings, OfflinePlanner(), ask_questions=False)
    result = agent.query("how many chairs are in the kitchen?", viewpoint=SEEN)
    assert result.status == "answered" and find_calls and set(find_calls) == {SEEN}
    find_calls.clear()
    assert agent.query("how many beds are there?").status == "answered"  # no camera (the CLI, MCP): no viewpoint
    assert find_calls and set(find_calls) == {None}
