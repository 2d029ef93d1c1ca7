"""One SelectionWaiter serving many waits: observer lifecycle, polling fallback, 200 concurrent sessions."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from file_answers import submit_selection
from handoff_helpers import ONCE, Ticks, Worker, start_wait

from scene_agent.config import Settings
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.files.waiter import SelectionWaiter
from scene_agent.selection.session import SelectionSession


def failing_observer():
    raise OSError(24, "inotify instance limit reached")


def test_polling_fallback_when_the_observer_cannot_start(store, make_session, no_leaked_threads):
    waiter = SelectionWaiter(backend="watchdog", poll_interval=0.05, observer_factory=failing_observer)
    session = make_session()
    _, worker = start_wait(waiter, session, store)
    assert waiter.backend == "polling"
    submit_selection(store, session.session_id, ["0-1-4"])
    assert worker.result().codes == ["0-1-4"]
    # The choice sticks: the next wait polls without trying the observer again.
    second = make_session()
    _, worker = start_wait(waiter, second, store)
    submit_selection(store, second.session_id, ["0-1-1"])
    assert worker.result().codes == ["0-1-1"]
    assert waiter.backend == "polling"


def test_one_observer_while_anyone_waits_and_none_after(store, make_session, no_leaked_threads):
    idle = set(threading.enumerate())
    waiter = SelectionWaiter(backend="watchdog")
    sessions = [make_session() for _ in range(3)]
    workers = [start_wait(waiter, s, store)[1] for s in sessions]
    assert waiter.waiting == 3 and waiter.backend == "watchdog"
    observers = set(threading.enumerate()) - idle - {w.thread for w in workers}
    assert observers, "a watchdog observer runs while sessions are waited for"
    for session, worker in zip(sessions, workers, strict=True):
        submit_selection(store, session.session_id, ["0-1-2"])
        assert worker.result().codes == ["0-1-2"]
    assert waiter.waiting == 0
    for thread in observers:  # stopped (in the background) once the last wait ended
        thread.join(timeout=10)
        assert not thread.is_alive()
    # A later wait starts a fresh observer.
    again = make_session()
    _, worker = start_wait(waiter, again, store)
    submit_selection(store, again.session_id, ["0-1-3"])
    assert worker.result().codes == ["0-1-3"]


def test_close_during_a_wait_falls_back_to_polling(store, make_session, no_leaked_threads):
    waiter = SelectionWaiter(backend="watchdog", poll_interval=0.05)
    session = make_session(timeout=60)
    _, worker = start_wait(waiter, session, store)
    waiter.close()
    submit_selection(store, session.session_id, ["0-1-1"])
    assert worker.result().codes == ["0-1-1"]  # well before the 60 s timeout: the wait polls now


def test_two_selection_directories_on_one_observer(tmp_path, no_leaked_threads):
    waiter = SelectionWaiter(backend="watchdog")
    stores = [SessionStore(Settings(state_dir=tmp_path / f"state{i}", selection_dir=tmp_path / f"sel{i}",
                                    viewer_url="http://localhost:8090/")) for i in range(2)]
    sessions = [s.create(SelectionSession.create(["0-1"], {"0-1": "kitchen"}, "?", scene_id="t")) for s in stores]
    workers = [start_wait(waiter, session, s)[1] for session, s in zip(sessions, stores, strict=True)]
    for session, s in reversed(list(zip(sessions, stores, strict=True))):
        submit_selection(s, session.session_id, ["0-1"])
    assert [w.result().status for w in workers] == ["confirmed", "confirmed"]


def test_cancelling_one_wait_leaves_the_others_waiting(waiter, store, make_session):
    sessions = [make_session() for _ in range(3)]
    pendings = [waiter.watch(s, store) for s in sessions]
    ticks = [Ticks() for _ in pendings]
    workers = [Worker(lambda p=p, t=t: p.wait(on_progress=t, progress_every=ONCE)) for p, t in zip(pendings, ticks, strict=True)]
    for t in ticks:
        t.wait_for(1)
    pendings[1].cancel()
    assert workers[1].result().status == "cancelled"
    assert workers[0].alive() and workers[2].alive()
    for session, worker in (sessions[0], workers[0]), (sessions[2], workers[2]):
        submit_selection(store, session.session_id, ["0-1-3"])
        assert worker.result().codes == ["0-1-3"]


SESSIONS = 200


@pytest.mark.parametrize("backend", ["watchdog", "polling"])
def test_200_concurrent_sessions_each_get_their_own_pick(store, backend, no_leaked_threads):
    waiter = SelectionWaiter(backend=backend, poll_interval=0.05)
    sessions = []
    for i in range(SESSIONS):
        labels = {f"{i}-1-{o}": f"chair {i}.{o}" for o in range(1, 4)}
        sessions.append(store.create(SelectionSession.create(list(labels), labels, "Which chair?", scene_id="t",
                                                             timeout=120)))
    picks = {s.session_id: s.candidates[i % 3] for i, s in enumerate(sessions)}
    pendings = [waiter.watch(s, store) for s in sessions]
    ticks = [Ticks() for _ in sessions]
    workers = [Worker(lambda p=p, t=t: p.wait(on_progress=t, progress_every=ONCE)) for p, t in zip(pendings, ticks, strict=True)]
    for t in ticks:
        t.wait_for(1)
    assert waiter.waiting == SESSIONS
    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(lambda s: submit_selection(store, s.session_id, [picks[s.session_id]]), sessions))
    results = [w.result(timeout=60) for w in workers]
    for session, result in zip(sessions, results, strict=True):
        assert result.session_id == session.session_id
        assert (result.status, result.codes) == ("confirmed", [picks[session.session_id]])
    assert waiter.waiting == 0
    assert list(store.settings.selection_dir.iterdir()) == []  # every file consumed
    assert waiter.backend == backend
