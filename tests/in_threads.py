"""Run one function in several threads at once and collect what they raised, for tests of concurrent callers."""

from __future__ import annotations

import threading
from collections.abc import Callable

JOIN_TIMEOUT_S = 30.0


def in_threads(work: Callable[[int], None], count: int) -> list[BaseException]:
    """`work(k)` for k in 0..count-1, each in its own thread, started together; the exceptions they raised (none: [])."""
    errors: list[BaseException] = []
    start = threading.Barrier(count, timeout=10)

    def run(k: int) -> None:
        try:
            start.wait()
            work(k)
        except BaseException as exc:  # noqa: BLE001 - collected for the caller's assertion
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_TIMEOUT_S)
    assert not any(thread.is_alive() for thread in threads), f"a thread still runs after {JOIN_TIMEOUT_S:g} s"
    return errors
