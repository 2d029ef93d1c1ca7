"""What `bench mcp` shares between its two paths, and its CLI path: `find` and `ask` as fresh `scene-agent` processes.

The CLI calls are typed as a user types them (`python -m scene_agent find "…" --json`, `python -m scene_agent
ask "…" --json`), each in a process of its own with stdin closed, stderr appended to a log file; the time is
from just before the process is spawned to the moment it has been reaped. For `ask`, the bench reads the NDJSON
events as they come and POSTs the first candidate to the API server the moment `selection_required` appears.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scene_bench.api import BenchError
from scene_bench.processes import stop_process

FIND_QUERY = "the chairs in the kitchen"
QUESTION = "what's the color of the chair in the kitchen?"
CALL_TIMEOUT_S = 60.0  # one call or one CLI process, far beyond what either takes even on a loaded machine
REQUEST_TIMEOUT_S = 30.0
LOG_TAIL_CHARS = 1500


@dataclass(frozen=True)
class Asked:
    """How an `ask` ended: the same on both paths, or the paths disagree."""

    status: str
    codes: tuple[str, ...]
    answer: str

    def as_json(self) -> dict[str, Any]:
        """For the `--json` document."""
        return {"status": self.status, "codes": list(self.codes), "answer": self.answer}


def log_tail(path: Path) -> str:
    """The end of a log file, for an error message."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-LOG_TAIL_CHARS:].strip() or "(empty)"
    except OSError:
        return "(no log)"


def post_pick(origin: str, session_id: str, code: str) -> tuple[int, str]:
    """The viewer's Confirm of one code, on a fresh connection: (HTTP status, or 0 when no answer; the reply's start)."""
    parts = urlsplit(origin)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=REQUEST_TIMEOUT_S)
    body = json.dumps({"session_id": session_id, "selections": [{"itemCode": code}]}).encode()
    try:
        conn.request("POST", "/api/submit-selection", body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read()[:200].decode(errors="replace")
    except (OSError, http.client.HTTPException) as exc:
        return 0, repr(exc)
    finally:
        conn.close()


class CliRunner:
    """Runs `python -m scene_agent ARGS` with the bench's environment, its stderr appended to `log`."""

    def __init__(self, env: dict[str, str], origin: str, log: Path):
        self.env = env
        self.origin = origin
        self.log = log

    def _spawn(self, *args: str) -> subprocess.Popen[str]:
        with open(self.log, "a", encoding="utf-8") as stderr:  # a file: never a full pipe; its tail explains a failure
            return subprocess.Popen([sys.executable, "-m", "scene_agent", *args], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=stderr, text=True, env=self.env)

    def _failed(self, what: str, status: int | None, said: str) -> BenchError:
        return BenchError(f"cli {what} failed (exit status {status}): {said}; stderr: {log_tail(self.log)}")

    def find(self) -> tuple[float, list[str]]:
        """One `find … --json` process: (wall ms, the candidates' codes)."""
        began = time.perf_counter()
        proc = self._spawn("find", FIND_QUERY, "--json")
        try:
            out, _ = proc.communicate(timeout=CALL_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise self._failed("find", None, f"still running after {CALL_TIMEOUT_S:g} s") from None
        finally:
            stop_process(proc)
            if proc.stdout is not None:
                proc.stdout.close()
        wall_ms = (time.perf_counter() - began) * 1000
        if proc.returncode != 0:
            raise self._failed("find", proc.returncode, out.strip()[:300] or "(no output)")
        try:
            return wall_ms, [str(c["code"]) for c in json.loads(out)["candidates"]]
        except (ValueError, KeyError, TypeError):
            raise self._failed("find", proc.returncode, f"unexpected output {out.strip()[:300]!r}") from None

    def ask(self) -> tuple[float, Asked]:
        """One `ask … --json` process, its pick POSTed as soon as it is asked for: (wall ms, how it ended)."""
        began = time.perf_counter()
        proc = self._spawn("ask", QUESTION, "--json")
        # A process that hangs is killed, which ends its output: the loop below cannot block for ever.
        watchdog = threading.Timer(CALL_TIMEOUT_S, proc.kill)
        watchdog.start()
        final: dict[str, Any] | None = None
        problems: list[str] = []
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                event = _parse(line, problems)
                if event.get("type") == "selection_required":
                    status, said = post_pick(self.origin, str(event["session_id"]), str(event["candidates"][0]))
                    if status != 200:
                        problems.append(f"the pick got {status or 'no answer'}: {said}")
                        proc.kill()  # it would wait for a pick that cannot come
                elif event.get("type") == "final":
                    final = event
            proc.wait()
        finally:
            watchdog.cancel()
            watchdog.join()
            stop_process(proc)
            if proc.stdout is not None:
                proc.stdout.close()
        wall_ms = (time.perf_counter() - began) * 1000
        if proc.returncode != 0 or final is None or problems:
            said = "; ".join(problems) or (f"final: {json.dumps(final)}" if final else "no final event")
            raise self._failed("ask", proc.returncode, said)
        return wall_ms, Asked(str(final.get("status")), tuple(final.get("codes") or ()), str(final.get("answer")))


def _parse(line: str, problems: list[str]) -> dict[str, Any]:
    """One NDJSON event (an empty dict, and a problem noted, when the line is not one)."""
    try:
        event = json.loads(line)
    except ValueError:
        problems.append(f"not JSON on stdout: {line.strip()[:200]!r}")
        return {}
    if not isinstance(event, dict):
        problems.append(f"not an event on stdout: {line.strip()[:200]!r}")
        return {}
    return event
