"""Server-Sent Events framing (the WHATWG `text/event-stream` format): a handful of lines, no library needed.

Each data payload here is one line of JSON, so it never holds a newline of its own.
"""

from __future__ import annotations

MEDIA_TYPE = "text/event-stream"


def event(data: str, *, event_id: int | None = None, name: str | None = None) -> str:
    """One event: optional `id:` (what a reconnecting EventSource sends back as Last-Event-ID), `event:`, `data:`."""
    if "\n" in data or "\r" in data:
        raise ValueError("an SSE data line must not contain a line break")
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if name is not None:
        lines.append(f"event: {name}")
    lines.append(f"data: {data}")
    return "\n".join(lines) + "\n\n"


def comment(text: str) -> str:
    """A comment line: ignored by clients, keeps proxies and idle timeouts from closing the stream."""
    return f": {text}\n\n"


def retry(milliseconds: int) -> str:
    """How long a client waits before reconnecting after the stream closes."""
    return f"retry: {milliseconds}\n\n"
