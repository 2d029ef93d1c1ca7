"""`SelectionSession` (what the user is asked to pick from) and `SessionOutcome` (how it ended)."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from scene_agent.errors import (
    InvalidSelectionError,
    NobodyWaitingError,
    SelectionRecoveringError,
    SessionAnsweredError,
    SessionExpiredError,
    UnprocessableError,
    UsageError,
)
from scene_agent.model import Model
from scene_agent.scene.codes import is_code, kind_of
from scene_agent.selection.limits import DEFAULT_TIMEOUT_S as DEFAULT_TIMEOUT_S
from scene_agent.selection.limits import MAX_TIMEOUT_S as MAX_TIMEOUT_S

SESSION_ID_RE = re.compile(r"^[0-9a-f]{32}$")
MAX_EXTENSION_S = 600.0  # one "more time" adds at most this much
MIN_LEFT_TO_EXTEND_S = 1.0  # closer to the deadline the waiter may be closing the session: too late to extend

SessionMode = Literal["room", "objects", "multi-room"]
SessionStatus = Literal["pending", "confirmed", "cancelled", "expired"]


def new_session_id() -> str:
    """32 lowercase hex characters from the OS's CSPRNG: unguessable, and safe inside a file name."""
    return secrets.token_hex(16)


def check_session_id(session_id: object) -> str:
    """The id itself, or UsageError: a malformed id never reaches a path."""
    # fullmatch, not match: "$" would also match before a trailing newline.
    if not isinstance(session_id, str) or not SESSION_ID_RE.fullmatch(session_id):
        raise UsageError("session_id must be 32 lowercase hex characters")
    return session_id


# Ended sessions stay this long after expiry, on every backend, so that a late Confirm gets 409/410, not 404.
RETAIN_AFTER_EXPIRY = timedelta(hours=1)


def selection_view(session_id: str) -> str:
    """The name of a selection session's view manifest, `select-<session id>` (views.py VIEW_NAME_RE), served at
    /manifests/<name>.json."""
    return f"select-{session_id}"


def now_utc() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


def mode_for(codes: list[str]) -> SessionMode:
    """'room' for one room, 'multi-room' for several, 'objects' for objects."""
    kinds = {kind_of(code) for code in codes}
    if kinds == {"room"}:
        return "room" if len(codes) == 1 else "multi-room"
    if kinds == {"object"}:
        return "objects"
    raise UsageError("selection candidates must be all rooms or all objects, not floors or a mix")


class _Model(Model):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PickedItem(_Model):
    """One pick as the selection file records it."""

    itemCode: str = Field(description="Code of the picked room or object, e.g. '0-2-3'.")  # noqa: N815 - wire name
    type: Literal["room", "object"]
    label: str = Field(description="What the item is: an object's label or a room's type/name.")


class SelectionSession(_Model):
    """A request to the user to pick among candidates in the viewer; stored where agent and server both see it."""

    session_id: str = Field(pattern=SESSION_ID_RE.pattern)
    mode: SessionMode
    candidates: list[str] = Field(min_length=1)
    labels: dict[str, str] = Field(description="What each candidate is, by code.")
    prompt: str
    multiple: bool = False
    timeout: float = Field(default=DEFAULT_TIMEOUT_S, gt=0, le=MAX_TIMEOUT_S)
    created_at: datetime
    expires_at: datetime
    scene_id: str
    view: str | None = Field(default=None, pattern=r"^[a-z]+-[0-9a-f]{16,32}$",
                             description="Name of the view manifest the viewer opens.")

    @field_validator("candidates")
    @classmethod
    def _codes(cls, v: list[str]) -> list[str]:
        bad = [c for c in v if not is_code(c) or c.count("-") == 0]
        if bad:
            raise ValueError(f"not room or object codes: {', '.join(bad)}")
        if len(set(v)) != len(v):
            raise ValueError("candidates repeat a code")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> SelectionSession:
        if self.expires_at <= self.created_at:
            raise ValueError("expires_at must be after created_at")
        if set(self.labels) - set(self.candidates):
            raise ValueError("labels name codes that are not candidates")
        return self

    @classmethod
    def create(cls, candidates: list[str], labels: dict[str, str], prompt: str, *, scene_id: str,
               multiple: bool = False, timeout: float = DEFAULT_TIMEOUT_S, view: str | None = None) -> SelectionSession:
        """A new pending session with a fresh id, starting now."""
        created = now_utc()
        return cls(session_id=new_session_id(), mode=mode_for(candidates), candidates=candidates, labels=labels,
                   prompt=prompt, multiple=multiple, timeout=timeout, created_at=created,
                   expires_at=created + timedelta(seconds=timeout), scene_id=scene_id, view=view)

    def seconds_left(self, now: datetime | None = None) -> float:
        """Seconds until the session expires (0 when it has)."""
        return max(0.0, (self.expires_at - (now or now_utc())).total_seconds())

    def picked(self, code: str) -> PickedItem:
        """The selection-file record of one candidate."""
        return PickedItem(itemCode=code, type="room" if code.count("-") == 1 else "object", label=self.labels.get(code, code))

    def check_picks(self, codes: list[str]) -> list[str]:
        """Problems with these picks (empty when they fit the session)."""
        problems = []
        if not codes:
            problems.append("pick at least one candidate")
        if len(codes) > 1 and not self.multiple:
            problems.append(f"this session takes one pick, got {len(codes)}")
        if len(set(codes)) != len(codes):
            problems.append("a candidate is picked twice")
        strangers = [c for c in dict.fromkeys(codes) if c not in self.candidates]
        if strangers:
            problems.append(f"not among the candidates ({', '.join(self.candidates)}): {', '.join(strangers)}")
        return problems


# Who, of the user's ways to answer, gave an outcome: the viewer, words typed in a chat, an MCP host's own dialog.
UserAnswerBy = Literal["viewer", "words", "host"]
USER_ANSWERS: tuple[UserAnswerBy, ...] = ("viewer", "words", "host")  # the others are the agent's: a stop, a timeout


class SessionOutcome(_Model):
    """How a session ended. Exactly one is recorded per session: the first to claim it wins."""

    session_id: str = Field(pattern=SESSION_ID_RE.pattern)
    status: Literal["confirmed", "cancelled", "expired", "invalid"]
    by: Literal["viewer", "words", "host", "caller", "waiter"] = Field(
        description="viewer: the user in the viewer; words: the user in words (the chat); host: the user in an MCP "
                    "host's own dialog; caller: the waiting agent (Ctrl-C, Stop); waiter: timeout or a bad file.")
    words: str | None = Field(default=None, max_length=300, description="What the user typed, when they answered in words.")
    selections: list[PickedItem] = Field(default_factory=list)
    reason: str | None = None
    at: datetime

    @property
    def session_status(self) -> SessionStatus:
        """The status the API reports for a session that ended this way."""
        return "expired" if self.status == "expired" else "confirmed" if self.status == "confirmed" else "cancelled"


def extended(session: SelectionSession, seconds: float) -> SelectionSession:
    """The session with `seconds` more to pick (after the current deadline); UnprocessableError beyond MAX_TIMEOUT_S
    in all, SessionExpiredError when too little time is left to extend it safely."""
    left = session.seconds_left()
    if left < MIN_LEFT_TO_EXTEND_S:
        raise SessionExpiredError(f"selection session {session.session_id} is about to expire ({left:.1f} s left): "
                                  "too late to add time")
    if not 0 < seconds <= MAX_EXTENSION_S:
        raise UnprocessableError(f"more time must be between 0 and {MAX_EXTENSION_S:g} seconds, not {seconds:g}")
    expires_at = session.expires_at + timedelta(seconds=seconds)
    total = (expires_at - session.created_at).total_seconds()
    if total > MAX_TIMEOUT_S:
        raise UnprocessableError(f"selection session {session.session_id} would last {total:.0f} s; at most "
                                 f"{MAX_TIMEOUT_S:g} s in all")
    return session.model_copy(update={"expires_at": expires_at, "timeout": round(total, 3)})


def status_of(session: SelectionSession, outcome: SessionOutcome | None) -> tuple[SessionStatus, SessionOutcome | None]:
    """pending / confirmed / cancelled / expired for a session with this outcome (None: none recorded yet)."""
    if outcome is not None:
        return outcome.session_status, outcome
    return ("expired" if session.seconds_left() <= 0 else "pending"), None


def check_open(session: SelectionSession, status: SessionStatus, outcome: SessionOutcome | None) -> None:
    """Raise SessionExpiredError / SessionAnsweredError unless a session in this state can still be answered."""
    if status == "expired":
        raise SessionExpiredError(f"selection session {session.session_id} expired at "
                                  f"{session.expires_at.isoformat(timespec='seconds')}")
    if outcome is not None:
        who = {"viewer": "in the viewer", "words": "in words", "host": "in the MCP host", "caller": "by the agent",
               "waiter": "by the agent"}[outcome.by]
        raise SessionAnsweredError(f"selection session {session.session_id} was already {outcome.status} {who}")


def nobody_waiting(session_id: str) -> NobodyWaitingError:
    """The refusal of an answer (or of more time) for a session whose asking program stopped waiting: every channel
    says it in these words."""
    return NobodyWaitingError(f"nobody is waiting for the answer to selection session {session_id} any more "
                              "(the program that asked has stopped); nothing was recorded")


def recovering(session_id: str) -> SelectionRecoveringError:
    """The answer to a session the broker may only not have back yet: retry in a moment."""
    return SelectionRecoveringError(f"the selection service is recovering (its broker was away or restarted) and "
                                    f"selection session {session_id} may only not be back yet; nothing was recorded: "
                                    "send the pick again in a moment")


def confirmed_outcome(session: SelectionSession, codes: list[str], *, by: UserAnswerBy,
                      words: str | None = None) -> SessionOutcome:
    """The outcome of the user picking `codes`; InvalidSelectionError when they do not fit the session."""
    problems = session.check_picks(codes)
    if problems:
        raise InvalidSelectionError("; ".join(problems))
    return SessionOutcome(session_id=session.session_id, status="confirmed", by=by, words=words,
                          selections=[session.picked(code) for code in codes], at=now_utc())


def cancelled_outcome(session: SelectionSession, *, by: UserAnswerBy, words: str | None = None) -> SessionOutcome:
    """The outcome of the user declining to pick."""
    return SessionOutcome(session_id=session.session_id, status="cancelled", by=by, words=words, at=now_utc())
