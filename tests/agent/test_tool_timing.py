"""A tool call's card shows the tool's own work: what the call needs loaded on first use is loaded before it is timed."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from typing import Any

import pytest
from pydantic import BaseModel

from scene_agent.agent.events import ToolCallResult, ToolCallStart
from scene_agent.agent.offline_planner import OfflinePlanner
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.config import Settings
from scene_agent.scene.loader import Scene
from scene_agent.tools import registry


def test_the_toolbox_prepares_a_call_after_announcing_it_and_before_running_it(scene: Scene, settings: Settings,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []
    real = registry.TOOLS["volume"]

    def prepare(parsed: Any) -> None:
        order.append(f"prepare {parsed.code}")

    def run(ctx: Any, parsed: Any) -> BaseModel:
        order.append("run")
        return real.run(ctx, parsed)

    monkeypatch.setitem(registry.TOOLS, "volume", dataclasses.replace(real, prepare=prepare, run=run))

    def seen(event: BaseModel) -> None:
        if isinstance(event, ToolCallStart) and event.tool_name == "volume":
            order.append("card shown")
        elif isinstance(event, ToolCallResult) and event.tool_name == "volume":
            order.append("result")

    result = SceneAgent(scene, settings, OfflinePlanner()).query("how big is the sofa?", on_event=seen)
    assert result.final.status == "answered"
    assert order == ["card shown", "prepare 0-2-1", "run", "result"]


def test_preparing_a_room_volume_loads_the_floor_area_morphology_and_an_object_volume_does_not() -> None:
    probe = ("import sys; from scene_agent.tools.volume import prepare_volume; prepare_volume('{code}'); "
             "print('scipy.ndimage' in sys.modules)")
    loaded = {code: subprocess.run([sys.executable, "-c", probe.format(code=code)], capture_output=True, text=True,
                                   check=True, timeout=60).stdout.strip() for code in ("0-2", "0-2-1", "bad code")}
    assert loaded == {"0-2": "True", "0-2-1": "False", "bad code": "False"}
