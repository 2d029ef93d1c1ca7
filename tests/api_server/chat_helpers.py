"""Talking to the web chat endpoints of a real server, as the chat panel does."""

from __future__ import annotations

from typing import Any

from http_client import call
from sse_client import SSEEvent, SSEStream, read_run


def start(base: str, message: str, conversation_id: str | None = None) -> dict[str, Any]:
    """POST /api/chat; the 202 body."""
    body: dict[str, Any] = {"message": message}
    if conversation_id:
        body["conversation_id"] = conversation_id
    reply = call("POST", f"{base}/api/chat", body)
    assert reply.status == 202, reply.body
    return reply.json()


def run_events(base: str, run_id: str, **kwargs: Any) -> list[dict[str, Any]]:
    """Every event of the run, read to the end of its stream (which must end with `event: end`)."""
    events, ended = read_run(f"{base}/api/runs/{run_id}/events", **kwargs)
    assert ended, "the stream closed before `event: end`"
    return [e.json() for e in events]


def ask(base: str, message: str, conversation_id: str | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Start a run and read all of its events."""
    started = start(base, message, conversation_id)
    return started, run_events(base, started["run_id"])


def events_until(stream: SSEStream, event_type: str) -> tuple[list[SSEEvent], dict[str, Any]]:
    """Read an open stream up to the first event of `event_type`; the events read and that event."""
    seen = []
    for event in stream:
        seen.append(event)
        if event.name == "message" and event.json()["type"] == event_type:
            return seen, event.json()
    raise AssertionError(f"the stream ended before a {event_type} event: {[e.data for e in seen]}")
