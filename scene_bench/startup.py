"""`bench startup`: one-shot commands as a person types them, each a fresh process, beside `python -c "import numpy"`.

Every row is a new process from spawn to exit (interpreter start, imports, opening the demo scene, the work,
printing). The rows take turns within each round, so that a busy moment of the machine falls on all of them
alike; one warm-up round first fills the disk cache. The project's bytecode is compiled first, as the first run
on a machine does (unless PYTHONDONTWRITEBYTECODE is set, as it is in some sandboxes and CI images: there every run
would compile every module it imports again, and the table would time the compiler). The goal column is the ratio to the baseline the
command must stay under. For `ask` the bench also reads the duration the tool-call card shows (`--json`
events) beside the same tool timed in this warm process: the card should show the tool's own work, not
imports or file reading paid for the first time.
"""

from __future__ import annotations

import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import scene_agent
from scene_bench.api import BenchError

OBJECT = "0-3-2"  # a kitchen chair of the demo home: 6,000 points
FIND_QUERY = "the chairs in the kitchen"
QUESTION = "how big is the sofa?"  # one sofa: answered at once, with one find and one volume call
RUN_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Command:
    """One row: what is run, and the most it may take as a multiple of the baseline (None for the baseline)."""

    name: str
    argv: tuple[str, ...]
    goal: float | None


@dataclass(frozen=True)
class StartupRow:
    """Wall times of one command over the rounds."""

    command: str
    runs: int
    median_ms: float
    min_ms: float
    max_ms: float
    ratio: float  # median / the baseline's median
    goal: float | None
    met: bool | None


@dataclass
class StartupReport:
    """The rows, and the `ask` row's tool-call card beside the same tool timed warm."""

    rows: list[StartupRow]
    baseline_ms: float
    ask_tool: str
    ask_tool_card_ms: float
    ask_tool_warm_ms: float

    def as_json(self) -> dict[str, Any]:
        """The `--json` document."""
        return {"baseline_ms": self.baseline_ms, "rows": [asdict(r) for r in self.rows], "ask_tool": self.ask_tool,
                "ask_tool_card_ms": self.ask_tool_card_ms, "ask_tool_warm_ms": self.ask_tool_warm_ms}


def _scene_agent() -> tuple[str, ...]:
    """The installed `scene-agent` script beside this interpreter (what a person types), else `python -m scene_agent`."""
    script = Path(sys.executable).with_name("scene-agent")
    return (str(script),) if script.is_file() else (sys.executable, "-m", "scene_agent")


def commands() -> list[Command]:
    """The baseline and the commands, with their goals."""
    cli = _scene_agent()
    return [
        Command('python -c "import numpy"', (sys.executable, "-c", "import numpy"), None),
        Command("scene-agent --help", (*cli, "--help"), 2.5),
        Command(f"scene-agent clr {OBJECT}", (*cli, "clr", OBJECT), 4.0),
        Command(f"scene-agent vol {OBJECT}", (*cli, "vol", OBJECT), 4.0),
        Command(f'scene-agent find "{FIND_QUERY}"', (*cli, "find", FIND_QUERY), 4.0),
        Command(f'scene-agent ask "{QUESTION}"', (*cli, "ask", QUESTION), 5.0),
    ]


def child_env(state: Path) -> dict[str, str]:
    """This environment with the offline planner in English and a state directory of the bench's own (nothing the
    user keeps is touched); the demo scene stays where it is."""
    inherited = {k: v for k, v in os.environ.items() if k not in ("SCENE_AGENT_BROKER", "OPENAI_BASE_URL")}
    return {**inherited, "OPENAI_API_KEY": "", "SCENE_AGENT_LANG": "en", "SCENE_AGENT_STATE_DIR": str(state / "state"),
            "SCENE_AGENT_SELECTION_DIR": str(state / "selection"), "SCENE_AGENT_NO_QUESTIONS": "1"}


def run_once(argv: tuple[str, ...], env: dict[str, str]) -> tuple[float, str]:
    """Wall ms from spawn to reaped, and stdout; BenchError when the command fails."""
    began = time.perf_counter()
    try:
        done = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise BenchError(f"{' '.join(argv)}: still running after {RUN_TIMEOUT_S:g} s") from None
    wall_ms = (time.perf_counter() - began) * 1000
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip())[-600:] or "(no output)"
        raise BenchError(f"{' '.join(argv)} exited with status {done.returncode}: {said}")
    return wall_ms, done.stdout


def _ask_card(env: dict[str, str]) -> tuple[str, float]:
    """The tool and duration of the measuring call's card in `ask --json` (the last color/volume result)."""
    _, out = run_once((*_scene_agent(), "ask", QUESTION, "--json"), env)
    cards = [json.loads(line) for line in out.splitlines() if line.strip()]
    measured = [c for c in cards if c.get("type") == "tool_call_result" and c.get("tool_name") in ("volume", "color")]
    if not measured:
        raise BenchError(f"ask --json showed no volume or color result: {out[-600:]}")
    return str(measured[-1]["tool_name"]), float(measured[-1]["duration_ms"])


def _warm_tool_ms(tool: str, repeats: int) -> float:
    """The same tool on the same object timed in this process once everything is imported and read."""
    from scene_agent.demo.place import open_scene_or_demo
    from scene_agent.tools.color import color
    from scene_agent.tools.find import find
    from scene_agent.tools.volume import volume

    scene = open_scene_or_demo()
    code = find(scene, "sofa").candidates[0].code
    run = (lambda: volume(scene, code)) if tool == "volume" else (lambda: color(scene, code))
    run()
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def bench_startup(repeats: int = 5) -> StartupReport:
    """Medians of `repeats` rounds (after one warm-up round) of every command, and the ask card check."""
    from scene_agent.demo.place import ensure_demo_scene

    ensure_demo_scene()  # built once here, never inside a timed run
    compileall.compile_dir(Path(scene_agent.__file__).parent, quiet=1)  # the bytecode a first run leaves behind
    plan = commands()
    with tempfile.TemporaryDirectory(prefix="scene-agent-bench-startup-") as tmp:
        env = child_env(Path(tmp))
        for command in plan:  # warm-up: the disk cache, and anything built on first use
            run_once(command.argv, env)
        times: dict[str, list[float]] = {c.name: [] for c in plan}
        for _ in range(repeats):
            for command in plan:
                times[command.name].append(run_once(command.argv, env)[0])
        tool, card_ms = _ask_card(env)
    baseline = statistics.median(times[plan[0].name])
    rows = []
    for command in plan:
        ms = times[command.name]
        median = statistics.median(ms)
        ratio = median / baseline
        rows.append(StartupRow(command.name, len(ms), round(median, 1), round(min(ms), 1), round(max(ms), 1),
                               round(ratio, 2), command.goal, None if command.goal is None else ratio <= command.goal))
    return StartupReport(rows, round(baseline, 1), tool, round(card_ms, 2), round(_warm_tool_ms(tool, repeats), 2))
