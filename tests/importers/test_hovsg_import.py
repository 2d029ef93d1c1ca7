"""HOV-SG import: graph folders with ids joined by '_' become our codes joined by '-'."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scan_fixtures import HOVSG_UNTYPED_ROOMS, write_hovsg_graph, write_ply

from scene_agent.errors import ScanImportError
from scene_agent.importers import import_hovsg
from scene_agent.scene.loader import load_scene
from scene_agent.scene.manifest import load_manifest
from scene_agent.tools.color import color
from scene_agent.tools.find import find
from scene_agent.tools.volume import describe, volume


def test_graph_becomes_scene(tmp_path: Path) -> None:
    path = import_hovsg(write_hovsg_graph(tmp_path), tmp_path / "out")
    manifest = load_manifest(path)
    [floor] = manifest.floors
    assert (floor.code, floor.name) == ("0", "floor_0")
    assert [(r.code, r.type, r.name) for r in floor.rooms] == [("0-0", "living_room", "living room"), ("0-1", "kitchen", "kitchen")]
    assert [(o.code, o.label, o.point_count) for o in manifest.objects()] == [
        ("0-0-0", "sofa", 90), ("0-0-1", "armchair", 60), ("0-1-0", "chair", 50), ("0-1-1", "chair", 40), ("0-1-2", "refrigerator", 70)]
    scene = load_scene(path)
    assert [c.code for c in find(scene, "chairs in the kitchen").candidates] == ["0-1-0", "0-1-1"]
    assert len(scene.points("0-0")) == 200


def test_y_up_points_become_z_up_and_floors_get_their_level(tmp_path: Path) -> None:
    graph = write_hovsg_graph(tmp_path)
    _edit(graph / "floors" / "0.json", floor_zero_level=-0.25)
    manifest = load_manifest(import_hovsg(graph, tmp_path / "out"))
    assert manifest.up_axis == "z"
    assert manifest.floors[0].elevation == -0.25
    # HOV-SG's object 0_0_0 fills x 1..2, y (up) 1..2, z 0..1: here x 1..2, y -1..0, z (up) 1..2
    sofa = manifest.objects()[0]
    assert sofa.bounds.min == pytest.approx((1.0, -1.0, 1.0), abs=0.05)
    assert sofa.bounds.max == pytest.approx((2.0, 0.0, 2.0), abs=0.05)


def test_liberal_ids_and_names(tmp_path: Path) -> None:
    graph = write_hovsg_graph(tmp_path)
    _edit(graph / "floors" / "0.json", floor_id=0, name=None, rooms=[0, "1"])
    _edit(graph / "rooms" / "0_0.json", room_id=0, floor_id=0, name="room_0", objects=[0, 1])
    _edit(graph / "rooms" / "0_1.json", floor_id="0", name=None)
    _edit(graph / "objects" / "0_1_2.json", object_id=2, room_id=1)
    _edit(graph / "objects" / "0_0_1.json", room_id="0_0", embedding="")
    (graph / "rooms" / "0_1.json").write_text((graph / "rooms" / "0_1.json").read_text().replace('"objects"', '"objectz"'))
    manifest = load_manifest(import_hovsg(graph, tmp_path / "out"))
    assert manifest.floors[0].name is None
    # untyped, so typed by what they hold (a sofa and an armchair; a fridge); "room_0" is an id, not a name
    assert [(r.code, r.type, r.name) for r in manifest.rooms()] == [("0-0", "living_room", None), ("0-1", "kitchen", None)]
    assert [o.code for o in manifest.objects()] == ["0-0-0", "0-0-1", "0-1-0", "0-1-1", "0-1-2"]


def test_empty_object_is_left_out(tmp_path: Path) -> None:
    graph = write_hovsg_graph(tmp_path)
    vertex = np.empty(0, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])
    write_ply(graph / "objects" / "0_1_1.ply", vertex)
    manifest = load_manifest(import_hovsg(graph, tmp_path / "out"))
    assert [o.code for o in manifest.objects()] == ["0-0-0", "0-0-1", "0-1-0", "0-1-2"]


@pytest.mark.parametrize(
    ("make", "names"),
    [
        (lambda p: (p / "graph").mkdir(), "graph: not a HOV-SG graph folder"),
        (lambda p: (p / "graph").write_text("x"), "graph: not a directory"),
        (lambda p: None, "graph: HOV-SG graph folder not found"),
    ],
)
def test_no_graph_folder(tmp_path: Path, make, names: str) -> None:
    make(tmp_path)
    with pytest.raises(ScanImportError, match=names):
        import_hovsg(tmp_path / "graph", tmp_path / "out")
    assert not (tmp_path / "out").exists()
    assert not [p for p in tmp_path.iterdir() if ".staging" in p.name]


def _one_vertex(path: Path, *xs: float) -> None:
    """A PLY of one vertex per x given (y and z 0): NaN, absurdly far or absurdly wide coordinates."""
    vertex = np.zeros(len(xs), dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])
    vertex["x"] = xs
    write_ply(path, vertex)


def _edit(path: Path, **changes) -> None:
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("breakage", "names"),
    [
        (lambda g: (g / "objects" / "0_1_2.ply").unlink(), "objects/0_1_2.ply: missing file"),
        (lambda g: _edit(g / "objects" / "0_1_2.json", room_id="0_7"),
         "objects/0_1_2.json: refers to room 0-7, which the graph does not have"),
        (lambda g: _edit(g / "rooms" / "0_1.json", floor_id="3"), "rooms/0_1.json: refers to floor 3"),
        (lambda g: (g / "rooms" / "0_0.json").write_text("[1, 2"), "rooms/0_0.json: not valid JSON"),
        (lambda g: _edit(g / "objects" / "0_0_1.json", name=None), "objects/0_0_1.json: field 'name' should be str"),
        (lambda g: (g / "objects" / "0_0_1.ply").write_bytes(b"ply\nformat binary_little_endian 1.0\nelement vertex 50\n"
                                                            b"property float x\nproperty float y\nproperty float z\nend_header\n\x00"),
         "objects/0_0_1.ply: corrupt or unreadable PLY"),
        (lambda g: (g / "objects" / "chair.json").write_text("{}"), "objects/chair.json: file name should be <floor>_<room>_<object>.json"),
        (lambda g: [p.unlink() for p in (g / "floors").iterdir()], "floors: no floor .json files"),
        (lambda g: (g / "rooms").rename(g / "rooms-old"), "rooms: HOV-SG rooms folder not found"),
        (lambda g: _edit(g / "objects" / "0_1_2.json", object_id="0_1_5"),
         "objects/0_1_2.json: object_id says 0-1-5 but the file name says 0-1-2"),
        (lambda g: _edit(g / "objects" / "0_1_2.json", room_id=[0, 1]), "objects/0_1_2.json: field 'room_id' should be str or int"),
        (lambda g: _edit(g / "rooms" / "0_1.json", floor_id="0_1_2"), "rooms/0_1.json: field 'floor_id' is '0_1_2', too many parts"),
        (lambda g: [(g / "objects" / f"0_1_2.{ext}").unlink() for ext in ("json", "ply")],
         "rooms/0_1.json: lists object 0-1-2, but"),
        (lambda g: (g / "rooms" / "0_1.ply").write_bytes(b"GARBAGE" * 50), "rooms/0_1.ply: corrupt or unreadable PLY"),
        (lambda g: (g / "objects" / "0_0_0.json").write_text("[]"), "objects/0_0_0.json: should hold a JSON object"),
        (lambda g: _one_vertex(g / "objects" / "0_1_2.ply", float("nan")),
         "objects/0_1_2.ply: 1 point(s) have NaN or infinite coordinates (the first is point 0)"),
        (lambda g: _one_vertex(g / "rooms" / "0_0.ply", 3.0e9), "rooms/0_0.ply: a vertex lies 3,000,000,000 m from the origin"),
        (lambda g: _one_vertex(g / "objects" / "0_0_1.ply", 2.0e5, 0.0), "objects/0_0_1.ply: the points span 200,000 m along x"),
    ],
)
def test_bad_graph_names_the_file_and_leaves_nothing(tmp_path: Path, breakage, names: str) -> None:
    graph = write_hovsg_graph(tmp_path)
    breakage(graph)
    with pytest.raises(ScanImportError) as err:
        import_hovsg(graph, tmp_path / "out")
    assert names in str(err.value)
    assert not (tmp_path / "out").exists()
    assert not [p for p in tmp_path.iterdir() if ".staging" in p.name]


def test_rooms_hovsg_left_untyped_get_a_type_inferred_from_what_they_hold(tmp_path: Path) -> None:
    path = import_hovsg(write_hovsg_graph(tmp_path, HOVSG_UNTYPED_ROOMS), tmp_path / "out")
    rooms = load_manifest(path).floors[0].rooms
    assert [(r.code, r.type, r.name) for r in rooms] == [("0-0", "bedroom", None), ("0-1", "bathroom", None),
                                                          ("0-2", "room", None)]  # a chair and a plant tell nothing
    assert rooms[0].inferred is not None and rooms[0].inferred.because == ["bed", "nightstand"]  # not the desk
    assert rooms[2].inferred is None
    scene = load_scene(path)
    assert [c.code for c in find(scene, "the bedroom").candidates] == ["0-0"]
    assert [c.code for c in find(scene, "卧室").candidates] == ["0-0"]
    said = color(scene, "0-0").summary
    assert said.startswith("Room 0-0 (which I take for a bedroom: it has a bed and a nightstand) is "), said
    assert color(scene, "0-0", "zh").summary.startswith("房间 0-0（我判断为卧室：里面有床、床头柜）")
    assert color(scene, "0-2").summary.startswith("Room 0-2 is ")  # nothing inferred, nothing claimed


def test_a_type_no_room_has_asks_among_the_rooms_whose_type_is_unknown(tmp_path: Path) -> None:
    rooms = {**HOVSG_UNTYPED_ROOMS, "0_3": ("room_3", {"0_3_0": ("lamp", 30, (200, 200, 40))})}
    scene = load_scene(import_hovsg(write_hovsg_graph(tmp_path, rooms), tmp_path / "out"))
    found = find(scene, "the kitchen")
    assert [c.code for c in found.candidates] == ["0-2", "0-3"]  # never the bedroom or the bathroom
    assert found.note == "No room here is known to be a kitchen: these are the rooms whose type I could not tell."
    assert [(u.word, u.why) for u in found.unused_words] == [("kitchen", "untyped")]
    assert find(scene, "厨房").note == "没有哪个房间能确定是厨房：这些是看不出类型的房间。"
    assert [c.code for c in find(scene, "the bedroom").candidates] == ["0-0"]  # an inferred type is a type


def test_one_room_of_unknown_type_is_named_not_taken_for_the_type_asked(tmp_path: Path) -> None:
    scene = load_scene(import_hovsg(write_hovsg_graph(tmp_path, HOVSG_UNTYPED_ROOMS), tmp_path / "out"))
    found = find(scene, "the kitchen")
    assert found.candidates == []
    assert found.message == ("No kitchen. Rooms here: bathroom, bedroom, room. I could not tell the type of room 0-2 "
                             "(it holds a chair and a plant): say 'room 0-2' if you mean it.")
    assert "看不出房间 0-2 的类型（里面有椅子和植物）" in (find(scene, "厨房").message or "")


def test_volume_of_an_inferred_room_says_the_type_was_inferred(tmp_path: Path) -> None:
    scene = load_scene(import_hovsg(write_hovsg_graph(tmp_path, HOVSG_UNTYPED_ROOMS), tmp_path / "out"))
    result = volume(scene, "0-0")
    assert result.inferred is not None and result.inferred.type == "bedroom"
    assert describe(result).startswith("Room 0-0 (which I take for a bedroom: it has a bed and a nightstand): ")
    assert describe(result, "zh").startswith("房间 0-0（我判断为卧室：里面有床、床头柜）：")
    assert volume(scene, "0-2").inferred is None and describe(volume(scene, "0-2")).startswith("Room 0-2: ")
