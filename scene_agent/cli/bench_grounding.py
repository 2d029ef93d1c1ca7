"""`bench grounding`: how often `find` names the object people meant on Nr3D, Sr3D and ScanRefer rows, beside the
baselines; with --scene, what one description costs find on a large building beside a home. Tables or one JSON
document (scene_bench/grounding/ does the work; docs/grounding.md explains it)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from scene_agent.cli.common import JsonOption, SceneOption, handled
from scene_agent.cli.output import console, err_console, print_json

if TYPE_CHECKING:
    from scene_bench.grounding.report import GroundingReport, Group
    from scene_bench.grounding.speed import SpeedReport


class DatasetKind(StrEnum):
    """Which referring-expression dataset a file holds."""

    nr3d = "nr3d"
    sr3d = "sr3d"
    scanrefer = "scanrefer"


class PlannerKind(StrEnum):
    """What reads the descriptions: find as the offline planner calls it, or the OpenAI planner."""

    offline = "offline"
    openai = "openai"


class PartChoice(StrEnum):
    """Which rows: all, the development part, or the part held out (by scan id)."""

    all = "all"
    dev = "dev"
    held_out = "held-out"


@handled
def grounding(
    dataset: Annotated[list[DatasetKind] | None, typer.Option(
        "--dataset", metavar="KIND",
        help="nr3d, sr3d or scanrefer, followed by its FILE: a ReferIt3D CSV (Nr3D, Sr3D), a ScanRefer JSON, or the "
             "word `generate` for Sr3D rows written from the scenes' boxes. Repeat for several datasets in one run: "
             "--dataset nr3d nr3d.csv --dataset scanrefer scanrefer.json --dataset sr3d generate.")] = None,
    files: Annotated[list[str] | None, typer.Argument(metavar="FILE", help="Each --dataset's file, in order.",
                                                      show_default=False)] = None,
    boxes: Annotated[Path | None, typer.Option("--boxes", help="Ground-truth boxes: {scan_id: [{id, label, center, "
                                                               "size, rgb}]}; each scan becomes a scene.")] = None,
    scans: Annotated[Path | None, typer.Option("--scans", help="A folder of ScanNet scan folders (sceneXXXX_XX/), each "
                                                               "imported with its object ids.")] = None,
    keep: Annotated[Path | None, typer.Option("--keep", help="Keep the scenes here (DIR/<scan>/scene.json, for "
                                                             "`scene-agent serve --scene`) and reuse them next time. "
                                                             "Default: a temporary directory, removed at the end.")] = None,
    planner: Annotated[PlannerKind, typer.Option("--planner", help="offline: find's candidates; openai: the OpenAI "
                                                                   "planner asked 'show me …' (OPENAI_API_KEY).")] = PlannerKind.offline,
    part: Annotated[PartChoice, typer.Option("--part", help="Only the development rows, or only those held out "
                                                            "(one scan in five, by scan id).")] = PartChoice.all,
    write_sr3d: Annotated[Path | None, typer.Option("--write-sr3d", help="Also save the generated Sr3D rows here, in "
                                                                         "the published CSV layout.")] = None,
    scene: SceneOption = None,
    baseline_scene: Annotated[Path | None, typer.Option(
        "--baseline-scene", help="With --scene: time find here too, first, and compare (ratios scene / baseline, goal "
                                 "≤ 1.5×). Default: the demo home.")] = None,
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="With --scene: timed runs per description.")] = 20,
    json_output: JsonOption = False,
) -> None:
    """How often find names the object people meant: right (exactly it) / asks (it among 2–6) / wrong, on Nr3D, Sr3D
    and ScanRefer rows, beside the reading before and reading nouns only; by dataset, part, Sr3D reference type and
    Nr3D tag. With --scene instead: ms per description for find on that scene beside the demo home."""
    from scene_agent.errors import UsageError
    from scene_bench.grounding.bench import bench_grounding

    kinds, paths = dataset or [], files or []
    if scene is not None:
        if kinds or paths or boxes or scans:
            raise UsageError("--scene times find on a scene: give it without --dataset, --boxes or --scans")
        speed(scene, baseline_scene, repeats, json_output)
        return
    if baseline_scene is not None:
        raise UsageError("--baseline-scene goes with --scene (the scene timed beside it)")
    if len(kinds) != len(paths):
        raise UsageError(f"each --dataset KIND needs its FILE: {len(kinds)} --dataset, {len(paths)} file(s) "
                         f"({' '.join(paths) or 'none'})")
    report = bench_grounding([(k.value, f) for k, f in zip(kinds, paths, strict=True)], boxes=boxes, scans=scans,
                             keep=keep, planner=planner.value, part=part.value, write_sr3d=write_sr3d,
                             say=lambda line: err_console.print(escape(line)))
    if json_output:
        print_json(report.as_json())
        return
    print_report(report)


def _cell(group: Group, policy: str) -> str:
    tally = group.tallies[policy]
    return "/".join(f"{tally.share(v, group.n):.1f}" for v in ("right", "asks", "wrong"))


def print_report(report: GroundingReport) -> None:
    """The tables, then what was read, skipped and kept."""
    meta = report.meta
    first = report.policies[0]
    for table_name in report.tables():
        groups = [g for g in report.groups if g.table == table_name]
        title = f"bench grounding: {table_name} (% right/asks/wrong; planner {meta['planner']}, part {meta['part']})"
        table = Table(title=escape(title), title_justify="left")
        table.add_column("rows")
        table.add_column("n", justify="right", no_wrap=True)
        for policy in report.policies:
            table.add_column(escape(policy), justify="right", no_wrap=True)
        table.add_column(f"unused words\n({escape(first)})", justify="right", no_wrap=True)
        for g in groups:
            share = g.unused_share
            table.add_row(escape(g.group), f"{g.n:,}", *(_cell(g, p) for p in report.policies),
                          "n/a" if share is None else f"{share:.1f} %")
        console.print(table)
    headline = report.groups[0]
    why = Table(title=f"bench grounding: why wrong (all {headline.n:,} rows, % of them)", title_justify="left")
    why.add_column("reason")
    for policy in report.policies:
        why.add_column(escape(policy), justify="right")
    for reason in ("nothing found", "another object", "target excluded", "too many", "error"):
        counts = [headline.tallies[p].reasons[reason] for p in report.policies]
        if reason != "error" or any(counts):
            label = "target excluded from several" if reason == "target excluded" else f"{reason}{' (> 6)' * (reason == 'too many')}"
            why.add_row(label, *(f"{c:,} ({100 * c / max(headline.n, 1):.1f} %)" for c in counts))
    console.print(why)
    for line in _notes(report):
        console.print(escape(line))


def _notes(report: GroundingReport) -> list[str]:
    meta = report.meta
    read = ", ".join(f"{d['dataset']} {d['rows']:,} ({d['file']})" for d in meta["datasets"])
    lines = [f"Rows read: {read}; {meta['rows_in_part']:,} in part {meta['part']}, {meta['rows_scored']:,} scored "
             f"in {meta['seconds']:.0f} s."]
    for reason, count in meta["rows_skipped"].items():
        lines.append(f"Rows skipped: {count:,}, {reason}.")
    if meta["listeners_missed"]:
        lines.append(f"Nr3D rows whose listener missed the target too (correct_guess False): {meta['listeners_missed']:,}, "
                     "shown apart and left out of 'all'.")
    if meta["sr3d"] and "written" in meta["sr3d"]:
        lines.append(f"Generated Sr3D rows saved to {meta['sr3d']['written']}.")
    if report.groups[0].unused_share is None:
        lines.append("Words left unused: n/a (this find does not report the words it used).")
    if meta["scenes"]:
        lines.append(f"Scenes kept in {meta['scenes']}: scene-agent serve --scene {meta['scenes']}/<scan>/scene.json")
    lines += [f"error: {e}" for e in meta["errors"]]
    return lines


def speed(scene: Path, baseline: Path | None, repeats: int, json_output: bool) -> None:
    """Time find on the descriptions over the baseline (the demo home by default) and the scene; print the tables."""
    from scene_agent.demo.place import ensure_demo_scene
    from scene_bench.grounding.speed import bench_speed

    report = bench_speed(_manifest(scene, "--scene"), _manifest(baseline, "--baseline-scene") if baseline else ensure_demo_scene(),
                         repeats=repeats, say=lambda line: err_console.print(escape(line)))
    if json_output:
        print_json(report.as_json())
        return
    print_speed(report)


def _manifest(path: Path, option: str) -> Path:
    """path's manifest; a usage error naming the option when there is none (before anything is timed)."""
    from scene_agent.errors import UsageError
    from scene_agent.scene.manifest import resolve_manifest_path

    manifest = resolve_manifest_path(path)
    if not manifest.is_file():
        raise UsageError(f"{option} {path}: no scene manifest there (give a scene.json or the directory holding one)")
    return manifest


def print_speed(report: SpeedReport) -> None:
    """Per description and per set: median / p90 ms on each scene and the ratio scene / baseline."""
    from scene_bench.grounding.speed import GOAL_RATIO

    base, big = report.baseline, report.scene
    table = Table(title=escape(f"bench grounding --scene: find, ms per description (median / p90 of {report.repeats} "
                               f"runs), {big.scene_id} beside {base.scene_id}"), title_justify="left")
    table.add_column(escape(f"words ({base.scene_id}; {big.scene_id} below when other)"))
    table.add_column("found", justify="right", no_wrap=True)
    for column in (f"{base.scene_id} ms", f"{big.scene_id} ms", "×"):
        table.add_column(escape(column), justify="right", no_wrap=True)
    shown = None
    for (kind, _, _), b, s in zip(report.templates, base.timings, big.timings, strict=True):
        if kind != shown:
            table.add_row(f"[bold]{escape(kind)}[/]", end_section=False)
            shown = kind
        words = b.text if b.text == s.text else f"{b.text}\n→ {s.text}"
        table.add_row(escape(words), f"{b.candidates:,} / {s.candidates:,}", f"{b.median_ms:.2f} / {b.p90_ms:.2f}",
                      f"{s.median_ms:.2f} / {s.p90_ms:.2f}", f"{s.median_ms / b.median_ms:.1f}" if b.median_ms else "n/a")
    console.print(table)
    summary = Table(title=f"bench grounding --scene: per set (all runs pooled; goal ≤ {GOAL_RATIO:g}× the baseline)",
                    title_justify="left")
    for column in ("set", "descriptions", f"{base.scene_id} ms", f"{big.scene_id} ms", "× median", "× p90", "goal"):
        summary.add_column(escape(column), justify="left" if column == "set" else "right", no_wrap=True)
    for row in report.summary():
        summary.add_row(row["set"], str(row["descriptions"]), f"{row['baseline_median_ms']:.2f} / {row['baseline_p90_ms']:.2f}",
                        f"{row['scene_median_ms']:.2f} / {row['scene_p90_ms']:.2f}", f"{row['ratio_median']}",
                        f"{row['ratio_p90']}", "met" if row["goal_met"] else "not met")
    console.print(summary)
    for times in (base, big):
        console.print(escape(f"{times.scene_id}: {times.objects:,} objects in {times.rooms:,} rooms; loaded in "
                             f"{times.load_ms:.0f} ms, its cached attributes in {times.attributes_ms:.0f} ms (not "
                             f"counted above) — {times.path}"))
