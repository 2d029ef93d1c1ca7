"""The one small interface every planner implements, and what a turn and its reply are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from scene_agent.agent.events import FinalStatus
from scene_agent.agent.records import AskedRecord
from scene_agent.agent.toolbox import Toolbox
from scene_agent.language.words import Lang


@dataclass(frozen=True)
class Exchange:
    """One finished turn of a conversation, as later turns see it."""

    query: str
    answer: str
    status: FinalStatus
    codes: tuple[str, ...] = ()
    asked: tuple[AskedRecord, ...] = ()
    memory: object = None  # what the planner that answered wants to remember (e.g. the candidates it chose among)

    def summary(self) -> str:
        """The turn in a few lines, including what was asked and answered."""
        lines = [f"User: {self.query}", f"Assistant: {self.answer}"]
        lines += [f"(asked: {record.line()})" for record in self.asked]
        return "\n".join(lines)


@dataclass(frozen=True)
class Turn:
    """A query, the conversation before it, and the language to answer in."""

    query: str
    history: tuple[Exchange, ...] = ()
    lang: Lang = "en"


@dataclass(frozen=True)
class Reply:
    """A planner's answer to a turn."""

    status: FinalStatus
    answer: str
    codes: tuple[str, ...] = ()
    viewer_url: str | None = None
    memory: object = None  # kept with the turn as Exchange.memory; only the planner that made it reads it


class Planner(Protocol):
    """Decides which tools to call for a turn and words the answer."""

    name: str

    def decide_model(self) -> Any:
        """The model `decide` should consult, or None for the offline rules."""
        ...

    def run(self, turn: Turn, toolbox: Toolbox) -> Reply:
        """Answer the turn, calling tools through the toolbox."""
        ...
