"""Jobs: a tool call that may wait for the user runs in a thread of its own; the MCP side follows its milestones.

`ask` (the whole agent) and `visualize` in selection mode wait for a pick through the selection channel, in
a plain thread, exactly as they do behind the CLI and the web chat. The MCP request that started them (or a
later `wait_for_selection`, or the second round of a 2026-07-28 `input_required` call) follows the job: each
time a pick is needed the job says so (`PickNeeded`: the session, its viewer URL, the candidates), and at the
end it hands over its result (`Finished`). The MCP side asks the host for the pick meanwhile
(mcp_server/picks.py). Stopping the job's `RunControl` (the host cancelled, the user declined) closes the
session as cancelled, so the viewer shows it.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from pydantic import BaseModel

from scene_agent.agent.control import RunControl
from scene_agent.agent.events import AgentEvent, SelectionCancelled, SelectionReceived, SelectionRequired, SelectionTimeout
from scene_agent.errors import SceneAgentError
from scene_agent.language.words import Lang
from scene_agent.selection.result import SelectionResult
from scene_agent.selection.session import SelectionSession
from scene_agent.tools.question import NoUIError, QuestionInput, QuestionResult
from scene_agent.tools.visualize import VisOutput

log = logging.getLogger(__name__)

MAX_KEPT_JOBS = 256  # finished jobs kept for a late wait_for_selection; the oldest go first
DONE_JOB_RETENTION_S = 600.0
STOP_WAIT_S = 1.5  # at shutdown, how long the jobs have to close their picks (the process ends within 2 s)
CANCEL_WAIT_S = 5.0  # a pick cancelled for the host (cancel_selection, a form answered wrong) is closed before it hears


@dataclass(frozen=True)
class PickNeeded:
    """The job waits for the user to pick among candidates in the viewer."""

    session_id: str
    viewer_url: str
    candidates: list[str]
    prompt: str
    multiple: bool
    expires_at: datetime
    timeout: float
    channel: str
    vis: VisOutput | None = None  # what visualize showed (None for an agent run's picks)

    @property
    def seconds_left(self) -> float:
        """Until the session expires."""
        return max(0.0, self.expires_at.timestamp() - time.time())


@dataclass(frozen=True)
class Finished:
    """The job's tool returned (`value`) or failed (`error`, said for people and models)."""

    value: BaseModel | None = None
    error: SceneAgentError | None = None


Milestone = PickNeeded | Finished


@dataclass
class Job:
    """One tool call running in a thread; its milestones in order; a stop switch for its waits."""

    tool: str
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    control: RunControl = field(default_factory=RunControl)
    picks: list[SelectionResult] = field(default_factory=list)
    pick: PickNeeded | None = None  # the pick waited for now
    sessions: set[str] = field(default_factory=set)  # every session it asked a pick in
    finished: Finished | None = None
    finished_at: float | None = None
    lang: Lang = "en"  # the language of the question (ask): what its results say
    inline: bool = False  # the host shows the viewer in the conversation (an MCP App) with each result
    viewer_opened: str | None = None  # the session of a URL elicitation whose end the host is yet to be told
    ended: threading.Event = field(default_factory=threading.Event)
    _milestones: queue.Queue[Milestone] = field(default_factory=queue.Queue)

    def start(self, work: Callable[[Job], BaseModel]) -> Job:
        """Run `work(self)` in a thread of its own; its result (or error) is the last milestone."""
        threading.Thread(target=self._run, args=(work,), name=f"mcp-{self.tool}-{self.id}", daemon=True).start()
        return self

    def _run(self, work: Callable[[Job], BaseModel]) -> None:
        try:
            done = Finished(value=work(self))
        except SceneAgentError as exc:
            done = Finished(error=exc)
        except Exception as exc:  # a bug in a tool must end the MCP call with an error, not hang it
            log.exception("the %s job failed", self.tool)
            done = Finished(error=SceneAgentError(f"{self.tool} failed: {type(exc).__name__}: {exc}"))
        self.pick, self.finished, self.finished_at = None, done, time.monotonic()
        self._milestones.put(done)
        self.ended.set()

    def next_milestone(self, timeout: float | None) -> Milestone | None:
        """The next milestone, waiting up to `timeout` s (None: until there is one); None when none came.

        The end stands once it came, whoever took it off the queue: a call the host gave up on may still be running
        out its wait and take it first.
        """
        try:
            return self._milestones.get(timeout=timeout)
        except queue.Empty:
            return self.finished

    def needs_pick(self, pick: PickNeeded) -> None:
        """Called from the job's thread once the session is claimed: the host may be asked now."""
        self.pick = pick
        self.sessions.add(pick.session_id)
        self._milestones.put(pick)

    def picked(self, result: SelectionResult) -> None:
        """How a pick ended (the job's thread)."""
        self.pick = None
        self.picks.append(result)

    def see(self, event: AgentEvent) -> None:
        """An agent run's events: the picks it asks for and how they end."""
        match event:
            case SelectionRequired():
                self.needs_pick(PickNeeded(session_id=event.session_id, viewer_url=event.viewer_url,
                                           candidates=list(event.candidates), prompt=event.prompt, multiple=event.multiple,
                                           expires_at=datetime.fromisoformat(event.expires_at), timeout=event.timeout,
                                           channel=event.channel or ""))
            case SelectionReceived() | SelectionTimeout() | SelectionCancelled():
                self.pick = None


class JobLink:
    """The user as a `visualize` job sees them (tools/user_link.py): a pick is announced as a milestone."""

    def __init__(self, job: Job):
        self.job = job

    def selection_shown(self, vis: VisOutput, session: SelectionSession, channel: str) -> None:
        """The session is claimed: the MCP side may ask the host now."""
        self.job.needs_pick(PickNeeded(session_id=session.session_id, viewer_url=vis.viewer_url or "",
                                       candidates=list(session.candidates), prompt=session.prompt,
                                       multiple=session.multiple, expires_at=session.expires_at,
                                       timeout=session.timeout, channel=channel, vis=vis))

    def selection_progress(self, seconds_left: float) -> None:
        """The MCP side reports progress itself."""

    def on_stop(self, cancel: Callable[[str | None], None]) -> Callable[[], None]:
        """The host's cancellation (or a declined elicitation) stops the job, which cancels the wait."""
        control = self.job.control
        return control.on_stop(lambda: cancel(None if control.by_user else control.reason))

    def selection_ended(self, result: SelectionResult, interrupted: bool) -> None:
        """Kept for the job's result."""
        self.job.picked(result)

    def ask(self, questions: QuestionInput) -> QuestionResult:
        """Questions are not asked through MCP: the model decides."""
        raise NoUIError("questions are not asked through MCP; decide without asking")


class Jobs:
    """The jobs of one MCP server, by id and by the session they wait on; finished ones kept a while."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()

    def add(self, job: Job) -> Job:
        """Keep a job (dropping finished ones long past)."""
        with self._lock:
            self._jobs[job.id] = job
            now = time.monotonic()
            for old in list(self._jobs.values()):
                done_long_ago = old.finished_at is not None and now - old.finished_at > DONE_JOB_RETENTION_S
                if done_long_ago or (len(self._jobs) > MAX_KEPT_JOBS and old.finished is not None):
                    del self._jobs[old.id]
        return job

    def get(self, job_id: str) -> Job | None:
        """The job with this id, if kept."""
        with self._lock:
            return self._jobs.get(job_id)

    def by_session(self, session_id: str) -> Job | None:
        """The job that waits (or waited) on this session."""
        with self._lock:
            jobs = list(self._jobs.values())
        return next((job for job in reversed(jobs) if session_id in job.sessions), None)

    def stop_all(self, reason: str, wait: float = STOP_WAIT_S) -> None:
        """Stop every job still running (the server is shutting down) and wait up to `wait` s for them to end, so that
        their picks are closed as cancelled before the process goes."""
        with self._lock:
            running = [job for job in self._jobs.values() if job.finished is None]
        for job in running:
            job.control.stop(reason, by_user=False)
        deadline = time.monotonic() + wait
        for job in running:
            job.ended.wait(max(0.0, deadline - time.monotonic()))
