"""A synthetic labelled room (walls, floor, ceiling and furniture, each a box's surface, shaded as the demo's are),
written in the format of each importer: a ScanNet scan, a HOV-SG graph, a labelled PLY with its label map, LAS, LAZ.

`bench import` times the importers on one such room of millions of points (`python -m scene_bench.labelled_room ROOT
N` writes them all, in a process of its own); the importer tests use it at a few thousand. Label ids are NYU40's
(ScanNet's `nyu40id`), instance ids number the parts from 1; the furniture of one label stands at least 0.6 m apart,
so that cutting a label's points into the parts that touch finds each piece.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from plyfile import PlyData, PlyElement

from scene_agent.demo.palette import RGB
from scene_agent.demo.surfaces import Box, shade, split_count

NYU40 = {"wall": 1, "floor": 2, "cabinet": 3, "bed": 4, "chair": 5, "sofa": 6, "table": 7, "bookshelf": 10, "ceiling": 22,
         "television": 25, "lamp": 35}
W, D, H = 7.0, 5.0, 2.6  # the room, metres

# label, centre, size, colour
PARTS: tuple[tuple[str, tuple[float, float, float], tuple[float, float, float], RGB], ...] = (
    ("floor", (W / 2, D / 2, -0.01), (W, D, 0.02), (150, 110, 70)),
    ("ceiling", (W / 2, D / 2, H + 0.01), (W, D, 0.02), (235, 235, 230)),
    ("wall", (W / 2, -0.05, H / 2), (W, 0.1, H), (225, 220, 205)),
    ("wall", (W / 2, D + 0.05, H / 2), (W, 0.1, H), (225, 220, 205)),
    ("wall", (-0.05, D / 2, H / 2), (0.1, D, H), (200, 210, 220)),
    ("wall", (W + 0.05, D / 2, H / 2), (0.1, D, H), (200, 210, 220)),
    ("table", (2.0, 2.5, 0.375), (1.4, 0.8, 0.75), (120, 80, 50)),
    ("chair", (2.0, 1.65, 0.45), (0.45, 0.45, 0.9), (200, 40, 40)),
    ("chair", (2.0, 3.35, 0.45), (0.45, 0.45, 0.9), (200, 40, 40)),
    ("chair", (0.85, 2.5, 0.45), (0.45, 0.45, 0.9), (40, 60, 180)),
    ("chair", (3.15, 2.5, 0.45), (0.45, 0.45, 0.9), (40, 60, 180)),
    ("sofa", (5.6, 4.3, 0.42), (2.0, 0.9, 0.84), (70, 80, 140)),
    ("bed", (5.6, 1.3, 0.3), (2.0, 1.6, 0.6), (220, 210, 190)),
    ("lamp", (6.7, 2.8, 0.8), (0.3, 0.3, 1.6), (240, 220, 120)),
    ("bookshelf", (0.3, 4.6, 1.0), (0.5, 0.35, 2.0), (140, 100, 60)),
    ("television", (3.5, 4.9, 1.2), (1.2, 0.08, 0.7), (20, 20, 25)),
    ("cabinet", (4.0, 0.3, 0.45), (0.9, 0.5, 0.9), (240, 240, 235)),
)


@dataclass(frozen=True)
class LabelledRoom:
    """The room's points, with each point's NYU40 label id and instance id (its part's number, from 1)."""

    xyz: np.ndarray  # float64 N×3, z up, metres
    rgb: np.ndarray  # uint8 N×3
    label: np.ndarray  # int32
    instance: np.ndarray  # int32
    names: dict[int, str]  # label id → name

    def counts(self) -> dict[int, int]:
        """Points per instance."""
        ids, counts = np.unique(self.instance, return_counts=True)
        return {int(i): int(c) for i, c in zip(ids, counts, strict=True)}


def labelled_room(n: int, seed: int = 0) -> LabelledRoom:
    """n points over the room's parts, each part's share its surface area."""
    rng = np.random.default_rng(seed)
    boxes = [Box(center, size, rgb) for _, center, size, rgb in PARTS]
    counts = split_count(n, np.array([box.area() for box in boxes]))
    xyz, rgb, label, instance = [], [], [], []
    for number, ((name, _, _, color), box, count) in enumerate(zip(PARTS, boxes, counts, strict=True), start=1):
        points, normals = box.sample(int(count), rng)
        xyz.append(points)
        rgb.append(shade(normals, np.broadcast_to(np.array(color, dtype=float), points.shape), rng))
        label.append(np.full(int(count), NYU40[name], dtype=np.int32))
        instance.append(np.full(int(count), number, dtype=np.int32))
    return LabelledRoom(xyz=np.concatenate(xyz), rgb=np.concatenate(rgb).astype(np.uint8), label=np.concatenate(label),
                        instance=np.concatenate(instance), names={i: name for name, i in NYU40.items()})


def write_labelled_ply(room: LabelledRoom, path: Path, instance: bool = True, label: bool = True) -> Path:
    """A binary PLY: x, y, z, red, green, blue, and `instance` and `label` (int32) as asked."""
    dtype = [("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")]
    dtype += [("instance", "<i4")] * instance + [("label", "<i4")] * label
    vertex = np.empty(len(room.xyz), dtype=dtype)
    vertex["x"], vertex["y"], vertex["z"] = room.xyz.T
    vertex["red"], vertex["green"], vertex["blue"] = room.rgb.T
    if instance:
        vertex["instance"] = room.instance
    if label:
        vertex["label"] = room.label
    PlyData([PlyElement.describe(vertex, "vertex")], text=False, byte_order="<").write(str(path))
    return path


def write_label_map(room: LabelledRoom, path: Path) -> Path:
    """The label map as JSON, {"5": "chair", …}."""
    path.write_text(json.dumps({str(i): name for i, name in sorted(room.names.items())}), encoding="utf-8")
    return path


def write_las(room: LabelledRoom, path: Path, origin: tuple[float, float, float] = (512_000.0, 5_400_000.0, 310.0)) -> Path:
    """LAS 1.4, point format 7 (16-bit colour), classification = label id, an `instance` dimension; at map
    coordinates (UTM-like `origin`), millimetre scale. A .laz path is compressed (lazrs)."""
    import laspy

    header = laspy.LasHeader(point_format=7, version="1.4")
    header.add_extra_dim(laspy.ExtraBytesParams(name="instance", type=np.int32))
    header.offsets, header.scales = np.array(origin), np.array([0.001, 0.001, 0.001])
    data = laspy.LasData(header)
    data.x, data.y, data.z = (room.xyz + np.array(origin)).T
    data.red, data.green, data.blue = (room.rgb.astype(np.uint16) * 257).T
    data.classification = room.label.astype(np.uint8)
    data.instance = room.instance
    data.write(str(path))
    return path


def write_scannet_scan(room: LabelledRoom, root: Path, scan: str = "scene0000_00") -> Path:
    """A ScanNet scan directory: one segment and one segment group per part (its instance id)."""
    directory = root / scan
    directory.mkdir(parents=True)
    vertex = np.empty(len(room.xyz), dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"),
                                            ("blue", "u1"), ("alpha", "u1")])
    vertex["x"], vertex["y"], vertex["z"] = room.xyz.T
    vertex["red"], vertex["green"], vertex["blue"] = room.rgb.T
    vertex["alpha"] = 255
    PlyData([PlyElement.describe(vertex, "vertex")], text=False, byte_order="<").write(str(directory / f"{scan}_vh_clean_2.ply"))
    segs = {"sceneId": scan, "segIndices": room.instance.tolist()}
    (directory / f"{scan}_vh_clean_2.0.010000.segs.json").write_text(json.dumps(segs))
    groups = [{"id": k - 1, "objectId": k - 1, "label": PARTS[k - 1][0], "segments": [k]} for k in room.counts()]
    (directory / f"{scan}.aggregation.json").write_text(json.dumps({"sceneId": scan, "segGroups": groups}))
    (directory / f"{scan}.txt").write_text("sceneType = Apartment\n")
    return directory


def write_hovsg_graph(room: LabelledRoom, root: Path) -> Path:
    """A HOV-SG graph folder: the structure as room 0_0 and each piece of furniture as an object, y up as HOV-SG
    writes them."""
    graph = root / "graph"
    for sub in ("floors", "rooms", "objects"):
        (graph / sub).mkdir(parents=True)
    y_up = np.column_stack([room.xyz[:, 0], room.xyz[:, 2], -room.xyz[:, 1]])  # the inverse of importers/hovsg.py's turn
    structure = np.isin(room.label, [NYU40["wall"], NYU40["floor"], NYU40["ceiling"]])
    objects = [k for k in room.counts() if PARTS[k - 1][0] not in ("wall", "floor", "ceiling")]
    (graph / "floors" / "0.json").write_text(json.dumps({"floor_id": "0", "name": "floor_0", "rooms": ["0_0"]}))
    (graph / "rooms" / "0_0.json").write_text(json.dumps({"room_id": "0_0", "name": "room_0", "floor_id": "0",
                                                          "objects": [f"0_0_{k}" for k in objects]}))
    _write_points(graph / "rooms" / "0_0.ply", y_up[structure], room.rgb[structure])
    for k in objects:
        mine = room.instance == k
        (graph / "objects" / f"0_0_{k}.json").write_text(json.dumps({"object_id": f"0_0_{k}", "room_id": "0_0",
                                                                     "name": PARTS[k - 1][0]}))
        _write_points(graph / "objects" / f"0_0_{k}.ply", y_up[mine], room.rgb[mine])
    return graph


def _write_points(path: Path, xyz: np.ndarray, rgb: np.ndarray) -> None:
    vertex = np.empty(len(xyz), dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])
    vertex["x"], vertex["y"], vertex["z"] = xyz.T
    vertex["red"], vertex["green"], vertex["blue"] = rgb.T
    PlyData([PlyElement.describe(vertex, "vertex")], text=False, byte_order="<").write(str(path))


def write_every_format(points: int, root: Path) -> dict[str, list[Path]]:
    """One room of `points` written for every importer: importer → its arguments (input, then the label map)."""
    room = labelled_room(points)
    labels = write_label_map(room, root / "labels.json")
    return {
        "scannet": [write_scannet_scan(room, root / "scannet")],
        "hovsg": [write_hovsg_graph(room, root / "hovsg")],
        "labelled-ply": [write_labelled_ply(room, root / "cloud.ply"), labels],
        "labelled-ply-labels": [write_labelled_ply(room, root / "labels-only.ply", instance=False), labels],
        "las": [write_las(room, root / "cloud.las"), labels],
        "laz": [write_las(room, root / "cloud.laz"), labels],
    }


if __name__ == "__main__":
    written = write_every_format(int(sys.argv[2]), Path(sys.argv[1]))
    print(json.dumps({kind: [str(p) for p in paths] for kind, paths in written.items()}))
