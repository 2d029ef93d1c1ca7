"""Redis as it runs highly available, for benchmarks and tests: a primary, a replica and three Sentinels (Debian's
redis-server, in sentinel mode for those), each on a free loopback port, keeping nothing on disk, in a directory of
the caller's. `fail_over()` kills the primary (kill -9) and brings it back as the new replica once the Sentinels have
promoted the other, so a run can fail over again and again."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

import redis

from scene_bench.processes import stop_process
from scene_bench.redis_server import HOST, RedisBenchError, _answers_ping, _free_port

SERVICE = "mymaster"
SETTLE_S = 30.0
# How long the Sentinels wait on a silent primary before they fail over: short, for a quick run, but not so short
# that a primary busy for a moment (a replica's full sync on a loaded machine) is failed over again at once.
DOWN_AFTER_MS = 3000


class SentinelSet:
    """A primary and a replica, watched by three Sentinels; `url` is the channel's broker URL."""

    def __init__(self, binary: str, directory: Path):
        self.binary, self.directory = binary, directory
        self.ports = [_free_port(), _free_port()]  # the two Redis servers; which is primary changes
        self.sentinel_ports = [_free_port() for _ in range(3)]
        self.url = f"redis+sentinel://{','.join(f'{HOST}:{p}' for p in self.sentinel_ports)}/{SERVICE}/0"
        self._redis: dict[int, subprocess.Popen[bytes]] = {}
        self._sentinels: list[subprocess.Popen[bytes]] = []
        self._between_looks = threading.Event()  # never set: a pause between two looks at the servers

    def _spawn(self, args: list[str], log: str) -> subprocess.Popen[bytes]:
        with open(self.directory / log, "ab") as out:
            return subprocess.Popen([self.binary, *args], stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=subprocess.STDOUT)

    def _start_redis(self, port: int, primary: int | None) -> None:
        """redis-server on `port` (a replica of `primary` when given), once it answers PING."""
        replica = ["--replicaof", HOST, str(primary)] if primary is not None else []
        proc = self._spawn(["--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no",
                            "--dir", str(self.directory), "--dbfilename", f"dump-{port}.rdb", *replica],
                           f"redis-{port}.log")
        self._redis[port] = proc
        self._until(lambda: _answers_ping(port), f"redis-server on port {port} answers")

    def _until(self, check: Callable[[], bool], what: str) -> None:
        """Look again (each look is a round trip to a server) until `check()`; RedisBenchError after SETTLE_S."""
        deadline = time.monotonic() + SETTLE_S
        while not check():
            if time.monotonic() > deadline:
                raise RedisBenchError(f"{what}: not within {SETTLE_S:.0f} s (logs in {self.directory})")
            self._between_looks.wait(0.05)

    def _sentinel(self, port: int) -> redis.Redis:
        return redis.Redis(host=HOST, port=port, socket_timeout=1, socket_connect_timeout=1)

    def primary_port(self) -> int | None:
        """Where the Sentinels say the primary is now (None when none answers)."""
        for port in self.sentinel_ports:
            client = self._sentinel(port)
            try:
                with suppress(redis.RedisError):
                    address: Any = client.sentinel_get_master_addr_by_name(SERVICE)
                    return int(address[1])
            finally:
                client.close()
        return None

    def _replica_ready(self, replica: int) -> bool:
        """A majority of the Sentinels sees `replica` as a replica in sync with the primary."""
        seen = 0
        for port in self.sentinel_ports:
            client = self._sentinel(port)
            try:
                replicas = client.sentinel_slaves(SERVICE)
            except redis.RedisError:
                continue
            finally:
                client.close()
            seen += any(int(r.get("port", 0)) == replica and r.get("master-link-status") == "ok" and
                        "s_down" not in r.get("flags", "") for r in replicas)
        return seen * 2 > len(self.sentinel_ports)

    def _healthy(self) -> bool:
        """One primary named, the other server its replica in sync (whichever is which)."""
        primary = self.primary_port()
        return primary is not None and self._replica_ready(next(p for p in self.ports if p != primary))

    def start(self) -> SentinelSet:
        """Everything up, the replica in sync, and every Sentinel knowing it (so that it can fail over)."""
        primary, replica = self.ports
        self._start_redis(primary, None)
        self._start_redis(replica, primary)
        for port in self.sentinel_ports:
            conf = self.directory / f"sentinel-{port}.conf"
            conf.write_text(f"port {port}\nbind {HOST}\ndir {self.directory}\n"
                            f"sentinel monitor {SERVICE} {HOST} {primary} 2\n"
                            f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
                            f"sentinel failover-timeout {SERVICE} 10000\n")
            self._sentinels.append(self._spawn([str(conf), "--sentinel"], f"sentinel-{port}.log"))
        self._until(self._healthy, "the Sentinels know the replica")
        return self

    def kill_primary(self) -> int:
        """kill -9 the primary, at once; its port."""
        old = self.primary_port()
        if old is None or old not in self._redis:
            raise RedisBenchError("no Sentinel names a primary of this set")
        self._redis[old].kill()
        self._redis[old].wait(10)
        return old

    def heal(self, old: int) -> None:
        """Once a Sentinel names the other server as primary, bring the killed one back as its replica, and wait
        until the set is whole again (the Sentinels may fail over once more meanwhile: either way round will do)."""
        self._until(lambda: self.primary_port() not in (None, old), "a Sentinel names the other server as primary")
        self._start_redis(old, self.primary_port())
        self._until(self._healthy, "one primary and its replica in sync again")

    def fail_over(self) -> None:
        """kill -9 the primary, the replica promoted, the old one back as the new replica."""
        self.heal(self.kill_primary())

    def stop(self) -> None:
        for proc in [*self._sentinels, *self._redis.values()]:
            stop_process(proc)
        self._sentinels, self._redis = [], {}
