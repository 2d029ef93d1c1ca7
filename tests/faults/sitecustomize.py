"""Loaded by Python at start-up in a process the tests start with this folder on PYTHONPATH (tests/crash.py).

When SCENE_AGENT_TEST_CRASH_AT names a step of a selection delivery, the process kills itself there, as kill -9
would: in a `serve`, that is its delivery process (scene_agent/selection/files/deliverer.py), the one that delivers.
"""

import os
import signal

_step = os.environ.get("SCENE_AGENT_TEST_CRASH_AT")
if _step:
    from scene_agent.selection.files.deliver import STEP_WATCHERS

    def _die_at(step: str) -> None:
        if step == _step:
            os.kill(os.getpid(), signal.SIGKILL)

    STEP_WATCHERS.append(_die_at)
