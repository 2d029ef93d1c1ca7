"""Options every command shares and the one place expected errors become exit statuses.

The command modules (…_cmds.py) import only typer and this package's light modules at the top; what a command
runs on (the scene, the tools, the agent, the server) is imported in its body, so `--help` and each command pay
only for their own imports (`scene-agent bench startup` measures it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer

from scene_agent.cli.output import print_error
from scene_agent.errors import SceneAgentError

SceneOption = Annotated[
    Path | None,
    typer.Option("--scene", help="Scene manifest (scene.json) or its directory. Default: the demo scene, built on first use."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of tables.")]

P = ParamSpec("P")
R = TypeVar("R")


def handled(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a command; a SceneAgentError prints one line (or JSON) and exits with its status, no traceback."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except SceneAgentError as exc:
            print_error(exc.code, exc.message, bool(kwargs.get("json_output")))
            raise typer.Exit(exc.exit_status) from None

    return wrapper



def scene_summary(manifest_path: Path) -> dict[str, Any]:
    """What a command that wrote a scene reports: where it is and how big it is."""
    from scene_agent.scene.loader import load_scene

    scene = load_scene(manifest_path)
    floors, rooms, objects = scene.index.counts
    return {"manifest": str(manifest_path), "floors": floors, "rooms": rooms, "objects": objects,
            "points": scene.manifest.point_total()}
