"""Many connections: idle sockets must not lock clients out, and a vanished reader's stream slot comes back at once.

A real server on a loopback port (waitress, tuned as `scene-agent serve` runs it) and real TCP sockets.
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from chat_helpers import events_until, run_events, start
from http_client import call
from sse_client import SSEStream

CLIENT_TIMEOUT_S = 5.0  # how long a client waits for an answer before it counts as locked out


@contextmanager
def idle_sockets(port: int, n: int, request: bytes = b"") -> Iterator[list[socket.socket]]:
    """`n` connections that say nothing more (after `request`, if given), held open for the block."""
    with ExitStack() as stack:
        sockets = []
        for _ in range(n):
            sock = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=CLIENT_TIMEOUT_S))
            if request:
                sock.sendall(request)
            sockets.append(sock)
        yield sockets


def reset(sock: socket.socket) -> None:
    """Close with RST, as a crashed browser or a dropped network does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def test_idle_connections_do_not_lock_clients_out(chat_server, open_selection):
    server = chat_server()
    health = f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode()
    with idle_sockets(server.port, 150), idle_sockets(server.port, 100, request=health):
        for _ in range(5):
            reply = call("GET", f"{server.url}/api/health", timeout=CLIENT_TIMEOUT_S)
            assert reply.status == 200
        out = open_selection()
        pick = {"session_id": out.session_id, "selections": [{"itemCode": "0-1-2"}]}
        assert call("POST", f"{server.url}/api/submit-selection", pick, timeout=CLIENT_TIMEOUT_S).status == 200
        started = call("POST", f"{server.url}/api/chat", {"message": "how many beds?"}, timeout=CLIENT_TIMEOUT_S)
        assert started.status == 202
        assert run_events(server.url, started.json()["run_id"])[-1]["type"] == "final"


def open_stream(sock: socket.socket, port: int, run_id: str) -> bytes:
    """Start reading a run's events on a raw socket; the response head once it arrived."""
    sock.sendall(f"GET /api/runs/{run_id}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, "the server closed the stream"
        head += chunk
    return head


def test_a_stream_slot_comes_back_as_soon_as_its_reader_vanishes(chat_server):
    server = chat_server(MAX_EVENT_STREAMS=4, CHAT_SELECTION_TIMEOUT=120)
    run = start(server.url, "what's the color of the chair?")  # it waits for a pick: its stream stays open
    with ExitStack() as stack:
        readers = [stack.enter_context(socket.create_connection(("127.0.0.1", server.port), timeout=CLIENT_TIMEOUT_S))
                   for _ in range(4)]
        heads = [open_stream(sock, server.port, run["run_id"]) for sock in readers]
        assert all(b" 200 " in head.split(b"\r\n")[0] for head in heads), heads
        seen = heads[0]
        while b"selection_required" not in seen:  # the run is waiting for a pick now
            chunk = readers[0].recv(65536)
            assert chunk, "the stream ended before the run asked for a pick"
            seen += chunk
        full = call("GET", f"{server.url}/api/runs/{run['run_id']}/events", timeout=CLIENT_TIMEOUT_S)
        assert full.status == 503 and "(the limit" in full.json()["message"]
        for sock in readers:
            reset(sock)
        # Every vanished reader's slot comes back within moments (before, the slots stayed taken until a keepalive
        # write failed): new readers are let in until they hold all four. Each stream notices its reader has gone
        # at its own next look (api_server/chat_api.py, DISCONNECT_CHECK_S), so a try may still find the slots
        # taken; the tries go on until four are in or the deadline passes.
        admitted: list[SSEStream] = []
        deadline = time.monotonic() + CLIENT_TIMEOUT_S
        while len(admitted) < 4:
            again = SSEStream(f"{server.url}/api/runs/{run['run_id']}/events", timeout=CLIENT_TIMEOUT_S)
            if again.status == 200:
                admitted.append(stack.enter_context(again))
                continue
            again.close()
            assert again.status == 503
            assert time.monotonic() < deadline, f"only {len(admitted)} of the vanished readers' slots came back"
        # The new readers hold every slot now: the limit still holds (no slot was given back twice).
        assert call("GET", f"{server.url}/api/runs/{run['run_id']}/events", timeout=CLIENT_TIMEOUT_S).status == 503
        # A reader already in sees the run end. (Opening another stream here would race the others' slots coming
        # back: the stop ends the run on the run's own thread, and each stream gives its slot back after that.)
        assert call("POST", f"{server.url}/api/runs/{run['run_id']}/stop").status == 200
        events = [event.json() for event in admitted[0] if event.name == "message"]
        assert events[-1]["type"] == "final" and events[-1]["status"] == "cancelled"


def test_the_conversation_cap_names_the_limit(chat_server):
    server = chat_server(CHAT_SELECTION_TIMEOUT=120)
    chat = server.app.extensions["scene_agent.chat"]
    chat.max_conversations = 2
    runs = [start(server.url, "what's the color of the chair?") for _ in range(2)]
    for run in runs:
        with SSEStream(f"{server.url}/api/runs/{run['run_id']}/events") as stream:
            events_until(stream, "selection_required")
    reply = call("POST", f"{server.url}/api/chat", {"message": "how many beds?"})
    assert (reply.status, reply.json()["error"]) == (503, "busy")
    assert "all 2 conversations this server keeps (the limit)" in reply.json()["message"]
    assert "2 of them waiting for a pick" in reply.json()["message"]
    for run in runs:
        call("POST", f"{server.url}/api/runs/{run['run_id']}/stop")
        assert run_events(server.url, run["run_id"])[-1]["status"] == "cancelled"
