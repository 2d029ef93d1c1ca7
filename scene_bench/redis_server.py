"""The Redis a benchmark runs against: SCENE_AGENT_BROKER when set, else a throwaway `redis-server` of its own.

The throwaway one listens on a free loopback port, keeps nothing on disk (`--save "" --appendonly no`) and lives
in a temporary directory; it is stopped (SIGTERM, then SIGKILL) and its directory removed when the block ends,
however it ends. Without a redis-server binary and without SCENE_AGENT_BROKER, `NoRedisError` says so, and a
benchmark skips its Redis rows with that message.

`settle` waits until a process' listener has taken
up every session it was given, so that a clock started next measures answers, not that.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from scene_agent.config import load_settings, redact_url
from scene_agent.errors import SceneAgentError
from scene_agent.selection.channel import SelectionChannel
from scene_bench.processes import stop_process

HOST = "127.0.0.1"
START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0
SETTLE_TIMEOUT_S = 60.0
START_TRIES = 3  # a free port can be taken by someone else between our look and redis-server's bind


class NoRedisError(SceneAgentError):
    """No Redis to benchmark against: no redis-server binary, and SCENE_AGENT_BROKER is not set."""

    code = "no_redis"


class RedisBenchError(SceneAgentError):
    """Redis was there, but a benchmark could not use it as planned (a listener that never caught up)."""

    code = "bench_failed"


@dataclass(frozen=True)
class BenchRedis:
    """The broker URL a benchmark uses; `pid` is the redis-server it started (None for SCENE_AGENT_BROKER's)."""

    url: str
    pid: int | None

    @property
    def where(self) -> str:
        """For people: the URL without its password, and whose server it is."""
        return f"{redact_url(self.url)} ({'started by the bench' if self.pid else 'SCENE_AGENT_BROKER'})"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def _answers_ping(port: int) -> bool:
    """Whether a Redis listens on the port: PING in the inline protocol, without a client library."""
    try:
        with socket.create_connection((HOST, port), timeout=1.0) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _start(binary: str, directory: Path) -> tuple[subprocess.Popen[bytes], int]:
    """redis-server on a free loopback port, once it answers PING; NoRedisError with its log when it never does."""
    log_path = directory / "redis.log"
    for _ in range(START_TRIES):
        port = _free_port()
        with open(log_path, "ab") as log:
            proc = subprocess.Popen(
                [binary, "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no",
                 "--dir", str(directory), "--protected-mode", "yes"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                if _answers_ping(port):
                    return proc, port
                # refused at once until it listens: wait a little on the process itself, not a bare sleep
                with suppress(subprocess.TimeoutExpired):
                    proc.wait(0.02)
        except BaseException:
            stop_process(proc)
            raise
        stop_process(proc)  # it exited (the port was taken meanwhile, say) or never answered: another port
    tail = log_path.read_text(encoding="utf-8", errors="replace")[-1000:].strip()
    raise NoRedisError(f"{binary} did not start in {START_TRIES} tries: {tail or '(no output)'}")


@contextmanager
def bench_redis(broker: str | None, binary: str | None) -> Iterator[BenchRedis]:
    """`broker` when given (nothing is started); else `binary` started in a temporary directory for the block."""
    if broker:
        yield BenchRedis(broker, None)
        return
    if binary is None:
        raise NoRedisError("no redis-server on PATH and SCENE_AGENT_BROKER is not set "
                           "(install Debian's redis-server, or point SCENE_AGENT_BROKER at a Redis)")
    with tempfile.TemporaryDirectory(prefix="scene-agent-bench-redis-") as tmp:
        proc, port = _start(binary, Path(tmp))
        try:
            yield BenchRedis(f"redis://{HOST}:{port}/0", proc.pid)
        finally:
            stop_process(proc)


def redis_from_environment() -> AbstractContextManager[BenchRedis]:
    """bench_redis with SCENE_AGENT_BROKER (read by scene_agent.config) and the redis-server on PATH."""
    return bench_redis(load_settings().broker, shutil.which("redis-server"))


def settle(channel: SelectionChannel) -> None:
    """Until the channel's listener has taken up every session it watched so far (SelectionChannel.settle): a
    thousand watches keep it busy for a while after they have returned."""
    if not channel.settle(SETTLE_TIMEOUT_S):
        raise RedisBenchError(f"the selection listener ({channel.describe()}) did not take up its sessions within "
                              f"{SETTLE_TIMEOUT_S:g} s")
