"""Plain helpers for the selection tests: candidate sets, a session opened as the agent opens one, a thread with a
result, progress that can be awaited."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta

from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.session import SelectionSession, selection_view
from scene_agent.selection.views import ViewManifest

ROOMS = {"0-1": "kitchen", "0-2": "living room", "1-1": "bedroom"}
OBJECTS = {"0-1-1": "chair", "0-1-2": "chair", "0-1-3": "chair", "0-1-4": "dining table"}
JOIN_TIMEOUT_S = 10.0
# progress_every for a wait that should report progress once, after its first check, and then sleep
# until woken: a wait that returns before its session timeout was woken by the file event or by polling.
ONCE = 1e6


def view_of(session: SelectionSession) -> ViewManifest:
    """The view a session's pick shows (its candidates, no points: the channel stores it as it is)."""
    return ViewManifest(view=session.view or selection_view(session.session_id), scene_id="test", scene_name="test",
                        scene_url="/api/scenes/test", mode=session.mode, selection=True, session_id=session.session_id,
                        prompt=session.prompt, focus=session.candidates, items=[], created_at=session.created_at)


def opened(channel: SelectionChannel, *, timeout: float = 30.0, age: float = 0.0, multiple: bool = False
           ) -> SelectionSession:
    """A new session over OBJECTS, opened through the channel as the agent opens one (`age`: backdated)."""
    session = SelectionSession.create(list(OBJECTS), OBJECTS, "Which one?", scene_id="test", timeout=timeout,
                                      multiple=multiple)
    shift = timedelta(seconds=age)
    session = session.model_copy(update={"view": selection_view(session.session_id),
                                         "created_at": session.created_at - shift,
                                         "expires_at": session.expires_at - shift})
    return channel.open(session, view_of(session))


class Worker:
    """Run a function in a thread and keep its result or exception; `result()` joins with a timeout."""

    def __init__(self, fn: Callable[[], object]):
        self._fn = fn
        self.value: object = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.value = self._fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            self.error = exc

    def alive(self) -> bool:
        """True while the function is still running."""
        return self.thread.is_alive()

    def result(self, timeout: float = JOIN_TIMEOUT_S) -> object:
        """The function's return value; fails the test if it is still running after `timeout`."""
        self.thread.join(timeout)
        assert not self.thread.is_alive(), f"still running after {timeout} s"
        if self.error is not None:
            raise self.error
        return self.value


class Ticks:
    """An `on_progress` callback that records the seconds left and lets a test wait for the n-th report."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self._cond = threading.Condition()

    def __call__(self, seconds_left: float) -> None:
        with self._cond:
            self.values.append(seconds_left)
            self._cond.notify_all()

    def count(self) -> int:
        """How many reports so far."""
        with self._cond:
            return len(self.values)

    def wait_for(self, n: int, timeout: float = JOIN_TIMEOUT_S) -> None:
        """Block until there are at least `n` reports; fail the test after `timeout`."""
        with self._cond:
            assert self._cond.wait_for(lambda: len(self.values) >= n, timeout), f"fewer than {n} progress reports"


def join_new_threads(before: set[threading.Thread], timeout: float = JOIN_TIMEOUT_S) -> list[threading.Thread]:
    """Join threads started since `before` (observers shutting down); the ones still alive after `timeout`."""
    deadline = time.monotonic() + timeout
    for thread in set(threading.enumerate()) - before:
        thread.join(max(0.0, deadline - time.monotonic()))
    return [t for t in set(threading.enumerate()) - before if t.is_alive()]


def start_wait(waiter, session, store) -> tuple[object, Worker]:
    """Watch and wait in a thread; return (pending, worker) once the wait has checked for the file and gone to sleep."""
    pending = waiter.watch(session, store)
    ticks = Ticks()
    worker = Worker(lambda: pending.wait(on_progress=ticks, progress_every=ONCE))
    ticks.wait_for(1)
    return pending, worker
