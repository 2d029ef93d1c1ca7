"""`bench grounding`: how often `find` names the object people meant on Nr3D, Sr3D and ScanRefer rows, beside the
baselines, as tables or one JSON document (scene_bench/grounding/ does the work; docs/grounding.md explains it)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from scene_agent.cli.common import JsonOption, handled
from scene_agent.cli.output import console, err_console, print_json

if TYPE_CHECKING:
    from scene_bench.grounding.report import GroundingReport, Group


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
    json_output: JsonOption = False,
) -> None:
    """How often find names the object people meant: right (exactly it) / asks (it among 2–6) / wrong, on Nr3D, Sr3D
    and ScanRefer rows, beside reading nouns only; by dataset, part, Sr3D reference type and Nr3D tag."""
    from scene_agent.errors import UsageError
    from scene_bench.grounding.bench import bench_grounding

    kinds, paths = dataset or [], files or []
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
