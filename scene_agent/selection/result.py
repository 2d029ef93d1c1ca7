"""`SelectionResult`: how a wait for the user's pick ended, the same on every selection channel."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import Field, computed_field

from scene_agent.model import Model
from scene_agent.selection.session import USER_ANSWERS, PickedItem, SessionOutcome, UserAnswerBy

# `on_progress(seconds_left)`: called about once a second while a wait goes on (the CLI's countdown).
Progress = Callable[[float], None]


class SelectionResult(Model):
    """How a wait ended: the picks, or cancelled / timeout / invalid with the reason."""

    session_id: str
    status: Literal["confirmed", "cancelled", "timeout", "invalid"]
    selections: list[PickedItem] = Field(default_factory=list)
    cancelled_by: Literal["viewer", "words", "host", "caller"] | None = None
    answered_by: UserAnswerBy | None = Field(default=None, description="Who answered: in the viewer, in words, or in an "
                                                                         "MCP host's own dialog.")
    words: str | None = Field(default=None, description="What the user typed, when they answered in words.")
    reason: str | None = None
    waited_s: float

    @computed_field  # type: ignore[prop-decorator]  # mypy rejects a decorator over @property; pydantic's documented way
    @property
    def codes(self) -> list[str]:
        """The picked codes, in the order they were picked."""
        return [item.itemCode for item in self.selections]


def ended_result(outcome: SessionOutcome, waited_s: float) -> SelectionResult:
    """The result of a wait that found this outcome recorded: the user's answer, or how the agent's side ended it."""

    def result(status: str, selections: list[PickedItem] | None = None, **extra: object) -> SelectionResult:
        return SelectionResult.model_validate({"session_id": outcome.session_id, "status": status,
                                               "selections": selections or [], "waited_s": round(waited_s, 3), **extra})

    if outcome.by in USER_ANSWERS:
        by = outcome.by
        if outcome.status == "cancelled":
            why = {"words": "the user cancelled in words", "host": "the user cancelled in the MCP host"}.get(
                by, "the user cancelled in the viewer")
            return result("cancelled", cancelled_by=by, reason=why, words=outcome.words)
        return result("confirmed", outcome.selections, answered_by=by, words=outcome.words)
    reason = outcome.reason or f"the session ended ({outcome.status})"
    if outcome.status == "invalid":
        return result("invalid", reason=reason)
    return result("timeout" if outcome.status == "expired" else "cancelled",
                  cancelled_by="caller" if outcome.by == "caller" else None, reason=reason)
