"""scene_agent/selection/files/deliverer.py: answers recorded by a child process, as `scene-agent serve` does —
a real child (`python -m scene_agent.selection.files.deliverer`), real files, a real waiter."""

from __future__ import annotations

import json
import os
import queue
import threading

import pytest
from crash import crash_env
from file_answers import file_channel
from in_threads import in_threads

from scene_agent.errors import (
    InvalidSelectionError,
    NobodyWaitingError,
    SelectionNotDeliveredError,
    SessionAnsweredError,
    SessionNotFoundError,
)
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files import deliverer, journal
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.session import SelectionSession, confirmed_outcome

CHANNELS = ("file-child",)


def test_a_pick_recorded_by_the_child_reaches_the_waiter(channel, waiter, store, make_session):
    session = make_session()
    pending = waiter.watch(session, store)
    answer = channel.submit(session.session_id, ["0-1-2"])
    assert (answer.session_id, answer.status, [p.itemCode for p in answer.selections]) == (
        session.session_id, "confirmed", ["0-1-2"])
    result = pending.wait()
    assert (result.status, result.codes) == ("confirmed", ["0-1-2"])
    assert [r for r in store.journal.records() if session.session_id.encode() in r]  # journaled by the child


def test_errors_come_back_as_the_same_classes(channel, make_session):
    session = make_session()
    with pytest.raises(SessionNotFoundError, match="no selection session"):
        channel.submit("0" * 32, ["0-1-1"])
    with pytest.raises(InvalidSelectionError):
        channel.submit(session.session_id, ["9-9-9"])
    nobody = make_session(waiting=False)
    with pytest.raises(NobodyWaitingError, match="nobody is waiting"):
        channel.submit(nobody.session_id, ["0-1-1"])
    assert channel.cancel(session.session_id, words="none of them").status == "cancelled"
    with pytest.raises(SessionAnsweredError):
        channel.submit(session.session_id, ["0-1-1"])


def test_many_threads_share_the_child_and_each_gets_its_own_answer(channel, make_session):
    sessions = [make_session() for _ in range(24)]
    codes = ["0-1-1", "0-1-2", "0-1-3"]
    answers: dict[str, list[str]] = {}

    def pick(k: int) -> None:
        for i, session in enumerate(sessions[k::6]):
            answer = channel.submit(session.session_id, [codes[(k + i) % 3]])
            answers[session.session_id] = [answer.session_id, answer.selections[0].itemCode, codes[(k + i) % 3]]

    assert in_threads(pick, 6) == []
    assert len(answers) == 24 and all(sid == got and code == want for sid, (got, code, want) in answers.items())


def test_a_child_that_dies_mid_delivery_is_a_503_and_the_next_request_starts_another(settings, make_session, store,
                                                                                    monkeypatch):
    for name, value in crash_env("after_outcome").items():
        monkeypatch.setenv(name, value)  # the child the channel starts inherits them
    channel = SelectionChannel(FileBackend(settings))
    channel.deliver_in_child()
    try:
        session = make_session()
        with pytest.raises(SelectionNotDeliveredError, match="send it again"):
            channel.submit(session.session_id, ["0-1-1"])
        assert store.outcome(session.session_id).selections[0].itemCode == "0-1-1"  # it had got that far
        with pytest.raises(SessionAnsweredError):  # a new child, which refuses a second answer
            channel.submit(session.session_id, ["0-1-2"])
    finally:
        channel.close()


def test_closing_the_channel_ends_the_child(settings, make_session):
    channel = SelectionChannel(FileBackend(settings))
    channel.deliver_in_child()
    child = channel.backend._deliverer._child  # type: ignore[union-attr]
    assert child is not None and child.poll() is None
    channel.close()
    assert child.returncode == 0  # it ended by itself once its stdin closed
    channel.close()  # idempotent
    session = make_session()
    assert channel.submit(session.session_id, ["0-1-1"]).status == "confirmed"  # in this process again


class ChildLoop:
    """deliverer.serve in a thread of this process, fed through a pipe, its reply lines collected."""

    def __init__(self, store):
        self._requests, write_end = os.pipe()
        self._feed = os.fdopen(write_end, "wb", buffering=0)
        read_end, reply_end = os.pipe()
        self._replies = os.fdopen(reply_end, "wb")
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._reader = threading.Thread(target=self._collect, args=(os.fdopen(read_end, "rb"),), daemon=True)
        self._reader.start()
        self._loop = threading.Thread(target=self._serve, args=(store,), daemon=True)
        self._loop.start()

    def _serve(self, store) -> None:
        try:
            deliverer.serve(store, self._requests, self._replies)
        finally:
            self._replies.close()
            os.close(self._requests)

    def _collect(self, replies) -> None:
        with replies:
            for line in replies:
                self._lines.put(line)

    def send(self, *requests: dict) -> None:
        """All in one write: they reach the loop together, as one batch."""
        self._feed.write(b"".join(json.dumps(r).encode() + b"\n" for r in requests))

    def reply(self, timeout: float = 10.0) -> tuple[int, str, str | dict]:
        """(request id, A or E, the verdict or the error)."""
        request_id, kind, body = self._lines.get(timeout=timeout).split(b" ", 2)
        return int(request_id), kind.decode(), body.decode().strip() if kind == b"A" else json.loads(body)

    def no_reply_yet(self) -> bool:
        return self._lines.empty()

    def close(self) -> None:
        self._feed.close()
        self._loop.join(10)
        self._reader.join(10)


def submit_request(request_id: int, session: SelectionSession, code: str) -> dict:
    """A pick the channel has checked, as the Deliverer sends it."""
    outcome = confirmed_outcome(session, [code], by="viewer")
    return {"id": request_id, "session_id": session.session_id, "outcome": outcome.model_dump_json()}


@pytest.fixture
def flushes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the journal's flushes (each still flushes)."""
    counted: list[int] = []
    real = journal.flush_to_disk

    def counting(fd: int, *, data_only: bool = False) -> None:
        counted.append(1)
        real(fd, data_only=data_only)

    monkeypatch.setattr(journal, "flush_to_disk", counting)
    return counted


def test_picks_that_arrive_together_share_one_flush(store, make_session, flushes):
    loop = ChildLoop(store)
    try:
        a, b, c = make_session(), make_session(), make_session()
        gone = make_session(save=False)  # never stored
        loop.send(submit_request(1, a, "0-1-1"), submit_request(2, b, "0-1-2"), submit_request(3, gone, "0-1-1"),
                  submit_request(4, c, "0-1-3"))
        replies = {r[0]: r for r in (loop.reply() for _ in range(4))}
        assert [replies[k][1:] for k in (1, 2, 4)] == [("A", "done")] * 3
        assert [store.outcome(s.session_id).selections[0].itemCode for s in (a, b, c)] == ["0-1-1", "0-1-2", "0-1-3"]
        assert replies[3][1:] == ("A", "not_found")
        assert len(flushes) == 1
        assert all(file_channel(store).status(s)[0] == "confirmed" for s in (a, b, c))
    finally:
        loop.close()


def test_a_busy_lock_ends_the_batch_and_the_rest_is_not_held_up(store, make_session, flushes):
    loop = ChildLoop(store)
    try:
        a, b = make_session(), make_session()
        with store.locked(b.session_id):  # a waiter looking at b, say
            loop.send(submit_request(1, a, "0-1-1"), submit_request(2, b, "0-1-2"), submit_request(3, a, "0-1-3"))
            assert loop.reply()[:2] == (1, "A")  # answered while b's lock is still taken
            assert loop.no_reply_yet()
        replies = {r[0]: r for r in (loop.reply() for _ in range(2))}
        assert replies[2][1] == "A"
        assert replies[3][1:] == ("A", "answered")  # a second answer to a
        assert len(flushes) == 2
    finally:
        loop.close()
