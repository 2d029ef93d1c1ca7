"""`bench api`: requests per second of the API server on loopback, against Werkzeug's development server.

Each server runs in its own process (`scene-agent serve --port 0 --json` for the product), so the
client's threads do not share a GIL or a core budget with it in one interpreter. Every submit needs
its own pending session (a second submit of one session is a 409), so N sessions are created in the
server's state directory before the clock starts, and each is waited for as the agent waits (claimed, and
its lock made: `wait_like_agents`), so that the server does what it does for a real pick
and the agent's part is not counted in the server's time. The client is C threads, each with one keep-alive
connection that has already made one request (connection set-up and Flask's first-request imports
are not measured), taking the next session from a shared counter; req/s is N over the wall time from
the moment all threads start to the moment the last response is read.

Rows, all with the same N and C: submit-selection on waitress (the product), GET /api/health on
waitress (what a request costs with no session files: the framework's floor), submit-selection on
the same server with every fsync turned off (what durability costs; with a direct timing of fsync,
scene_bench/api_fsync.py), and submit-selection on Werkzeug's threaded development server (what
`flask run` serves; the baseline). Last, submit and health on two waitress servers sharing one Redis
(scene_bench/api_redis.py), unless no Redis is at hand.

Then the same requests under load, on the product and on waitress as it was tuned before
(`api_server.serve.BASELINE`: 100 connections at most, no read-ahead, 16 threads, 8 event streams):
with LOAD_IDLE idle keep-alive connections open (each has made one request and then says nothing),
and with LOAD_STREAMS event streams open on a chat run that waits for a pick, plus LOAD_IDLE idle connections. Under load a request
that gets no answer within LOAD_TIMEOUT_S counts as an error. The waiting program's claim on each
session is held by this process (`SelectionChannel.watch`), or the server would take no pick.

Last, the same requests while slow clients flood the server (scene_bench/api_slow.py), on the product and on
waitress as `serve` ran it before slow clients were guarded against (`api_server.serve.UNGUARDED`).

`python -m scene_bench.api [werkzeug|waitress-baseline|waitress-unguarded]` is a baseline server: the app from
`create_app`, settings from the environment, served by `werkzeug.serving.make_server(threaded=True)`
or by waitress with the BASELINE or UNGUARDED tuning; it prints one JSON line like `serve --json` and runs until
killed.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

import numpy as np

from api_server.serve import raise_open_file_limit
from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.errors import SceneAgentError
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.files.backend import FileBackend
from scene_agent.selection.pending import PendingSelection
from scene_agent.selection.session import MAX_TIMEOUT_S, SelectionSession
from scene_bench.processes import stop_process
from scene_bench.sessions import open_session

if TYPE_CHECKING:
    from scene_bench.api_fsync import FsyncCost

DEFAULT_REQUESTS = 2000
DEFAULT_CONCURRENCY = 8
HOST = "127.0.0.1"
CANDIDATES = ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]
START_TIMEOUT_S = 120.0  # the first run builds the demo scene before the server listens
STOP_TIMEOUT_S = 10.0
REQUEST_TIMEOUT_S = 30.0
JSON_HEADERS = {"Content-Type": "application/json"}
LOAD_IDLE = 500
SLOW_SPREAD = 1100  # slow clients from several addresses (scene_bench/api_slow.py): more than the old limit
SLOW_SPREAD_ADDRESSES = 11
SLOW_ONE = 5000  # slow clients from one address: more than the new limit
LOAD_STREAMS = 100
LOAD_REQUESTS = 200
LOAD_TIMEOUT_S = 2.0
WAITING_QUESTION = "what's the color of the chair?"  # the demo has several chairs: the run waits for a pick

Endpoint = Literal["submit", "health"]


class BenchError(SceneAgentError):
    """A benchmark could not run (a server did not start)."""

    code = "bench_failed"


@dataclass(frozen=True)
class ApiRow:
    """Throughput and latency of one endpoint on one server."""

    server: str
    endpoint: str
    load: str
    requests: int
    concurrency: int
    req_per_s: float
    p50_ms: float
    p99_ms: float
    errors: int


@dataclass(frozen=True)
class ApiReport:
    """Every row of one run, the first few failed responses (empty when all were 200), the Redis the shared rows
    ran on (or why they were skipped), and what an fsync takes here."""

    rows: tuple[ApiRow, ...]
    error_examples: tuple[str, ...]
    redis: str = ""
    fsync: FsyncCost | None = None  # fsync timed directly where the servers keep their files (scene_bench/api_fsync.py)

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        return {"results": [asdict(r) for r in self.rows], "redis": self.redis,
                "fsync": self.fsync.as_json() if self.fsync else None}


def _drain(stream: IO[str], first: queue.Queue[str]) -> None:
    first.put(stream.readline())
    for _ in stream:  # anything more is read and dropped, so that a full pipe never blocks the server
        pass


@dataclass(frozen=True)
class RunningServer:
    """A running server process: its name in the report, its port, its scene and the state it uses."""

    name: str
    port: int
    scene_id: str
    settings: Settings
    pid: int = 0  # 0 for a server in this process

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"


# `scene-agent serve` on a free loopback port, saying where it listens in one JSON line.
SERVE_ARGV = ["-m", "scene_agent", "serve", "--host", HOST, "--port", "0", "--json"]


@contextmanager
def server_process(name: str, argv: list[str], root: Path, env: dict[str, str] | None = None) -> Iterator[RunningServer]:
    """Start `python ARGV` with its state under root (and `env` added to its environment), read the JSON line saying
    where it listens; always stop it (SIGTERM; a server already killed is only reaped).

    The server uses the selection files of root unless `env` names a SCENE_AGENT_BROKER: one set in the bench's own
    environment is not passed on, since the bench answers those servers' sessions in their state directories."""
    extra = env or {}
    settings = Settings(state_dir=root / "state", selection_dir=root / "selection", viewer_url=DEFAULT_VIEWER_URL,
                        broker=extra.get("SCENE_AGENT_BROKER") or None)
    inherited = {k: v for k, v in os.environ.items() if k != "SCENE_AGENT_BROKER"}
    child_env = {**inherited, **extra, "SCENE_AGENT_STATE_DIR": str(settings.state_dir),
                 "SCENE_AGENT_SELECTION_DIR": str(settings.selection_dir)}
    root.mkdir(parents=True, exist_ok=True)
    log = root / "server.log"  # stderr to a file: never a full pipe, and its tail explains a failed start
    with open(log, "w", encoding="utf-8") as stderr:
        proc = subprocess.Popen([sys.executable, *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=stderr, text=True, env=child_env)
    first: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_drain, args=(proc.stdout, first), name=f"bench-api-{name}-stdout", daemon=True)
    reader.start()
    try:
        line: str | None = None
        try:
            line = first.get(timeout=START_TIMEOUT_S)
            said = json.loads(line)
            server = RunningServer(name, int(said["port"]), str(said["scene_id"]), settings, proc.pid)
        except (queue.Empty, ValueError, KeyError, TypeError):
            if line is not None:  # it ended its output or said something else (an error): give it time to exit
                with suppress(subprocess.TimeoutExpired):
                    proc.wait(STOP_TIMEOUT_S)
            stop_process(proc)
            tail = log.read_text(encoding="utf-8", errors="replace")[-2000:].strip()
            raise BenchError(f"{name} server did not start (exit status {proc.returncode}); "
                             f"stdout: {(line or '').strip() or '(empty)'}; stderr: {tail or '(empty)'}") from None
        yield server
    finally:
        stop_process(proc)
        reader.join(STOP_TIMEOUT_S)
        if proc.stdout is not None:
            proc.stdout.close()


def _agents(settings: Settings) -> SelectionChannel:
    """The channel of the agents this process stands in for: their waits never sleep on a file event (the bench only
    holds them), so the waiter polls, which costs nothing until a wait runs."""
    return SelectionChannel(FileBackend(replace(settings, selection_watch="polling")))


def _create_sessions(settings: Settings, n: int, scene_id: str) -> list[SelectionSession]:
    labels = {code: "object" for code in CANDIDATES}
    channel = _agents(settings)
    # Timeout far beyond any run, so that no session expires while it waits its turn.
    return [open_session(channel, CANDIDATES, labels, scene_id=scene_id, timeout=MAX_TIMEOUT_S) for _ in range(n)]


def wait_like_agents(settings: Settings, sessions: list[SelectionSession]) -> list[PendingSelection] | None:
    """Watch each session as a waiting agent does before anyone can pick (claimed, its lock made); the waits, to
    release after the row. None when this process may not hold that many files open: then each session is watched
    just before its submit, one at a time."""
    if raise_open_file_limit(len(sessions) + LOAD_IDLE + LOAD_STREAMS + 256) < len(sessions) + LOAD_IDLE + LOAD_STREAMS + 64:
        return None
    channel = _agents(settings)
    waits: list[PendingSelection] = []
    try:
        for session in sessions:
            waits.append(channel.watch(session))
    except BaseException:
        for pending in waits:
            pending.release()
        raise
    return waits


def _submit_body(session_id: str, i: int) -> bytes:
    return json.dumps({"session_id": session_id, "selections": [{"itemCode": CANDIDATES[i % len(CANDIDATES)]}]}).encode()


def measure(server: RunningServer | Sequence[RunningServer], endpoint: Endpoint, n: int, concurrency: int,
            examples: list[str], *, load: str = "none", timeout: float = REQUEST_TIMEOUT_S,
            sessions: list[str] | None = None) -> ApiRow:
    """n requests to one endpoint from `concurrency` clients, request i to server i mod the number of servers over
    each client's keep-alive connection to it; failures go to examples. Submits answer `sessions` (their waiting
    claims held by the caller) or, without them, n sessions created in the first server's state directory and waited
    for by this process (wait_like_agents), all before the clock starts."""
    servers = [server] if isinstance(server, RunningServer) else list(server)
    name = servers[0].name
    todo: list[tuple[str, str, bytes | None]]
    agents: SelectionChannel | None = None  # the channel whose waits this process takes per request, if it must
    created: list[SelectionSession] = []
    held: list[PendingSelection] = []
    if endpoint == "submit":
        if sessions is None:
            created = _create_sessions(servers[0].settings, n, servers[0].scene_id)
            sessions = [s.session_id for s in created]
            waits = wait_like_agents(servers[0].settings, created)
            if waits is None:
                agents = _agents(servers[0].settings)
            else:
                held = waits
        todo = [("POST", "/api/submit-selection", _submit_body(sid, i)) for i, sid in enumerate(sessions)]
    else:
        todo = [("GET", "/api/health", None)] * n
    latencies = [0.0] * n
    errors = [0] * concurrency
    next_index = iter(range(n))  # next() on a range iterator is atomic under the GIL: each index goes to one thread
    lock = threading.Lock()
    start = threading.Barrier(concurrency + 1, timeout=START_TIMEOUT_S)  # a client that dies early fails the run

    def note(message: str) -> None:
        with lock:
            if len(examples) < 5:
                examples.append(f"{name} {endpoint} ({load}): {message}")

    def client(k: int) -> None:
        conns = [http.client.HTTPConnection(HOST, s.port, timeout=timeout) for s in servers]
        for conn in conns:
            try:
                conn.request("GET", "/api/health")  # warm-up: connect, and let Flask finish its first-request work
                conn.getresponse().read()
            except (OSError, http.client.HTTPException) as exc:
                note(f"warm-up failed: {exc!r}")
                conn.close()
        start.wait()
        for i in next_index:
            method, path, body = todo[i]
            conn = conns[i % len(conns)]
            # as the agent waiting for this pick would (taken outside the timed part)
            claim: PendingSelection | None = agents.watch(created[i]) if agents and created else None
            began = time.perf_counter()
            try:
                conn.request(method, path, body, JSON_HEADERS if body else {})
                response = conn.getresponse()
                data = response.read()
                if response.status != 200:
                    errors[k] += 1
                    note(f"HTTP {response.status} {data[:200].decode(errors='replace')}")
            except (OSError, http.client.HTTPException) as exc:
                errors[k] += 1
                note(repr(exc))
                conn.close()  # the next request opens a fresh connection
            latencies[i] = time.perf_counter() - began
            if claim is not None:
                claim.release()
        for conn in conns:
            conn.close()

    threads = [threading.Thread(target=client, args=(k,), name=f"bench-api-{k}", daemon=True) for k in range(concurrency)]
    try:
        for thread in threads:
            thread.start()
        start.wait()
        began = time.perf_counter()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - began
    finally:
        for pending in held:
            pending.release()
    p50, p99 = np.percentile(np.array(latencies) * 1000, [50, 99])
    return ApiRow(name, "POST /api/submit-selection" if endpoint == "submit" else "GET /api/health", load, n,
                  concurrency, round(n / wall, 1), round(float(p50), 3), round(float(p99), 3), sum(errors))


def bench_api(n: int = DEFAULT_REQUESTS, concurrency: int = DEFAULT_CONCURRENCY, load_n: int = LOAD_REQUESTS) -> ApiReport:
    """The rows, one server process at a time, everything in one temporary directory."""
    examples: list[str] = []
    raise_open_file_limit(LOAD_IDLE + LOAD_STREAMS + SLOW_ONE + 256)  # the sockets this process holds open
    with tempfile.TemporaryDirectory(prefix="scene-agent-bench-api-") as tmp:
        from scene_bench.api_fsync import measure_without_fsync, time_fsync  # here: api_fsync builds on this module

        with server_process("waitress", SERVE_ARGV, Path(tmp) / "waitress") as server:
            rows = [measure(server, "submit", n, concurrency, examples),
                    measure(server, "health", n, concurrency, examples)]
        rows.append(measure_without_fsync(Path(tmp) / "no-fsync", n, concurrency, examples))
        fsync = time_fsync(Path(tmp) / "fsync")
        with server_process("werkzeug-dev", ["-m", "scene_bench.api", "werkzeug"], Path(tmp) / "werkzeug") as server:
            rows.append(measure(server, "submit", n, concurrency, examples))
        from scene_bench.api_load import measure_loaded  # here: api_load builds on this module

        rows += measure_loaded("waitress", SERVE_ARGV, Path(tmp) / "loaded", load_n, concurrency, examples)
        baseline = ["-m", "scene_bench.api", "waitress-baseline"]
        rows += measure_loaded("waitress-before", baseline, Path(tmp) / "loaded-before", load_n, concurrency, examples)
        from scene_bench.api_slow import measure_slow_clients  # here: api_slow builds on this module

        rows += measure_slow_clients("waitress", SERVE_ARGV, Path(tmp) / "slow", load_n, concurrency, examples)
        unguarded = ["-m", "scene_bench.api", "waitress-unguarded"]
        rows += measure_slow_clients("waitress-unguarded", unguarded, Path(tmp) / "slow-unguarded", load_n, concurrency,
                                     examples)
        from scene_bench.api_redis import measure_shared_redis  # here: api_redis builds on this module

        shared = measure_shared_redis(Path(tmp) / "shared-redis", n, concurrency, examples)
    return ApiReport((*rows, *shared.rows), tuple(examples), shared.redis, fsync)


def _serve_werkzeug() -> None:
    """A baseline: the same app on Werkzeug's threaded development server, until SIGTERM."""
    import logging

    from werkzeug.serving import make_server

    from api_server.app import create_app

    # Werkzeug logs every request to stderr; waitress logs none, so the baseline does not either.
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"SCENE_PATH": None})
    server = make_server(HOST, 0, app, threaded=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(json.dumps({"url": f"http://{HOST}:{server.port}/", "host": HOST, "port": server.port,
                      "scene_id": app.extensions["scene_agent.scene.loader"].scene_id}), flush=True)
    server.serve_forever()


def _serve_waitress_baseline() -> None:
    """A baseline: the app on waitress as it was tuned before (BASELINE, 16 threads, 8 event streams), until SIGTERM."""
    from api_server.app import create_app
    from api_server.serve import BASELINE, DEFAULT_THREADS, make_server

    app = create_app({"SCENE_PATH": None, "MAX_EVENT_STREAMS": DEFAULT_THREADS // 2})
    announce_and_run(app, make_server(app, HOST, 0, DEFAULT_THREADS, BASELINE))


def announce_and_run(app: Any, server: Any) -> None:
    """A bench server process's end: SIGTERM ends it, one JSON line on stdout says where it listens (as `serve --json`
    does), then it serves until stopped."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    port = int(server.effective_port)
    print(json.dumps({"url": f"http://{HOST}:{port}/", "host": HOST, "port": port,
                      "scene_id": app.extensions["scene_agent.scene.loader"].scene_id}), flush=True)
    server.run()


def _serve_waitress_unguarded() -> None:
    """A baseline: the app on waitress as `serve` ran it before slow clients were guarded against (UNGUARDED)."""
    from api_server.app import create_app
    from api_server.serve import SERVE_THREADS, UNGUARDED, make_server, stream_slots

    app = create_app({"SCENE_PATH": None, "MAX_EVENT_STREAMS": stream_slots(SERVE_THREADS), "DELIVER_IN_CHILD": True})
    announce_and_run(app, make_server(app, HOST, 0, SERVE_THREADS, UNGUARDED))


if __name__ == "__main__":
    {"waitress-baseline": _serve_waitress_baseline, "waitress-unguarded": _serve_waitress_unguarded}.get(
        sys.argv[1] if sys.argv[1:] else "", _serve_werkzeug)()
