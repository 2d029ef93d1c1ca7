"""A TCP proxy on loopback that a test can cut: a network partition between a client and a server, on demand."""

from __future__ import annotations

import socket
import threading
from contextlib import suppress


class TcpProxy:
    """127.0.0.1:<port> forwards to 127.0.0.1:<target>; `cut()` drops every connection and refuses new ones until
    `mend()`; `close()` ends it."""

    def __init__(self, target_port: int):
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self._open = True
        self._lock = threading.Lock()
        self._live: set[socket.socket] = set()
        self._accepting = threading.Thread(target=self._accept, name="tcp-proxy", daemon=True)
        self._accepting.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self._lock:
                refused = not self._open
            if refused:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._live.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for sock in (source, sink):
            self._drop(sock)

    def _drop(self, sock: socket.socket) -> None:
        with self._lock:
            self._live.discard(sock)
        with suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()

    def cut(self) -> None:
        """The partition: every connection dropped, new ones refused."""
        with self._lock:
            self._open = False
            live = list(self._live)
        for sock in live:
            self._drop(sock)

    def mend(self) -> None:
        """The partition ends: new connections go through again."""
        with self._lock:
            self._open = True

    def close(self) -> None:
        self.cut()
        with suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() under way
        self.listener.close()
        self._accepting.join(5)
