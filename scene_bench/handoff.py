"""`bench handoff`: selection file written → waiter returns, for watchdog, polling and a plain once-a-second loop.

Each method gets n sessions waited on concurrently, one thread each. Once every waiter has made its
first check, the answers are submitted one by one with `submit_selection` (what the API server does
on Confirm: record the outcome, then write the selection file atomically), a few milliseconds apart
with jitter so that they land at random phases of the polling intervals. Latency is the time from
`submit_selection` returning (the file is in place) to the waiter's `wait()` returning.

With watchdog, all waits share one observer, whose event queue is first in, first out: when one
answer is held up there, every answer submitted behind it waits too, so a rare stall shows in many
samples of a run rather than in one.

Idle CPU: 1,000 sessions waiting in one process, measured as process CPU time (all threads) over a
short wall-clock window (3 s by default) while nothing is written, for the watchdog backend and for the once-a-second loop.
"""

from __future__ import annotations

import json
import random
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, cast

import numpy as np

from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.selection.answer import submit_selection
from scene_agent.selection.claims import WaitingClaim
from scene_agent.selection.selection_file import selection_path
from scene_agent.selection.session import MAX_TIMEOUT_S, SelectionSession
from scene_agent.selection.store import SessionStore
from scene_agent.selection.waiter import PendingSelection, SelectionWaiter

Method = Literal["watchdog", "polling", "legacy-1s"]
METHODS: tuple[Method, ...] = ("watchdog", "polling", "legacy-1s")
IDLE_WAITERS = 1000
DEFAULT_N = 200
DEFAULT_IDLE_SECONDS = 3.0
GAP_S = (0.005, 0.010)  # between two submits: spreads n writes over ~n × 7.5 ms of polling phases
LATENCY_TIMEOUT_S = 120.0  # session timeout: far longer than a run, so no wait ends by expiry
SETTLE_TIMEOUT_S = 60.0  # for every waiter to make its first check, and for every thread to end
CANDIDATES = ["0-1-1", "0-1-2"]
LABELS = {"0-1-1": "chair", "0-1-2": "chair"}


@dataclass(frozen=True)
class HandoffRow:
    """Hand-off latency of one waiting method, in milliseconds."""

    method: str
    n: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float


@dataclass(frozen=True)
class HandoffReport:
    """Latency rows for every method, and idle CPU (% of one core) of 1,000 waiters: watchdog and the once-a-second loop."""

    rows: tuple[HandoffRow, ...]
    idle_waiters: int
    idle_seconds: float
    idle_cpu_percent: float
    idle_cpu_percent_legacy: float

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        return {"results": [asdict(r) for r in self.rows],
                "idle_cpu_percent_1000_waiters": self.idle_cpu_percent,
                "idle_cpu_percent_1000_waiters_legacy": self.idle_cpu_percent_legacy}


def once_a_second_wait(selection_file: Path, timeout: float = 60, *, stop: threading.Event | None = None,
                            on_check: Callable[[], None] | None = None) -> Any:
    """The simplest hand-off a prototype would write: look for the file once a second, read it, delete it.

    Two hooks, neither changing its timing: `on_check()` runs before each sleep (so the bench
    knows the first look is done), and `stop` ends the loop at its next look (so the bench can end it).
    """
    start_time = time.time()
    while time.time() - start_time < timeout:
        if stop is not None and stop.is_set():
            return None
        if selection_file.exists():
            try:
                with open(selection_file, encoding="utf-8") as f:
                    data = json.load(f)
                selection_file.unlink()
                return data
            except Exception:  # noqa: BLE001, S110 - the loop's whole error handling: look again a second later
                pass
        if on_check is not None:
            on_check()
        time.sleep(1)
    return None


def _create_sessions(root: Path, n: int, timeout: float) -> list[tuple[SelectionSession, SessionStore]]:
    """n pending sessions in one store, all answered into root/selection."""
    store = SessionStore(Settings(state_dir=root / "state", selection_dir=root / "selection", viewer_url=DEFAULT_VIEWER_URL))
    sessions = []
    for _ in range(n):
        session = SelectionSession.create(CANDIDATES, LABELS, "bench", scene_id="bench-handoff", timeout=timeout)
        sessions.append((store.create(session), store))
    return sessions


class _Waits:
    """Sessions waited on concurrently by one method, one thread each; records when each wait returned."""

    def __init__(self, method: Method, sessions: list[tuple[SelectionSession, SessionStore]],
                 progress_every: float = 1.0):
        self.method = method
        self.sessions = sessions
        self.ready = [threading.Event() for _ in sessions]
        self.returned: list[float | None] = [None] * len(sessions)
        self.status: list[str | None] = [None] * len(sessions)
        self._progress_every = progress_every
        self._stop = threading.Event()
        self._pending: list[PendingSelection] = []
        self._claims: list[WaitingClaim] = []
        if method != "legacy-1s":
            self.waiter = SelectionWaiter(backend=method)
            self._pending = [self.waiter.watch(session, store) for session, store in sessions]
        else:  # the loop knows nothing of claims; the bench holds them, or the server would take no pick
            self._claims = [store.claim_waiting(session.session_id) for session, store in sessions]
        self._threads = [threading.Thread(target=self._run, args=(i,), name=f"bench-{method}-{i}", daemon=True)
                         for i in range(len(sessions))]
        for thread in self._threads:
            thread.start()

    def _run(self, i: int) -> None:
        ready = self.ready[i]
        if self.method == "legacy-1s":
            session, store = self.sessions[i]
            path = selection_path(store.settings.selection_dir, session.session_id)
            data = once_a_second_wait(path, session.timeout, stop=self._stop, on_check=ready.set)
            self.returned[i] = time.perf_counter()
            self.status[i] = data.get("status", "?") if isinstance(data, dict) else "none"
        else:
            # on_progress is first called after wait()'s first look and before its first sleep
            result = self._pending[i].wait(on_progress=lambda _left: ready.set(), progress_every=self._progress_every)
            self.returned[i] = time.perf_counter()
            self.status[i] = result.status

    def wait_ready(self) -> None:
        """Block until every waiter has made its first check."""
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        for event in self.ready:
            if not event.wait(max(0.0, deadline - time.monotonic())):
                raise RuntimeError(f"{self.method}: waiters did not start within {SETTLE_TIMEOUT_S:g} s")

    def cancel(self) -> None:
        """End every wait still in progress."""
        self._stop.set()
        for pending in self._pending:
            pending.cancel()

    def join(self) -> None:
        """Block until every waiting thread has ended."""
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        alive = sum(t.is_alive() for t in self._threads)
        for claim in self._claims:
            claim.release()
        if alive:
            raise RuntimeError(f"{self.method}: {alive} waiting threads did not end")


def measure_latency(method: Method, n: int, root: Path, rng: random.Random) -> HandoffRow:
    """Answer n concurrently waited sessions one by one; the row of write → return latencies."""
    sessions = _create_sessions(root, n, LATENCY_TIMEOUT_S)
    waits = _Waits(method, sessions)
    written: list[float] = [0.0] * n
    try:
        waits.wait_ready()
        order = list(range(n))
        rng.shuffle(order)  # so that write order is not thread start order (random phases for the 1 s loop)
        for i in order:
            time.sleep(rng.uniform(*GAP_S))
            session, store = sessions[i]
            submit_selection(store, session.session_id, [session.candidates[0]])
            written[i] = time.perf_counter()
        waits.join()
    except BaseException:
        waits.cancel()
        waits.join()
        raise
    wrong = [s for s in waits.status if s != "confirmed"]
    if wrong:
        raise RuntimeError(f"{method}: {len(wrong)} of {n} waits did not end confirmed (e.g. {wrong[0]})")
    # The stamp is taken after submit_selection returns, a few µs after the rename; a waiter that gets the
    # GIL first can return before it, so those few are clamped to 0 rather than reported as negative.
    # Every wait ended confirmed (checked just above) and a wait's return time is stamped before its status: no None.
    returned = cast(list[float], waits.returned)
    ms = np.array([max(0.0, r - w) * 1000 for r, w in zip(returned, written, strict=True)])
    p50, p95, p99 = np.percentile(ms, [50, 95, 99])
    return HandoffRow(method, n, *(round(float(v), 3) for v in (p50, p95, p99, ms.max())))


def measure_idle_cpu(method: Method, sessions: list[tuple[SelectionSession, SessionStore]], seconds: float) -> float:
    """CPU time of the whole process over `seconds` of wall time while the sessions wait, in % of one core."""
    # progress_every beyond the timeout: on_progress fires once (to say the wait has begun), then never
    waits = _Waits(method, sessions, progress_every=2 * MAX_TIMEOUT_S)
    try:
        waits.wait_ready()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        time.sleep(seconds)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    finally:
        waits.cancel()
        waits.join()
    return round(100 * cpu / wall, 3)


def _check_no_leaked_threads(before: set[threading.Thread]) -> None:
    """Every thread started by the bench (waiters, watchdog observer and emitters) has ended."""
    leaked = [t for t in threading.enumerate() if t not in before]
    for thread in leaked:
        thread.join(5.0)
    still = [t.name for t in leaked if t.is_alive()]
    if still:
        raise RuntimeError(f"threads left running after the bench: {', '.join(still)}")


def bench_handoff(n: int = DEFAULT_N, idle_seconds: float = DEFAULT_IDLE_SECONDS, seed: int = 0) -> HandoffReport:
    """Latency for every method with n sessions each, then idle CPU of 1,000 waiters; all in a temporary directory."""
    before = set(threading.enumerate())
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="scene-agent-bench-handoff-") as tmp:
        rows = tuple(measure_latency(m, n, Path(tmp) / m, rng) for m in METHODS)
        sessions = _create_sessions(Path(tmp) / "idle", IDLE_WAITERS, MAX_TIMEOUT_S)
        idle = measure_idle_cpu("watchdog", sessions, idle_seconds)
        # the once-a-second loop only looks for the files, so the same (now cancelled) sessions serve again
        idle_legacy = measure_idle_cpu("legacy-1s", sessions, idle_seconds)
    _check_no_leaked_threads(before)
    return HandoffReport(rows, IDLE_WAITERS, idle_seconds, idle, idle_legacy)
