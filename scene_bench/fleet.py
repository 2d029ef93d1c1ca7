"""`bench fleet`: many sessions across API servers and agent processes sharing one Redis; each pick delivered once?

S `scene-agent serve` processes (scene_bench/api.py: server_process) and A agent processes
(scene_bench/fleet_agent.py) share one Redis: SCENE_AGENT_BROKER's, else a redis-server the bench starts
(scene_bench/redis_server.py). Every process has state and selection directories of its own, as on separate
hosts, so a pick can only travel through Redis. Once every agent has started up and reached Redis, all are told
to go at once; each opens its share of the sessions, at most 64 waited for at a time, and announces each one on
stdout once it is claimed. The orchestrator (this module) answers every announced session over HTTP with a
random candidate, sent to a random server, from SUBMITTERS threads; for about one session in ten it then sends
a second, different pick to another server, which must be refused (409). The agents report how each wait ended
and when it returned (`time.monotonic()`, one clock for every process of the machine).

By default the picks go as fast as those threads can send them, which keeps every core of a small machine busy
(the latency then includes waiting for a core); `pause_ms` paces them like users who look before they press.

At the end, per session:

- delivered: the first pick was acknowledged (200) and the agent received exactly it;
- lost: acknowledged, but the agent received something else or nothing;
- refused: the first pick was not acknowledged (the agent's wait then times out);
- duplicated: more than one pick acknowledged (200) for the session;
- cross-delivered: an agent received a pick for a session it did not open, or codes not among its candidates.

Latency is from the moment the orchestrator has read the 200 to the moment the agent's wait returned. The
waiter can return before the client has read the response (the pick is pushed before the server writes it);
those samples count as 0 and are counted apart.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import numpy as np

from scene_agent.demo.place import ensure_demo_scene
from scene_bench.api import HOST, JSON_HEADERS, SERVE_ARGV, BenchError, RunningServer, server_process
from scene_bench.fleet_agent import DEFAULT_CONCURRENT, WAIT_TIMEOUT_S
from scene_bench.processes import Tally, stop_process
from scene_bench.redis_server import redis_from_environment

DEFAULT_SESSIONS = 1000
DEFAULT_SERVERS = 2
DEFAULT_AGENTS = 4
SUBMITTERS = 8  # orchestrator threads answering sessions, each with a keep-alive connection to every server
SECOND_PICK_SHARE = 0.1
REQUEST_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0
READY_TIMEOUT_S = 120.0  # an agent process starting up (imports, connecting to Redis) on a busy machine
GRACE_S = 120.0  # beyond the longest an agent can take when every pick is lost (see _deadline)


@dataclass
class FleetReport(Tally):
    """What happened to every session of the run, and the pick → agent latency of those delivered."""

    sessions_asked: int
    servers: int
    agents: int
    seed: int
    pause_ms: float = 0.0
    redis: str = ""
    sessions: int = 0
    acknowledged: int = 0
    delivered: int = 0
    lost: int = 0
    refused: int = 0
    duplicated: int = 0
    cross_delivered: int = 0
    second_picks: int = 0
    second_refused_409: int = 0
    agent_errors: int = 0
    returned_before_ack: int = 0
    p50_ms: float = 0.0
    p95_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    wall_s: float = 0.0


@dataclass(frozen=True)
class _Opened:
    agent: int
    seq: int
    session_id: str
    candidates: tuple[str, ...]


@dataclass
class _Ledger:
    """What the agents announced and received, and what the servers acknowledged; filled by many threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    opened: dict[str, _Opened] = field(default_factory=dict)
    acked: dict[str, list[tuple[tuple[str, ...], float]]] = field(default_factory=lambda: defaultdict(list))
    received: list[tuple[int, str, str, tuple[str, ...], float]] = field(default_factory=list)
    second_picks: int = 0
    second_refused: int = 0
    agent_errors: int = 0
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        with self.lock:
            self.notes.append(text)


def _read_agent(k: int, stream: IO[str], ledger: _Ledger, work: queue.Queue[_Opened | None], ready: threading.Event) -> None:
    """Every line agent k writes: `ready` sets the event, sessions to answer go to `work`, results and errors to the ledger."""
    for line in stream:
        try:
            event = json.loads(line)
            kind = event["event"]
            if kind == "ready":
                ready.set()
            elif kind == "open":
                opened = _Opened(k, int(event["seq"]), str(event["session_id"]), tuple(event["candidates"]))
                with ledger.lock:
                    ledger.opened[opened.session_id] = opened
                work.put(opened)
            elif kind == "result":
                with ledger.lock:
                    ledger.received.append((k, str(event["session_id"]), str(event["status"]), tuple(event["codes"]),
                                            float(event["returned"])))
            else:
                with ledger.lock:
                    ledger.agent_errors += 1
                ledger.note(f"agent {k}, session {event.get('seq')}: {event.get('error')}")
        except (ValueError, KeyError, TypeError):
            ledger.note(f"agent {k} said something unexpected: {line.strip()[:200]}")


class _Submitter:
    """One orchestrator thread's keep-alive connections, one per server: POST a pick, read the reply."""

    def __init__(self, servers: list[RunningServer]):
        self.servers = servers
        self._conns: list[http.client.HTTPConnection | None] = [None] * len(servers)

    def pick(self, server: int, session_id: str, code: str) -> tuple[int, float, str]:
        """(HTTP status or 0 when no answer, time.monotonic() once the reply was read, the reply's start)."""
        conn = self._conns[server] or http.client.HTTPConnection(HOST, self.servers[server].port, timeout=REQUEST_TIMEOUT_S)
        self._conns[server] = conn
        body = json.dumps({"session_id": session_id, "selections": [{"itemCode": code}]}).encode()
        try:
            conn.request("POST", "/api/submit-selection", body, JSON_HEADERS)
            response = conn.getresponse()
            data = response.read()
            return response.status, time.monotonic(), data[:200].decode(errors="replace")
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            self._conns[server] = None  # a fresh connection next time
            return 0, time.monotonic(), repr(exc)

    def close(self) -> None:
        for conn in self._conns:
            if conn is not None:
                conn.close()


def _answer(submitter: _Submitter, opened: _Opened, seed: int, pause_ms: float, ledger: _Ledger) -> None:
    """The user's pick on a random server, after a random pause of up to pause_ms; for about one session in ten, a
    second, different pick on another server."""
    rng = random.Random(f"{seed}/{opened.agent}/{opened.seq}")  # the same choices for a session whatever the timing
    servers = len(submitter.servers)
    first = rng.randrange(servers)
    code = rng.choice(opened.candidates)
    again = rng.random() < SECOND_PICK_SHARE
    if pause_ms > 0:
        time.sleep(rng.uniform(0.0, pause_ms / 1000))  # the user looks before pressing
    status, at, reply = submitter.pick(first, opened.session_id, code)
    if status != 200:
        ledger.note(f"{opened.session_id}: the pick got {status or 'no answer'} from server {first}: {reply}")
        return
    with ledger.lock:
        ledger.acked[opened.session_id].append(((code,), at))
    if not again:
        return
    other = rng.choice([c for c in opened.candidates if c != code])
    status, at, reply = submitter.pick((first + 1) % servers, opened.session_id, other)
    with ledger.lock:
        ledger.second_picks += 1
        ledger.second_refused += status == 409
        if status == 200:
            ledger.acked[opened.session_id].append(((other,), at))
    if status != 409:
        ledger.note(f"{opened.session_id}: a second pick got {status or 'no answer'}, not 409: {reply}")


def _submit_loop(servers: list[RunningServer], work: queue.Queue[_Opened | None], report: FleetReport,
                 ledger: _Ledger) -> None:
    submitter = _Submitter(servers)
    try:
        while (opened := work.get()) is not None:
            _answer(submitter, opened, report.seed, report.pause_ms, ledger)
    finally:
        submitter.close()


@dataclass
class _Agent:
    """A running agent process and the event its reader sets when the agent says it is ready."""

    proc: subprocess.Popen[str]
    ready: threading.Event


@contextmanager
def _agent_process(k: int, sessions: int, root: Path, broker: str, ledger: _Ledger,
                   work: queue.Queue[_Opened | None]) -> Iterator[_Agent]:
    """Agent k in its own process with its own directories, its output read by a thread of its own; always stopped
    (SIGTERM, then SIGKILL), reaped, and its reader joined."""
    root.mkdir(parents=True, exist_ok=True)
    env = {**{name: v for name, v in os.environ.items() if name != "SCENE_AGENT_BROKER"},
           "SCENE_AGENT_STATE_DIR": str(root / "state"), "SCENE_AGENT_SELECTION_DIR": str(root / "selection"),
           "SCENE_AGENT_BROKER": broker}
    argv = [sys.executable, "-m", "scene_bench.fleet_agent", "--index", str(k), "--sessions", str(sessions),
            "--concurrent", str(DEFAULT_CONCURRENT)]
    with open(root / "agent.log", "w", encoding="utf-8") as stderr:  # a file: never a full pipe
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
    ready = threading.Event()
    reader = threading.Thread(target=_read_agent, args=(k, proc.stdout, ledger, work, ready), name=f"fleet-read-{k}",
                              daemon=True)
    reader.start()
    try:
        yield _Agent(proc, ready)
    finally:
        if proc.stdin is not None:
            with suppress(OSError):  # it has exited already: nothing to tell it
                proc.stdin.close()  # an agent not yet told to go ends at once
        stop_process(proc, STOP_TIMEOUT_S)
        reader.join(STOP_TIMEOUT_S)  # the process has ended, so its output has: the reader is at its end
        if proc.stdout is not None:
            proc.stdout.close()


def _start_together(agents: list[_Agent], root: Path, ledger: _Ledger) -> None:
    """Once every agent has said it is ready, tell them all to go; BenchError if one never gets ready."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    for k, agent in enumerate(agents):
        while not agent.ready.wait(0.1):  # short waits, to notice an agent that exited instead
            if agent.proc.poll() is not None or time.monotonic() > deadline:
                tail = (root / f"agent-{k}" / "agent.log").read_text(errors="replace")[-500:].strip()
                with ledger.lock:
                    said = "; ".join(n for n in ledger.notes if n.startswith(f"agent {k},"))
                raise BenchError(f"agent {k} did not get ready (exit status {agent.proc.returncode}): "
                                 f"{said or tail or '(no output)'}")
    for agent in agents:
        if agent.proc.stdin is not None:
            with suppress(BrokenPipeError):  # it died since it said ready: its exit status is reported at the end
                agent.proc.stdin.write("go\n")
                agent.proc.stdin.close()


def _deadline(shares: list[int]) -> float:
    """The longest a run may take: every wait of the largest share timing out, batch after batch, and some grace."""
    return time.monotonic() + math.ceil(max(shares) / DEFAULT_CONCURRENT) * WAIT_TIMEOUT_S + GRACE_S


def _run(report: FleetReport, servers: list[RunningServer], root: Path, broker: str, ledger: _Ledger) -> None:
    """Start the submitters and the agents; return when every agent has ended and every thread has been joined."""
    shares = [report.sessions_asked // report.agents + (k < report.sessions_asked % report.agents)
              for k in range(report.agents)]
    work: queue.Queue[_Opened | None] = queue.Queue()
    submitters = [threading.Thread(target=_submit_loop, args=(servers, work, report, ledger),
                                   name=f"fleet-submit-{i}", daemon=True) for i in range(SUBMITTERS)]
    try:
        for thread in submitters:
            thread.start()
        with ExitStack() as stack:
            agents = [stack.enter_context(_agent_process(k, share, root / f"agent-{k}", broker, ledger, work))
                      for k, share in enumerate(shares)]
            _start_together(agents, root, ledger)
            began = time.monotonic()
            deadline = _deadline(shares)
            for k, agent in enumerate(agents):
                try:
                    status = agent.proc.wait(max(0.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    ledger.note(f"agent {k} did not finish in time; stopped")
                    continue
                if status != 0:
                    tail = (root / f"agent-{k}" / "agent.log").read_text(errors="replace")[-500:].strip()
                    ledger.note(f"agent {k} exited with status {status}: {tail or '(no output)'}")
            report.wall_s = round(time.monotonic() - began, 3)
    finally:
        for _ in submitters:
            work.put(None)  # after every agent's reader has ended: nothing more is queued behind these
        for thread in submitters:
            if thread.is_alive():
                thread.join(REQUEST_TIMEOUT_S * 2 + STOP_TIMEOUT_S)


def _tally(report: FleetReport, ledger: _Ledger) -> None:
    """Compare what each agent received with what the servers acknowledged."""
    received: dict[str, list[tuple[str, tuple[str, ...], float]]] = defaultdict(list)
    for agent, sid, status, codes, returned in ledger.received:
        owner = ledger.opened.get(sid)
        if owner is None or owner.agent != agent or any(c not in owner.candidates for c in codes):
            report.cross_delivered += 1
            report.note(f"agent {agent} received {list(codes)} for {sid}, not a session of its own with those candidates")
        received[sid].append((status, codes, returned))
    latencies: list[float] = []
    for sid in ledger.opened:
        acks, got = ledger.acked.get(sid, []), received.get(sid, [])
        report.duplicated += len(acks) > 1
        if len(acks) > 1:
            report.note(f"{sid}: {len(acks)} picks acknowledged: {[list(codes) for codes, _ in acks]}")
        if not acks:
            report.refused += 1
            continue
        report.acknowledged += 1
        codes, acked_at = acks[0]
        if len(got) == 1 and got[0][0] == "confirmed" and got[0][1] == codes:
            report.delivered += 1
            report.returned_before_ack += got[0][2] < acked_at
            latencies.append(max(0.0, got[0][2] - acked_at) * 1000)
        else:
            report.lost += 1
            report.note(f"{sid}: {list(codes)} acknowledged, the agent received {[(s, list(c)) for s, c, _ in got] or 'nothing'}")
    report.sessions = len(ledger.opened)
    report.second_picks, report.second_refused_409 = ledger.second_picks, ledger.second_refused
    report.agent_errors = ledger.agent_errors
    for text in ledger.notes:
        report.note(text)
    if latencies:
        ms = np.array(latencies)
        p50, p95, p99 = np.percentile(ms, [50, 95, 99])
        report.p50_ms, report.p95_ms, report.p99_ms, report.max_ms = (round(float(v), 3) for v in (p50, p95, p99, ms.max()))


def bench_fleet(sessions: int = DEFAULT_SESSIONS, servers: int = DEFAULT_SERVERS, agents: int = DEFAULT_AGENTS,
                seed: int = 0, pause_ms: float = 0.0) -> FleetReport:
    """Run `sessions` sessions over `servers` API servers and `agents` agent processes on one Redis; what arrived.
    Each pick waits a random pause of up to pause_ms first (0: the submitters answer as fast as they can)."""
    report = FleetReport(sessions_asked=sessions, servers=servers, agents=agents, seed=seed, pause_ms=pause_ms)
    ensure_demo_scene()  # built once here, not by two servers starting at once
    ledger = _Ledger()
    with (tempfile.TemporaryDirectory(prefix="scene-agent-bench-fleet-") as tmp, redis_from_environment() as redis,
          ExitStack() as stack):
        report.redis = redis.where
        env = {"SCENE_AGENT_BROKER": redis.url}
        running = [stack.enter_context(server_process(f"fleet-{i}", SERVE_ARGV, Path(tmp) / f"server-{i}", env))
                   for i in range(servers)]
        _run(report, running, Path(tmp), redis.url, ledger)
    _tally(report, ledger)
    return report
