"""Options every command shares and the one place expected errors become exit statuses.

The command modules (…_cmds.py) import only typer and this package's light modules at the top; what a command
runs on (the scene, the tools, the agent, the server) is imported in its body, so `--help` and each command pay
only for their own imports (`scene-agent bench startup` measures it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from scene_agent.cli.output import print_error
from scene_agent.errors import SceneAgentError

if TYPE_CHECKING:
    from scene_agent.tiles.store import TilesState

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


def tiles_summary(state: TilesState) -> dict[str, Any]:
    """What a command that built or checked a scene's tiles reports (`scene tiles`, `demo-scene`, `import`)."""
    return {"directory": str(state.directory), "built": state.built, "seconds": round(state.seconds, 2),
            "points": state.index["points"], "tiles": state.tile_count, "bytes": state.tile_bytes, "depth": state.depth,
            "grid": state.index["grid"], "leaf_cap": state.index["leaf_cap"]}


def tiles_line(tiles: dict[str, Any]) -> str:
    """The tiles' figures in one line, from a `tiles_summary`."""
    what = f"built in {tiles['seconds']:.1f} s" if tiles["built"] else "up to date"
    return f"{what}: {tiles['points']:,} points in {tiles['tiles']:,} tiles, {tiles['bytes']:,} bytes, depth {tiles['depth']}"


def build_tiles_now(manifest_path: Path, json_output: bool) -> dict[str, Any]:
    """Build the level-of-detail tiles of a scene a command has just written, so that the server's first tiles
    request does not wait for them (docs/cli.md says which commands do); their `tiles_summary`. The build's
    progress lines go to stderr, except under --json."""
    from scene_agent.scene.manifest import load_manifest
    from scene_agent.tiles.store import ensure_tiles

    state = ensure_tiles(manifest_path.parent, load_manifest(manifest_path), progress=(lambda line: None) if json_output else None)
    return tiles_summary(state)
