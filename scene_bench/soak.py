"""`bench soak`: picks, cancels, stops and timeouts at random against a server that keeps being restarted.

Agents in this process create selection sessions and wait for them (the real waiter, watchdog); for each
session a client decides its fate: pick one of its candidates or cancel over HTTP (retrying through
restarts, as a browser's user would press Confirm again), let it time out, or stop the wait itself. A
`scene-agent serve` process is restarted every few seconds, by SIGTERM and by SIGKILL in turn, so deliveries
are cut short at every step. Each session has candidates of its own, so an answer that reached the wrong
waiter shows. At the end every acknowledged answer is compared with what its waiter received:

- delivered: acknowledged (200, or 409 with the session showing this very answer) and received as sent;
- lost: acknowledged but the waiter received something else (a timeout, say);
- duplicated: more than one answer to a session acknowledged;
- cross-delivered: a waiter received codes that were not its session's;
- false refusals: a pick or a cancel refused as "not found" (404) or "nobody waiting" (410) while its waiter lived.

With `broker="sentinel"` the picks travel through Redis run highly available (scene_bench/sentinel_set.py: a
primary, a replica, three Sentinels; SCENE_AGENT_BROKER=redis+sentinel://…), and every other restart is of Redis
instead: the primary killed (kill -9), the replica promoted, the old primary back as the new replica.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.errors import BrokerUnavailableError
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.redis.backend import RedisBackend
from scene_agent.selection.result import SelectionResult
from scene_agent.selection.session import SelectionSession
from scene_bench.api import SERVE_ARGV, RunningServer, server_process
from scene_bench.processes import Tally
from scene_bench.redis_server import NoRedisError
from scene_bench.sentinel_set import SentinelSet
from scene_bench.sessions import open_session

Fate = Literal["pick", "cancel", "timeout", "stop"]
FATES: tuple[Fate, ...] = ("pick", "pick", "pick", "cancel", "timeout", "stop")
WAIT_TIMEOUT_S = 30.0  # a session to be answered: long enough to ride out a restart
SHORT_TIMEOUT_S = 1.0  # a session left to time out
RETRY_PAUSE_S = 0.1
REQUEST_TIMEOUT_S = 5.0



@dataclass
class SoakReport(Tally):
    """What happened to every session of the run."""

    minutes: float
    agents: int
    sessions: int = 0
    picked: int = 0
    cancelled: int = 0
    timed_out: int = 0
    stopped: int = 0
    delivered: int = 0
    lost: int = 0
    duplicated: int = 0
    cross_delivered: int = 0
    server_restarts: int = 0
    killed: int = 0
    failovers: int = 0
    retries: int = 0
    refused: int = 0
    false_refusals: int = 0


class _Server:
    """`scene-agent serve` (scene_bench/api.py: server_process), restarted on demand; `url` is the current one."""

    def __init__(self, root: Path, env: dict[str, str] | None = None):
        self._root = root
        self._env = env
        self._lock = threading.Lock()
        self._stack: ExitStack | None = None
        self._running: RunningServer | None = None
        self.url = ""
        self.start()

    def start(self) -> None:
        stack = ExitStack()
        running = stack.enter_context(server_process("soak", SERVE_ARGV, self._root, self._env))
        with self._lock:
            self._stack, self._running, self.url = stack, running, running.url

    def restart(self, kill: bool) -> None:
        """Stop the server (SIGKILL: in the middle of whatever it does) and start a new one."""
        self.stop(kill)
        self.start()

    def stop(self, kill: bool = False) -> None:
        with self._lock:
            stack, running, self._stack, self._running = self._stack, self._running, None, None
        if stack is None or running is None:
            return
        if kill:
            os.kill(running.pid, signal.SIGKILL)
        stack.close()  # SIGTERM, or only the reaping of a killed one


def _post(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT_S) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        with exc:
            try:
                return exc.code, json.loads(exc.read())
            except ValueError:
                return exc.code, {}


def _get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=REQUEST_TIMEOUT_S) as response:
        return dict(json.loads(response.read()))


@dataclass
class _Answer:
    """What the client believes about its session: the answers acknowledged, and how many tries it took."""

    acked: list[tuple[str, ...]] = field(default_factory=list)  # ("cancelled",) or the codes
    retries: int = 0
    refused: str | None = None


def _answer(server: _Server, session: SelectionSession, fate: Fate, rng: random.Random) -> _Answer:
    """Pick or cancel over HTTP until the server says how it ended, retrying through restarts and 503s."""
    time.sleep(rng.uniform(0.0, 0.3))  # the user looks before pressing
    code = rng.choice(session.candidates)
    mine: tuple[str, ...] = (code,) if fate == "pick" else ("cancelled",)
    answer = _Answer()
    deadline = time.monotonic() + session.timeout
    while time.monotonic() < deadline:
        path, body = (("submit-selection", {"session_id": session.session_id, "selections": [{"itemCode": code}]})
                      if fate == "pick" else ("cancel-selection", {"session_id": session.session_id}))
        try:
            status, reply = _post(f"{server.url}/api/{path}", body)
            if status == 200:
                answer.acked.append(mine)
                return answer
            if status == 409:  # answered: by us, on a try whose reply was lost when the server died?
                state = _get(f"{server.url}/api/sessions/{session.session_id}")
                said = tuple(p["itemCode"] for p in state["selections"]) if state["status"] == "confirmed" else (state["status"],)
                if said == mine:
                    answer.acked.append(mine)
                else:
                    answer.refused = f"409 ({state['status']})"
                return answer
            if status != 503:
                answer.refused = f"{status} {reply.get('error')}"
                return answer
        except OSError:  # refused or cut off: the server is restarting
            pass
        answer.retries += 1
        time.sleep(RETRY_PAUSE_S)
    answer.refused = "gave up"
    return answer


def _received(result: SelectionResult) -> tuple[str, ...]:
    return tuple(result.codes) if result.status == "confirmed" else (result.status,)


def bench_soak(minutes: float = 1.0, agents: int = 16, restart_every_s: float = 10.0, seed: int = 0,
               broker: str = "files") -> SoakReport:
    """Run for `minutes` with `agents` concurrent waiting agents; the server restarts every `restart_every_s` (with
    `broker="sentinel"`, the server and the Redis primary in turn)."""
    report = SoakReport(minutes=minutes, agents=agents)
    lock = threading.Lock()
    with tempfile.TemporaryDirectory(prefix="scene-agent-soak-") as tmp, ExitStack() as running:
        root = Path(tmp)
        settings = Settings(state_dir=root / "state", selection_dir=root / "selection", viewer_url=DEFAULT_VIEWER_URL)
        sentinels = _sentinels(root) if broker == "sentinel" else None
        if sentinels is not None:
            running.callback(sentinels.stop)
            settings = replace(settings, broker=sentinels.url)
            channel = SelectionChannel(RedisBackend(settings))  # this process' listener, as an agent's
        else:
            channel = SelectionChannel(FileBackend(settings))  # the process-wide watchdog waiter, as an agent's
        server = _Server(root, {"SCENE_AGENT_BROKER": sentinels.url} if sentinels else None)
        end = time.monotonic() + minutes * 60
        done = threading.Event()

        def restarts() -> None:
            kill, turn = False, 0
            while not done.wait(restart_every_s):
                turn += 1
                if sentinels is not None and turn % 2 == 0:
                    sentinels.fail_over()
                    with lock:
                        report.failovers += 1
                    continue
                server.restart(kill)
                with lock:
                    report.server_restarts += 1
                    report.killed += kill
                kill = not kill

        def agent(k: int) -> None:
            rng = random.Random(seed * 1000 + k)
            n = 0
            with ThreadPoolExecutor(max_workers=2, thread_name_prefix=f"soak-client-{k}") as clients:
                while time.monotonic() < end:
                    n += 1
                    fate = rng.choice(FATES)
                    codes = [f"{k}-{n % 1000}-{i}" for i in (1, 2, 3)]  # this session's own candidates
                    opened = _open_and_watch(channel, codes, SHORT_TIMEOUT_S if fate == "timeout" else WAIT_TIMEOUT_S)
                    if opened is None:
                        continue  # the broker stayed away: this agent tries a new session
                    session, pending = opened
                    sent = clients.submit(_answer, server, session, fate, rng) if fate in ("pick", "cancel") else None
                    if fate == "stop":
                        threading.Timer(rng.uniform(0.05, 0.3), pending.cancel).start()
                    result = pending.wait()
                    answer = sent.result() if sent is not None else _Answer()
                    _tally(report, lock, session, result, answer)

        restarter = threading.Thread(target=restarts, name="soak-restarts", daemon=True)
        restarter.start()
        try:
            with ThreadPoolExecutor(max_workers=agents, thread_name_prefix="soak-agent") as pool:
                list(pool.map(agent, range(agents)))
        finally:
            done.set()
            restarter.join()
            server.stop()
    return report


def _open_and_watch(channel: SelectionChannel, codes: list[str], timeout: float
                    ) -> tuple[SelectionSession, PendingSelection] | None:
    """Open a session and wait for it, as an agent does; while the broker is away (a failover), try again as an
    agent's user would ask again; None when it stayed away for WAIT_TIMEOUT_S."""
    deadline = time.monotonic() + WAIT_TIMEOUT_S
    pause = threading.Event()  # never set: the pause between two tries
    while True:
        try:
            session = open_session(channel, codes, {c: "chair" for c in codes}, scene_id="soak", timeout=timeout)
            return session, channel.watch(session)
        except BrokerUnavailableError:
            if time.monotonic() > deadline:
                return None
            pause.wait(RETRY_PAUSE_S)


def _sentinels(root: Path) -> SentinelSet:
    """A primary, a replica and three Sentinels in `root`, started (redis-server from PATH)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise NoRedisError("bench soak --broker sentinel needs Debian's redis-server on PATH (apt-get install "
                           "redis-server)")
    (root / "ha").mkdir()
    return SentinelSet(binary, root / "ha").start()


def _tally(report: SoakReport, lock: threading.Lock, session: SelectionSession, result: SelectionResult,
           answer: _Answer) -> None:
    received = _received(result)
    with lock:
        report.sessions += 1
        report.retries += answer.retries
        report.refused += answer.refused is not None
        report.false_refusals += bool(answer.refused and answer.refused.startswith(("404", "410 nobody_waiting")))
        status = {"confirmed": "picked", "cancelled": "cancelled", "timeout": "timed_out"}.get(result.status, result.status)
        if result.status == "cancelled" and result.cancelled_by == "caller":
            status = "stopped"
        if status in ("picked", "cancelled", "timed_out", "stopped"):
            setattr(report, status, getattr(report, status) + 1)
        if result.session_id != session.session_id or any(c not in session.candidates for c in result.codes):
            report.cross_delivered += 1
            report.note(f"{session.session_id}: received {received} from another session")
        if len(answer.acked) > 1:
            report.duplicated += 1
            report.note(f"{session.session_id}: acknowledged {len(answer.acked)} times")
        if answer.acked:
            if answer.acked[-1] == received:
                report.delivered += 1
            else:
                report.lost += 1
                report.note(f"{session.session_id}: acknowledged {answer.acked[-1]}, the waiter received {received}")
