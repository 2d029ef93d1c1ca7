"""Serving the app on waitress, a production WSGI server: threads, no fork, pure Python, on every platform.

waitress keeps idle connections in its event loop at no thread's cost, so hundreds of idle keep-alive
sockets are cheap once its connection limit allows them; a request (and an open event stream) holds a
worker thread while it runs. `ServerSettings` says how it is tuned, and why.
"""

from __future__ import annotations

import errno
import resource
import threading
from dataclasses import dataclass

from flask import Flask
from waitress import create_server, wasyncore
from waitress.server import BaseWSGIServer

from api_server.app import MAX_BODY_BYTES, serve_viewer_at
from api_server.guard import GuardLimits, install_guards
from scene_agent.errors import SceneAgentError

DEFAULT_THREADS = 16  # for servers in this process (tests, benchmarks); `scene-agent serve` runs SERVE_THREADS
SERVE_THREADS = 128
RESERVED_THREADS = 16  # never taken by event streams: health, picks and chats always find a thread


def stream_slots(threads: int) -> int:
    """How many event streams may be open at once on a server with this many threads."""
    return max(threads // 2, threads - RESERVED_THREADS)


GUARDED = GuardLimits()


@dataclass(frozen=True)
class ServerSettings:
    """How waitress is tuned (its defaults, where they differ, are in BASELINE)."""

    # Open connections accepted at once; past it waitress stops accepting, so every new client waits. Idle
    # keep-alive sockets (a browser keeps several) cost no thread, so the limit is set far above the threads, and
    # above what the per-address cap lets a few clients hold (slow clients are closed by the guards instead).
    connection_limit: int = 4096
    # An idle connection is closed after this many seconds without a request; a browser simply reconnects.
    channel_timeout: int = 30
    cleanup_interval: int = 10  # how often idle connections are looked for
    # Read ahead on a connection while its request runs: that is how a client that went away is noticed
    # (waitress.client_disconnected), so an event stream's slot is released at once, not at its next write.
    channel_request_lookahead: int = 5
    # poll() rather than select(): select() cannot watch a socket numbered past 1023.
    asyncore_use_poll: bool = True
    backlog: int = 1024
    # A body announced larger than the app takes is refused by waitress as soon as its headers are read (413), not
    # after the client sent (or failed to send) it all; headers are bounded too.
    max_request_body_size: int = MAX_BODY_BYTES + 1  # waitress refuses from this size on; the app takes MAX_BODY_BYTES
    max_request_header_size: int = 64 * 1024
    # A request must arrive whole within a time, one address holds a bounded number of connections (api_server/guard.py).
    guard: GuardLimits | None = GUARDED


# The settings before connections were tuned (waitress' defaults but for channel_timeout): the benchmark's baseline.
BASELINE = ServerSettings(connection_limit=100, channel_timeout=60, cleanup_interval=30, channel_request_lookahead=0,
                          asyncore_use_poll=False, max_request_body_size=1 << 30, max_request_header_size=256 * 1024,
                          guard=None)
# The settings before slow clients were guarded against: the slow-client benchmark's baseline.
UNGUARDED = ServerSettings(connection_limit=1000, max_request_body_size=1 << 30, max_request_header_size=256 * 1024,
                           guard=None)


def raise_open_file_limit(wanted: int) -> int:
    """Raise this process' soft limit on open files toward `wanted` (at most the hard limit); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(wanted, hard) if hard != resource.RLIM_INFINITY else wanted
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # some systems cap it below the hard limit they report: keep what we have
            return soft
        return target
    return soft


class ServeError(SceneAgentError):
    """The server could not start (address in use, no permission)."""

    code = "serve_failed"


WILDCARD_HOSTS = ("", "0.0.0.0", "::")


def served_url(host: str, port: int) -> str:
    """The address a browser on this machine opens the page at, for a server bound to host:port (an address that
    listens everywhere is opened as localhost; an IPv6 literal in brackets)."""
    name = "localhost" if host in WILDCARD_HOSTS else host
    if ":" in name and not name.startswith("["):
        name = f"[{name}]"
    return f"http://{name}:{port}/"


def make_server(app: Flask, host: str, port: int, threads: int = DEFAULT_THREADS,
                settings: ServerSettings | None = None, advice: str = "choose another --port") -> BaseWSGIServer:
    """Bind now (port 0 picks a free port: see `.effective_port`); `run()` serves until `close()`. The page is then
    served at the bound address, which becomes the viewer URL of the app's agents unless one was given
    (`app.serve_viewer_at`). `advice`: what a port in use asks of the person (the way their command sets it)."""
    tuned = settings or ServerSettings()
    # A connection takes one to three files (a large response spills to a temp file), plus what requests open.
    raise_open_file_limit(2 * tuned.connection_limit + threads + 256)
    # The address the app is served on is one of the Host headers it answers (api_server/hosts.py).
    app.config["BIND_HOSTS"] = (*app.config.get("BIND_HOSTS", ()), host)
    try:
        server = create_server(app, host=host, port=port, threads=threads, ident="scene-agent",
                               clear_untrusted_proxy_headers=True, connection_limit=tuned.connection_limit,
                               channel_timeout=tuned.channel_timeout, cleanup_interval=tuned.cleanup_interval,
                               channel_request_lookahead=tuned.channel_request_lookahead,
                               asyncore_use_poll=tuned.asyncore_use_poll, backlog=tuned.backlog,
                               max_request_body_size=tuned.max_request_body_size,
                               max_request_header_size=tuned.max_request_header_size)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"{host}:{port} is already in use (is another `scene-agent serve` running?); {advice}") from None
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    install_guards(server, tuned.guard)
    serve_viewer_at(app, served_url(host, int(server.effective_port)))
    return server


class BackgroundServer:
    """A server in a background thread (tests, benchmarks): `with BackgroundServer(app) as s: s.url`."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = DEFAULT_THREADS,
                 settings: ServerSettings | None = None, advice: str = "choose another --port"):
        self.app = app
        self.server = make_server(app, host, port, threads, settings, advice)
        self.port = int(self.server.effective_port)
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self.server.run, name=f"waitress:{self.port}", daemon=True)

    def __enter__(self) -> BackgroundServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the chat's runs and the worker threads, close the listening socket and connections, end the loop."""
        chat = self.app.extensions.get("scene_agent.chat")
        if chat is not None:
            chat.shutdown()
        self.server.task_dispatcher.shutdown()
        # Close every socket from inside the event loop (closing them under a running select() is a race);
        # the emptied map ends run()'s loop. The loop runs trigger thunks holding trigger.lock, and may be
        # running them already: holding the lock until our write is done keeps the thunk from closing the
        # trigger's pipe before we have written to it.
        trigger = self.server.trigger
        with trigger.lock:
            trigger.thunks.append(lambda: wasyncore.close_all(self.server._map))
            trigger._physical_pull()
        self._thread.join(timeout=10)
