"""`ToolContext`: what a tool call runs with — the scene, where things live, the user's language, the selection
channel, and how this call reaches the user."""

from __future__ import annotations

from dataclasses import dataclass, field

from scene_agent.config import Settings
from scene_agent.language.words import Lang
from scene_agent.resolution.viewpoint import Viewpoint
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel, open_channel
from scene_agent.selection.session import DEFAULT_TIMEOUT_S
from scene_agent.tools.user_link import NO_USER, UserLink


@dataclass(frozen=True)
class ToolContext:
    """What a tool needs to run. The caller (the agent's toolbox, a CLI command) builds one per call."""

    scene: Scene
    settings: Settings
    lang: Lang = "en"  # the language of the user's question: what the tools' words for people are in
    channel: SelectionChannel | None = None  # None: the one the settings name (open_channel)
    user: UserLink = field(default=NO_USER)
    selection_timeout: float = DEFAULT_TIMEOUT_S  # a pick's time when the call does not say
    viewpoint: Viewpoint | None = None  # what the person sees now (the web viewer's camera): left/right from there

    def selection_channel(self) -> SelectionChannel:
        """The channel selections are opened and awaited through."""
        return self.channel or open_channel(self.settings)
