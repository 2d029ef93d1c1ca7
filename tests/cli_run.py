"""Run the real `scene-agent` command in a subprocess, as a user would."""

from __future__ import annotations

import os
import subprocess
import sys


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `python -m scene_agent ARGS` and capture its output."""
    return subprocess.run([sys.executable, "-m", "scene_agent", *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})
