"""`bench api` on a shared Redis: submit-selection and health over two `scene-agent serve` processes and one Redis.

Each server runs in its own process with state and selection directories of its own, as on two hosts, and
SCENE_AGENT_BROKER names the same Redis for both: SCENE_AGENT_BROKER's, else a redis-server the bench starts on
a free loopback port (scene_bench/redis_server.py); with neither, the rows are skipped and the report says why.

The sessions are opened through a SelectionChannel of this process before the clock starts, and each is waited for
as the agent would wait: `watch` claims it, and the process' one listener waits for every pick
(scene_agent/selection/redis/waiter.py). Request i goes to server i mod 2 (scene_bench/api.py: measure). After
the row every wait is ended, `cancel()` then `wait()`: a wait already answered returns the pick, so a
submit acknowledged but never received counts as an error too.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import RedisBroker
from scene_agent.selection.session import MAX_TIMEOUT_S
from scene_bench.api import CANDIDATES, SERVE_ARGV, ApiRow, RunningServer, measure, server_process
from scene_bench.redis_server import NoRedisError, redis_from_environment, settle
from scene_bench.sessions import open_session

SERVER = "waitress×2+redis"
INSTANCES = 2


@dataclass(frozen=True)
class SharedRedisRows:
    """The rows on two servers sharing one Redis, and which Redis it was (or why the rows were skipped)."""

    rows: tuple[ApiRow, ...]
    redis: str


def _open_and_watch(channel: SelectionChannel, n: int, scene_id: str) -> list[PendingSelection]:
    labels = {code: "object" for code in CANDIDATES}
    # Timeout far beyond any run, so that no session expires while it waits its turn.
    return [channel.watch(open_session(channel, CANDIDATES, labels, scene_id=scene_id, timeout=MAX_TIMEOUT_S))
            for _ in range(n)]


def _end_waits(pendings: list[PendingSelection]) -> int:
    """End every wait; how many did not receive a pick (a wait that had one returns it after cancel())."""
    for pending in pendings:
        pending.cancel()
    return sum(pending.wait().status != "confirmed" for pending in pendings)


def _submit_row(servers: list[RunningServer], broker: RedisBroker, settings: Settings, n: int, concurrency: int,
                examples: list[str]) -> ApiRow:
    channel = SelectionChannel(RedisBackend(settings, broker))
    pendings = _open_and_watch(channel, n, servers[0].scene_id)
    try:
        settle(channel)
        row = measure(servers, "submit", n, concurrency, examples,
                      sessions=[p.session.session_id for p in pendings])
    finally:
        missed = _end_waits(pendings)
    if missed > row.errors:  # a 200 whose pick its waiter never received: the worst kind of error
        if len(examples) < 5:
            examples.append(f"{SERVER} submit: {missed - row.errors} acknowledged picks never reached their waiter")
        row = replace(row, errors=missed)
    return row


def measure_shared_redis(root: Path, n: int, concurrency: int, examples: list[str]) -> SharedRedisRows:
    """Submit (n sessions) and health (n requests) over two servers sharing one Redis; no rows without a Redis."""
    try:
        with redis_from_environment() as redis, ExitStack() as stack:
            env = {"SCENE_AGENT_BROKER": redis.url}
            servers = [stack.enter_context(server_process(SERVER, SERVE_ARGV, root / f"server-{i}", env))
                       for i in range(INSTANCES)]
            broker = RedisBroker(redis.url)  # the agent's: a pool and a listener of its own, as in its own process
            stack.callback(broker.close)
            settings = Settings(state_dir=root / "agent" / "state", selection_dir=root / "agent" / "selection",
                                viewer_url=DEFAULT_VIEWER_URL, broker=redis.url)
            rows = (_submit_row(servers, broker, settings, n, concurrency, examples),
                    measure(servers, "health", n, concurrency, examples))
            return SharedRedisRows(rows, redis.where)
    except NoRedisError as exc:
        return SharedRedisRows((), f"skipped: {exc.message}")
