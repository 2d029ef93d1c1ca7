"""The web chat over HTTP: start a run, stream its events (SSE, resumable), stop it, answer its questions."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from flask import Blueprint, Response, current_app, jsonify, request

from api_server import sse
from api_server.bodies import ErrorBody
from api_server.chat_bodies import (
    ChatRequest,
    ChatStarted,
    ConversationState,
    PickAnswered,
    QuestionAnswers,
    QuestionOutcome,
    RunState,
    Turn,
)
from api_server.chat_runs import ChatRuns, Run
from api_server.openapi import Stream, documented
from api_server.request_body import json_body
from scene_agent.agent.events import agent_events
from scene_agent.agent.pick_in_words import WordsAnswer
from scene_agent.errors import BusyError, UsageError
from scene_agent.selection.session import SESSION_ID_RE

bp = Blueprint("chat", __name__)

ERRORS = {400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody}
RECONNECT_MS = 1000
DISCONNECT_CHECK_S = 0.25  # how soon an event stream notices its reader has gone


def chat_runs() -> ChatRuns:
    """The server's conversations and runs."""
    runs: ChatRuns = current_app.extensions["scene_agent.chat"]  # set by create_app (api_server/app.py)
    return runs


def _check_id(value: str, what: str) -> str:
    if not SESSION_ID_RE.fullmatch(value):
        raise UsageError(f"a {what} id is 32 lowercase hex characters (got {value[:40]!r})")
    return value


class _StreamSlots:
    """Caps the event streams open at once, so readers never take every server thread."""

    def __init__(self, limit: int):
        self.limit = limit
        self._open = 0
        self._lock = threading.Lock()

    def take(self) -> None:
        with self._lock:
            if self._open >= self.limit:
                raise BusyError(f"{self.limit} event streams are open already (the limit for this server's threads); "
                                "close a tab or try again shortly")
            self._open += 1

    def give_back(self) -> None:
        with self._lock:
            self._open -= 1


def _slots() -> _StreamSlots:
    # Flask's extensions dict is untyped; this module is the only one that stores this key.
    slots: _StreamSlots | None = current_app.extensions.get("scene_agent.chat_streams")
    if slots is None:
        slots = current_app.extensions.setdefault("scene_agent.chat_streams",
                                                  _StreamSlots(current_app.config["MAX_EVENT_STREAMS"]))
    return slots


def _after() -> int:
    """Where a reader resumes: the Last-Event-ID header (a reconnecting EventSource) or ?after=, else the start."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    if not raw.isdigit() or len(raw) > 9:
        raise UsageError(f"Last-Event-ID / after must be an event number (got {raw[:20]!r})")
    return int(raw)


def _stream(run: Run, after: int, keepalive: float, max_seconds: float, gone: Callable[[], bool]) -> Iterator[str]:
    """The events after `after`, a keepalive comment when quiet; ends when the run ends, after `max_seconds`, or as
    soon as the reader has gone (`gone()`, looked at every DISCONNECT_CHECK_S), which gives its slot back."""
    yield sse.retry(RECONNECT_MS)
    now = time.monotonic()
    deadline, next_keepalive = now + max_seconds, now + keepalive
    while True:
        now = time.monotonic()
        if now >= deadline or gone():
            return  # a browser that is still there reconnects with Last-Event-ID and resumes here
        events, finished = run.events_after(after, timeout=max(0.0, min(DISCONNECT_CHECK_S, deadline - now,
                                                                         next_keepalive - now)))
        for event_id, data in events:
            yield sse.event(data, event_id=event_id)
            after = event_id
        if finished and after >= run.event_count:
            yield sse.event("{}", name="end")
            return
        if events:
            next_keepalive = time.monotonic() + keepalive
        elif time.monotonic() >= next_keepalive:
            yield sse.comment("keepalive")  # keeps proxies from closing a quiet stream
            next_keepalive = time.monotonic() + keepalive


def _never() -> bool:
    return False


@bp.post("/api/chat")
@documented("Ask the agent; a run starts answering and its id comes back at once (202). While the conversation's run "
            "waits for a pick in the viewer, the message answers that pick in words instead (200, or 422 when the words "
            "pick none of the candidates)", tag="chat", request=ChatRequest,
            responses={202: ChatStarted, 200: PickAnswered, 409: ErrorBody, 410: ErrorBody, 422: ErrorBody, 503: ErrorBody,
                       **ERRORS})
def chat() -> tuple[Response, int]:
    """Start a run for the message, in a new conversation or the given one (one run at a time per conversation)."""
    body = json_body(ChatRequest)
    viewpoint = body.camera.viewpoint() if body.camera is not None else None
    run = chat_runs().start(body.message, body.conversation_id, body.lang, body.answers_pick, viewpoint)
    if isinstance(run, WordsAnswer):
        conversation = chat_runs().conversation(body.conversation_id or "")
        answered = PickAnswered(conversation_id=conversation.conversation_id, run_id=conversation.run.run_id if conversation.run else "",
                                **run.model_dump())
        return jsonify(answered.model_dump()), 200
    started = ChatStarted(run_id=run.run_id, conversation_id=run.conversation_id,
                          events_url=f"/api/runs/{run.run_id}/events")
    return jsonify(started.model_dump()), 202


@bp.get("/api/runs/<run_id>/events")
@documented("The run's events as Server-Sent Events (id = event number; resumes after Last-Event-ID or ?after=; "
            "`event: end` after the final event)", tag="chat",
            responses={200: Stream(sse.MEDIA_TYPE, "AgentEvent", agent_events), 400: ErrorBody, 404: ErrorBody, 503: ErrorBody})
def run_events(run_id: str) -> Response:
    """Stream the run's events from where the reader is."""
    run = chat_runs().run(_check_id(run_id, "run"))
    after = _after()
    slots = _slots()
    slots.take()
    # waitress says whether the client went away (api_server/serve.py reads ahead on connections for this).
    gone = request.environ.get("waitress.client_disconnected") or _never
    stream = _stream(run, after, current_app.config["SSE_KEEPALIVE_S"], current_app.config["SSE_MAX_S"], gone)
    response = Response(stream, mimetype=sse.MEDIA_TYPE)
    response.call_on_close(slots.give_back)  # the WSGI server closes the response when the stream ends or breaks
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not hold events back
    return response


@bp.get("/api/runs/<run_id>")
@documented("A run: running or finished, how many events, its final event", tag="chat",
            responses={200: RunState, 400: ErrorBody, 404: ErrorBody})
def run_state(run_id: str) -> Response:
    """The run's state."""
    return jsonify(_run_state(chat_runs().run(_check_id(run_id, "run"))).model_dump())


@bp.post("/api/runs/<run_id>/stop")
@documented("Stop a run: the selection or question it waits on is cancelled and it ends as cancelled", tag="chat",
            responses={200: RunState, 400: ErrorBody, 404: ErrorBody})
def stop_run(run_id: str) -> Response:
    """Stop the run (nothing changes when it has already finished)."""
    return jsonify(_run_state(chat_runs().stop(_check_id(run_id, "run"))).model_dump())


@bp.post("/api/questions/<question_id>/answer")
@documented("Answer a question dialog: one answer per question of the batch", tag="chat", request=QuestionAnswers,
            responses={200: QuestionOutcome, 409: ErrorBody, 422: ErrorBody, **ERRORS})
def answer_question(question_id: str) -> Response:
    """Every question answered, each by an option index (or several when `multiple`) or the user's own words."""
    body = json_body(QuestionAnswers)
    reply = chat_runs().questions.answer(_check_id(question_id, "question"), body.answers)
    return jsonify(QuestionOutcome(question_id=question_id, status="answered", answers=reply.answers).model_dump())


@bp.post("/api/questions/<question_id>/cancel")
@documented("Close a question dialog without finishing it; the answers given so far go to the agent", tag="chat",
            request=QuestionAnswers, responses={200: QuestionOutcome, 409: ErrorBody, 422: ErrorBody, **ERRORS})
def cancel_question(question_id: str) -> Response:
    """Cancel, keeping the partial answers."""
    body = json_body(QuestionAnswers)
    reply = chat_runs().questions.cancel(_check_id(question_id, "question"), body.answers)
    return jsonify(QuestionOutcome(question_id=question_id, status="cancelled", answers=reply.answers).model_dump())


@bp.get("/api/conversations/<conversation_id>")
@documented("A conversation: its turns, every question and selection asked in it, the run answering now",
            tag="chat", responses={200: ConversationState, 400: ErrorBody, 404: ErrorBody})
def conversation(conversation_id: str) -> Response:
    """History and records of one conversation."""
    conv = chat_runs().conversation(_check_id(conversation_id, "conversation"))
    turns = [Turn(query=e.query, answer=e.answer, status=e.status, codes=list(e.codes)) for e in conv.agent.history]
    state = ConversationState(conversation_id=conv.conversation_id, turns=turns, asked=conv.agent.records.list(),
                              running=conv.run.run_id if conv.busy and conv.run else None)
    return current_app.response_class(state.model_dump_json(), mimetype="application/json")


def _run_state(run: Run) -> RunState:
    return RunState(run_id=run.run_id, conversation_id=run.conversation_id, message=run.message,
                    status="finished" if run.finished else "running", events=run.event_count,
                    final=run.final)
