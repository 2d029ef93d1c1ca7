"""Long-running `scene-agent` subprocesses for tests: read their output line by line with timeouts, always reap them."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from http_client import call

LINE_TIMEOUT_S = 30.0
EXIT_TIMEOUT_S = 30.0


def _pump(stream: IO[str], lines: queue.Queue[str | None], kept: list[str]) -> None:
    for line in stream:
        kept.append(line)
        lines.put(line)
    lines.put(None)  # end of output


class CliProcess:
    """`python -m scene_agent ARGS` running in the background; stdout and stderr are read by threads."""

    def __init__(self, *args: str, env: dict[str, str], stdin: bool = False, terminal: bool = False):
        self.args = args
        self.terminal: int | None = None  # with `terminal`, stdin is a pseudo-terminal and this is its other end
        tty_in = None
        if terminal:
            self.terminal, tty_in = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "scene_agent", *args], stdout=subprocess.PIPE,
                                     stdin=tty_in if terminal else (subprocess.PIPE if stdin else None),
                                     stderr=subprocess.PIPE, text=True, env={**os.environ, **env})
        if tty_in is not None:
            os.close(tty_in)
        self._stdout: queue.Queue[str | None] = queue.Queue()
        self._stderr: queue.Queue[str | None] = queue.Queue()
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self._threads = [threading.Thread(target=_pump, args=(self.proc.stdout, self._stdout, self.stdout), daemon=True),
                         threading.Thread(target=_pump, args=(self.proc.stderr, self._stderr, self.stderr), daemon=True)]
        for thread in self._threads:
            thread.start()

    def _describe(self) -> str:
        return f"scene-agent {' '.join(self.args)}\nstdout: {''.join(self.stdout)!r}\nstderr: {''.join(self.stderr)!r}"

    def line(self, timeout: float = LINE_TIMEOUT_S) -> str:
        """The next line of stdout; fails the test if none comes within `timeout` or the output ends."""
        try:
            line = self._stdout.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no stdout line within {timeout} s from {self._describe()}") from None
        assert line is not None, f"stdout ended early: {self._describe()}"
        return line

    def json_line(self, timeout: float = LINE_TIMEOUT_S) -> dict[str, Any]:
        """The next stdout line, parsed as JSON."""
        return json.loads(self.line(timeout))

    def wait_stderr(self, text: str, timeout: float = LINE_TIMEOUT_S) -> str:
        """Block until a stderr line contains `text`; returns that line."""
        while True:
            try:
                line = self._stderr.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no stderr line with {text!r} within {timeout} s from {self._describe()}") from None
            assert line is not None, f"stderr ended without {text!r}: {self._describe()}"
            if text in line:
                return line

    def finish(self, timeout: float = EXIT_TIMEOUT_S) -> int:
        """Wait for the exit (failing the test after `timeout`) and for the output to be read; the exit status."""
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running after {timeout} s: {self._describe()}") from None
        for thread in self._threads:
            thread.join(timeout)
        return status

    def rest(self) -> list[str]:
        """Every stdout line not taken yet (call after finish())."""
        lines = []
        while not self._stdout.empty() and (line := self._stdout.get_nowait()) is not None:
            lines.append(line)
        return lines

    def say(self, line: str) -> None:
        """Type one line on the process's stdin (started with stdin=True or terminal=True)."""
        if self.terminal is not None:
            os.write(self.terminal, (line + "\n").encode())
            return
        assert self.proc.stdin is not None, "start the process with stdin=True to type into it"
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        """Kill the process if it still runs and reap it."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(EXIT_TIMEOUT_S)
        if self.terminal is not None:
            os.close(self.terminal)
            self.terminal = None
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):  # stdin's buffer could not be flushed into a dead process
                    stream.close()


class Spawner:
    """Starts CliProcesses and kills whatever still runs on `close()` (use from a fixture's finally)."""

    def __init__(self, env: dict[str, str]):
        self.env = env
        self.started: list[CliProcess] = []

    def __call__(self, *args: str, env: dict[str, str] | None = None) -> CliProcess:
        process = CliProcess(*args, env={**self.env, **(env or {})})
        self.started.append(process)
        return process

    def close(self) -> None:
        """Kill and reap every process started here."""
        for process in self.started:
            process.kill()


def start_serve(spawn: Spawner, scene: Path, *args: str) -> tuple[CliProcess, dict[str, Any]]:
    """`serve --port 0 --json --scene SCENE`, once it has said where it listens."""
    process = spawn("serve", "--port", "0", "--json", "--scene", str(scene), *args)
    return process, process.json_line()


def agent_env(tmp_path: Path, viewer_url: str = "http://127.0.0.1:9/") -> dict[str, str]:
    """Environment putting state, selection files and the viewer URL under the test's control."""
    return {"SCENE_AGENT_STATE_DIR": str(tmp_path / "state"), "SCENE_AGENT_SELECTION_DIR": str(tmp_path / "selections"),
            "SCENE_AGENT_VIEWER_URL": viewer_url, "SCENE_AGENT_SELECTION_WATCH": "watchdog",
            "OPENAI_API_KEY": "", "SCENE_AGENT_LANG": "en"}  # the offline planner, in English, whatever the machine has


def http(method: str, url: str, body: dict[str, Any] | None = None, timeout: float = 10) -> tuple[int, Any]:
    """(status, parsed JSON or text) of one request; HTTP errors are returned, not raised."""
    reply = call(method, url, body, timeout=timeout)
    return reply.status, reply.json() if reply.headers.get_content_type() == "application/json" else reply.body.decode()


def submit(origin: str, session_id: str, *codes: str) -> tuple[int, Any]:
    """POST /api/submit-selection with these picks."""
    return http("POST", f"{origin}/api/submit-selection",
                {"session_id": session_id, "selections": [{"itemCode": code} for code in codes]})
