"""Stopping a run from outside (a Stop button, Ctrl-C): a flag, and the waits to cancel when it is set."""

from __future__ import annotations

import threading
from collections.abc import Callable


class RunControl:
    """A run's stop switch. `stop()` from any thread cancels what the run is waiting on and ends it."""

    def __init__(self) -> None:
        self.stopped = threading.Event()
        self.reason: str | None = None
        self.by_user = True  # the person stopped it (Stop, Ctrl-C), or, when False, something else did (a shutdown)
        self._lock = threading.Lock()
        self._on_stop: dict[int, Callable[[], None]] = {}
        self._next = 0

    def stop(self, reason: str = "stopped by the user", *, by_user: bool = True) -> None:
        """Stop the run: pending selections and questions are cancelled, no further tool or model call starts.
        `by_user`: the person asked for it; a stop for another reason (a server shutting down) says why to them."""
        with self._lock:
            if self.stopped.is_set():
                return
            self.reason = reason
            self.by_user = by_user
            self.stopped.set()
            callbacks = list(self._on_stop.values())
        for callback in callbacks:
            callback()

    def on_stop(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` when the run is stopped (at once if it already is); returns a function that unregisters it."""
        with self._lock:
            key = self._next
            self._next += 1
            self._on_stop[key] = callback
            already = self.stopped.is_set()
        if already:
            callback()

        def unregister() -> None:
            with self._lock:
                self._on_stop.pop(key, None)

        return unregister
