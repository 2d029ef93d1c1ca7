"""Tool results as the agent carries them, where it adds to what the tool returned."""

from __future__ import annotations

from pydantic import BaseModel, Field

from scene_agent.agent.disambiguation import Decision
from scene_agent.tools.find import FindResult


class FindCall(FindResult):
    """find's candidates and, when there are several, the agent's decision whether to ask the user to pick."""

    disambiguation: Decision | None = Field(default=None, description="Whether to ask, and how; set when several were found.")


def carried(result_model: type[BaseModel]) -> type[BaseModel]:
    """The model a tool's result travels in (its event, the planner's outcome): find's with the agent's decision added,
    any other as the tool returns it."""
    return FindCall if issubclass(result_model, FindResult) else result_model
