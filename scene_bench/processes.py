"""What the benchmarks share about the processes they start and the tallies they print."""

from __future__ import annotations

import subprocess
from dataclasses import asdict, dataclass, field
from typing import Any

STOP_TIMEOUT_S = 10.0
MAX_EXAMPLES = 5


def stop_process(proc: subprocess.Popen[Any], timeout: float = STOP_TIMEOUT_S) -> None:
    """SIGTERM a process that still runs, then SIGKILL it if it has not ended within `timeout`; always reaped."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@dataclass
class Tally:
    """A benchmark's counts (the fields of a subclass) and the first few things that went wrong."""

    examples: list[str] = field(default_factory=list, kw_only=True)

    def note(self, text: str) -> None:
        """Keep the first few things that went wrong, for people."""
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(text)

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        return asdict(self)
