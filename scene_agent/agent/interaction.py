"""The agent's two ways of asking the user: a pick in the viewer (selection) and a question dialog.

Both block the run, emit their events, honour a stop (Stop button, Ctrl-C) and leave a record in the
conversation: SELECTION for picks, CHOICE or FEEDBACK for questions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

from scene_agent.agent.control import RunControl
from scene_agent.agent.events import (
    EventSink,
    Question,
    QuestionAnswered,
    SelectionCancelled,
    SelectionExtended,
    SelectionReceived,
    SelectionRequired,
    SelectionTimeout,
)
from scene_agent.agent.records import ConversationRecords
from scene_agent.config import Settings
from scene_agent.selection.result import SelectionResult
from scene_agent.selection.session import SelectionSession, now_utc
from scene_agent.tools.question import (
    DEFAULT_QUESTION_TIMEOUT_S,
    NoUIError,
    QuestionDesk,
    QuestionInput,
    QuestionReply,
    QuestionRequest,
    QuestionResult,
    new_question_id,
    result_of,
    skipped_result,
)
from scene_agent.tools.visualize import VisOutput


class Interaction:
    """Where a run asks the user things, and what it remembers of the asking."""

    def __init__(self, settings: Settings, emit: EventSink, records: ConversationRecords, turn: int, *,
                 desk: QuestionDesk, questions_enabled: bool = True,
                 question_timeout: float = DEFAULT_QUESTION_TIMEOUT_S):
        self.settings = settings
        self.emit = emit
        self.records = records
        self.turn = turn
        self.desk = desk
        self.questions_enabled = questions_enabled
        self.question_timeout = question_timeout

    def link(self, call_id: str, control: RunControl) -> CallLink:
        """How the tool call `call_id` reaches the user: its picks and questions become this run's events and records."""
        return CallLink(self, call_id, control)

    def _shown(self, call_id: str, vis: VisOutput, session: SelectionSession, channel: str) -> None:
        self.records.add(id=session.session_id, turn=self.turn, type="SELECTION", priority="HIGH", title="Selection",
                         content=session.prompt, options=list(session.candidates), expires_at=session.expires_at.isoformat())
        self.emit(SelectionRequired(tool_call_id=call_id, session_id=session.session_id, viewer_url=vis.viewer_url or "",
                                    timeout=session.timeout, expires_at=session.expires_at.isoformat(),
                                    candidates=list(session.candidates), prompt=session.prompt, multiple=session.multiple,
                                    channel=channel))

    def _report(self, call_id: str, result: SelectionResult, timeout: float) -> None:
        sid = result.session_id
        if result.status == "confirmed":
            self.emit(SelectionReceived(tool_call_id=call_id, session_id=sid, selections=result.selections, codes=result.codes,
                                        words=result.words if result.answered_by == "words" else None))
            self.records.resolve(sid, "ANSWERED", result.codes)
        elif result.status == "timeout":
            self.emit(SelectionTimeout(tool_call_id=call_id, session_id=sid, timeout=timeout))
            self.records.resolve(sid, "EXPIRED")
        else:
            by = result.cancelled_by if result.status == "cancelled" and result.cancelled_by else "invalid"
            self.emit(SelectionCancelled(tool_call_id=call_id, session_id=sid, cancelled_by=by, reason=result.reason))
            self.records.resolve(sid, "IGNORED")

    def ask_question(self, call_id: str, parsed: QuestionInput, control: RunControl) -> QuestionResult:
        """Ask the questions in one dialog; `cancelled` without asking when the user said "don't ask me"."""
        if not self.questions_enabled:
            return skipped_result()
        qid = new_question_id()
        for i, q in enumerate(parsed.questions):
            self.records.add(id=f"{qid}:{i}", turn=self.turn, type="CHOICE" if q.options else "FEEDBACK", priority="MEDIUM",
                             title=q.header, content=q.question, options=list(q.options or []))
        self.emit(Question(tool_call_id=call_id, question_id=qid, timeout=self.question_timeout,
                           questions=parsed.questions))
        stop = threading.Event()
        unregister = control.on_stop(stop.set)
        try:
            reply = self.desk.ask(QuestionRequest(question_id=qid, questions=parsed.questions), self.question_timeout, stop)
        except NoUIError:
            self.emit(QuestionAnswered(tool_call_id=call_id, question_id=qid, status="no_ui"))
            self._resolve_questions(qid, parsed, QuestionReply(status="cancelled"))
            raise
        except KeyboardInterrupt:
            reply = QuestionReply(status="cancelled")
            control.stop("interrupted (Ctrl-C)")
        except Exception:
            # A broken channel (terminal gone, web dialog failed) must not leave the question open in the UI
            # or its records PENDING: it ends as cancelled, and the error goes on to the toolbox.
            self.emit(QuestionAnswered(tool_call_id=call_id, question_id=qid, status="cancelled"))
            self._resolve_questions(qid, parsed, QuestionReply(status="cancelled"))
            raise
        finally:
            unregister()
        self.emit(QuestionAnswered(tool_call_id=call_id, question_id=qid, status=reply.status,
                                   answers=reply.answers))
        self._resolve_questions(qid, parsed, reply)
        return result_of(reply)

    def _resolve_questions(self, qid: str, parsed: QuestionInput, reply: QuestionReply) -> None:
        answered = {a.question_index: a.answer for a in reply.answers}
        for i in range(len(parsed.questions)):
            if i in answered:
                self.records.resolve(f"{qid}:{i}", "ANSWERED", answered[i])
            else:
                self.records.resolve(f"{qid}:{i}", "EXPIRED" if reply.status == "timeout" else "IGNORED")


class CallLink:
    """One tool call's link to the user (tools/user_link.py): the run's events and records, the run's Stop."""

    def __init__(self, interaction: Interaction, call_id: str, control: RunControl):
        self._interaction = interaction
        self._call_id = call_id
        self._control = control
        self._timeout = 0.0  # the session's, once it is shown (a pick's time is the tool's: ToolContext)
        self._session: SelectionSession | None = None

    def selection_shown(self, vis: VisOutput, session: SelectionSession, channel: str) -> None:
        """A SELECTION record and the `selection_required` event."""
        self._session = session
        self._timeout = session.timeout
        self._interaction._shown(self._call_id, vis, session, channel)

    def selection_progress(self, seconds_left: float) -> None:
        """The page and the CLI count down from the event's expires_at themselves; more time given to the user
        (the deadline moved later) is told as a `selection_extended` event."""
        session = self._session
        if session is None:
            return
        expires_at = now_utc() + timedelta(seconds=seconds_left)
        if expires_at <= session.expires_at + timedelta(seconds=1):
            return
        timeout = round((expires_at - session.created_at).total_seconds(), 1)
        self._session = session.model_copy(update={"expires_at": expires_at})
        self._timeout = timeout
        self._interaction.emit(SelectionExtended(tool_call_id=self._call_id, session_id=session.session_id,
                                                 expires_at=expires_at.isoformat(), timeout=timeout))

    def on_stop(self, cancel: Callable[[str | None], None]) -> Callable[[], None]:
        """The run's Stop (or a stop for any reason) cancels the wait; one the person did not ask for says why."""
        control = self._control
        return control.on_stop(lambda: cancel(None if control.by_user else control.reason))

    def selection_ended(self, result: SelectionResult, interrupted: bool) -> None:
        """Ctrl-C stops the whole run; then the pick's event and record."""
        if interrupted:
            self._control.stop("interrupted (Ctrl-C)")
        self._interaction._report(self._call_id, result, self._timeout)

    def ask(self, questions: QuestionInput) -> QuestionResult:
        """A question dialog for this call."""
        return self._interaction.ask_question(self._call_id, questions, self._control)
