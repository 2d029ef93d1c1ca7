"""Where the Redis of the selection channel is, read from SCENE_AGENT_BROKER, and how durable a pick must be.

Two forms:

- `redis://[user:password@]host:port/db` (or `rediss://`, `unix://`): one Redis;
- `redis+sentinel://[user:password@]host:port,host:port/service/db`: the primary that Redis Sentinel names for
  `service`, followed through a failover.

Either may add `?min_replicas=N&timeout_ms=T`: a pick is acknowledged only once N replicas have it too (Redis'
WAIT, waiting at most T ms), so that losing the primary at any moment loses no acknowledged pick. The default is
1 for Sentinel (what it is run for) and 0 for one Redis.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from scene_agent.errors import UsageError

SENTINEL_SCHEME = "redis+sentinel"
DEFAULT_WAIT_MS = 500
OUR_PARAMETERS = ("min_replicas", "timeout_ms")


@dataclass(frozen=True)
class BrokerAddress:
    """A broker URL, understood."""

    url: str  # as given
    redis_url: str | None  # one Redis: the URL redis-py opens (without our parameters)
    sentinels: tuple[tuple[str, int], ...]  # Sentinel: where the sentinels listen
    service: str  # Sentinel: the primary's name
    db: int
    username: str | None
    password: str | None
    min_replicas: int
    wait_ms: int

    @property
    def sentinel(self) -> bool:
        return bool(self.sentinels)


def _number(name: str, text: str, url: str) -> int:
    if not text.isdigit():
        raise UsageError(f"SCENE_AGENT_BROKER: {name} must be a whole number, got {text!r} in {url}")
    return int(text)


def parse_broker(url: str, shown: str) -> BrokerAddress:
    """`url` understood (`shown`: the same without its password, for messages); UsageError naming what is wrong."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    ours = {name: query.pop(name) for name in OUR_PARAMETERS if name in query}
    sentinel = parts.scheme == SENTINEL_SCHEME
    min_replicas = _number("min_replicas", ours["min_replicas"], shown) if "min_replicas" in ours else int(sentinel)
    wait_ms = _number("timeout_ms", ours["timeout_ms"], shown) if "timeout_ms" in ours else DEFAULT_WAIT_MS
    if not sentinel:
        plain = urlunsplit(parts._replace(query=urlencode(query)))
        return BrokerAddress(url, plain, (), "", 0, None, None, min_replicas, wait_ms)
    credentials, _, hosts = parts.netloc.rpartition("@")
    username, _, password = credentials.partition(":") if credentials else ("", "", "")
    sentinels = []
    for host in hosts.split(","):
        name, _, port = host.strip().rpartition(":")
        if not name or not port.isdigit():
            raise UsageError(f"SCENE_AGENT_BROKER: {host.strip()!r} is not host:port in {shown} (a Sentinel URL is "
                             "redis+sentinel://host:26379,host:26380/service/db)")
        sentinels.append((name.strip("[]"), int(port)))
    path = [p for p in parts.path.split("/") if p]
    if not path or len(path) > 2:
        raise UsageError(f"SCENE_AGENT_BROKER: name the primary's service (and a db) in {shown}, as in "
                         "redis+sentinel://host:26379/mymaster/0")
    db = _number("the db", path[1], shown) if len(path) == 2 else 0
    return BrokerAddress(url, None, tuple(sentinels), unquote(path[0]), db, unquote(username) or None,
                         unquote(password) or None, min_replicas, wait_ms)
