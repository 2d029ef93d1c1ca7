"""`scene info`, `find` and `demo-scene`: look at a scene and build the demo one."""

from __future__ import annotations

import enum
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from scene_agent.cli.common import JsonOption, SceneOption, build_tiles_now, handled, scene_summary, tiles_line, tiles_summary
from scene_agent.cli.output import console, print_json
from scene_agent.config import load_demo_dir
from scene_agent.errors import UsageError

if TYPE_CHECKING:
    from scene_agent.scene.loader import Scene
    from scene_agent.scene.manifest import Room
    from scene_agent.tools.find import FindResult

scene_app = typer.Typer(help="Inspect a scene.", no_args_is_help=True)


def _info_json(scene: Scene) -> dict[str, Any]:
    floors = []
    for floor in scene.manifest.floors:
        rooms = []
        for room in floor.rooms:
            objects = [{"code": o.code, "label": o.label, "points": o.point_count, "bounds": o.bounds.model_dump()} for o in room.objects]
            rooms.append({"code": room.code, "type": room.type, "name": room.name, "points": room.point_count,
                          "inferred": room.inferred.model_dump() if room.inferred else None,
                          "bounds": room.bounds.model_dump(), "objects": objects})
        floors.append({"code": floor.code, "name": floor.name, "rooms": rooms})
    return {"scene_id": scene.scene_id, "name": scene.manifest.name, "manifest": str(scene.path), "floors": floors}


def _type_said(room: Room) -> str:
    """The room's type, and, when it was inferred, from what ("bedroom (inferred, 100 %: bed, nightstand)")."""
    if room.inferred is None:
        return room.type
    guess = room.inferred
    return f"{room.type} (inferred, {round(guess.confidence * 100)} %: {', '.join(guess.because)})"


@scene_app.command("info")
@handled
def info(scene: SceneOption = None, json_output: JsonOption = False) -> None:
    """Floors, rooms (code, type, name, points; a type inferred from the room's objects says so, and from which) and
    objects (code, label, room, points)."""
    from scene_agent.demo.place import open_scene_or_demo

    loaded = open_scene_or_demo(scene)
    if json_output:
        print_json(_info_json(loaded))
        return
    m = loaded.manifest
    floors, rooms, objects = loaded.index.counts
    total = m.point_total()
    console.print(f"[bold]{m.name}[/] ({m.scene_id}) — {floors} floors, {rooms} rooms, {objects} objects, {total:,} points\n{loaded.path}")
    room_table = Table(title="Rooms", title_justify="left")
    for col in ("Floor", "Room", "Type", "Name", "Points", "Objects"):
        room_table.add_column(col, justify="right" if col in ("Points", "Objects") else "left")
    object_table = Table(title="Objects", title_justify="left")
    for col in ("Object", "Label", "Room", "Points"):
        object_table.add_column(col, justify="right" if col == "Points" else "left")
    for floor in m.floors:
        for room in floor.rooms:
            room_table.add_row(f"{floor.code} {floor.name or ''}".strip(), room.code, _type_said(room), room.name or "",
                               f"{room.point_count:,}", str(len(room.objects)))
            for obj in room.objects:
                object_table.add_row(obj.code, obj.label, f"{room.code} {room.display_name}", f"{obj.point_count:,}")
    console.print(room_table)
    console.print(object_table)


def _print_find(result: FindResult) -> None:
    if not result.candidates:
        console.print(result.message or f"Nothing matches '{result.query}'.")
        return
    if result.floor is not None:
        floor_name = next((c.floor_name for c in result.candidates if c.floor_name), None)
        console.print(f"Limited to floor {result.floor}" + (f" ({floor_name})" if floor_name else "") + ".")
    if result.note:
        console.print(result.note, markup=False)  # how the words were read: corrections, words set aside or unused
    table = Table(title=f"{len(result.candidates)} match(es) for '{result.query}'", title_justify="left")
    for col in ("Code", "Kind", "What", "Room", "Floor", "Size (m)", "Points"):
        table.add_column(col, justify="right" if col == "Points" else "left", no_wrap=col in ("Code", "Size (m)", "Points"))
    for c in result.candidates:
        size = " × ".join(f"{v:.2f}" for v in c.bounds.size)
        room = "" if c.kind == "room" else f"{c.room} {c.room_name or c.room_type.replace('_', ' ')}"
        kind = (c.type or "").replace("_", " ")
        what = c.label if c.kind == "object" else (f"{kind} ({c.name})" if c.name else kind)
        table.add_row(c.code, c.kind, what or "", room, c.floor, size, f"{c.points:,}")
    console.print(table)


def find_command(
    text: Annotated[str, typer.Argument(help="What to look for: 'chair', 'chairs in the kitchen', 'couch', '0-2-3'.")],
    scene: SceneOption = None,
    json_output: JsonOption = False,
) -> None:
    """Rooms and objects matching a description; exit 1 when nothing matches."""
    from scene_agent.demo.place import open_scene_or_demo
    from scene_agent.tools.find import find

    result = find(open_scene_or_demo(scene), text)
    print_json(result) if json_output else _print_find(result)
    if not result.candidates:
        raise typer.Exit(1)


class DemoSize(enum.StrEnum):
    """Which demo scene `demo-scene` builds."""

    home = "home"  # the two-floor demo home (demo/layout.py)
    large = "large"  # the block of flats (demo/block.py), 20 million points and more
    huge = "huge"  # a bigger block of flats, 100 million points and more


def _bytes_under(directory: Path) -> int:
    """Total size of the files in a directory tree."""
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())


def demo_scene_command(
    out: Annotated[Path | None, typer.Option("--out", help="Directory to write (default: the embedded demo scene's place; "
                                                             "required with --size large).")] = None,
    size: Annotated[DemoSize, typer.Option("--size", help="home: the demo home; large: a block of flats of 20 million points "
                                                          "and more; huge: one of 100 million points and more.")]
    = DemoSize.home,
    json_output: JsonOption = False,
) -> None:
    """Build the deterministic demo home (two floors), or a block of flats, into a directory (the same scene bytes on every
    run), then its level-of-detail tiles."""
    started = time.perf_counter()
    if size is not DemoSize.home:
        from scene_agent.demo.block import HUGE, LARGE
        from scene_agent.demo.build import build_block_scene

        if out is None:
            raise UsageError(f"demo-scene --size {size.value} needs --out DIR (it is never written to the demo home's place)")
        path = build_block_scene(out, HUGE if size is DemoSize.huge else LARGE, overwrite=True)
    else:
        from scene_agent.demo.build import build_demo_scene

        path = build_demo_scene(out or load_demo_dir(), overwrite=True)
    seconds = time.perf_counter() - started
    # The tiles too, while the user is waiting anyway: the home's add under 2 s, the block's spare the viewer's first
    # request a wait of most of a minute (docs/cli.md). `bytes` counts the points and the tiles; `tiles.bytes` the latter.
    tiles = build_tiles_now(path, json_output)
    summary = scene_summary(path) | {"seconds": round(seconds, 2), "size": size.value, "bytes": _bytes_under(path.parent),
                                     "tiles": tiles}
    if json_output:
        print_json(summary)
    else:
        console.print(f"Demo scene written to {path}: {summary['floors']} floors, {summary['rooms']} rooms, "
                      f"{summary['objects']} objects, {summary['points']:,} points in {seconds:.1f} s; {summary['bytes']:,} "
                      f"bytes with its tiles\nTiles {tiles_line(tiles)}")


@scene_app.command("tiles")
@handled
def tiles(scene: SceneOption = None, json_output: JsonOption = False) -> None:
    """Build the scene's level-of-detail tiles beside its manifest (or confirm they are up to date); print their figures."""
    from scene_agent.demo.place import open_scene_or_demo
    from scene_agent.tiles.store import ensure_tiles

    loaded = open_scene_or_demo(scene)
    state = ensure_tiles(loaded.root, loaded.manifest, progress=None if not json_output else lambda line: None)
    summary = {"scene_id": loaded.scene_id, **tiles_summary(state)}
    if json_output:
        print_json(summary)
        return
    console.print(f"Tiles of '{loaded.scene_id}' {tiles_line(summary)}\n{state.directory}")
