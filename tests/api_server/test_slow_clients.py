"""Slow and greedy clients cannot lock the server out (api_server/guard.py), on a real server over loopback sockets:
a request that does not arrive whole in time gets 408 and its connection is closed, even one trickling a byte at a
time; one address holds a bounded number of connections (503 past it, others unaffected); a body announced larger
than the server takes is a 413 at once; an idle keep-alive connection is not cut by the request timer."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from flask import Flask

from api_server.app import MAX_BODY_BYTES
from api_server.guard import GuardLimits
from api_server.serve import BackgroundServer, ServerSettings

LIMITS = GuardLimits(request_read_s=1.0, per_address=4)


@pytest.fixture
def guarded(app: Flask) -> Iterator[BackgroundServer]:
    with BackgroundServer(app, settings=ServerSettings(guard=LIMITS)) as running:
        yield running


def connect(server: BackgroundServer, source: str = "127.0.0.1") -> socket.socket:
    """A connection to the server from `source` (any 127.x.y.z is this machine: a client address of its own)."""
    return socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))


def health(server: BackgroundServer) -> bytes:
    return f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode()


def answer(sock: socket.socket, timeout: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection (or `timeout` passes without a byte)."""
    sock.settimeout(timeout)
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def response(sock: socket.socket) -> bytes:
    """One response on a kept-alive connection: its headers and its Content-Length of body."""
    sock.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def test_a_request_trickling_in_is_cut_with_a_408_once_its_time_is_up(guarded: BackgroundServer) -> None:
    sock = connect(guarded)
    started = time.monotonic()
    got = b""
    for byte in health(guarded)[:-4] * 100:  # one byte at a time, never the end of the headers
        sock.sendall(bytes([byte]))
        sock.settimeout(0.2)
        try:
            got = sock.recv(65536)
        except TimeoutError:
            continue
        break
    took = time.monotonic() - started
    got += answer(sock)
    assert got.startswith(b"HTTP/1.1 408 Request Timeout"), got
    assert b"did not arrive whole within 1 s of its first byte" in got
    assert LIMITS.request_read_s <= took < LIMITS.request_read_s + 5
    sock.close()


def test_an_idle_keep_alive_connection_is_not_cut_by_the_request_timer(guarded: BackgroundServer) -> None:
    sock = connect(guarded)
    sock.sendall(health(guarded))
    assert response(sock).startswith(b"HTTP/1.1 200")
    sock.settimeout(LIMITS.request_read_s * 2)  # idle, no request begun, for twice the request time
    with pytest.raises(TimeoutError):
        sock.recv(1)
    sock.sendall(health(guarded))
    assert response(sock).startswith(b"HTTP/1.1 200")
    sock.close()


def test_one_address_holds_a_bounded_number_of_connections_and_others_are_served(guarded: BackgroundServer) -> None:
    held = [connect(guarded, "127.0.0.2") for _ in range(LIMITS.per_address)]
    for sock in held:  # each is in: it is answered
        sock.sendall(health(guarded))
        assert response(sock).startswith(b"HTTP/1.1 200")
    extra = connect(guarded, "127.0.0.2")
    refused = answer(extra)
    assert refused.startswith(b"HTTP/1.1 503 Service Unavailable") and b"Retry-After: 1" in refused
    assert b"has 4 connections open to the server already" in refused
    other = connect(guarded, "127.0.0.1")  # another address is served meanwhile
    other.sendall(health(guarded))
    assert response(other).startswith(b"HTTP/1.1 200")
    held.pop().close()
    deadline = time.monotonic() + 10
    while True:  # the server counts the closed one out when its loop sees it close: a new one gets in then
        again = connect(guarded, "127.0.0.2")
        again.sendall(health(guarded))
        if (got := response_or_refusal(again)).startswith(b"HTTP/1.1 200"):
            break
        again.close()
        assert time.monotonic() < deadline, got
    for sock in (*held, extra, other, again):
        sock.close()


def response_or_refusal(sock: socket.socket) -> bytes:
    """The first bytes of the answer: a response's status line, or the refusal."""
    sock.settimeout(10)
    return sock.recv(65536)


def test_a_body_announced_larger_than_the_limit_is_refused_at_once(guarded: BackgroundServer) -> None:
    sock = connect(guarded)
    sock.sendall(b"POST /api/submit-selection HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 1000000000\r\n\r\n" % guarded.port)
    got = answer(sock, timeout=LIMITS.request_read_s / 2)  # before any timer could have cut it
    assert got.startswith(b"HTTP/1.1 413"), got
    assert f"the request body is larger than {MAX_BODY_BYTES} bytes".encode() in got
    sock.close()


def test_a_body_of_exactly_the_limit_still_reaches_the_app(guarded: BackgroundServer) -> None:
    sock = connect(guarded)
    body = b'{"session_id": "' + b"x" * (MAX_BODY_BYTES - 18) + b'"}'
    assert len(body) == MAX_BODY_BYTES
    sock.sendall(b"POST /api/cancel-selection HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % (guarded.port, len(body)) + body)
    got = response(sock)
    assert got.startswith(b"HTTP/1.1 400"), got[:300]  # the app read it: the session id is no session id
    sock.close()
