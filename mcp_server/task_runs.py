"""The tasks of one server (protocol 2025-11-25): a tool call the host asked to run as a task, its status, its result.

A task belongs to the connection that created it (another connection neither sees nor reaches it) and is kept for
its time to live after it was created, then forgotten. Its id is random and unguessable. See mcp_server/tasks.py for
the protocol side.
"""

from __future__ import annotations

import asyncio
import secrets
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from mcp_types import Task, TaskStatus

POLL_MS = 1000  # how often a host is told to ask for a task's status
DEFAULT_TTL_MS = 30 * 60 * 1000  # a task (and its result) is kept this long after it was created, unless asked otherwise
MAX_TTL_MS = 24 * 60 * 60 * 1000
TERMINAL: frozenset[TaskStatus] = frozenset({"completed", "failed", "cancelled"})


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(eq=False)
class TaskRun:
    """One task: what it is doing (its status and a sentence on it) and, once it ended, the call's result."""

    task_id: str
    owner: object  # the connection it belongs to
    ttl_ms: int
    created_at: datetime = field(default_factory=_now)
    updated_at: datetime = field(default_factory=_now)
    status: TaskStatus = "working"
    message: str | None = None
    outcome: dict[str, Any] | None = None  # the call's result as sent, once the task ended
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    runner: asyncio.Task[None] | None = None

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL

    def say(self, message: str) -> None:
        """What the task is doing now, for the host that asks (tasks/get)."""
        if not self.terminal and message != self.message:
            self.message, self.updated_at = message, _now()

    def end(self, status: TaskStatus, outcome: dict[str, Any], message: str | None = None) -> None:
        """The task is over (completed, failed or cancelled) with this result; a second end changes nothing."""
        if self.terminal:
            return
        self.status, self.outcome, self.updated_at = status, outcome, _now()
        self.message = message
        self.ended.set()

    def expired(self, now: datetime) -> bool:
        return now - self.created_at > timedelta(milliseconds=self.ttl_ms)

    def task(self) -> Task:
        """The task as the protocol shows it."""
        return Task(task_id=self.task_id, status=self.status, status_message=self.message,
                    created_at=_iso(self.created_at), last_updated_at=_iso(self.updated_at), ttl=self.ttl_ms,
                    poll_interval=POLL_MS)


class UnknownTaskError(LookupError):
    """No task of this connection has that id (never made here, or forgotten after its time to live)."""


class TaskRuns:
    """The tasks of every connection of this server, by id."""

    def __init__(self) -> None:
        self._runs: dict[str, TaskRun] = {}

    def add(self, owner: object, ttl_ms: int | None) -> TaskRun:
        self._forget_expired()
        ttl = DEFAULT_TTL_MS if ttl_ms is None else max(POLL_MS, min(ttl_ms, MAX_TTL_MS))
        run = TaskRun(task_id=secrets.token_urlsafe(16), owner=owner, ttl_ms=ttl)
        self._runs[run.task_id] = run
        return run

    def get(self, owner: object, task_id: str) -> TaskRun:
        self._forget_expired()
        run = self._runs.get(task_id)
        if run is None or run.owner is not owner:
            raise UnknownTaskError(f"no task {task_id!r} here (never created on this connection, or kept no longer: "
                              "a task is kept for its ttl after it was created)")
        return run

    def of(self, owner: object) -> list[TaskRun]:
        self._forget_expired()
        return [run for run in self._runs.values() if run.owner is owner]

    def _forget_expired(self) -> None:
        now = _now()
        for task_id in [task_id for task_id, run in self._runs.items() if run.terminal and run.expired(now)]:
            del self._runs[task_id]


# The task a tool call runs as, while it runs (unset for a call answered in its own request).
current_run: ContextVar[TaskRun | None] = ContextVar("current_run", default=None)
