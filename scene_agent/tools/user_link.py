"""`UserLink`: how one tool call reaches the user, for the tools that wait on them (visualize's pick, question).

The caller of a tool gives it one: the agent's links emit run events and keep the conversation's records
(agent/interaction.py), `scene-agent vis --select` prints to the terminal (cli/vis_cmds.py). A tool run
with no link (`NO_USER`) still waits for a pick, showing nothing, and cannot ask questions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from scene_agent.tools.question import NoUIError

if TYPE_CHECKING:
    from scene_agent.selection.result import SelectionResult
    from scene_agent.selection.session import SelectionSession
    from scene_agent.tools.question import QuestionInput, QuestionResult
    from scene_agent.tools.visualize import VisOutput


class UserLink(Protocol):
    """The user as one tool call sees them."""

    def selection_shown(self, vis: VisOutput, session: SelectionSession, channel: str) -> None:
        """The session can be answered now (its wait is registered): tell the user where to pick."""

    def selection_progress(self, seconds_left: float) -> None:
        """About once a second while the pick is awaited."""

    def on_stop(self, cancel: Callable[[str | None], None]) -> Callable[[], None]:
        """Call `cancel(why)` when the run is stopped (the Stop button, the server shutting down); returns a function
        that unregisters it."""

    def selection_ended(self, result: SelectionResult, interrupted: bool) -> None:
        """How the wait ended; `interrupted` when Ctrl-C (or SIGTERM) ended it."""

    def ask(self, questions: QuestionInput) -> QuestionResult:
        """Ask questions in one dialog and wait for the answers (NoUIError when they cannot be shown)."""


class NoUser:
    """A link to nobody: picks are waited for without being announced; questions raise NoUIError."""

    def selection_shown(self, vis: VisOutput, session: SelectionSession, channel: str) -> None:
        """Nothing is shown."""

    def selection_progress(self, seconds_left: float) -> None:
        """Nothing is shown."""

    def on_stop(self, cancel: Callable[[str | None], None]) -> Callable[[], None]:
        """Nothing stops the wait but its end."""
        return lambda: None

    def selection_ended(self, result: SelectionResult, interrupted: bool) -> None:
        """Nothing is shown."""

    def ask(self, questions: QuestionInput) -> QuestionResult:
        """There is nobody to ask."""
        raise NoUIError("no way to ask the user here (no terminal and no web chat); decide without asking")


NO_USER = NoUser()
