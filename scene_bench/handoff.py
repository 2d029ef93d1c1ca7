"""`bench handoff`: answer submitted → waiter returns, for watchdog, polling, a plain once-a-second loop and Redis.

Each method gets n sessions waited on concurrently, one thread each. Once every waiter has made its
first check, the answers are submitted one by one, a few milliseconds apart with jitter so that they
land at random phases of the polling intervals. Latency is the time from the submit returning to the
waiter's `wait()` returning.

For the file methods the submit is `SelectionChannel.submit` (what the API server does on Confirm: record
the outcome, then write the selection file atomically). For `redis` the sessions are opened and waited for
through a SelectionChannel and answered through a second one, with a broker (pool) and a selection
directory of its own, as an API server on another host would (scene_agent/selection/redis/backend.py):
the pick travels by the delivery script's push only, no file. The Redis is SCENE_AGENT_BROKER's, else a
redis-server the bench starts on a free loopback port (scene_bench/redis_server.py); with neither,
the row is skipped and the report says why.

With watchdog, all waits share one observer, whose event queue is first in, first out: when one
answer is held up there, every answer submitted behind it waits too, so a rare stall shows in many
samples of a run rather than in one.

Idle CPU: 1,000 sessions waiting in one process, measured as process CPU time (all threads) over a
short wall-clock window (3 s by default) while nothing is written, for the watchdog backend, for the
once-a-second loop and for Redis (this process only: the listener's heartbeat renews every claim once a
second; the redis-server's own CPU is reported beside it when the bench started that server).
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal, cast

import numpy as np

from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import RedisBroker
from scene_agent.selection.selection_file import selection_path
from scene_agent.selection.session import MAX_TIMEOUT_S, SelectionSession
from scene_bench.redis_server import BenchRedis, NoRedisError, redis_from_environment, settle
from scene_bench.sessions import open_session

Method = Literal["watchdog", "polling", "legacy-1s", "redis"]
FILE_METHODS: tuple[Method, ...] = ("watchdog", "polling", "legacy-1s")
METHODS: tuple[Method, ...] = (*FILE_METHODS, "redis")
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
    """Latency rows for every method, and idle CPU (% of one core) of 1,000 waiters: watchdog, the once-a-second
    loop and Redis (None when the Redis row was skipped; `redis` says which Redis, or why it was skipped)."""

    rows: tuple[HandoffRow, ...]
    idle_waiters: int
    idle_seconds: float
    idle_cpu_percent: float
    idle_cpu_percent_legacy: float
    redis: str
    idle_cpu_percent_redis: float | None = None
    idle_cpu_percent_redis_server: float | None = None

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        document: dict[str, Any] = {"results": [asdict(r) for r in self.rows],
                                    "idle_cpu_percent_1000_waiters": self.idle_cpu_percent,
                                    "idle_cpu_percent_1000_waiters_legacy": self.idle_cpu_percent_legacy,
                                    "redis": self.redis}
        if self.idle_cpu_percent_redis is not None:
            document["idle_cpu_percent_1000_waiters_redis"] = self.idle_cpu_percent_redis
        if self.idle_cpu_percent_redis_server is not None:
            document["idle_cpu_percent_1000_waiters_redis_server"] = self.idle_cpu_percent_redis_server
        return document


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


def _settings(root: Path, broker: str | None = None) -> Settings:
    return Settings(state_dir=root / "state", selection_dir=root / "selection", viewer_url=DEFAULT_VIEWER_URL, broker=broker)


class _FileSide:
    """Sessions in one state directory, answered into its selection directory through a channel of their own, as the
    API server answers them on Confirm (one machine); waited for through a channel that watches as `method` says."""

    def __init__(self, root: Path):
        self.settings = _settings(root)
        self.server = SelectionChannel(FileBackend(self.settings))

    def agent(self, watch: Literal["watchdog", "polling"]) -> SelectionChannel:
        """An agent's channel on these directories, waiting by watchdog or by polling."""
        return SelectionChannel(FileBackend(replace(self.settings, selection_watch=watch)))

    def open(self, n: int, timeout: float) -> list[SelectionSession]:
        """n pending sessions."""
        return [open_session(self.server, CANDIDATES, LABELS, scene_id="bench-handoff", timeout=timeout)
                for _ in range(n)]

    def submit(self, session: SelectionSession) -> None:
        """Answer with the first candidate, as the API server does on Confirm."""
        self.server.submit(session.session_id, [session.candidates[0]])

    def settle(self) -> None:
        """Nothing to wait for: a waiter watches as soon as `watch` returns."""

    def close(self) -> None:
        """Nothing to let go: the waiters end with their waits."""


class _RedisSide:
    """Sessions opened and waited for by an agent's channel, answered by an API server's channel with a broker and a
    selection directory of its own: the pick reaches the waiter through Redis alone, as between two hosts."""

    def __init__(self, url: str, root: Path):
        self._brokers = (RedisBroker(url), RedisBroker(url))  # a pool (and a listener) each, as on two hosts
        self.agent = SelectionChannel(RedisBackend(_settings(root / "agent", url), self._brokers[0]))
        self.server = SelectionChannel(RedisBackend(_settings(root / "server", url), self._brokers[1]))

    def open(self, n: int, timeout: float) -> list[SelectionSession]:
        """n pending sessions and their views in Redis."""
        return [open_session(self.agent, CANDIDATES, LABELS, scene_id="bench-handoff", timeout=timeout) for _ in range(n)]

    def submit(self, session: SelectionSession) -> None:
        """Answer with the first candidate, as an API server does on Confirm."""
        self.server.submit(session.session_id, [session.candidates[0]])

    def settle(self) -> None:
        """Until the agent's listener has taken up every session (scene_bench/redis_server.py)."""
        settle(self.agent)

    def close(self) -> None:
        """Stop the agent's listener and close both pools."""
        for broker in self._brokers:
            broker.close()


_Side = _FileSide | _RedisSide
BACKENDS: dict[Method, Literal["watchdog", "polling"]] = {"watchdog": "watchdog", "polling": "polling"}


class _Waits:
    """Sessions waited on concurrently by one method, one thread each; records when each wait returned."""

    def __init__(self, method: Method, side: _Side, sessions: list[SelectionSession], progress_every: float = 1.0):
        self.method = method
        self.sessions = sessions
        self.ready = [threading.Event() for _ in sessions]
        self.returned: list[float | None] = [None] * len(sessions)
        self.status: list[str | None] = [None] * len(sessions)
        self._progress_every = progress_every
        self._stop = threading.Event()
        self._pending: list[PendingSelection] = []
        self._claims: list[PendingSelection] = []
        self._selection_dir: Path | None = None
        if isinstance(side, _RedisSide):
            self._pending = [side.agent.watch(session) for session in sessions]
        elif method == "legacy-1s":  # the loop knows nothing of claims: the bench holds them (waits it never runs), or
            # the server would take no pick
            agent = side.agent("polling")
            self._claims = [agent.watch(session) for session in sessions]
            self._selection_dir = side.settings.selection_dir
        else:
            agent = side.agent(BACKENDS[method])
            self._pending = [agent.watch(session) for session in sessions]
        self._threads = [threading.Thread(target=self._run, args=(i,), name=f"bench-{method}-{i}", daemon=True)
                         for i in range(len(sessions))]
        for thread in self._threads:
            thread.start()

    def _run(self, i: int) -> None:
        ready = self.ready[i]
        if self._selection_dir is not None:
            session = self.sessions[i]
            path = selection_path(self._selection_dir, session.session_id)
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


def measure_latency(method: Method, side: _Side, n: int, rng: random.Random) -> HandoffRow:
    """Answer n concurrently waited sessions one by one; the row of submit → return latencies."""
    sessions = side.open(n, LATENCY_TIMEOUT_S)
    waits = _Waits(method, side, sessions)
    written: list[float] = [0.0] * n
    try:
        waits.wait_ready()
        side.settle()
        order = list(range(n))
        rng.shuffle(order)  # so that write order is not thread start order (random phases for the 1 s loop)
        for i in order:
            time.sleep(rng.uniform(*GAP_S))
            side.submit(sessions[i])
            written[i] = time.perf_counter()
        waits.join()
    except BaseException:
        waits.cancel()
        waits.join()
        raise
    wrong = [s for s in waits.status if s != "confirmed"]
    if wrong:
        raise RuntimeError(f"{method}: {len(wrong)} of {n} waits did not end confirmed (e.g. {wrong[0]})")
    # The stamp is taken after the submit returns, a few µs after the answer is in place; a waiter that gets the
    # GIL first can return before it, so those few are clamped to 0 rather than reported as negative.
    # Every wait ended confirmed (checked just above) and a wait's return time is stamped before its status: no None.
    returned = cast(list[float], waits.returned)
    ms = np.array([max(0.0, r - w) * 1000 for r, w in zip(returned, written, strict=True)])
    p50, p95, p99 = np.percentile(ms, [50, 95, 99])
    return HandoffRow(method, n, *(round(float(v), 3) for v in (p50, p95, p99, ms.max())))


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of another process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime: the 14th and 15th fields


def measure_idle_cpu(method: Method, side: _Side, sessions: list[SelectionSession], seconds: float,
                     other_pid: int | None = None) -> tuple[float, float | None]:
    """CPU time of the whole process over `seconds` of wall time while the sessions wait, in % of one core; and
    that of the process other_pid (the redis-server) over the same window, when given."""
    # progress_every beyond the timeout: on_progress fires once (to say the wait has begun), then never
    waits = _Waits(method, side, sessions, progress_every=2 * MAX_TIMEOUT_S)
    try:
        waits.wait_ready()
        side.settle()
        other0 = _cpu_seconds(other_pid) if other_pid else 0.0
        cpu0, wall0 = time.process_time(), time.perf_counter()
        time.sleep(seconds)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        other = _cpu_seconds(other_pid) - other0 if other_pid else None
    finally:
        waits.cancel()
        waits.join()
    return round(100 * cpu / wall, 3), (None if other is None else round(100 * other / wall, 3))


@dataclass(frozen=True)
class _RedisPart:
    """The Redis row and idle figures, or why they were skipped."""

    row: HandoffRow | None
    redis: str
    idle_cpu_percent: float | None = None
    idle_cpu_percent_server: float | None = None


def measure_redis(root: Path, n: int, idle_seconds: float, rng: random.Random) -> _RedisPart:
    """The redis row and its idle CPU, on SCENE_AGENT_BROKER's Redis or one started for it; skipped without either."""
    try:
        with redis_from_environment() as redis:
            return _measure_on(redis, root, n, idle_seconds, rng)
    except NoRedisError as exc:
        return _RedisPart(None, f"skipped: {exc.message}")


def _measure_on(redis: BenchRedis, root: Path, n: int, idle_seconds: float, rng: random.Random) -> _RedisPart:
    side = _RedisSide(redis.url, root)
    try:
        row = measure_latency("redis", side, n, rng)
        sessions = side.open(IDLE_WAITERS, MAX_TIMEOUT_S)
        idle, idle_server = measure_idle_cpu("redis", side, sessions, idle_seconds, redis.pid)
    finally:
        side.close()
    return _RedisPart(row, redis.where, idle, idle_server)


def _check_no_leaked_threads(before: set[threading.Thread]) -> None:
    """Every thread started by the bench (waiters, watchdog observer and emitters, the Redis listener) has ended."""
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
        rows = [measure_latency(m, _FileSide(Path(tmp) / m), n, rng) for m in FILE_METHODS]
        side = _FileSide(Path(tmp) / "idle")
        sessions = side.open(IDLE_WAITERS, MAX_TIMEOUT_S)
        idle, _ = measure_idle_cpu("watchdog", side, sessions, idle_seconds)
        # the once-a-second loop only looks for the files, so the same (now cancelled) sessions serve again
        idle_legacy, _ = measure_idle_cpu("legacy-1s", side, sessions, idle_seconds)
        redis = measure_redis(Path(tmp) / "redis", n, idle_seconds, rng)
    _check_no_leaked_threads(before)
    rows += [redis.row] if redis.row else []
    return HandoffReport(tuple(rows), IDLE_WAITERS, idle_seconds, idle, idle_legacy, redis.redis,
                         redis.idle_cpu_percent, redis.idle_cpu_percent_server)
