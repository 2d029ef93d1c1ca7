"""`measure WHAT CODE [TO]`: the measure tool from the command line."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from scene_agent.cli.common import JsonOption, SceneOption
from scene_agent.cli.output import console, print_json


def measure_command(
    what: Annotated[str, typer.Argument(help="distance | dimensions | floor_area | fit.")],
    code: Annotated[str, typer.Argument(help="Room or object code, e.g. 0-2 or 0-2-1 (fit: the object to carry).")],
    to: Annotated[str | None, typer.Argument(help="distance: the other room or object; fit: the door or window.")] = None,
    scene: SceneOption = None,
    json_output: JsonOption = False,
) -> None:
    """Measure in metres: the distance between two things, one thing's width, depth and height, a floor area, or
    whether an object fits through a door or window."""
    from scene_agent.demo.place import open_scene_or_demo
    from scene_agent.tools.measure import describe, measure

    result = measure(open_scene_or_demo(scene), what, code, to)
    if json_output:
        print_json(result.model_dump(mode="json", exclude_none=True))
        return
    name = f"{result.label} {result.code}" + (f" → {result.to_label} {result.to}" if result.to else "")
    console.print(escape(f"{name[:1].upper() + name[1:]}: {describe(result)}"))
