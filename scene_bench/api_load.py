"""`bench api` under load: health and submit with idle keep-alive connections open, and with event streams open.

LOAD_IDLE connections that have each made one request and then say nothing; LOAD_STREAMS event streams open
on a chat run that waits for a pick (scene_bench/api.py describes the rows). They come from client addresses of
their own, PER_ADDRESS each (any 127.x.y.z is this machine), as from that many browsers: the server caps what one
address may hold (api_server/guard.py).
"""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from scene_bench.api import (
    HOST,
    JSON_HEADERS,
    LOAD_IDLE,
    LOAD_STREAMS,
    LOAD_TIMEOUT_S,
    REQUEST_TIMEOUT_S,
    WAITING_QUESTION,
    ApiRow,
    measure,
    server_process,
)

PER_ADDRESS = 100


@contextmanager
def idle_connections(port: int, n: int) -> Iterator[None]:
    """n keep-alive connections that have sent one request and then say nothing, open for the block."""
    sockets: list[socket.socket] = []
    try:
        for i in range(n):
            sock = socket.create_connection((HOST, port), timeout=LOAD_TIMEOUT_S,
                                            source_address=(f"127.0.10.{1 + i // PER_ADDRESS}", 0))
            sockets.append(sock)
            sock.sendall(f"GET /api/health HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
        yield
    finally:
        for sock in sockets:
            sock.close()


@contextmanager
def _open_streams(port: int, n: int) -> Iterator[int]:
    """n event streams open on one chat run that waits for a pick; yields how many the server let open."""
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT_S)
    conn.request("POST", "/api/chat", json.dumps({"message": WAITING_QUESTION}).encode(), JSON_HEADERS)
    run_id = json.loads(conn.getresponse().read())["run_id"]
    streams: list[socket.socket] = []
    opened = 0
    try:
        for i in range(n):
            sock = socket.create_connection((HOST, port), timeout=LOAD_TIMEOUT_S,
                                            source_address=(f"127.0.11.{1 + i // PER_ADDRESS}", 0))
            streams.append(sock)
            sock.sendall(f"GET /api/runs/{run_id}/events HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            with suppress(OSError):  # no answer in time: the server could not take it
                opened += sock.recv(64).startswith(b"HTTP/1.1 200")
        yield opened
    finally:
        for sock in streams:
            sock.close()
        with suppress(OSError, http.client.HTTPException):
            conn.request("POST", f"/api/runs/{run_id}/stop")
            conn.getresponse().read()
        conn.close()


def measure_loaded(name: str, argv: list[str], root: Path, n: int, concurrency: int, examples: list[str]) -> list[ApiRow]:
    """Health and submit with LOAD_IDLE idle connections open, then (on a fresh server) with LOAD_STREAMS event
    streams open and LOAD_IDLE idle connections besides."""
    rows = []
    with server_process(name, argv, root / "idle") as server, idle_connections(server.port, LOAD_IDLE):
        load = f"{LOAD_IDLE} idle connections"
        rows += [measure(server, e, n, concurrency, examples, load=load, timeout=LOAD_TIMEOUT_S)
                 for e in ("health", "submit")]
    with (server_process(name, argv, root / "streams") as server, _open_streams(server.port, LOAD_STREAMS) as opened,
          idle_connections(server.port, LOAD_IDLE)):
        load = f"{opened} of {LOAD_STREAMS} event streams + {LOAD_IDLE} idle connections"
        rows += [measure(server, e, n, concurrency, examples, load=load, timeout=LOAD_TIMEOUT_S)
                 for e in ("health", "submit")]
    return rows
