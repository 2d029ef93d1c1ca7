"""Serving the app on waitress, a production WSGI server: threads, no fork, pure Python, on every platform."""

from __future__ import annotations

import errno
import threading

from flask import Flask
from waitress import create_server, wasyncore
from waitress.server import BaseWSGIServer

from scene_agent.errors import SceneAgentError

DEFAULT_THREADS = 16  # event streams hold a thread each while open: the app lets at most 8 be open


class ServeError(SceneAgentError):
    """The server could not start (address in use, no permission)."""

    code = "serve_failed"


def make_server(app: Flask, host: str, port: int, threads: int = DEFAULT_THREADS) -> BaseWSGIServer:
    """Bind now (port 0 picks a free port: see `.effective_port`); `run()` serves until `close()`."""
    try:
        return create_server(app, host=host, port=port, threads=threads, ident="scene-agent",
                             clear_untrusted_proxy_headers=True, channel_timeout=60)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(f"{host}:{port} is already in use (is another `scene-agent serve` running?); "
                             "choose another --port") from None
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


class BackgroundServer:
    """A server in a background thread (tests, benchmarks): `with BackgroundServer(app) as s: s.url`."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = DEFAULT_THREADS):
        self.app = app
        self.server = make_server(app, host, port, threads)
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
