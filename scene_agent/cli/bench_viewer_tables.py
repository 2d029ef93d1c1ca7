"""The tables `bench viewer` prints: per scene its loads and picks, and with a baseline the goals, scene against
baseline (scene_bench/viewer_report.py holds the figures; docs/cli.md explains the columns)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape
from rich.table import Table

from scene_agent.cli.output import console

if TYPE_CHECKING:
    from scene_bench.viewer_report import Comparison, SceneRun, ViewerReport

NAMES = {"gpu": "GPU id picking (7×7 px window)", "raycast": "three.js' Raycaster"}


def _loads_table(run: SceneRun, runs: int, role: str) -> Table:
    table = Table(title=f"bench viewer: loading {role}{escape(run.scene)} (median of {runs} fresh page loads, ms from navigation "
                        f"start; renderer {escape(run.renderer)})", title_justify="left",
                  caption=f"Orbiting the whole scene: {run.frame_ms_p50:.0f} ms a frame (median of a full turn in 30° steps per load); "
                          f"a still frame of the pick view {run.frame_ms:.0f} ms; at most {run.points_drawn_max:,} points "
                          "drawn by one frame.", caption_justify="left")
    for col in ("view", "lod", "items", "points", "drawn max", "manifest ms", "first frame ms", "ready ms"):
        table.add_column(col, justify="left" if col in ("view", "lod") else "right")
    for r in run.loads:
        table.add_row(escape(r.view), r.lod, str(r.items), f"{r.points:,}", f"{r.points_drawn_max:,}", f"{r.manifest_ms:.0f}",
                      f"{r.first_frame_ms:.0f}", f"{r.ready_ms:.0f}")
    return table


def _picks_table(run: SceneRun, role: str) -> Table:
    gpu, ray = run.pick("gpu"), run.pick("raycast")
    faster, slower = (gpu, ray) if gpu.pick_p50_ms <= ray.pick_p50_ms else (ray, gpu)
    ratio = slower.pick_p50_ms / max(faster.pick_p50_ms, 1e-3)
    unanswered = "" if not (gpu.unanswered or ray.unanswered) else (
        f" The page threw instead of picking on {gpu.unanswered} GPU and {ray.unanswered} Raycaster clicks.")
    table = Table(title=f"bench viewer: picking {role}{escape(run.scene)}, {escape(gpu.view)} ({gpu.points:,} pickable points, "
                        f"drawn as {gpu.lod}; the same {gpu.clicks} clicks per method)", title_justify="left",
                  caption=f"Median pick: {NAMES['gpu']} {gpu.pick_p50_ms:.1f} ms, {NAMES['raycast']} {ray.pick_p50_ms:.1f} ms; "
                          f"{NAMES[faster.method]} is {ratio:.1f}× faster on this renderer. Both found the same item on "
                          f"{run.agreed} of {gpu.clicks} clicks. Click → frame includes drawing the frame with the new "
                          f"highlight ({run.frame_ms:.0f} ms a frame here).{unanswered}", caption_justify="left")
    for col in ("method", "hits", "pick p50 ms", "pick p95 ms", "click → frame p50 ms"):
        table.add_column(col, justify="left" if col == "method" else "right")
    for p in run.picks:
        name = "GPU id picking" if p.method == "gpu" else "Raycaster (CPU)"
        table.add_row(name, f"{p.hits}/{p.clicks}", f"{p.pick_p50_ms:.2f}", f"{p.pick_p95_ms:.2f}", f"{p.click_to_frame_p50_ms:.0f}")
    return table


def _many_table(run: SceneRun, runs: int, role: str) -> Table | None:
    many = run.many
    if many is None:
        return None
    table = Table(title=f"bench viewer: a pick among many {role}{escape(run.scene)} (median of {runs} fresh page loads, "
                        "ms from navigation start; what its first view shows)", title_justify="left",
                  caption=f"The first view frames {many.framed} of the {many.candidates} candidates, the smallest of them "
                          f"{many.framed_min_px:.0f} px on screen; {many.candidates_visible} candidates are on screen and "
                          f"{many.labels_drawn} labelled (at most a readable number). Baseline, in the same page: every "
                          f"candidate framed at once, as a pick among many opened before, the smallest "
                          f"{many.baseline.framed_min_px:.0f} px, {many.baseline.labels_drawn} labelled.", caption_justify="left")
    for col in ("view", "lod", "candidates", "framed", "framed min px", "on screen", "labels", "manifest ms", "first frame ms",
                "ready ms"):
        table.add_column(col, justify="left" if col in ("view", "lod") else "right")
    table.add_row(escape(many.view), many.lod, str(many.candidates), str(many.framed), f"{many.framed_min_px:.0f}",
                  str(many.candidates_visible), str(many.labels_drawn), f"{many.manifest_ms:.0f}", f"{many.first_frame_ms:.0f}",
                  f"{many.ready_ms:.0f}")
    base = many.baseline
    table.add_row(f"baseline: {base.view}", many.lod, str(many.candidates), str(base.framed), f"{base.framed_min_px:.0f}",
                  str(base.candidates_visible), str(base.labels_drawn), "", "", "")
    return table


def _goals_table(scene: SceneRun, baseline: SceneRun, comparison: Comparison) -> Table:
    table = Table(title=f"bench viewer: {escape(scene.scene)} against the baseline {escape(baseline.scene)} "
                        "(same run, same browser; × = scene / baseline)", title_justify="left")
    for col in ("measure", "baseline", "scene", "×", "goal", "met"):
        table.add_column(col, justify="left" if col == "measure" else "right")
    goals = comparison.goals()

    def met(name: str) -> str:
        return "yes" if goals[name]["met"] else "[red]no[/]"

    def times(ratio: float | None) -> str:
        return "—" if ratio is None else f"{ratio:.2f}"

    a, b = scene.whole_scene, baseline.whole_scene
    table.add_row("first frame ms (whole scene)", f"{b.first_frame_ms:.0f}", f"{a.first_frame_ms:.0f}",
                  times(comparison.first_frame), f"≤ {goals['first_frame']['max_ratio']:g}×", met("first_frame"))
    table.add_row("orbiting frame ms (p50)", f"{baseline.frame_ms_p50:.0f}", f"{scene.frame_ms_p50:.0f}",
                  times(comparison.orbit_frame), f"≤ {goals['orbit_frame']['max_ratio']:g}×", met("orbit_frame"))
    gpu, gpu_base = scene.pick("gpu"), baseline.pick("gpu")
    table.add_row("GPU pick hits", f"{gpu_base.hits}/{gpu_base.clicks}", f"{gpu.hits}/{gpu.clicks}", "",
                  "every click", met("gpu_picks_hit"))
    table.add_row("ready ms (whole scene)", f"{b.ready_ms:.0f}", f"{a.ready_ms:.0f}", times(comparison.ready), "", "")
    table.add_row("still frame ms (pick view)", f"{baseline.frame_ms:.0f}", f"{scene.frame_ms:.0f}", times(comparison.frame), "", "")
    table.add_row("GPU pick p50 ms", f"{gpu_base.pick_p50_ms:.2f}", f"{gpu.pick_p50_ms:.2f}", times(comparison.gpu_pick), "", "")
    table.add_row("points drawn max", f"{baseline.points_drawn_max:,}", f"{scene.points_drawn_max:,}", "", "", "")
    return table


def print_viewer_report(report: ViewerReport, runs: int) -> None:
    """The baseline's tables (if any), the scene's, then the goals."""
    for run, role in ([(report.baseline, "the baseline, ")] if report.baseline else []) + [(report.run, "")]:
        console.print(_loads_table(run, runs, role))
        console.print(_picks_table(run, role))
        if many := _many_table(run, runs, role):
            console.print(many)
    if report.baseline and (comparison := report.comparison):
        console.print(_goals_table(report.run, report.baseline, comparison))
