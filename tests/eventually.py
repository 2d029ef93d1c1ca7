"""Waiting in a test for something another process or thread makes true, when there is no event to wait on."""

from __future__ import annotations

import time
from collections.abc import Callable


def eventually(check: Callable[[], object], what: str, timeout: float) -> None:
    """Ask `check()` again until it is true (each look is a round trip to a server, so the loop paces itself); fail
    the test, naming `what`, after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
