"""One agent process of `bench fleet`: opens its share of sessions through Redis, waits for them, says how each ended.

`python -m scene_bench.fleet_agent --index K --sessions M [--concurrent C]` takes its directories and its broker
from the environment (SCENE_AGENT_STATE_DIR, _SELECTION_DIR, _BROKER, read by scene_agent.config). It says it is
ready, starts when it reads `go` on stdin, waits for at most C sessions at a time, each on a thread of its own as an
agent's tool call would, and writes one JSON line per event on stdout, flushed at once, for the orchestrator
(scene_bench/fleet.py) to read as they happen:

- `{"event": "ready"}` once Redis answers;
- `{"event": "open", "seq": j, "session_id": …, "candidates": […]}` once the session is claimed and listened for;
- `{"event": "result", "seq": j, "session_id": …, "status": …, "codes": […], "returned": t}` when its wait has
  returned, t being `time.monotonic()` then (CLOCK_MONOTONIC: one clock for every process of the machine);
- `{"event": "error", "seq": j, "error": …}` when the session could not be opened or waited for.

Session j of agent K has the candidates K-j-1, K-j-2 and K-j-3: no two sessions of a run share one, so a pick
that reached the wrong session shows.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from scene_agent.config import load_settings
from scene_agent.errors import SceneAgentError
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.redis.broker import RedisBroker
from scene_bench.sessions import open_session

DEFAULT_CONCURRENT = 64
WAIT_TIMEOUT_S = 60.0  # a pick never delivered ends its wait after this, as a timeout the orchestrator counts as lost
SCENE_ID = "bench-fleet"


def candidates_of(index: int, seq: int) -> list[str]:
    """The candidates of session `seq` of agent `index`: object codes no other session of the run has."""
    return [f"{index}-{seq}-{i}" for i in (1, 2, 3)]


class _Out:
    """JSON lines on stdout, one writer at a time, each flushed at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def say(self, **event: Any) -> None:
        line = json.dumps(event, separators=(",", ":"))
        with self._lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()


_OUT = _Out()


def _one(channel: SelectionChannel, index: int, seq: int, out: _Out) -> None:
    """Open session seq, wait for it, say how it ended."""
    codes = candidates_of(index, seq)
    try:
        session = open_session(channel, codes, {c: "chair" for c in codes}, scene_id=SCENE_ID, timeout=WAIT_TIMEOUT_S)
        pending = channel.watch(session)  # claimed before it is announced: no pick can arrive before someone waits
        out.say(event="open", seq=seq, session_id=session.session_id, candidates=session.candidates)
        result = pending.wait()
        returned = time.monotonic()
    except Exception as exc:  # noqa: BLE001 - whatever went wrong, the orchestrator must hear of every session
        out.say(event="error", seq=seq, error=exc.message if isinstance(exc, SceneAgentError) else repr(exc))
        return
    out.say(event="result", seq=seq, session_id=result.session_id, status=result.status, codes=result.codes,
            returned=returned)


def run_agent(index: int, sessions: int, concurrent: int) -> None:
    """Say `ready` once Redis answers, wait for `go` on stdin (every agent then starts at once, none of them still
    starting up), then open, wait for and report `sessions` sessions, at most `concurrent` at a time."""
    settings = load_settings()
    assert settings.broker, "the fleet's agents run with SCENE_AGENT_BROKER set (scene_bench/fleet.py)"
    broker = RedisBroker(settings.broker)  # this process' pool and listener, closed when it is done
    channel = SelectionChannel(RedisBackend(settings, broker))
    try:
        health = channel.health()  # connects the pool, so that the first session does not pay for it
        if not health.reachable:
            _OUT.say(event="error", seq=None, error=health.message)
            return
        _OUT.say(event="ready")
        if sys.stdin.readline().strip() != "go":  # the orchestrator gave up before the start
            return
        with ThreadPoolExecutor(max_workers=concurrent, thread_name_prefix=f"fleet-agent-{index}") as pool:
            for seq in range(sessions):
                pool.submit(_one, channel, index, seq, _OUT)
    finally:
        broker.close()


def main(argv: list[str] | None = None) -> None:
    """The agent's command line."""
    parser = argparse.ArgumentParser(prog="python -m scene_bench.fleet_agent", description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=int, required=True, help="This agent's number (0, 1, …).")
    parser.add_argument("--sessions", type=int, required=True, help="How many sessions to open and wait for.")
    parser.add_argument("--concurrent", type=int, default=DEFAULT_CONCURRENT, help="Sessions waited for at once.")
    args = parser.parse_args(argv)
    run_agent(args.index, args.sessions, max(1, args.concurrent))


if __name__ == "__main__":
    main()
