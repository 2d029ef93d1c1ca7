"""`bench mcp`: the same two calls through `scene-agent mcp` (warm, on one MCP session) and as fresh CLI processes.

The calls: `find` "the chairs in the kitchen", and `ask` "what's the color of the chair in the kitchen?",
which makes the agent ask for a pick among the demo's four kitchen chairs; the bench picks the first at once.

One API server runs in the bench process (`create_app` + `BackgroundServer` on a free loopback port, on the
demo scene, with state and selection directories of its own in a temporary directory), and both paths are
pointed at it (SCENE_AGENT_VIEWER_URL, _STATE_DIR, _SELECTION_DIR; OPENAI_API_KEY empty for the offline
planner; SCENE_AGENT_LANG=en; SCENE_AGENT_BROKER removed), so no row pays for starting a web server.

- mcp rows: one `python -m scene_agent mcp` over stdio and one MCP SDK `ClientSession` on it, initialized with
  the handshake protocol (2025-11-25) and declaring elicitation. Its elicitation callback is a user who picks
  at once: the session named in the URL is read from the API server's own channel (in this process, no
  request), its first candidate is POSTed to /api/submit-selection, and the callback returns accept. Each
  row's time is the round trip of `call_tool` (so `ask` includes the elicitation request, the POST and the
  elicitation-complete notice), N times after one warm-up call each that is not measured.
- mcp start-up: from just before the server process is spawned to `initialize()` done (interpreter start,
  imports, loading the scene, finding the API server at the viewer URL, the handshake); measured once.
- cli rows: `python -m scene_agent find "…" --json` and `… ask "…" --json`, a fresh process per call, from
  spawn to reaped (interpreter start, imports, loading the scene, the call); `ask` has its pick POSTed the
  moment `selection_required` appears in its NDJSON (scene_bench/mcp_cli.py). One warm-up process each first,
  not measured (a first process may pay for compiling bytecode or a cold disk cache). The MCP server has
  exited before the first CLI process starts, so the two paths never share the machine.

Every call must succeed: every find names the same candidates on both paths, every ask is answered with the same
chair and the same words on both paths, after exactly one pick; otherwise the bench fails and says why.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar
from urllib.parse import parse_qs, urlsplit

import anyio
import anyio.to_thread
import mcp_types as types
import numpy as np
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.session import ClientRequestContext
from mcp_types.version import LATEST_HANDSHAKE_VERSION

from api_server.app import create_app
from api_server.serve import BackgroundServer
from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.demo.place import ensure_demo_scene
from scene_agent.errors import SceneAgentError
from scene_agent.selection.channel import SelectionChannel
from scene_bench.api import HOST, BenchError
from scene_bench.mcp_cli import CALL_TIMEOUT_S, FIND_QUERY, QUESTION, Asked, CliRunner, log_tail, post_pick

DEFAULT_N = 20
DEFAULT_CLI_N = 5
START_TIMEOUT_S = 120.0  # the MCP server starting on a busy machine
FIND, ASK = "find", "ask (instant pick)"

T = TypeVar("T")


@dataclass(frozen=True)
class McpRow:
    """Latency of one call on one path."""

    path: str
    call: str
    n: int
    p50_ms: float
    p99_ms: float
    mean_ms: float


@dataclass(frozen=True)
class McpReport:
    """Every row, the MCP server's start-up time, and the answer both paths gave to the question."""

    rows: tuple[McpRow, ...]
    mcp_startup_ms: float
    asked: Asked

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        return {"results": [asdict(r) for r in self.rows], "mcp_startup_ms": self.mcp_startup_ms,
                "asked": {"question": QUESTION, **self.asked.as_json()}}


def row(path: str, call: str, samples_ms: list[float]) -> McpRow:
    """p50, p99 and mean of one call's samples."""
    ms = np.array(samples_ms)
    p50, p99 = np.percentile(ms, [50, 99])
    return McpRow(path, call, len(samples_ms), round(float(p50), 3), round(float(p99), 3), round(float(ms.mean()), 3))


def _child_env(root: Path, origin: str) -> dict[str, str]:
    """The bench's environment for both paths: this run's API server and directories, the offline planner in English.

    SCENE_AGENT_BROKER is left out: the API server here delivers picks through the files of `root`."""
    inherited = {k: v for k, v in os.environ.items() if k != "SCENE_AGENT_BROKER"}
    return {**inherited, "SCENE_AGENT_VIEWER_URL": f"{origin}/", "SCENE_AGENT_STATE_DIR": str(root / "state"),
            "SCENE_AGENT_SELECTION_DIR": str(root / "selection"), "OPENAI_API_KEY": "", "SCENE_AGENT_LANG": "en"}


def _session_of(url: str) -> str:
    """The selection session a viewer URL opens."""
    return parse_qs(urlsplit(url).query).get("sessionId", [""])[0]


class _McpPath:
    """One MCP client session on `scene-agent mcp` and the picks its elicitation callback made."""

    def __init__(self, env: dict[str, str], origin: str, channel: SelectionChannel, log: Path):
        self.params = StdioServerParameters(command=sys.executable, args=["-m", "scene_agent", "mcp"], env=env)
        self.origin = origin
        self.channel = channel
        self.log = log
        self.picks = 0
        self.problems: list[str] = []

    def _pick_first(self, url: str) -> bool:
        """What a user who picks at once does in the viewer: Confirm the session's first candidate."""
        session_id = _session_of(url)
        try:
            code = self.channel.get(session_id).candidates[0]
        except (SceneAgentError, IndexError) as exc:  # must reach the report, not vanish inside the SDK's callback
            self.problems.append(f"the session of {url} could not be read: {exc!r}")
            return False
        status, said = post_pick(self.origin, session_id, code)
        if status != 200:
            self.problems.append(f"the pick for session {session_id} got {status or 'no answer'}: {said}")
            return False
        self.picks += 1
        return True

    async def _on_elicit(self, context: ClientRequestContext, params: types.ElicitRequestParams) -> types.ElicitResult:
        if not isinstance(params, types.ElicitRequestURLParams):
            self.problems.append(f"a form elicitation, where a URL was expected: {params.message!r}")
            return types.ElicitResult(action="decline")
        picked = await anyio.to_thread.run_sync(self._pick_first, params.url)
        return types.ElicitResult(action="accept" if picked else "cancel")

    def _failed(self, what: str) -> BenchError:
        seen = f" (the picks: {'; '.join(self.problems)})" if self.problems else ""
        return BenchError(f"mcp {what}{seen}; the MCP server's stderr: {log_tail(self.log)}")

    async def run(self, n: int) -> tuple[list[McpRow], float, list[str], Asked]:
        """Start the server, warm up and time each call n times: (rows, start-up ms, find's codes, the answer)."""
        with open(self.log, "w", encoding="utf-8") as errlog:
            try:
                return await self._run(n, errlog)
            except BaseExceptionGroup as group:  # the SDK's task groups wrap what failed inside them
                leaves = _leaves(group)
                if len(leaves) != 1 or not isinstance(leaves[0], Exception):
                    raise
                failure = leaves[0]
        if isinstance(failure, BenchError):
            raise failure
        if isinstance(failure, TimeoutError):
            raise self._failed(f"a call took longer than {CALL_TIMEOUT_S:g} s (start-up: {START_TIMEOUT_S:g} s)")
        raise self._failed(f"session failed: {type(failure).__name__}: {failure}") from failure

    async def _run(self, n: int, errlog: TextIO) -> tuple[list[McpRow], float, list[str], Asked]:
        began = time.perf_counter()
        # Leaving these blocks closes the server's stdin, then stops the process (the SDK's shutdown sequence).
        async with (stdio_client(self.params, errlog=errlog) as (read, write),
                    ClientSession(read, write, elicitation_callback=self._on_elicit) as session):
            with anyio.fail_after(START_TIMEOUT_S):
                initialized = await session.initialize()
            startup_ms = (time.perf_counter() - began) * 1000
            if initialized.protocol_version != LATEST_HANDSHAKE_VERSION:
                raise self._failed(f"spoke protocol {initialized.protocol_version}, not {LATEST_HANDSHAKE_VERSION}")
            codes, find_ms = await _timed(n, lambda: self._find(session))
            asked, ask_ms = await _timed(n, lambda: self._ask(session))
        if len({tuple(c) for c in codes}) != 1 or len(set(asked)) != 1:
            raise self._failed(f"calls disagreed: find {sorted({tuple(c) for c in codes})}, ask {list(set(asked))}")
        if self.picks != n + 1:
            raise self._failed(f"made {self.picks} picks for {n + 1} asks")
        return [row("mcp", FIND, find_ms), row("mcp", ASK, ask_ms)], round(startup_ms, 3), codes[0], asked[0]

    async def _find(self, session: ClientSession) -> list[str]:
        with anyio.fail_after(CALL_TIMEOUT_S):
            found = await session.call_tool("find", {"query": FIND_QUERY})
        content = found.structured_content
        if found.is_error or content is None:
            raise self._failed(f"find failed: {found.content}")
        return [str(c["code"]) for c in content["candidates"]]

    async def _ask(self, session: ClientSession) -> Asked:
        with anyio.fail_after(CALL_TIMEOUT_S):
            answered = await session.call_tool("ask", {"question": QUESTION})
        content = answered.structured_content
        if answered.is_error or content is None:
            raise self._failed(f"ask failed: {answered.content}")
        asked = Asked(str(content["status"]), tuple(content.get("codes") or ()), str(content["answer"]))
        if asked.status != "answered":
            raise self._failed(f"ask ended {asked.status}: {asked.answer}")
        return asked


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    """The exceptions in a group and the groups inside it."""
    return [leaf for e in group.exceptions for leaf in (_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])]


async def _timed(n: int, call: Callable[[], Awaitable[T]]) -> tuple[list[T], list[float]]:
    """One warm-up call, then n timed ones: every result (the warm-up's first), and the n times in ms."""
    results = [await call()]
    times: list[float] = []
    for _ in range(n):
        began = time.perf_counter()
        results.append(await call())
        times.append((time.perf_counter() - began) * 1000)
    return results, times


def _cli_rows(cli: CliRunner, n: int) -> tuple[list[McpRow], list[str], Asked]:
    """One warm-up process per call, then n timed ones each: (rows, find's codes, the answer)."""
    found = [cli.find() for _ in range(n + 1)]
    asked = [cli.ask() for _ in range(n + 1)]
    codes = {tuple(c) for _, c in found}
    answers = {a for _, a in asked}
    if len(codes) != 1 or len(answers) != 1:
        raise BenchError(f"cli calls disagreed: find {sorted(codes)}, ask {list(answers)}")
    bad = next((a for a in answers if a.status != "answered"), None)
    if bad is not None:
        raise BenchError(f"cli ask ended {bad.status}: {bad.answer}")
    rows = [row("cli", FIND, [ms for ms, _ in found[1:]]), row("cli", ASK, [ms for ms, _ in asked[1:]])]
    return rows, found[0][1], asked[0][1]


def bench_mcp(n: int = DEFAULT_N, cli_n: int = DEFAULT_CLI_N) -> McpReport:
    """find and ask (picked at once) n times on one warm MCP session and cli_n times as fresh CLI processes."""
    scene = ensure_demo_scene()  # built here if need be, not timed in a row
    with tempfile.TemporaryDirectory(prefix="scene-agent-bench-mcp-") as tmp:
        root = Path(tmp)
        settings = Settings(state_dir=root / "state", selection_dir=root / "selection", viewer_url=DEFAULT_VIEWER_URL)
        app = create_app({"SCENE_PATH": str(scene), "SETTINGS": settings})
        with BackgroundServer(app, host=HOST) as server:
            env = _child_env(root, server.url)
            mcp_path = _McpPath(env, server.url, app.config["CHANNEL"], root / "mcp.log")
            mcp_rows, startup_ms, mcp_codes, mcp_asked = anyio.run(mcp_path.run, n)
            cli_rows, cli_codes, cli_asked = _cli_rows(CliRunner(env, server.url, root / "cli.log"), cli_n)
    if mcp_codes != cli_codes:
        raise BenchError(f"find named {mcp_codes} over MCP but {cli_codes} on the command line")
    if mcp_asked != cli_asked:
        raise BenchError(f"the paths answered differently: mcp {mcp_asked}, cli {cli_asked}")
    return McpReport((*mcp_rows, *cli_rows), startup_ms, mcp_asked)
