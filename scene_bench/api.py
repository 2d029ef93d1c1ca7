"""`bench api`: requests per second of the API server on loopback, against Werkzeug's development server.

Each server runs in its own process (`scene-agent serve --port 0 --json` for the product), so the
client's threads do not share a GIL or a core budget with it in one interpreter. Every submit needs
its own pending session (a second submit of one session is a 409), so N sessions are created in the
server's state directory before the clock starts. The client is C threads, each with one keep-alive
connection that has already made one request (connection set-up and Flask's first-request imports
are not measured), taking the next session from a shared counter; req/s is N over the wall time from
the moment all threads start to the moment the last response is read.

Rows, all with the same N and C: submit-selection on waitress (the product), GET /api/health on
waitress (what a request costs with no session files: the framework's floor), and submit-selection
on Werkzeug's threaded development server (what `flask run` serves; the baseline).

`python -m scene_bench.api` is that baseline server: the app from `create_app`, settings from
the environment, served by `werkzeug.serving.make_server(threaded=True)`; it prints one JSON line
like `serve --json` and runs until killed.
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
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any, Literal

import numpy as np

from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.errors import SceneAgentError
from scene_agent.selection.session import MAX_TIMEOUT_S, SelectionSession
from scene_agent.selection.store import SessionStore

DEFAULT_REQUESTS = 2000
DEFAULT_CONCURRENCY = 8
HOST = "127.0.0.1"
CANDIDATES = ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]
START_TIMEOUT_S = 120.0  # the first run builds the demo scene before the server listens
STOP_TIMEOUT_S = 10.0
REQUEST_TIMEOUT_S = 30.0
JSON_HEADERS = {"Content-Type": "application/json"}

Endpoint = Literal["submit", "health"]


class BenchError(SceneAgentError):
    """A benchmark could not run (a server did not start)."""

    code = "bench_failed"


@dataclass(frozen=True)
class ApiRow:
    """Throughput and latency of one endpoint on one server."""

    server: str
    endpoint: str
    requests: int
    concurrency: int
    req_per_s: float
    p50_ms: float
    p99_ms: float
    errors: int


@dataclass(frozen=True)
class ApiReport:
    """Every row of one run, and the first few failed responses (empty when all were 200)."""

    rows: tuple[ApiRow, ...]
    error_examples: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        return {"results": [asdict(r) for r in self.rows]}


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


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def _server_process(name: str, argv: list[str], root: Path) -> Iterator[RunningServer]:
    """Start `python ARGV` with its state under root, read the JSON line saying where it listens; always stop it."""
    settings = Settings(state_dir=root / "state", selection_dir=root / "selection", viewer_url=DEFAULT_VIEWER_URL)
    env = {**os.environ, "SCENE_AGENT_STATE_DIR": str(settings.state_dir),
           "SCENE_AGENT_SELECTION_DIR": str(settings.selection_dir)}
    root.mkdir(parents=True, exist_ok=True)
    log = root / "server.log"  # stderr to a file: never a full pipe, and its tail explains a failed start
    with open(log, "w", encoding="utf-8") as stderr:
        proc = subprocess.Popen([sys.executable, *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=stderr, text=True, env=env)
    first: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_drain, args=(proc.stdout, first), name=f"bench-api-{name}-stdout", daemon=True)
    reader.start()
    try:
        line: str | None = None
        try:
            line = first.get(timeout=START_TIMEOUT_S)
            said = json.loads(line)
            server = RunningServer(name, int(said["port"]), str(said["scene_id"]), settings)
        except (queue.Empty, ValueError, KeyError, TypeError):
            if line is not None:  # it ended its output or said something else (an error): give it time to exit
                with suppress(subprocess.TimeoutExpired):
                    proc.wait(STOP_TIMEOUT_S)
            _stop(proc)
            tail = log.read_text(encoding="utf-8", errors="replace")[-2000:].strip()
            raise BenchError(f"{name} server did not start (exit status {proc.returncode}); "
                             f"stdout: {(line or '').strip() or '(empty)'}; stderr: {tail or '(empty)'}") from None
        yield server
    finally:
        _stop(proc)
        reader.join(STOP_TIMEOUT_S)
        if proc.stdout is not None:
            proc.stdout.close()


def _create_sessions(settings: Settings, n: int, scene_id: str) -> list[str]:
    store = SessionStore(settings)
    labels = {code: "object" for code in CANDIDATES}
    # Timeout far beyond any run, so that no session expires while it waits its turn.
    return [store.create(SelectionSession.create(CANDIDATES, labels, "bench", scene_id=scene_id,
                                                 timeout=MAX_TIMEOUT_S)).session_id for _ in range(n)]


def _submit_body(session_id: str, i: int) -> bytes:
    return json.dumps({"session_id": session_id, "selections": [{"itemCode": CANDIDATES[i % len(CANDIDATES)]}]}).encode()


def measure(server: RunningServer, endpoint: Endpoint, n: int, concurrency: int, examples: list[str]) -> ApiRow:
    """n requests to one endpoint from `concurrency` keep-alive connections; failures go to examples."""
    todo: list[tuple[str, str, bytes | None]]
    if endpoint == "submit":
        sessions = _create_sessions(server.settings, n, server.scene_id)
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
                examples.append(f"{server.name} {endpoint}: {message}")

    def client(k: int) -> None:
        conn = http.client.HTTPConnection(HOST, server.port, timeout=REQUEST_TIMEOUT_S)
        try:
            conn.request("GET", "/api/health")  # warm-up: connect, and let Flask finish its first-request work
            conn.getresponse().read()
        except (OSError, http.client.HTTPException) as exc:
            note(f"warm-up failed: {exc!r}")
            conn.close()
        start.wait()
        for i in next_index:
            method, path, body = todo[i]
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
        conn.close()

    threads = [threading.Thread(target=client, args=(k,), name=f"bench-api-{k}", daemon=True) for k in range(concurrency)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    p50, p99 = np.percentile(np.array(latencies) * 1000, [50, 99])
    return ApiRow(server.name, "POST /api/submit-selection" if endpoint == "submit" else "GET /api/health", n,
                  concurrency, round(n / wall, 1), round(float(p50), 3), round(float(p99), 3), sum(errors))


def bench_api(n: int = DEFAULT_REQUESTS, concurrency: int = DEFAULT_CONCURRENCY) -> ApiReport:
    """The three rows, one server process at a time, everything in one temporary directory."""
    examples: list[str] = []
    with tempfile.TemporaryDirectory(prefix="scene-agent-bench-api-") as tmp:
        serve = ["-m", "scene_agent", "serve", "--host", HOST, "--port", "0", "--json"]
        with _server_process("waitress", serve, Path(tmp) / "waitress") as server:
            rows = [measure(server, "submit", n, concurrency, examples),
                    measure(server, "health", n, concurrency, examples)]
        with _server_process("werkzeug-dev", ["-m", "scene_bench.api"], Path(tmp) / "werkzeug") as server:
            rows.append(measure(server, "submit", n, concurrency, examples))
    return ApiReport(tuple(rows), tuple(examples))


def _serve_werkzeug() -> None:
    """The baseline: the same app on Werkzeug's threaded development server, until SIGTERM."""
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


if __name__ == "__main__":
    _serve_werkzeug()
