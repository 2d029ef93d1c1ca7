"""`SelectionChannel`: where selection sessions, their outcomes, the user's picks and view manifests meet.

The agent that asks and the API server that receives the pick may be different processes, on one machine or
on many. A channel is everything they share, behind one interface:

- `FileChannel` (file_channel.py), the default: the state directory and the selection file
  `viewer_selection_<id>.json`, the waiter woken by a watchdog file event (polling when it cannot start).
  Agent and server must see the same directories: one machine.
- `RedisChannel` (redis_channel.py), with `SCENE_AGENT_BROKER=redis://host:port/db`: sessions, outcomes, picks
  and views in Redis; any API server answers any session, and the pick is pushed to the waiting agent wherever
  it runs.

The visualize tool opens a session and waits through the channel it is given (tools/visualize.py); the API
server reads, answers and serves views through the channel of its app (api_server/app.py). Both keep the same
rules: one outcome per session (the first wins), a pick refused when nobody waits, 200 only once the waiter
will see it. See docs/selection-handoff.md.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

from scene_agent.config import Settings
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.selection_file import SelectionFile, selection_path
from scene_agent.selection.session import SelectionSession, SessionOutcome, SessionStatus, UserAnswerBy, check_open, status_of
from scene_agent.selection.views import ViewManifest

ChannelKind = Literal["file", "redis"]


@dataclass(frozen=True)
class ChannelHealth:
    """Whether the channel can be used now, for `doctor` and the health endpoint."""

    kind: ChannelKind
    where: str  # for people; a broker URL without its password
    reachable: bool
    message: str
    latency_ms: float | None = None


class SelectionChannel(ABC):
    """Sessions, outcomes, picks and views, shared by the agents that ask and the API servers that answer."""

    kind: ClassVar[ChannelKind]
    settings: Settings

    @abstractmethod
    def describe(self) -> str:
        """Which channel, where, in a few words for people (printed by `serve`, `doctor` and a waiting agent)."""

    @abstractmethod
    def health(self) -> ChannelHealth:
        """Whether the channel answers now; never raises."""

    # -- the agent's side ---------------------------------------------------------------------------------

    @abstractmethod
    def open(self, session: SelectionSession, view: ViewManifest) -> SelectionSession:
        """Store a new session (its id must be new) and the view manifest the viewer opens for it."""

    @abstractmethod
    def watch(self, session: SelectionSession) -> PendingSelection:
        """Claim the session as waited for and start listening for its answer; call `wait()` on the result.

        Call it before the session is shown to anyone, so that no answer can slip by; the claim ends with the wait.
        """

    def selection_file(self, session_id: str) -> Path:
        """Where the answer to the session appears as a file on this machine (selection_file.py): written by the API
        server that answers it when that server shares this machine's selection directory (with the file channel,
        always)."""
        return selection_path(self.settings.selection_dir, session_id)

    @abstractmethod
    def write_view(self, view: ViewManifest) -> None:
        """Store a view-only manifest (no session) where the API servers serve it."""

    # -- the API server's side ----------------------------------------------------------------------------

    @abstractmethod
    def read_view(self, name: str) -> bytes | None:
        """The stored JSON of a view manifest, or None when there is none (or the name is not well formed)."""

    @abstractmethod
    def get(self, session_id: str) -> SelectionSession:
        """The session; UsageError for a malformed id, SessionNotFoundError when there is none."""

    @abstractmethod
    def outcome(self, session_id: str) -> SessionOutcome | None:
        """How the session ended, or None while it has no recorded outcome."""

    def status(self, session: SelectionSession) -> tuple[SessionStatus, SessionOutcome | None]:
        """pending / confirmed / cancelled / expired, with the outcome when there is one."""
        return status_of(session, self.outcome(session.session_id))

    def check_open(self, session: SelectionSession) -> None:
        """Raise SessionAnsweredError / SessionExpiredError unless the session can still be answered."""
        check_open(session, *self.status(session))

    @abstractmethod
    def someone_waits(self, session_id: str) -> bool:
        """Whether a live process still waits for the session's answer."""

    @abstractmethod
    def submit(self, session_id: str, codes: list[str], *, by: UserAnswerBy = "viewer",
               words: str | None = None) -> SelectionFile:
        """Deliver the user's picks exactly once; returns only when the waiter will see them.

        Errors before anything is written: SessionNotFoundError, SessionAnsweredError, SessionExpiredError,
        InvalidSelectionError, NobodyWaitingError; SelectionNotDeliveredError / BrokerUnavailableError when the
        answer could not be made durable (nothing recorded: a retry may succeed).
        """

    @abstractmethod
    def cancel(self, session_id: str, *, by: UserAnswerBy = "viewer", words: str | None = None) -> SelectionFile:
        """Deliver the user's refusal to pick, as `submit` delivers a pick."""

    @abstractmethod
    def extend(self, session_id: str, seconds: float) -> SelectionSession:
        """Give the user `seconds` more to pick; the session as it is now. The waiter learns the new deadline.

        Errors as for an answer (404, 409, 410 expired or nobody waiting), and UnprocessableError beyond the
        limits (session.extended).
        """

    def deliver_in_child(self) -> None:
        """Run submits and cancels in a process of their own where that pays (the file channel: deliverer.py); a channel
        whose deliveries are one round trip to a server ignores it."""
        return None

    def close(self) -> None:
        """Let go of what the channel started (a delivery process); idempotent."""
        return None

    def recover(self) -> list[str]:
        """At server start: mend what a server or a machine that died left behind; the sessions mended."""
        return []


def open_channel(settings: Settings) -> SelectionChannel:
    """The channel the settings name: Redis when SCENE_AGENT_BROKER is set, else the files of this machine."""
    if settings.broker:
        from scene_agent.selection.redis_channel import RedisChannel  # imports redis only when a broker is used

        return RedisChannel(settings)
    from scene_agent.selection.file_channel import FileChannel

    return FileChannel(settings)
