"""`--planner openai`: each description asked of the real agent with the OpenAI planner, as a view question.

The agent is asked "show me " + the description. It either answers at once (the `final` event's codes are its
candidates) or opens a pick among candidates (`selection_required`: those are its candidates). Nobody picks: the
run is stopped as soon as the pick opens, which cancels the pick at once and ends the turn without another model
call. Each row is a fresh conversation; sessions and views go to a directory of the bench's own.
"""

from __future__ import annotations

from pathlib import Path

from scene_agent.agent.control import RunControl
from scene_agent.agent.events import AgentEvent, SelectionRequired
from scene_agent.agent.openai_planner import OpenAIPlanner
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.config import DEFAULT_VIEWER_URL, ModelSettings, Settings
from scene_agent.errors import SceneAgentError
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend

ASK = "show me "


class AgentPolicy:
    """The OpenAI planner's candidates for a description: what it shows, or what it asks the person to pick among."""

    def __init__(self, model: ModelSettings, workdir: Path):
        self.settings = Settings(state_dir=workdir / "state", selection_dir=workdir / "selection",
                                 viewer_url=DEFAULT_VIEWER_URL, selection_watch="polling", ask_questions=False)
        self.channel = SelectionChannel(FileBackend(self.settings))
        self.planner = OpenAIPlanner(model)

    def __call__(self, scene: Scene, text: str) -> list[str]:
        """Ask the agent; its candidates. A run that failed (the model server, the step limit) raises."""
        control = RunControl()
        asked: list[str] = []

        def on_event(event: AgentEvent) -> None:
            match event:
                case SelectionRequired(candidates=candidates) if not asked:
                    asked.extend(candidates)
                    control.stop("ended by the benchmark: nobody picks")

        agent = SceneAgent(scene, self.settings, self.planner, ask_questions=False, channel=self.channel, lang="en")
        result = agent.query(ASK + text, on_event=on_event, control=control)
        if asked:
            return asked
        if result.status == "error":
            raise SceneAgentError(f"the agent failed: {result.answer}")
        return list(result.codes)

    def close(self) -> None:
        """Close the model client and the selection channel."""
        self.planner.model.close()
        self.channel.close()
