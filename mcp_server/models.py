"""The inputs and results of the MCP tools that exist only here: `ask` (the whole agent), `wait_for_selection` and
`cancel_selection`.

The other tools (`find`, `visualize`, `color`, `volume`) take and return the very models the agent uses
(scene_agent/tools/).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from scene_agent.selection.session import MAX_TIMEOUT_S, SESSION_ID_RE
from scene_agent.tools.summary import Summary
from scene_agent.tools.visualize import VisOutput

# One wait_for_selection call waits at most this long: well under the 60 s after which common clients give up on a
# request (the TypeScript SDK's default; progress does not extend it). A host calls again while it says `waiting`.
DEFAULT_WAIT_S = 25.0
MAX_WAIT_S = 50.0


class AskInput(BaseModel):
    """Ask a question about the scanned building in plain words (English or Chinese), as a user would: the agent
    finds what it is about, asks the user to pick in the 3D viewer when the words leave a real choice, measures
    colour or size, and answers."""

    question: str = Field(min_length=1, max_length=2000,
                          description="The question, e.g. \"what's the color of the chair in the kitchen?\", "
                                      "\"show me room 0-7\", \"compare the kitchen chairs\".")
    timeout: float = Field(default=120.0, gt=0, le=MAX_TIMEOUT_S,
                           description="Seconds the user has for each pick in the viewer.")


class PendingPick(BaseModel):
    """A pick the user has to make in the viewer before the call can go on."""

    session_id: str
    viewer_url: str = Field(description="Open it: the viewer in selection mode, the candidates highlighted.")
    candidates: list[str]
    prompt: str
    multiple: bool
    seconds_left: float


class AskOutcome(BaseModel):
    """The agent's answer; or, when the host cannot be asked through elicitation, the pick it waits for."""

    status: Literal["answered", "not_found", "cancelled", "timeout", "error", "selection_required"]
    answer: str = Field(description="The answer in the question's language (or where to pick, and what to call then).")
    codes: list[str] = Field(default_factory=list, description="The rooms/objects the answer is about.")
    viewer_url: str | None = None
    pick: PendingPick | None = Field(default=None, description="With selection_required: the pick to make; then call "
                                                               "wait_for_selection with its session_id.")

    def human_summary(self) -> Summary:
        """The answer itself."""
        return Summary(en=self.answer, zh=self.answer, tone="done" if self.status == "answered" else "nothing")


class WaitForSelectionInput(BaseModel):
    """Wait for the user's pick in the viewer, for a session that `ask` or `visualize` returned without waiting
    (the host could not open the viewer itself); then the call goes on and its result comes back here."""

    session_id: str = Field(pattern=SESSION_ID_RE.pattern, description="The session_id the call returned.")
    timeout: float = Field(default=DEFAULT_WAIT_S, gt=0, le=MAX_WAIT_S,
                           description="Seconds to wait now (at most 50, so that no client gives up on the call); "
                                       "call again while it says `waiting`. Cancelling this call does not cancel the "
                                       "pick: cancel_selection does.")


class CancelSelectionInput(BaseModel):
    """Cancel a pick the user has not made yet (the session `ask` or `visualize` returned): the viewer says it was
    cancelled, and the call waiting on it ends as cancelled."""

    session_id: str = Field(pattern=SESSION_ID_RE.pattern, description="The session_id of the pick.")


class CancelOutcome(BaseModel):
    """What became of the pick."""

    session_id: str
    status: Literal["cancelled", "ended"] = Field(description="cancelled: it was waiting and is no more; ended: it had "
                                                              "already ended (picked, timed out or cancelled).")

    def human_summary(self) -> Summary:
        """One line."""
        if self.status == "cancelled":
            return Summary(en=f"pick {self.session_id} cancelled", zh=f"已取消选择 {self.session_id}")
        return Summary(en=f"pick {self.session_id} had already ended", zh=f"选择 {self.session_id} 已经结束")


class WaitOutcome(BaseModel):
    """How far the call waiting on this session got: still waiting, or ended with the tool's result."""

    session_id: str
    status: Literal["waiting", "done"] = Field(description="waiting: no pick yet (call again); done: the call ended.")
    seconds_left: float = Field(description="Until the pick's time runs out (while waiting).")
    visualize: VisOutput | None = Field(default=None, description="visualize's result, its `selection` the pick.")
    ask: AskOutcome | None = Field(default=None, description="ask's outcome: the answer, or the next pick it needs.")

    def human_summary(self) -> Summary:
        """Still waiting, or the result's own summary."""
        if self.status == "waiting":
            return Summary(en=f"still waiting for the pick ({self.seconds_left:.0f} s left)",
                           zh=f"仍在等待选择（剩余 {self.seconds_left:.0f} 秒）", tone="nothing")
        if self.ask is not None:
            return self.ask.human_summary()
        return self.visualize.human_summary() if self.visualize else Summary(en="done", zh="完成")
