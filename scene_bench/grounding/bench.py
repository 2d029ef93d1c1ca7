"""`bench grounding` from its options to its report: read the datasets, make the scenes, score, group."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, cast

from scene_agent.errors import UsageError
from scene_bench.grounding.datasets import DATASETS, Dataset, GroundingRow, read_dataset
from scene_bench.grounding.report import GroundingReport, build_report
from scene_bench.grounding.run import POLICIES, Policy, run_rows
from scene_bench.grounding.scans import BoxScenes, ScanScenes, SceneSource
from scene_bench.grounding.sr3d import Sr3dRow, generate, write_csv

GENERATE = "generate"  # `--dataset sr3d generate`: Sr3D rows written from the scenes' boxes, not read from a file
PLANNERS = ("offline", "openai")
PART_CHOICES = ("all", "dev", "held-out")


def _generated(source: SceneSource, say: Callable[[str], None]) -> list[Sr3dRow]:
    rows: list[Sr3dRow] = []
    scans = source.scans()
    for number, scan in enumerate(scans, start=1):
        rows += generate(source.layout(scan))
        if number % 100 == 0 or number == len(scans):
            say(f"Sr3D rows: {len(rows):,} from {number}/{len(scans)} scans")
    return rows


def _read(datasets: Sequence[tuple[Dataset, str]], source: SceneSource, write_sr3d: Path | None,
          say: Callable[[str], None]) -> tuple[list[GroundingRow], list[dict[str, Any]], dict[str, Any]]:
    """Every dataset's rows (files first, so a bad file fails before any scene is made), what was read, Sr3D's origin."""
    rows: list[GroundingRow] = []
    read: list[dict[str, Any]] = []
    sr3d: dict[str, Any] = {}
    for kind, file in datasets:
        if file != GENERATE:
            found = read_dataset(kind, Path(file))
            rows += found
            read.append({"dataset": kind, "file": file, "rows": len(found)})
    for kind, file in datasets:
        if file == GENERATE:
            made = _generated(source, say)
            if write_sr3d is not None:
                write_csv(made, write_sr3d)
                sr3d["written"] = str(write_sr3d)
            rows += [r.as_row(i) for i, r in enumerate(made, start=1)]
            read.append({"dataset": kind, "file": GENERATE, "rows": len(made)})
            sr3d["generated"] = len(made)
    return rows, read, sr3d


def check_options(datasets: Sequence[tuple[str, str]], boxes: Path | None, scans: Path | None,
                  write_sr3d: Path | None) -> list[tuple[Dataset, str]]:
    """The datasets, checked with the other options before anything runs (a usage error otherwise)."""
    if not datasets:
        raise UsageError("give at least one --dataset KIND FILE (nr3d, sr3d or scanrefer)")
    if (boxes is None) == (scans is None):
        raise UsageError("give either --boxes BOXES.json or --scans DIR (where the scenes come from)")
    for kind, file in datasets:
        if kind not in DATASETS:
            raise UsageError(f"--dataset {kind}: not one of {', '.join(DATASETS)}")
        if file == GENERATE and kind != "sr3d":
            raise UsageError(f"--dataset {kind} {GENERATE}: only Sr3D rows can be generated (--dataset sr3d {GENERATE})")
        if file != GENERATE and not Path(file).is_file():
            raise UsageError(f"--dataset {kind} {file}: no such file")
    if write_sr3d is not None and (("sr3d", GENERATE) not in datasets):
        raise UsageError(f"--write-sr3d saves generated rows: give --dataset sr3d {GENERATE} with it")
    if boxes is not None and not boxes.is_file():
        raise UsageError(f"--boxes {boxes}: no such file")
    return [(cast(Dataset, kind), file) for kind, file in datasets]


def bench_grounding(datasets: Sequence[tuple[str, str]], *, boxes: Path | None = None, scans: Path | None = None,
                    keep: Path | None = None, planner: str = "offline", part: str = "all", write_sr3d: Path | None = None,
                    say: Callable[[str], None] = lambda line: None) -> GroundingReport:
    """Score every row of the datasets under the current reading and the baselines; `say` hears progress."""
    checked = check_options(datasets, boxes, scans, write_sr3d)
    model = None
    if planner == "openai":
        from scene_agent.config import load_model_settings

        model = load_model_settings()
        if model is None:
            raise UsageError("--planner openai needs OPENAI_API_KEY (and OPENAI_BASE_URL for a server other than "
                             "OpenAI's; SCENE_AGENT_MODEL names the model)")
    with ExitStack() as stack:
        cache = keep if keep is not None else Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="grounding-")))
        source: SceneSource = BoxScenes(boxes, cache) if boxes is not None else ScanScenes(cast(Path, scans), cache)
        rows, read, sr3d = _read(checked, source, write_sr3d, say)
        chosen = [r for r in rows if part == "all" or r.part == part]
        policies: dict[str, Policy] = dict(POLICIES)
        if model is not None:
            from scene_bench.grounding.agent_policy import AgentPolicy

            agent = AgentPolicy(model, Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="grounding-agent-"))))
            stack.callback(agent.close)
            policies["current"] = agent
        say(f"scoring {len(chosen):,} rows ({part}) under {', '.join(policies)}; scenes in {cache}")
        run = run_rows(chosen, source, policies, say)
        meta = {"planner": planner, "part": part, "datasets": read, "sr3d": sr3d or None,
                "scenes": str(keep) if keep is not None else None, "rows_read": len(rows), "rows_in_part": len(chosen)}
        return build_report(run, list(policies), meta)
