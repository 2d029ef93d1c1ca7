"""The offline planner's decision for one query, before any tool runs on the items (its answers are worded from it), and
what a turn leaves for the next."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from scene_agent.agent.disambiguation import Decision
from scene_agent.language.intent import QueryIntent
from scene_agent.language.words import Lang
from scene_agent.tools.find import Candidate, FindResult

PlanKind = Literal["ask_one", "ask_several", "act_on_all", "answer", "view", "not_found"]


@dataclass(frozen=True)
class Plan:
    """The decision for one query, before any tool runs on the items."""

    kind: PlanKind
    intent: QueryIntent
    candidates: tuple[Candidate, ...] = ()
    targets: tuple[str, ...] = ()  # what to act on without asking (empty when asking)
    decision: Decision | None = None
    found: FindResult | None = None
    follow_up: bool = False
    notes: tuple[str, ...] = field(default=())
    lang: Lang = "en"
    listed: tuple[Candidate, ...] = ()  # what a follow-up may refer to by position

    @property
    def candidate_codes(self) -> tuple[str, ...]:
        """The candidates' codes, in scene order."""
        return tuple(c.code for c in self.candidates)


@dataclass(frozen=True)
class Memory:
    """What a turn leaves for follow-ups ('and the other one?', 'the red one', 'what colour is it?')."""

    intent: QueryIntent
    candidates: tuple[Candidate, ...]  # what was listed: asked among, or named before the words narrowed it
    codes: tuple[str, ...]             # what the answer was about
