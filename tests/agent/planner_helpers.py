"""Helpers for the OpenAI planner tests: reading a run's events and the requests the LLM stub received."""

from __future__ import annotations

from typing import Any

from scene_agent.agent.scene_agent import AgentResult


def types(result: AgentResult) -> list[str]:
    """The event types of a run, in order."""
    return [e.type for e in result.events]


def of(result: AgentResult, kind: type) -> list[Any]:
    """A run's events of one kind."""
    return [e for e in result.events if isinstance(e, kind)]


def tool_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool replies (observations) in a chat-completions request."""
    return [m for m in request["messages"] if m["role"] == "tool"]
