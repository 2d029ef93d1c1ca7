"""`clr CODE`: the dominant colours of a room (walls and floor) or an object."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from scene_agent.cli.common import JsonOption, SceneOption
from scene_agent.cli.output import console, print_json

if TYPE_CHECKING:
    from scene_agent.tools.color import ColorResult


def _print_color(result: ColorResult) -> None:
    from rich.table import Table

    console.print(escape(result.summary))
    if result.clusters:
        table = Table(title_justify="left", show_edge=False, pad_edge=False)
        for col in ("", "colour", "basic", "hex", "share") + (("where",) if result.kind == "room" else ()):
            table.add_column(col, justify="right" if col == "share" else "left")
        for c in result.clusters:
            row = [f"[on {c.hex}]    [/]", c.name, c.basic, c.hex, f"{c.share:.0%}"]
            table.add_row(*row, *([c.part or ""] if result.kind == "room" else []))
        console.print(table)
    console.print(f"[dim]{escape(result.method)}[/]")


def clr_command(
    code: Annotated[str, typer.Argument(help="A room ('0-3') or object ('0-3-2') code; `find` lists them.")],
    scene: SceneOption = None,
    json_output: JsonOption = False,
) -> None:
    """Dominant colours (named, with hex and share) of a room's walls and floor or of an object."""
    from scene_agent.demo.place import open_scene_or_demo
    from scene_agent.tools.color import color

    result = color(open_scene_or_demo(scene), code)
    if json_output:
        print_json(result.model_dump(mode="json"))  # every key, null included: one shape for programs
    else:
        _print_color(result)
