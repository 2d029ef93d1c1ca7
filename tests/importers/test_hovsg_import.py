"""HOV-SG import: graph folders with ids joined by '_' become our codes joined by '-'."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scan_fixtures import write_hovsg_graph

from scene_agent.errors import ScanImportError
from scene_agent.importers import import_hovsg
from scene_agent.manifest import load_manifest
from scene_agent.scene import load_scene
from scene_agent.tools.find import find


def test_graph_becomes_scene(tmp_path: Path) -> None:
    path = import_hovsg(write_hovsg_graph(tmp_path), tmp_path / "out")
    manifest = load_manifest(path)
    [floor] = manifest.floors
    assert (floor.code, floor.name) == ("0", "floor_0")
    assert [(r.code, r.type, r.name) for r in floor.rooms] == [("0-0", "living_room", "living room"), ("0-1", "kitchen", "kitchen")]
    assert [(o.code, o.label, o.point_count) for o in manifest.objects()] == [
        ("0-0-0", "sofa", 90), ("0-0-1", "armchair", 60), ("0-1-0", "chair", 50), ("0-1-1", "chair", 40), ("0-1-2", "refrigerator", 70)]
    scene = load_scene(path)
    assert [c.code for c in find(scene.index, "chairs in the kitchen").candidates] == ["0-1-0", "0-1-1"]
    assert len(scene.points("0-0")) == 200


def _edit(path: Path, **changes) -> None:
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("breakage", "names"),
    [
        (lambda g: (g / "objects" / "0_1_2.ply").unlink(), "objects/0_1_2.ply: missing file"),
        (lambda g: _edit(g / "objects" / "0_1_2.json", room_id="0_7"), "objects/0_1_2.json: refers to room 0-7, which the graph does not have"),
        (lambda g: _edit(g / "rooms" / "0_1.json", floor_id="3"), "rooms/0_1.json: refers to floor 3"),
        (lambda g: (g / "rooms" / "0_0.json").write_text("[1, 2"), "rooms/0_0.json: not valid JSON"),
        (lambda g: _edit(g / "objects" / "0_0_1.json", name=None), "objects/0_0_1.json: field 'name' should be str"),
        (lambda g: (g / "objects" / "0_0_1.ply").write_bytes(b"ply\nformat binary_little_endian 1.0\nelement vertex 50\n"
                                                            b"property float x\nproperty float y\nproperty float z\nend_header\n\x00"),
         "objects/0_0_1.ply: corrupt or unreadable PLY"),
        (lambda g: (g / "objects" / "chair.json").write_text("{}"), "objects/chair.json: file name should be <floor>_<room>_<object>.json"),
        (lambda g: [p.unlink() for p in (g / "floors").iterdir()], "floors: no floor .json files"),
        (lambda g: (g / "rooms").rename(g / "rooms-old"), "rooms: HOV-SG rooms folder not found"),
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
