"""Recording answers in a process of their own: what `scene-agent serve` does with the file backend.

A delivery (deliver.py) is some twenty small system calls. In the API server's process every one of them gives
Python's interpreter lock to one of the threads serving other requests and waits to get it back, so under load
a pick costs several times its own work. `Deliverer` hands each answer the channel has checked to a child process,
`python -m scene_agent.selection.files.deliverer`, which runs deliver.py's deliveries in one thread, with nobody to
share its lock with, and those that arrive together as a batch under one journal flush (`serve`); the serving
thread waits for one line back. The child is a transport, not a second implementation: the same code, the same
files, the same locks (claims.py works across processes); it answers the backend's verdict, and an error as data
(its `code` and message), raised again here as the same class.

Requests are JSON lines on the child's stdin, each with an id, so that many serving threads share the one
pipe; a reply is one line on its stdout, `<id> A <verdict>` or `<id> E <{"code", "message"}>`. The
child ignores the terminal's Ctrl-C (it has a session of its own) and ends when its stdin closes: when the
server stops, however it stops. If the child dies, the requests it had are answered 503
`selection_not_delivered`, saying the answer may have been recorded (a retry then finds it recorded, 409, or
records it) and the next request starts
a new child.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path
from typing import IO, Any

from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.errors import SceneAgentError, SelectionNotDeliveredError, SessionNotFoundError
from scene_agent.selection.backend import Verdict, verdict_of
from scene_agent.selection.files.deliver import Delivery, begin
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.session import SessionOutcome

log = logging.getLogger(__name__)

REPLY_TIMEOUT_S = 60.0  # far beyond a delivery (milliseconds); reached only by a child that hangs
# How the child is started, before the directories are added: this module, by the interpreter running the server.
CHILD = (sys.executable, "-m", "scene_agent.selection.files.deliverer")


def _error_classes() -> dict[str, type[SceneAgentError]]:
    found: dict[str, type[SceneAgentError]] = {}
    todo: list[type[SceneAgentError]] = [SceneAgentError]
    while todo:
        cls = todo.pop()
        found.setdefault(cls.code, cls)
        todo.extend(cls.__subclasses__())
    return found


class Deliverer:
    """The API server's side: forwards answers to the child process (started now), thread-safe."""

    def __init__(self, settings: Settings, child: Sequence[str] = CHILD):
        """`child`: the command that starts the child, to which `--state-dir` and `--selection-dir` are added (a
        benchmark starts its own, which runs `main` in a process set up its way)."""
        self.settings = settings
        self._command = [*child, "--state-dir", str(settings.state_dir), "--selection-dir", str(settings.selection_dir)]
        self._lock = threading.Lock()  # the child, its pipe and the replies awaited
        self._child: subprocess.Popen[bytes] | None = None
        self._reader: threading.Thread | None = None
        self._waiting: dict[int, _Reply] = {}
        self._ids = itertools.count()
        self._errors = _error_classes()
        with self._lock:
            self._start()

    def record(self, outcome: SessionOutcome) -> Verdict:
        """deliver.deliver in the child: `done`, or why nothing was written."""
        return self._call({"session_id": outcome.session_id, "outcome": outcome.model_dump_json()})

    def close(self) -> None:
        """Stop the child (it ends once its stdin closes); requests after this start a new one."""
        with self._lock:
            child, self._child = self._child, None
            reader, self._reader = self._reader, None
        if child is None:
            return
        assert child.stdin is not None
        child.stdin.close()
        try:
            child.wait(5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if reader is not None:
            reader.join(5)

    def _call(self, request: dict[str, Any]) -> Verdict:
        with self._lock:
            request_id = next(self._ids)
            try:
                child = self._running_child()
                reply = self._waiting[request_id] = _Reply(child)
                assert child.stdin is not None
                child.stdin.write(json.dumps({"id": request_id, **request}).encode() + b"\n")
                child.stdin.flush()
            except OSError as exc:  # the child is gone (its pipe broken): the next request starts another
                self._waiting.pop(request_id, None)
                raise self._lost(f"could not reach it ({exc.strerror or exc})") from None
        if not reply.wait(REPLY_TIMEOUT_S):
            with self._lock:
                self._waiting.pop(request_id, None)
            raise self._lost(f"it did not answer within {REPLY_TIMEOUT_S:g} s")
        if reply.body is None:
            raise self._lost("it stopped")
        if reply.failed:
            error = json.loads(reply.body)
            raise self._errors.get(error["code"], SceneAgentError)(error["message"])
        text = reply.body.decode().strip()
        verdict = verdict_of(text)
        if verdict is None:
            raise self._lost(f"it answered {text[:40]!r}")
        return verdict

    @staticmethod
    def _lost(why: str) -> SelectionNotDeliveredError:
        return SelectionNotDeliveredError(f"the process that records answers failed: {why}; the answer may have been "
                                          "recorded: send it again (a 409 then means it was)")

    def _running_child(self) -> subprocess.Popen[bytes]:
        """With the lock held: the child, or a new one when it has ended."""
        if self._child is not None and self._child.poll() is None:
            return self._child
        if self._child is not None and self._child.stdin is not None:
            with suppress(OSError):  # data still buffered for a reader that is gone
                self._child.stdin.close()
        return self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        """With the lock held: a new child, and the thread that reads its replies."""
        child = subprocess.Popen(self._command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
        self._child = child
        self._reader = threading.Thread(target=self._read, args=(child,), name="deliverer-replies", daemon=True)
        self._reader.start()
        return child

    def _read(self, child: subprocess.Popen[bytes]) -> None:
        assert child.stdout is not None
        for line in child.stdout:
            try:
                request_id, kind, body = line.split(b" ", 2)
                with self._lock:
                    reply = self._waiting.pop(int(request_id), None)
            except ValueError:
                log.warning("ignoring a reply the delivery process garbled: %r", line[:200])
                continue
            if reply is not None:
                reply.failed = kind == b"E"
                reply.body = body
                reply.set()
        child.stdout.close()
        child.wait()
        with self._lock:  # the requests it had get no reply: they fail now
            lost = [k for k, reply in self._waiting.items() if reply.child is child]
            lost_replies = [self._waiting.pop(k) for k in lost]
            died = self._child is child  # not let go by close(), nor replaced by a new one already
        if died or child.returncode:
            log.warning("the delivery process ended (exit status %s)", child.returncode)
        for reply in lost_replies:
            reply.set()


class _Reply:
    """A reply awaited: `wait` blocks until the reader thread calls `set` (a plain lock, cheaper than an Event)."""

    def __init__(self, child: subprocess.Popen[bytes]) -> None:
        self.child = child  # the process the request went to
        self.failed = False
        self.body: bytes | None = None  # the answer's JSON, or the error's
        self._done = threading.Lock()
        self._done.acquire()

    def set(self) -> None:
        self._done.release()

    def wait(self, timeout: float) -> bool:
        return self._done.acquire(timeout=timeout)


def serve(store: SessionStore, requests: int, replies: IO[bytes]) -> None:
    """The child's loop: request lines from the descriptor `requests`, reply lines to `replies`, until EOF.

    The requests that arrived together are delivered as a batch: each is begun (lock taken, outcome and selection
    file named, journal record written), then all are finished, so that one journal flush covers the batch. A
    session whose lock is busy (a waiter looking, or a request of the same batch) ends the batch first: a delivery
    never waits for a lock while it holds others."""
    pending = b""
    while chunk := os.read(requests, 1 << 16):
        *lines, pending = (pending + chunk).split(b"\n")
        out: list[bytes] = []
        begun: list[tuple[int, Delivery | Verdict]] = []
        for line in lines:
            request = json.loads(line)
            try:
                try:
                    delivery = _begin(store, request, wait=not begun)
                except BlockingIOError:  # answer the batch so far, then wait for this lock holding none
                    replies.write(b"".join(out + _finish(begun)))
                    replies.flush()
                    out.clear()
                    delivery = _begin(store, request, wait=True)
                begun.append((request["id"], delivery))
            except SceneAgentError as exc:
                out.append(_error_reply(request["id"], exc))
        out += _finish(begun)
        replies.write(b"".join(out))
        replies.flush()


def _begin(store: SessionStore, request: dict[str, Any], *, wait: bool) -> Delivery | Verdict:
    try:
        session = store.get(request["session_id"])
    except SessionNotFoundError:
        return "not_found"
    return begin(store, session, SessionOutcome.model_validate_json(request["outcome"]), wait=wait)


def _finish(begun: list[tuple[int, Delivery | Verdict]]) -> list[bytes]:
    """Finish the begun deliveries (the first flush covers them all) and empty the list; their reply lines."""
    out = []
    for request_id, delivery in begun:
        try:
            verdict = delivery if isinstance(delivery, str) else delivery.finish()
            out.append(b"%d A %s\n" % (request_id, verdict.encode()))
        except SceneAgentError as exc:
            out.append(_error_reply(request_id, exc))
    begun.clear()
    return out


def _error_reply(request_id: int, exc: SceneAgentError) -> bytes:
    return b"%d E %s\n" % (request_id, json.dumps({"code": exc.code, "message": exc.message}).encode())


def main(argv: list[str] | None = None) -> None:
    """`python -m scene_agent.selection.files.deliverer --state-dir D --selection-dir D`: the child."""
    parser = argparse.ArgumentParser(prog="python -m scene_agent.selection.files.deliverer")
    parser.add_argument("--state-dir", required=True, type=Path)
    parser.add_argument("--selection-dir", required=True, type=Path)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="scene-agent deliverer: %(levelname)s %(message)s")
    settings = Settings(state_dir=args.state_dir, selection_dir=args.selection_dir, viewer_url=DEFAULT_VIEWER_URL)
    serve(SessionStore(settings), sys.stdin.fileno(), sys.stdout.buffer)


if __name__ == "__main__":
    main()
