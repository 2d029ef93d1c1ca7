"""Which Host headers the server answers: its own address under its loopback names, and the configured ones.

A web page elsewhere can point a DNS name of its own at 127.0.0.1 (DNS rebinding) and then call this
server as if it were same-origin, cookies and CORS notwithstanding; its requests still carry that name
in Host. So every request whose Host is not the server's own (`localhost`, `127.0.0.1`, `[::1]` or the
address it is bound to, with its port), the viewer's (SCENE_AGENT_VIEWER_URL, e.g. a dev server that
proxies to this one) or one of SCENE_AGENT_ALLOWED_HOSTS is refused with 421 before anything runs.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def split_host(value: str) -> tuple[str, str | None]:
    """('example.org', '8090') from 'Example.org:8090'; IPv6 literals keep their brackets; no port → None."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        host, rest = (value[: end + 1], value[end + 1:]) if end > 0 else (value, "")
        return host, rest[1:] if rest.startswith(":") and rest[1:] else None
    host, sep, port = value.rpartition(":")
    return (host, port) if sep and host and port else (value, None)


@dataclass(frozen=True)
class HostCheck:
    """`allows(host_header, port)`: whether a request with this Host, arriving on this port, is answered."""

    bind_hosts: frozenset[str]
    viewer_netloc: str
    extra: tuple[str, ...] = ()

    @classmethod
    @functools.cache  # asked on every request, with the same few values for the server's life
    def of(cls, bind_hosts: tuple[str, ...], viewer_netloc: str, extra: tuple[str, ...] | None) -> HostCheck:
        names = {f"[{h.lower()}]" if ":" in h and not h.startswith("[") else h.lower() for h in bind_hosts}
        return cls(frozenset(names | set(LOOPBACK_NAMES)), viewer_netloc.lower(), extra or ())

    def allows(self, host_header: str, port: str) -> bool:
        if "*" in self.extra:
            return True
        host, given_port = split_host(host_header)
        given_port = given_port or "80"
        if host in self.bind_hosts and given_port == port:
            return True
        if host_header.strip().lower() == self.viewer_netloc:
            return True
        for entry in self.extra:
            allowed_host, allowed_port = split_host(entry)
            if host == allowed_host and allowed_port in (None, given_port):
                return True
        return False

    def describe(self, port: str) -> str:
        """The allowed hosts, for the error message."""
        own = [f"{name}:{port}" for name in sorted(self.bind_hosts)]
        return ", ".join([*own, self.viewer_netloc, *self.extra])
