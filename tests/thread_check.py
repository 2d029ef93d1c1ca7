"""Every test must leave no thread behind: a pytest plugin that fails a test whose threads outlive its teardown.

Threads started while a fixture of wider scope (module, session) is set up belong to that fixture and may live
on; any other thread started during a test's setup, call or teardown must have ended when its teardown is over
(each gets up to JOIN_TIMEOUT_S to finish shutting down).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator
from typing import Any

import pytest

JOIN_TIMEOUT_S = 10.0
_owned_by_wider_fixtures: set[threading.Thread] = set()
_before_test: dict[str, set[threading.Thread]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest) -> Generator[None, None, None]:
    """Threads a module- or session-scoped fixture starts are that fixture's, not the test's."""
    before = set(threading.enumerate())
    yield
    if fixturedef.scope != "function":
        _owned_by_wider_fixtures.update(set(threading.enumerate()) - before)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    """Note the threads alive before the test's setup."""
    _before_test[item.nodeid] = set(threading.enumerate())
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """After the teardown, join the test's threads; fail the test if any is still running."""
    yield
    before = _before_test.pop(item.nodeid, set())
    deadline = time.monotonic() + JOIN_TIMEOUT_S
    while True:  # again until none is left: a thread that ends may start one last (a watcher's stopper, say)
        running = [t for t in set(threading.enumerate()) - before - _owned_by_wider_fixtures if t.is_alive()]
        if not running or time.monotonic() >= deadline:
            break
        for thread in running:
            thread.join(max(0.0, deadline - time.monotonic()))
    leaked = sorted(t.name for t in set(threading.enumerate()) - before - _owned_by_wider_fixtures if t.is_alive())
    if leaked:
        pytest.fail(f"threads outlived the test: {', '.join(leaked)}", pytrace=False)
