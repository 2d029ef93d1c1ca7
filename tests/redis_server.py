"""A real Redis for tests: Debian's redis-server on a free loopback port, started and stopped by the test.

It keeps nothing on disk unless asked (`--save "" --appendonly no`), so a restart loses every key, as a cache
deployment would; `persistent=True` turns on the append-only file, fsynced on every write.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from contextlib import suppress
from pathlib import Path

import redis

START_TIMEOUT_S = 10.0


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """`redis-server` on 127.0.0.1:<port>; `stop()`, `kill()` and `start()` again on the same port and directory."""

    def __init__(self, directory: Path, *, persistent: bool = False, port: int | None = None,
                 extra: tuple[str, ...] = ()):
        self.binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.persistent = persistent
        self.extra = extra  # more redis-server options (`--replicaof host port`)
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisServer:
        """Start it and return once it answers PING (fails the test after START_TIMEOUT_S)."""
        persistence = ["--appendonly", "yes", "--appendfsync", "always"] if self.persistent else ["--appendonly", "no"]
        log = open(self.directory / "redis.log", "ab")  # noqa: SIM115 - handed to the child, closed below
        try:
            self._proc = subprocess.Popen(
                [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", *persistence,
                 "--dir", str(self.directory), "--protected-mode", "yes", *self.extra],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        finally:
            log.close()
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.5, socket_timeout=0.5)
        deadline = time.monotonic() + START_TIMEOUT_S
        try:
            while True:
                try:
                    if client.ping():
                        return self
                except redis.ConnectionError:
                    if self._proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"redis-server did not start: {(self.directory / 'redis.log').read_text()[-500:]}") from None
                    # Connecting is refused at once until it listens: wait a little on the process, not a bare sleep.
                    with suppress(subprocess.TimeoutExpired):
                        self._proc.wait(0.02)
        finally:
            client.close()

    def stop(self) -> None:
        """Stop it as an operator would (SIGTERM) and wait until it has exited."""
        self._end(kill=False)

    def kill(self) -> None:
        """kill -9: whatever was only in its memory is gone."""
        self._end(kill=True)

    def _end(self, kill: bool) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if kill:
            proc.kill()
        else:
            proc.terminate()
        proc.wait(START_TIMEOUT_S)

    def pause(self) -> None:
        """Freeze it (SIGSTOP), as a stalled machine would: it reads nothing, answers nothing, but its clock goes on."""
        assert self._proc is not None
        self._proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a frozen server go on (SIGCONT)."""
        assert self._proc is not None
        self._proc.send_signal(signal.SIGCONT)

    def client(self) -> redis.Redis:
        """A client of its own, for a test to look inside."""
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)
