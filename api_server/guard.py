"""Slow and greedy clients cannot lock the server out: waitress' connections, guarded.

waitress closes a connection only after `channel_timeout` seconds with no bytes at all, so a client that sends its
request one byte a second (slowloris) holds its connection for ever, and enough of them fill the connection limit:
every new client, health probes included, then waits. Two guards on each connection (`GuardLimits`):

- a request must arrive whole (headers and body) within `request_read_s` of its first byte; past that the client
  gets 408 and the connection is closed. An idle keep-alive connection (no request begun) is waitress' own
  `channel_timeout`'s business;
- one client address holds at most `per_address` connections; past that a new one gets 503 (with Retry-After)
  and is closed at once, before anything of it is read. A browser keeps a handful per server.

Both run in waitress' event loop (the connection class is ours), at no thread's cost: a connection is looked at
whenever the loop asks whether to read from it, at least once a second. A body announced larger than the server
takes is refused by waitress itself, at once (its `max_request_body_size`, set by api_server/serve.py).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer
from waitress.task import ErrorTask


@dataclass(frozen=True)
class GuardLimits:
    """How long a request may take to arrive, and how many connections one address may hold."""

    request_read_s: float = 10.0
    per_address: int = 256


def _response(status: str, message: str, extra: str = "") -> bytes:
    body = json.dumps({"error": status.split(" ", 1)[1].lower().replace(" ", "_"), "message": message}).encode() + b"\n"
    head = (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n{extra}\r\n").encode()
    return head + body


class JsonErrorTask(ErrorTask):  # type: ignore[misc]  # waitress has no type hints
    """What waitress answers itself (a body announced too large, a malformed request, headers too large), in the
    API's error shape: `{"error": code, "message": text}`."""

    def execute(self) -> None:
        error = self.request.error
        if error.code == 413:
            message = f"the request body is larger than {self.channel.server.adj.max_request_body_size - 1} bytes"
        else:
            message = str(error.body)
        code = str(error.reason).lower().replace(" ", "_")
        body = json.dumps({"error": code, "message": message}).encode() + b"\n"
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


def guarded_channel(limits: GuardLimits | None) -> type[HTTPChannel]:
    """waitress' connection class answering its own errors as JSON, and with the guards unless `limits` is None (one
    class per server: its own count of connections per address)."""
    per_address: Counter[str] = Counter()
    counting = threading.Lock()  # a connection may be closed from a worker thread
    limit = limits or GuardLimits()  # (its answers are only sent with limits)
    too_many = _response("503 Service Unavailable", f"this address has {limit.per_address} connections open "
                         "to the server already, the most it may; close some and try again", "Retry-After: 1\r\n")
    too_slow = _response("408 Request Timeout", f"the request did not arrive whole within "
                         f"{limit.request_read_s:g} s of its first byte")

    class GuardedChannel(HTTPChannel):  # type: ignore[misc]  # waitress has no type hints
        error_task_class = JsonErrorTask
        request: Any = None  # waitress': the request being received (its parser), None between requests
        request_started: float | None = None  # when the request being received began to arrive
        counted: str | None = None

        def __init__(self, server: BaseWSGIServer, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
            super().__init__(server, sock, addr, adj, map)
            if limits is None:
                return
            self.counted = str(addr[0]) if isinstance(addr, tuple) else str(addr)
            with counting:
                per_address[self.counted] += 1
                over = per_address[self.counted] > limits.per_address
            if over:
                self._refuse(too_many)

        def _refuse(self, response: bytes) -> None:
            """Answer `response` and close, reading nothing more."""
            with self.outbuf_lock:
                self.outbufs[-1].append(response)
                self.total_outbufs_len += len(response)
            self.close_when_flushed = True

        def received(self, data: bytes) -> bool:
            before = self.request
            result = super().received(data)
            if limits is None:
                return bool(result)
            if self.request is None:
                self.request_started = None
            elif self.request is not before:  # a request began in these bytes
                self.request_started = time.monotonic()
            return bool(result)

        def readable(self) -> bool:
            started = self.request_started
            if (started is not None and limits is not None and time.monotonic() - started > limits.request_read_s
                    and not self.close_when_flushed):
                self.request_started = None
                self.request = None
                self._refuse(too_slow)
            return bool(super().readable())

        def del_channel(self, map: Any = None) -> None:  # every way waitress closes a connection ends here
            with counting:
                if self.counted is not None:
                    per_address[self.counted] -= 1
                    if per_address[self.counted] <= 0:
                        del per_address[self.counted]
                    self.counted = None
            super().del_channel(map)

    return GuardedChannel


def install_guards(server: Any, limits: GuardLimits | None) -> None:
    """Make every listening socket of a waitress server (one, or several for a name with several addresses) open
    our connections: guarded with `limits` (unguarded: None), waitress' own errors as JSON."""
    channel = guarded_channel(limits)
    sockets = getattr(server, "map", None) or getattr(server, "_map", {})
    for listener in list(sockets.values()):
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = channel
