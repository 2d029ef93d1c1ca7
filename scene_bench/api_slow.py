"""`bench api` under slow clients: health and submit while connections send their requests a byte a second and
LOAD_IDLE idle keep-alive connections are open, on the product (guarded: api_server/guard.py) and on waitress as
it was before the guards (`api_server.serve.UNGUARDED`: 1,000 connections at most, no request timer, no cap per
address), in the same run.

Two floods. SPREAD: SLOW_SPREAD connections from SLOW_SPREAD_ADDRESSES client addresses (any 127.x.y.z is this
machine), more than the old connection limit. ONE_ADDRESS: SLOW_ONE connections from one address, more than the
new limit. A slow connection sends the next byte of a request whose headers never end, once a second, and
connects again when the server closes it (after its 408), as an attacker would. A request unanswered within
LOAD_TIMEOUT_S is an error.
"""

from __future__ import annotations

import errno
import socket
import threading
from pathlib import Path

from scene_bench.api import (
    HOST,
    LOAD_IDLE,
    LOAD_TIMEOUT_S,
    SLOW_ONE,
    SLOW_SPREAD,
    SLOW_SPREAD_ADDRESSES,
    ApiRow,
    measure,
    server_process,
)
from scene_bench.api_load import idle_connections

SLOW_FIRST_ADDRESS = 20  # slow clients come from 127.0.20.1, 127.0.21.1, …: apart from the idle ones and the bench's
TRICKLE_S = 1.0
PENDING = (errno.EAGAIN, errno.ENOTCONN, errno.EINPROGRESS, errno.EALREADY)  # not connected yet: look again later


class SlowClients:
    """n connections from `addresses` client addresses, each sending one byte of a never-ending request per second.

    Connections are opened without waiting (a server past its limit leaves them in its backlog, or unanswered), and
    each is looked at once a second: the next byte sent, or, when the server let go of it, a new one opened."""

    def __init__(self, port: int, n: int, addresses: int):
        self.port, self.n, self.addresses = port, n, addresses
        self.sockets: list[socket.socket | None] = [None] * n
        self.started = [False] * n  # whether the request's first line went out yet
        self.cut = 0  # connections the server closed (each replaced by a new one)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._trickle, name="bench-slow-clients", daemon=True)

    def _connect(self, i: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((f"127.0.{SLOW_FIRST_ADDRESS + i % self.addresses}.1", 0))
            sock.connect_ex((HOST, self.port))
        except OSError:
            sock.close()
            self.sockets[i] = None
            return
        self.sockets[i], self.started[i] = sock, False

    def _step(self, i: int, sock: socket.socket) -> None:
        """One look at connection i: let go of by the server → a new one; else the next byte."""
        try:
            sock.recv(4096)  # returns the server's 408 or 503, or b"" for its close: it let go either way
        except BlockingIOError:
            pass  # nothing to read: still held
        except OSError as exc:
            if exc.errno not in PENDING:
                self._replace(i, sock)
                return
        else:
            self._replace(i, sock)
            return
        data = b"a" if self.started[i] else f"GET /api/health HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nX-Slow: ".encode()
        try:
            sock.send(data)
            self.started[i] = True
        except BlockingIOError:
            pass
        except OSError as exc:
            if exc.errno not in PENDING:
                self._replace(i, sock)

    def _trickle(self) -> None:
        while not self._stop.wait(TRICKLE_S):
            for i, sock in enumerate(self.sockets):
                if self._stop.is_set():
                    return
                if sock is None:
                    self._connect(i)
                else:
                    self._step(i, sock)

    def _replace(self, i: int, sock: socket.socket) -> None:
        sock.close()
        self.cut += 1
        self._connect(i)

    def __enter__(self) -> SlowClients:
        for i in range(self.n):
            self._connect(i)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)
        for sock in self.sockets:
            if sock is not None:
                sock.close()


def measure_slow_clients(name: str, argv: list[str], root: Path, n: int, concurrency: int,
                         examples: list[str]) -> list[ApiRow]:
    """Health and submit under each flood, LOAD_IDLE idle connections open too, each on a fresh server."""
    rows = []
    for label, slow, addresses in (("spread", SLOW_SPREAD, SLOW_SPREAD_ADDRESSES), ("one", SLOW_ONE, 1)):
        with (server_process(name, argv, root / label) as server, idle_connections(server.port, LOAD_IDLE),
              SlowClients(server.port, slow, addresses)):
            load = f"{slow:,} slow clients ({addresses} address{'es' if addresses > 1 else ''}) + {LOAD_IDLE} idle"
            rows += [measure(server, e, n, concurrency, examples, load=load, timeout=LOAD_TIMEOUT_S)
                     for e in ("health", "submit")]
    return rows
