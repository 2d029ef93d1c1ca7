"""`SelectionChannel`: the selection hand-off's rules, written once, over a backend that keeps and wakes.

The agent that asks and the API server that receives the pick may be different processes, on one machine or on
many. A channel is everything they share. Its rules, the same whichever backend keeps the sessions:

- a session id is checked before anything is looked up (422 for a malformed one), and a session that is not
  stored is 404;
- an answer (a pick, a refusal, more time) is checked in this order: the session ended (409 answered, 410
  expired), the picks or the time asked do not fit (422), nobody waits for the answer any more (410); nothing is
  written before all of them pass;
- one outcome per session, the first wins; a 200 only once the waiter will see it;
- the words of every refusal are said here (session.py names them for both sides of the hand-off).

The backend (backend.py) is files on this machine (selection/files/, the default) or Redis
(selection/redis/, with `SCENE_AGENT_BROKER=redis://host:port/db`: any API server answers any session, wherever
the agent waits). The visualize tool opens a session and waits through the channel it is given
(tools/visualize.py); the API server reads, answers and serves views through its app's (api_server/app.py). See
docs/selection-handoff.md.
"""

from __future__ import annotations

from pathlib import Path

from scene_agent.config import Settings
from scene_agent.errors import SessionAnsweredError, SessionNotFoundError
from scene_agent.selection.backend import ChannelHealth, SelectionBackend, Verdict
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.selection_file import SelectionFile, answer_file, selection_path
from scene_agent.selection.session import (
    SelectionSession,
    SessionOutcome,
    SessionStatus,
    UserAnswerBy,
    cancelled_outcome,
    check_open,
    check_session_id,
    confirmed_outcome,
    extended,
    nobody_waiting,
    recovering,
    status_of,
)
from scene_agent.selection.views import ViewManifest


class SelectionChannel:
    """Sessions, outcomes, picks and views, shared by the agents that ask and the API servers that answer."""

    def __init__(self, backend: SelectionBackend):
        self.backend = backend
        self.settings: Settings = backend.settings

    @property
    def kind(self) -> str:
        """The backend's name: "file" or "redis"."""
        return self.backend.kind

    def describe(self) -> str:
        """Which channel, where, in a few words for people (printed by `serve`, `doctor` and a waiting agent)."""
        return self.backend.describe()

    def health(self) -> ChannelHealth:
        """Whether the channel answers now; never raises."""
        return self.backend.health()

    # -- the agent's side ---------------------------------------------------------------------------------

    def open(self, session: SelectionSession, view: ViewManifest) -> SelectionSession:
        """Store a new session (its id must be new) and the view manifest the viewer opens for it."""
        if not self.backend.create(session, view):
            raise SessionAnsweredError(f"session {session.session_id} already exists")
        return session

    def watch(self, session: SelectionSession) -> PendingSelection:
        """Claim the session as waited for and start listening for its answer; call `wait()` on the result.

        Call it before the session is shown to anyone, so that no answer can slip by; the claim ends with the wait.
        """
        return self.backend.watch(session)

    def selection_file(self, session_id: str) -> Path:
        """Where the answer to the session appears as a file on this machine (selection_file.py): written by the API
        server that answers it when that server shares this machine's selection directory (with files, always)."""
        return selection_path(self.settings.selection_dir, session_id)

    def write_view(self, view: ViewManifest) -> None:
        """Store a view-only manifest (no session) where the API servers serve it."""
        self.backend.write_view(view)

    # -- the API server's side ----------------------------------------------------------------------------

    def read_view(self, name: str) -> bytes | None:
        """The stored JSON of a view manifest, or None when there is none (or the name is not well formed)."""
        return self.backend.read_view(name)

    def get(self, session_id: str) -> SelectionSession:
        """The session; UsageError for a malformed id, SessionNotFoundError when there is none."""
        session = self.backend.get(check_session_id(session_id))
        if session is None:
            raise SessionNotFoundError(f"no selection session {session_id}")
        return session

    def outcome(self, session_id: str) -> SessionOutcome | None:
        """How the session ended, or None while it has no recorded outcome."""
        return self.backend.outcome(check_session_id(session_id))

    def status(self, session: SelectionSession) -> tuple[SessionStatus, SessionOutcome | None]:
        """pending / confirmed / cancelled / expired, with the outcome when there is one."""
        return status_of(session, self.outcome(session.session_id))

    def check_open(self, session: SelectionSession) -> None:
        """Raise SessionAnsweredError / SessionExpiredError unless the session can still be answered."""
        check_open(session, *self.status(session))

    def someone_waits(self, session_id: str) -> bool:
        """Whether a live process still waits for the session's answer."""
        return self.backend.someone_waits(check_session_id(session_id))

    def submit(self, session_id: str, codes: list[str], *, by: UserAnswerBy = "viewer",
               words: str | None = None) -> SelectionFile:
        """Deliver the user's picks exactly once; returns only when the waiter will see them.

        Errors before anything is written: SessionNotFoundError, SessionAnsweredError, SessionExpiredError,
        InvalidSelectionError, NobodyWaitingError; SelectionNotDeliveredError / BrokerUnavailableError when the
        answer could not be made durable (nothing recorded: a retry may succeed).
        """
        session = self.get(session_id)
        self.check_open(session)
        return self._deliver(session, confirmed_outcome(session, codes, by=by, words=words))

    def cancel(self, session_id: str, *, by: UserAnswerBy = "viewer", words: str | None = None) -> SelectionFile:
        """Deliver the user's refusal to pick, as `submit` delivers a pick."""
        session = self.get(session_id)
        self.check_open(session)
        return self._deliver(session, cancelled_outcome(session, by=by, words=words))

    def extend(self, session_id: str, seconds: float) -> SelectionSession:
        """Give the user `seconds` more to pick; the session as it is now. The waiter learns the new deadline.

        Errors as for an answer (404, 409, 410 expired or nobody waiting), and UnprocessableError beyond the
        limits (session.extended).
        """
        session = self.get(session_id)
        self.check_open(session)
        longer = extended(session, seconds)
        self._refuse_unless_done(session, self.backend.extend(longer))
        return longer

    def _deliver(self, session: SelectionSession, outcome: SessionOutcome) -> SelectionFile:
        self._refuse_unless_done(session, self.backend.record(session, outcome))
        return answer_file(outcome)

    def _refuse_unless_done(self, session: SelectionSession, verdict: Verdict) -> None:
        """The error a verdict other than `done` is (the backend wrote nothing)."""
        if verdict == "done":
            return
        if verdict == "answered":
            self.check_open(session)  # raises 409 (or 410 after the expiry) naming who answered
            raise SessionAnsweredError(f"selection session {session.session_id} was already answered")
        if verdict == "nobody_waiting":
            raise nobody_waiting(session.session_id)
        if verdict == "recovering":
            raise recovering(session.session_id)
        raise SessionNotFoundError(f"no selection session {session.session_id}")

    # -- the server's life --------------------------------------------------------------------------------

    def deliver_in_child(self) -> None:
        """Record answers in a process of their own where that pays (files: files/deliverer.py); a backend whose
        deliveries are one round trip to a server ignores it."""
        self.backend.deliver_in_child()

    def close(self) -> None:
        """Let go of what the channel started (a delivery process); idempotent."""
        self.backend.close()

    def recover(self) -> list[str]:
        """At server start: mend what a server or a machine that died left behind; the sessions mended."""
        return self.backend.recover()

    def settle(self, timeout_s: float) -> bool:
        """Return once every wait started here is taken up (a benchmark's fair start); whether it was in `timeout_s`."""
        return self.backend.settle(timeout_s)


def open_channel(settings: Settings) -> SelectionChannel:
    """The channel the settings name: Redis when SCENE_AGENT_BROKER is set, else the files of this machine."""
    if settings.broker:
        from scene_agent.selection.redis.backend import RedisBackend  # imports redis only when a broker is used

        return SelectionChannel(RedisBackend(settings))
    from scene_agent.selection.files.backend import FileBackend

    return SelectionChannel(FileBackend(settings))
