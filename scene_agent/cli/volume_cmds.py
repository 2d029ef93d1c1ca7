"""`vol CODE`: the volume tool from the command line."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from scene_agent.cli.common import JsonOption, SceneOption
from scene_agent.cli.output import console, print_json


def vol_command(
    code: Annotated[str, typer.Argument(help="Room or object code, e.g. 0-2 or 0-2-1.")],
    scene: SceneOption = None,
    json_output: JsonOption = False,
) -> None:
    """Volume of a room or object: convex hull (scan noise taken off), oriented box, axis-aligned box; rooms: floor area and height."""
    from scene_agent.demo.place import open_scene_or_demo
    from scene_agent.tools.volume import describe, volume

    result = volume(open_scene_or_demo(scene), code)
    if json_output:
        payload = result.model_dump(mode="json", exclude_none=True)
        payload.setdefault("volume_m3", None)  # a missing volume is said, with its reason, not left out
        print_json(payload)
        return
    console.print(escape(describe(result)))
    console.print(f"[dim]{escape(result.method)}[/]")
    if result.aabb_volume_m3 is not None:
        console.print(f"[dim]axis-aligned box {_m3_short(result.aabb_volume_m3)} m³; {result.points_used:,} points used[/]")
    for note in ([result.reason] if result.reason else []) + result.notes:
        console.print(f"[yellow]note:[/] {escape(note)}")


def _m3_short(v: float) -> str:
    return f"{v:,.0f}" if v >= 1000 else f"{v:.3g}"
