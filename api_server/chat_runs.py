"""The web chat's conversations and runs: each conversation is a `SceneAgent` (history, records); each
message starts a run in a worker thread whose events are kept, numbered from 1, for every reader.

A browser reads a run's events as a stream and may drop and resume it at any point: the events stay
until the run is long finished and evicted. A conversation has one run at a time (its history is
sequential); stopping a run cancels the selection or question it waits on.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from api_server.web_questions import WebQuestions
from scene_agent.agent.control import RunControl
from scene_agent.agent.events import (
    AgentEvent,
    Final,
    Question,
    SelectionCancelled,
    SelectionReceived,
    SelectionRequired,
    SelectionTimeout,
    event_json,
)
from scene_agent.agent.pick_in_words import WordsAnswer, answer_in_words
from scene_agent.agent.planner import Planner
from scene_agent.agent.scene_agent import SceneAgent, default_planner
from scene_agent.config import Settings
from scene_agent.errors import BusyError, ConflictError, NotFoundError
from scene_agent.language.words import Lang, detect_language
from scene_agent.resolution.viewpoint import Viewpoint
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.session import DEFAULT_TIMEOUT_S, new_session_id
from scene_agent.tools.question import DEFAULT_QUESTION_TIMEOUT_S

MAX_CONVERSATIONS = 64
MAX_FINISHED_RUNS = 256


class RunNotFoundError(NotFoundError):
    """No run with this id (never started here, or finished long ago)."""

    code = "run_not_found"


class ConversationNotFoundError(NotFoundError):
    """No conversation with this id on this server (it restarted, or the conversation was idle and evicted)."""

    code = "conversation_not_found"


class NoPickWaitingError(ConflictError):
    """Words meant for a pick came when no pick was waiting (it was answered, cancelled or timed out meanwhile)."""

    code = "no_pick_waiting"


class RunInProgressError(ConflictError):
    """The conversation is still answering its previous message."""

    code = "run_in_progress"


def new_id() -> str:
    """An unguessable id: 32 lowercase hex characters, like a selection session's."""
    return new_session_id()


class Run:
    """One message being answered: its events, numbered from 1, for any number of readers."""

    def __init__(self, run_id: str, conversation_id: str, message: str, viewpoint: Viewpoint | None = None):
        self.run_id = run_id
        self.conversation_id = conversation_id
        self.message = message
        self.viewpoint = viewpoint  # what the person saw when they sent the message (the viewer's camera)
        self.control = RunControl()
        self.final: Final | None = None
        self.lang: Lang | None = None
        self.pick: SelectionRequired | None = None  # the pick in the viewer the run waits for, if it does
        self._events: list[str] = []
        self._changed = threading.Condition()

    @property
    def finished(self) -> bool:
        """True once the `final` event is out."""
        return self.final is not None

    @property
    def event_count(self) -> int:
        """How many events so far."""
        with self._changed:
            return len(self._events)

    def publish(self, event: AgentEvent) -> None:
        """Keep an event and wake every reader."""
        with self._changed:
            self._events.append(event_json(event))
            match event:
                case Final():
                    self.final = event
                    self.pick = None
                case SelectionRequired():
                    self.pick = event
                case SelectionReceived() | SelectionTimeout() | SelectionCancelled():
                    self.pick = None
            self._changed.notify_all()

    def events_after(self, after: int, timeout: float) -> tuple[list[tuple[int, str]], bool]:
        """The events numbered above `after` (waiting up to `timeout` for one), and whether the run is finished."""
        with self._changed:
            self._changed.wait_for(lambda: len(self._events) > after or self.final is not None, timeout=timeout)
            start = max(0, after)
            return [(i + 1, data) for i, data in enumerate(self._events[start:], start)], self.final is not None


@dataclass
class Conversation:
    """One chat: its agent (history and records) and the run answering now, if any."""

    conversation_id: str
    agent: SceneAgent
    run: Run | None = None
    last_used: float = field(default_factory=time.monotonic)

    @property
    def running(self) -> Run | None:
        """The run answering now, if any."""
        return self.run if self.run is not None and not self.run.finished else None

    @property
    def busy(self) -> bool:
        """True while a run is answering."""
        return self.running is not None


class ChatRuns:
    """Every conversation and run of one server."""

    def __init__(self, scene: Scene, settings: Settings, channel: SelectionChannel, *,
                 make_planner: Callable[[], Planner] | None = None,
                 selection_timeout: float = DEFAULT_TIMEOUT_S, question_timeout: float = DEFAULT_QUESTION_TIMEOUT_S,
                 max_conversations: int = MAX_CONVERSATIONS, max_finished_runs: int = MAX_FINISHED_RUNS):
        self.scene = scene
        self.settings = settings
        self.channel = channel
        self.questions = WebQuestions()
        self.make_planner = make_planner or default_planner
        self.selection_timeout = selection_timeout
        self.question_timeout = question_timeout
        self.max_conversations = max_conversations
        self.max_finished_runs = max_finished_runs
        self._lock = threading.Lock()
        self._conversations: OrderedDict[str, Conversation] = OrderedDict()
        self._runs: OrderedDict[str, Run] = OrderedDict()

    def __len__(self) -> int:
        """How many runs are kept: running, or finished and not yet dropped."""
        with self._lock:
            return len(self._runs)

    def start(self, message: str, conversation_id: str | None, lang: Lang | None = None,
              answers_pick: bool = False, viewpoint: Viewpoint | None = None) -> Run | WordsAnswer:
        """Answer `message` in a new run (in a new conversation when no id is given); while the conversation's run
        waits for a pick in the viewer, the message answers that pick instead (`WordsAnswer`). With `answers_pick`
        the message is only an answer: refused when no pick waits. `viewpoint` is what the person sees as they send
        it (the viewer's camera): left and right in the words are read from there."""
        with self._lock:
            conversation = self._conversation_for(conversation_id)
            running = conversation.running
            pick = running.pick if running else None
            if answers_pick and pick is None:
                raise NoPickWaitingError("no pick in the viewer is waiting for an answer in this conversation (it was "
                                         "answered, cancelled or timed out); send the words again as a question if "
                                         "you meant one")
            if running is not None and pick is None:
                raise RunInProgressError(f"conversation {conversation.conversation_id} is still answering its last "
                                         f"message (run {running.run_id}); wait for it or stop it")
        if running is not None and pick is not None:  # the pick is the running run's
            return answer_in_words(self.scene, self.channel, pick.session_id, message, running.lang or lang,
                                   viewpoint=viewpoint)
        with self._lock:
            running = conversation.running
            if running is not None:
                raise RunInProgressError(f"conversation {conversation.conversation_id} is still answering its last "
                                         f"message (run {running.run_id}); wait for it or stop it")
            run = Run(new_id(), conversation.conversation_id, message, viewpoint)
            run.lang = detect_language(message) or lang
            conversation.run, conversation.last_used = run, time.monotonic()
            self._conversations.move_to_end(conversation.conversation_id)
            self._runs[run.run_id] = run
            self._evict_runs()
        worker = threading.Thread(target=self._answer, args=(conversation.agent, run), daemon=True,
                                  name=f"chat-run-{run.run_id[:8]}")
        worker.start()
        return run

    def run(self, run_id: str) -> Run:
        """A run by id."""
        with self._lock:
            run = self._runs.get(run_id)
        if run is None:
            raise RunNotFoundError(f"no run '{run_id}' on this server (it may have restarted)")
        return run

    def conversation(self, conversation_id: str) -> Conversation:
        """A conversation by id."""
        with self._lock:
            conversation = self._conversations.get(conversation_id)
        if conversation is None:
            raise ConversationNotFoundError(f"no conversation '{conversation_id}' on this server (it may have "
                                            "restarted); start a new one by leaving conversation_id out")
        return conversation

    def stop(self, run_id: str, reason: str = "stopped by the user") -> Run:
        """Stop a run (nothing happens when it has already finished)."""
        run = self.run(run_id)
        run.control.stop(reason)
        return run

    def shutdown(self) -> None:
        """Stop every run (the server is going away): pending selections and questions end as cancelled."""
        with self._lock:
            running = [run for run in self._runs.values() if not run.finished]
        for run in running:
            run.control.stop("stopped because the server is shutting down", by_user=False)

    def _answer(self, agent: SceneAgent, run: Run) -> None:
        try:
            agent.query(run.message, on_event=lambda event: self._publish(run, event), control=run.control, lang=run.lang,
                        viewpoint=run.viewpoint)
        finally:
            if not run.finished:  # SceneAgent always ends with `final`; this only guards against a bug there
                run.publish(Final(status="error", answer="The run ended without an answer (an internal error)."))

    def _publish(self, run: Run, event: AgentEvent) -> None:
        match event:
            case Question(question_id=question_id, questions=questions):
                # Known to the channel before any browser sees the event: an early answer is kept, not refused.
                self.questions.register(question_id, questions)
        run.publish(event)

    def _conversation_for(self, conversation_id: str | None) -> Conversation:
        if conversation_id is not None:
            conversation = self._conversations.get(conversation_id)
            if conversation is None:
                raise ConversationNotFoundError(f"no conversation '{conversation_id}' on this server (it may have "
                                                "restarted); start a new one by leaving conversation_id out")
            return conversation
        if len(self._conversations) >= self.max_conversations:
            idle = next((c for c in self._conversations.values() if not c.busy), None)  # least recently used first
            if idle is None:
                picking = sum(1 for c in self._conversations.values() if c.run is not None and c.run.pick is not None)
                raise BusyError(f"all {self.max_conversations} conversations this server keeps (the limit) are answering, "
                                f"{picking} of them waiting for a pick in the viewer: answer or stop one, or try again "
                                "in a moment")
            del self._conversations[idle.conversation_id]
        agent = SceneAgent(self.scene, self.settings, self.make_planner(), questions=self.questions, channel=self.channel,
                           selection_timeout=self.selection_timeout, question_timeout=self.question_timeout)
        conversation = Conversation(new_id(), agent)
        self._conversations[conversation.conversation_id] = conversation
        return conversation

    def _evict_runs(self) -> None:
        finished = [run_id for run_id, run in self._runs.items() if run.finished]
        for run_id in finished[:max(0, len(finished) - self.max_finished_runs)]:
            del self._runs[run_id]
