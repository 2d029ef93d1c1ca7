"""Each row through every policy, scored right / asks / wrong against its target; the words `find` left unused.

A policy is a function (scene, description) → candidate codes. right: exactly the target; asks: the target among
2–6 candidates (the person is asked to pick); wrong: nothing found, another object alone, several without the
target, or more than 6 (too many to ask among). Rows are grouped by scan, so each scene is loaded once.
"""

from __future__ import annotations

import functools
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from scene_agent.errors import SceneAgentError
from scene_agent.resolution.matching import match
from scene_agent.resolution.query import parse_query
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.tools.find import FindResult, find
from scene_bench.grounding.before import find_codes as before
from scene_bench.grounding.boxes import object_code
from scene_bench.grounding.datasets import GroundingRow
from scene_bench.grounding.scans import SceneSource

Policy = Callable[[Scene, str], list[str]]
MAX_ASK = 6  # more candidates than this is not a question a person can answer
VERDICTS = ("right", "asks", "wrong")
WRONG_REASONS = ("nothing found", "another object", "target excluded", "too many", "error")
NOT_AN_OBJECT = "target not among the scan's objects"
ERROR_EXAMPLES = 5


@functools.lru_cache(maxsize=8)
def found(scene: Scene, text: str) -> FindResult:
    """find's result for a description (kept a moment: the current reading and the word count ask for the same)."""
    return find(scene, text)


def current(scene: Scene, text: str) -> list[str]:
    """The current reading: the candidates of the `find` tool, which the offline planner asks for a description."""
    return [c.code for c in found(scene, text).candidates]


def nouns_only(scene: Scene, text: str) -> list[str]:
    """Every object the words' head names: nouns, rooms, floors and codes, no colour, size or place words."""
    return list(match(scene.index, parse_query(text, scene.index)).codes)


# name → policy; the first is the current reading, the others are baselines shown beside it: "before" is the reading
# as it was before grammar.py (a frozen copy, scene_bench/grounding/before/), "nouns only" the head alone.
POLICIES: dict[str, Policy] = {
    "current": current,
    "before": before,
    "nouns only": nouns_only,
}


def word_use(result: FindResult) -> tuple[int, int] | None:
    """(words of the description, words of it find reports it left unused), or None when find does not report them."""
    # Read by name: the bench runs against versions of FindResult with and without `unused_words` (entries are phrases,
    # each a string or an object whose `word` holds it).
    unused = getattr(result, "unused_words", None)
    if unused is None:
        return None
    total = len(result.query.split())
    return total, min(total, sum(len(str(getattr(u, "word", u)).split()) for u in unused))


@dataclass(frozen=True)
class Outcome:
    """How one policy did on one row."""

    verdict: str               # right | asks | wrong
    reason: str | None = None  # for wrong: one of WRONG_REASONS
    candidates: int = 0


def score(codes: Sequence[str], target: str) -> Outcome:
    """right / asks / wrong (and why) for a policy's candidates."""
    codes = list(dict.fromkeys(codes))
    if codes == [target]:
        return Outcome("right", None, 1)
    if not codes:
        return Outcome("wrong", "nothing found", 0)
    if len(codes) > MAX_ASK:
        return Outcome("wrong", "too many", len(codes))
    if target in codes:
        return Outcome("asks", None, len(codes))
    return Outcome("wrong", "another object" if len(codes) == 1 else "target excluded", len(codes))


@dataclass(frozen=True)
class RowResult:
    """A scored row: each policy's outcome, the words find used and left, and tags known only from the scene."""

    row: GroundingRow
    outcomes: dict[str, Outcome]
    words: tuple[int, int] | None  # (words of the description, words find left unused)
    tags: frozenset[str]


@dataclass
class RunResult:
    """Every scored row, the rows skipped and why, and a few of the errors policies raised."""

    results: list[RowResult] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _outcome(policy: Policy, scene: Scene, text: str, target: str, name: str, row: GroundingRow,
             run: RunResult) -> Outcome:
    try:
        return score(policy(scene, text), target)
    except SceneAgentError as exc:  # e.g. words that are no description at all: nothing found, as the tool says
        if len(run.errors) < ERROR_EXAMPLES:
            run.errors.append(f"{name}: {row.where}: {exc.message}")
        return Outcome("wrong", "error")
    except Exception as exc:  # noqa: BLE001 - one row's failure is counted and shown, the other rows still run
        if len(run.errors) < ERROR_EXAMPLES:
            run.errors.append(f"{name}: {row.where}: {type(exc).__name__}: {exc}")
        return Outcome("wrong", "error")


def _scene_tags(scene: Scene, row: GroundingRow, target: str, counts: Counter[str]) -> frozenset[str]:
    """ScanRefer's unique / multiple: whether the target is the only one of its label in the scene."""
    if row.dataset != "scanrefer":
        return row.tags
    return row.tags | {"unique" if counts[scene.index.objects[target].label] == 1 else "multiple"}


def run_rows(rows: Sequence[GroundingRow], source: SceneSource, policies: dict[str, Policy],
             progress: Callable[[str], None] | None = None) -> RunResult:
    """Score every row under every policy, scan by scan."""
    run, started, said = RunResult(), time.monotonic(), time.monotonic()
    by_scan: dict[str, list[GroundingRow]] = defaultdict(list)
    for row in rows:
        by_scan[row.scan_id].append(row)
    scans = sorted(by_scan)
    for number, scan in enumerate(scans, start=1):
        if not source.has(scan):
            run.skipped[source.missing] += len(by_scan[scan])
            continue
        scene = load_scene(source.manifest(scan))
        counts = Counter(o.label for o in scene.index.objects.values())
        for row in by_scan[scan]:
            target = object_code(row.target_id)
            if target not in scene.index.objects:
                run.skipped[NOT_AN_OBJECT] += 1
                continue
            outcomes = {name: _outcome(policy, scene, row.text, target, name, row, run) for name, policy in policies.items()}
            try:
                words = word_use(found(scene, row.text))
            except SceneAgentError:
                words = None
            run.results.append(RowResult(row, outcomes, words, _scene_tags(scene, row, target, counts)))
        found.cache_clear()
        if progress and (time.monotonic() - said >= 2.0 or number == len(scans)):
            said = time.monotonic()
            progress(f"scored {len(run.results):,} rows in {number}/{len(scans)} scans ({said - started:.0f} s)")
    run.seconds = time.monotonic() - started
    return run
