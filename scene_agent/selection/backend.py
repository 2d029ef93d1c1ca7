"""`SelectionBackend`: where a selection channel keeps its sessions and how it wakes a waiting agent. Storage, not rules.

SelectionChannel (channel.py) owns the hand-off's rules: what is checked and in which order, which error each
refusal is and what it says, a session's status, more time. A backend only keeps and wakes, and answers with a
`Verdict` where a rule must be checked atomically with a write (an answer recorded only while there is none and
someone waits, whatever other servers do at the same moment). Two backends:

- files on this machine (selection/files/): the state directory, the selection file, a watchdog observer;
- Redis (selection/redis/): keys and Lua scripts, one blocking pop per waiting process.

The tests add a third, in memory, to show that this interface is all a channel needs (tests/selection/).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Generic, Literal, TypeVar, cast, get_args

from scene_agent.config import Settings
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.session import SelectionSession, SessionOutcome
from scene_agent.selection.views import ViewManifest

# What a write that depends on the session's state did: `done`; or nothing, because the session is not stored
# (`not_found`), has an outcome (`answered`) or nobody waits for it any more (`nobody_waiting`).
# `recovering`: the broker may just have been away, so what is missing may only not be back yet (a retry will tell).
Verdict = Literal["done", "not_found", "answered", "nobody_waiting", "recovering"]
_VERDICTS = frozenset(get_args(Verdict))


def verdict_of(text: str) -> Verdict | None:
    """A verdict read back from another process (the delivery child, a Lua script); None when it is not one."""
    return cast(Verdict, text) if text in _VERDICTS else None


@dataclass(frozen=True)
class ChannelHealth:
    """Whether the channel can be used now, for `doctor` and the health endpoint."""

    kind: str  # the backend's: "file", "redis"
    where: str  # for people; a broker URL without its password
    reachable: bool
    message: str
    latency_ms: float | None = None
    warning: str | None = None  # usable, but what an operator should know (a pick a crash could lose)


class SelectionBackend(ABC):
    """Sessions, outcomes, waiting claims, wake-ups and view manifests, kept for a SelectionChannel.

    Ids reach a backend checked (session.check_session_id). Errors of the storage itself (a disk that refuses, a
    broker away) are raised as SelectionNotDeliveredError or BrokerUnavailableError, with nothing recorded.
    """

    kind: ClassVar[str]  # "file", "redis": a name for people and for the health endpoint
    settings: Settings

    @abstractmethod
    def describe(self) -> str:
        """Which backend, where, in a few words for people."""

    @abstractmethod
    def health(self) -> ChannelHealth:
        """Whether the backend answers now; never raises."""

    @abstractmethod
    def create(self, session: SelectionSession, view: ViewManifest) -> bool:
        """Store a new session and its view manifest; False (nothing stored) when a session has its id already."""

    @abstractmethod
    def get(self, session_id: str) -> SelectionSession | None:
        """The stored session (as last given more time), or None."""

    @abstractmethod
    def outcome(self, session_id: str) -> SessionOutcome | None:
        """The session's recorded outcome, or None."""

    @abstractmethod
    def someone_waits(self, session_id: str) -> bool:
        """Whether a live process holds the session's waiting claim."""

    @abstractmethod
    def record(self, session: SelectionSession, outcome: SessionOutcome) -> Verdict:
        """Record the user's answer and wake the waiter, atomically: only while the session is stored, has no outcome
        and someone waits. `done` only once the waiter will see it (durable where the backend promises it)."""

    @abstractmethod
    def extend(self, session: SelectionSession) -> Verdict:
        """Store the session with its later deadline, on the same conditions as `record`."""

    @abstractmethod
    def watch(self, session: SelectionSession) -> PendingSelection:
        """Claim the session as waited for and listen for its outcome (the claim ends with the wait)."""

    @abstractmethod
    def write_view(self, view: ViewManifest) -> None:
        """Store a view-only manifest (no session)."""

    @abstractmethod
    def read_view(self, name: str) -> bytes | None:
        """A stored view manifest's JSON (its name checked against VIEW_NAME_RE), or None."""

    def deliver_in_child(self) -> None:
        """Record answers in a process of its own, where that pays (files: files/deliverer.py)."""
        return None

    def close(self) -> None:
        """Let go of what the backend started; idempotent."""
        return None

    def recover(self) -> list[str]:
        """At server start: mend what a server or a machine that died left behind; the sessions mended."""
        return []

    def settle(self, timeout_s: float) -> bool:
        """Return once this process has taken up every wait it was asked for so far (a listener may take them up one
        by one after `watch` returned), within `timeout_s`; whether it had. Files: at once."""
        return True


Wait = TypeVar("Wait", bound=PendingSelection)


class WaitRegistry(Generic[Wait]):
    """The waits a backend's waiter serves in one process, by key (a selection file's name, a session id): the same
    bookkeeping for every backend. The waiter holds its own lock around `add` and `remove`; the groups are tuples,
    replaced and never changed, so that a thread delivering wake-ups reads `of(key)` without that lock."""

    def __init__(self) -> None:
        self._groups: dict[str, tuple[Wait, ...]] = {}

    def add(self, key: str, wait: Wait) -> None:
        self._groups[key] = (*self._groups.get(key, ()), wait)

    def remove(self, key: str, wait: Wait) -> bool:
        """Forget the wait; True when no other wait is left under its key."""
        rest = tuple(w for w in self._groups.get(key, ()) if w is not wait)
        if rest:
            self._groups[key] = rest
        else:
            self._groups.pop(key, None)
        return not rest

    def of(self, key: str) -> tuple[Wait, ...]:
        return self._groups.get(key, ())

    def all(self) -> list[Wait]:
        return [w for group in list(self._groups.values()) for w in group]

    def __len__(self) -> int:
        return sum(len(group) for group in list(self._groups.values()))

    def __bool__(self) -> bool:
        return bool(self._groups)
