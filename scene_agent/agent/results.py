"""Tool results as the agent carries them, where it adds to what the tool returned."""

from __future__ import annotations

from pydantic import Field

from scene_agent.agent.disambiguation import Decision
from scene_agent.tools.find import FindResult


class FindCall(FindResult):
    """find's candidates and, when there are several, the agent's decision whether to ask the user to pick."""

    disambiguation: Decision | None = Field(default=None, description="Whether to ask, and how; set when several were found.")
