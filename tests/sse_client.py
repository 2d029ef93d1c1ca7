"""A Server-Sent Events reader for tests: a real HTTP connection over loopback, parsed as the WHATWG spec says."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass
class SSEEvent:
    """One dispatched event."""

    id: str | None
    name: str
    data: str

    def json(self) -> Any:
        """The data parsed as JSON."""
        return json.loads(self.data)


class SSEStream:
    """An open event stream: iterate for events (ends when the server closes it); `.status` and `.headers` of the response."""

    def __init__(self, url: str, *, last_event_id: str | None = None, timeout: float = 30):
        parts = urlsplit(url)
        self._conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self._conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers)
        self.response = self._conn.getresponse()
        self.status = self.response.status
        self.headers = self.response.headers
        self.retry_ms: int | None = None
        self.comments: list[str] = []

    def body(self) -> bytes:
        """The whole body (for error responses)."""
        return self.response.read()

    def __iter__(self) -> Iterator[SSEEvent]:
        event_id: str | None = None
        name, data = "message", []
        while True:
            raw = self.response.readline()
            if not raw:
                return
            line = raw.decode().rstrip("\r\n")
            if not line:
                if data:
                    yield SSEEvent(event_id, name, "\n".join(data))
                name, data = "message", []
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "":
                self.comments.append(value)
            elif field == "id":
                event_id = value
            elif field == "event":
                name = value
            elif field == "data":
                data.append(value)
            elif field == "retry" and value.isdigit():
                self.retry_ms = int(value)

    def close(self) -> None:
        """Drop the connection (as a browser tab closing would)."""
        self._conn.close()

    def __enter__(self) -> SSEStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_run(url: str, **kwargs: Any) -> tuple[list[SSEEvent], bool]:
    """Every event of a stream until it closes; and whether it ended with `event: end`."""
    with SSEStream(url, **kwargs) as stream:
        assert stream.status == 200, stream.body()
        events = list(stream)
    ended = bool(events) and events[-1].name == "end"
    return [e for e in events if e.name == "message"], ended
