"""Asking the user to pick in the viewer, and the answer when they did not: one way for every offline plan."""

from __future__ import annotations

from scene_agent.agent import answers
from scene_agent.agent.events import FinalStatus
from scene_agent.agent.plan import Memory, Plan
from scene_agent.agent.planner import Reply
from scene_agent.agent.toolbox import CallOutcome, Toolbox


def ask_to_pick(toolbox: Toolbox, chosen: Plan) -> CallOutcome:
    """Say what to pick and among what, then open the viewer in selection mode and wait for the pick."""
    decision = chosen.decision
    toolbox.say(answers.pick_request(chosen))
    return toolbox.call("visualize", {"codes": list(chosen.candidate_codes), "selection_mode": True,
                                      "prompt": decision.prompt if decision else None,
                                      "multiple": bool(decision and decision.multiple)})


def unanswered(chosen: Plan, outcome: CallOutcome) -> Reply:
    """The reply when no pick came back: the viewer could not ask, or the pick was cancelled or timed out."""
    memory = Memory(chosen.intent, chosen.candidates, ())
    if outcome.selection is None:
        message = outcome.error.message if outcome.error else "the viewer could not be opened"
        return Reply(status="error", answer=answers.CANNOT_ASK(chosen.lang, message=message), memory=memory)
    status: FinalStatus = "timeout" if outcome.selection.status == "timeout" else "cancelled"
    return Reply(status=status, answer=answers.no_pick(chosen, outcome.selection), codes=(), memory=memory)
