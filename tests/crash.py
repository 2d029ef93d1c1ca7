"""Fault injection for the hand-off tests: processes that kill themselves at a step of a selection delivery.

The product has no switch for this; it only lets a watcher see the steps pass (scene_agent/selection/files/deliver.py,
STEP_WATCHERS). A process started with `crash_env(step)` loads tests/faults/sitecustomize.py, which adds a watcher
that kills it there.
"""

from __future__ import annotations

import os
from pathlib import Path

FAULTS = Path(__file__).parent / "faults"


def crash_env(step: str) -> dict[str, str]:
    """Environment entries for a child process that dies (SIGKILL) at `step` of a delivery it runs."""
    path = os.pathsep.join(p for p in (str(FAULTS), os.environ.get("PYTHONPATH", "")) if p)
    return {"PYTHONPATH": path, "SCENE_AGENT_TEST_CRASH_AT": step}
