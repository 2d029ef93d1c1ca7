"""The walk of one ambiguous question (docs/architecture.md): the path never climbs back into a module it left.

Every call made while the agent answers "what's the color of the chair in the kitchen?" (a pick among four, answered
on the file channel from another thread) is traced with the interpreter's profile hook, and each call's stack is
read as the chain of project modules it passed through. A module found twice on one chain (A → B → A) is a climb
back up: a lower module calling into one that called it, which is what makes a walk hard to follow.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from scene_agent.agent.events import AgentEvent, SelectionRequired
from scene_agent.agent.offline_planner import OfflinePlanner
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.config import Settings
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import open_channel

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scene_agent", "api_server", "mcp_server")
# The domain's libraries at the bottom of the layers: called for data, they hand the question on to nobody.
LIBRARIES = ("scene_agent/language/", "scene_agent/resolution/", "scene_agent/scene/", "scene_agent/color/",
             "scene_agent/geometry/", "scene_agent/fileio.py", "scene_agent/config.py")


class Walk:
    """The chains of project modules seen on the call stacks of every call, in every thread."""

    def __init__(self) -> None:
        self.chains: set[tuple[str, ...]] = set()
        self._modules: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def _module(self, filename: str) -> str | None:
        if filename not in self._modules:
            try:
                relative = Path(filename).resolve().relative_to(ROOT).as_posix()
            except ValueError:
                relative = None
            self._modules[filename] = relative if relative and relative.startswith(PACKAGES) else None
        return self._modules[filename]

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        chain: list[str] = []
        here: FrameType | None = frame
        while here is not None:
            module = self._module(here.f_code.co_filename)
            if module is not None and (not chain or chain[-1] != module):
                chain.append(module)
            here = here.f_back
        with self._lock:
            self.chains.add(tuple(reversed(chain)))

    def climbs(self) -> list[str]:
        found = []
        for chain in self.chains:
            for i, module in enumerate(chain):
                if module in chain[:i]:
                    found.append(" → ".join(chain))
                    break
        return sorted(found)

    def hand_on(self) -> set[str]:
        """The modules that called another project module (not the libraries): those that hand the question on."""
        return {m for chain in self.chains for m in chain[:-1] if not m.startswith(LIBRARIES)}


def test_one_ambiguous_question_never_climbs_back_into_a_module_it_left(settings: Settings, demo: Scene) -> None:
    agent = SceneAgent(demo, settings, OfflinePlanner(), selection_timeout=30)
    viewer_side = open_channel(settings)
    answers: list[threading.Thread] = []

    def pick_the_green_chair(event: AgentEvent) -> None:
        if isinstance(event, SelectionRequired):
            answers.append(threading.Thread(target=viewer_side.submit, args=(event.session_id, ["0-3-4"])))
            answers[-1].start()

    walk = Walk()
    threading.setprofile(walk.profile)
    sys.setprofile(walk.profile)
    try:
        result = agent.query("what's the color of the chair in the kitchen?", on_event=pick_the_green_chair)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    for thread in answers:
        thread.join(10)

    assert result.final.status == "answered" and result.final.codes == ["0-3-4"]
    assert walk.climbs() == []
    # The modules named by the walk in docs/architecture.md all hand the question on.
    assert {"scene_agent/agent/scene_agent.py", "scene_agent/agent/offline_planner.py", "scene_agent/agent/toolbox.py",
            "scene_agent/tools/find.py", "scene_agent/agent/disambiguation.py", "scene_agent/tools/visualize.py",
            "scene_agent/selection/channel.py", "scene_agent/selection/files/backend.py",
            "scene_agent/selection/pending.py", "scene_agent/selection/files/waiter.py",
            "scene_agent/tools/color.py"} <= walk.hand_on()
