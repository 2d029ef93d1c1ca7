"""Write small but real ScanNet scans and HOV-SG graph folders for importer tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from plyfile import PlyData, PlyElement

SCANNET_VERTEX = [("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1"), ("alpha", "u1")]

# segment id -> (number of vertices, rgb); groups refer to segments
SCAN_SEGMENTS = {10: (300, (200, 200, 200)), 11: (200, (150, 120, 90)), 20: (120, (220, 30, 30)), 21: (80, (20, 20, 20)),
                 30: (150, (40, 40, 200)), 40: (50, (0, 255, 0))}
SCAN_GROUPS = [(0, "wall", [10]), (1, "floor", [11]), (2, "chair", [20, 21]), (3, "Couch", [30]), (4, "lamp", [])]
# segment 40 belongs to no group: its vertices go to the room's points


def write_ply(path: Path, vertex: np.ndarray, faces: int = 0) -> None:
    """A binary PLY with a vertex element and, optionally, a face element after it."""
    elements = [PlyElement.describe(vertex, "vertex")]
    if faces:
        face = np.empty(faces, dtype=[("vertex_indices", "i4", (3,))])
        face["vertex_indices"] = np.arange(faces * 3).reshape(faces, 3) % len(vertex)
        elements.append(PlyElement.describe(face, "face"))
    PlyData(elements, text=False, byte_order="<").write(str(path))


def write_scannet_scan(root: Path, scan: str, scene_type: str = "Living room / Lounge", shift: float = 0.0,
                       alignment: list[float] | None = None,
                       groups: list[tuple[int, str, list[int]]] = SCAN_GROUPS) -> Path:
    """One scan directory with PLY (+ faces and alpha), segs, aggregation and txt."""
    rng = np.random.default_rng(len(scan) + int(shift * 10))
    directory = root / scan
    directory.mkdir(parents=True)
    seg_of_vertex, chunks = [], []
    for seg, (count, rgb) in SCAN_SEGMENTS.items():
        xyz = rng.random((count, 3)) * [4.0, 3.0, 2.5] + [shift, 0.0, 0.0]
        chunk = np.empty(count, dtype=SCANNET_VERTEX)
        chunk["x"], chunk["y"], chunk["z"] = xyz.T
        chunk["red"], chunk["green"], chunk["blue"] = rgb
        chunk["alpha"] = 255
        chunks.append(chunk)
        seg_of_vertex += [seg] * count
    write_ply(directory / f"{scan}_vh_clean_2.ply", np.concatenate(chunks), faces=40)
    segs = {"params": {}, "sceneId": scan, "segIndices": seg_of_vertex}
    (directory / f"{scan}_vh_clean_2.0.010000.segs.json").write_text(json.dumps(segs))
    seg_groups = [{"id": gid, "objectId": gid, "label": label, "segments": segs} for gid, label, segs in groups]
    (directory / f"{scan}.aggregation.json").write_text(json.dumps({"sceneId": scan, "segGroups": seg_groups}))
    lines = [f"sceneType = {scene_type}", "colorHeight = 968"]
    if alignment:
        lines.insert(0, "axisAlignment = " + " ".join(str(v) for v in alignment))
    (directory / f"{scan}.txt").write_text("\n".join(lines) + "\n")
    return directory


def _points_ply(path: Path, count: int, rgb: tuple[int, int, int], origin: tuple[float, float, float]) -> None:
    rng = np.random.default_rng(count)
    vertex = np.empty(count, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])
    xyz = rng.random((count, 3)) + np.array(origin)
    vertex["x"], vertex["y"], vertex["z"] = xyz.T
    vertex["red"], vertex["green"], vertex["blue"] = rgb
    write_ply(path, vertex)


# room stem -> name, objects: stem -> (name, count, rgb)
HOVSG_ROOMS = {
    "0_0": ("living room", {"0_0_0": ("couch", 90, (90, 90, 90)), "0_0_1": ("armchair", 60, (150, 40, 40))}),
    "0_1": ("kitchen", {"0_1_0": ("chair", 50, (200, 30, 30)), "0_1_1": ("chairs", 40, (30, 30, 200)),
                        "0_1_2": ("fridge", 70, (240, 240, 240))}),
}


# As HOV-SG writes a graph when its room-classification step did not run: every room "room_<n>".
HOVSG_UNTYPED_ROOMS = {
    "0_0": ("room_0", {"0_0_0": ("bed", 120, (200, 190, 170)), "0_0_1": ("nightstand", 30, (120, 80, 50)),
                       "0_0_2": ("desk", 40, (150, 110, 70))}),
    "0_1": ("room_1", {"0_1_0": ("toilet", 40, (245, 245, 245)), "0_1_1": ("sink", 30, (240, 240, 240))}),
    "0_2": ("room_2", {"0_2_0": ("chair", 40, (30, 30, 200)), "0_2_1": ("potted plant", 30, (40, 140, 40))}),
}


def write_hovsg_graph(root: Path, rooms: dict[str, tuple[str, dict[str, tuple[str, int, tuple[int, int, int]]]]] = HOVSG_ROOMS
                      ) -> Path:
    """A graph folder (1 floor, `rooms` with their objects), with the other fields HOV-SG's Room.save writes (which
    the importer ignores)."""
    graph = root / "graph"
    for sub in ("floors", "rooms", "objects"):
        (graph / sub).mkdir(parents=True)
    (graph / "floors" / "0.json").write_text(json.dumps({"floor_id": "0", "name": "floor_0", "rooms": list(rooms)}))
    _points_ply(graph / "floors" / "0.ply", 30, (128, 128, 128), (0, 0, 0))
    for r, (stem, (name, objects)) in enumerate(rooms.items()):
        room_json = {"room_id": stem, "name": name, "floor_id": "0", "centroid": [r * 5.0 + 0.5, 1.2, 0.5],
                     "objects": list(objects), "vertices": [[r * 5.0, 0.0], [r * 5.0 + 1, 1.0]], "room_height": 2.6,
                     "room_zero_level": 0.0, "embeddings": [[0.1] * 8], "represent_images": [], "embedding": [0.1] * 8}
        (graph / "rooms" / f"{stem}.json").write_text(json.dumps(room_json))
        _points_ply(graph / "rooms" / f"{stem}.ply", 200 + r, (210, 200, 190), (r * 5.0, 0, 0))
        for o_stem, (o_name, count, rgb) in objects.items():
            obj_json = {"object_id": o_stem, "room_id": stem, "name": o_name, "vertices": [[0, 0, 0]], "clip_feat": [0.2] * 8}
            (graph / "objects" / f"{o_stem}.json").write_text(json.dumps(obj_json))
            _points_ply(graph / "objects" / f"{o_stem}.ply", count, rgb, (r * 5.0 + 1, 1, 0))
    return graph


# A one-room studio as ScanNet labels it (raw category names): label, box min, box max, rgb. Metres, z up.
STUDIO = [
    ("wall", (0.0, 0.0, 0.0), (6.0, 0.05, 2.6), (230, 228, 220)), ("wall", (0.0, 4.95, 0.0), (6.0, 5.0, 2.6), (230, 228, 220)),
    ("wall", (0.0, 0.0, 0.0), (0.05, 5.0, 2.6), (230, 228, 220)), ("wall", (5.95, 0.0, 0.0), (6.0, 5.0, 2.6), (230, 228, 220)),
    ("floor", (0.0, 0.0, -0.01), (6.0, 5.0, 0.0), (150, 110, 70)),
    ("couch", (0.5, 3.8, 0.0), (2.7, 4.75, 0.85), (70, 80, 140)),
    ("trashcan", (2.85, 4.4, 0.0), (3.15, 4.7, 0.45), (40, 40, 40)),
    ("trash can", (5.5, 0.2, 0.0), (5.8, 0.5, 0.6), (200, 200, 200)),
    ("coffee table", (1.1, 2.6, 0.0), (2.1, 3.2, 0.45), (120, 80, 50)),
    ("tv", (1.0, 0.06, 0.6), (2.2, 0.14, 1.3), (20, 20, 25)),
    ("window", (4.0, 4.94, 0.9), (5.4, 5.0, 2.2), (235, 235, 240)),
    ("door", (0.06, 1.0, 0.0), (0.1, 1.9, 2.05), (160, 120, 80)),
    ("kitchen cabinets", (3.5, 0.06, 0.0), (5.3, 0.66, 0.9), (240, 240, 235)),
    ("kitchen cabinets", (3.5, 0.06, 1.5), (5.3, 0.41, 2.2), (240, 240, 235)),
    ("plant", (4.5, 4.4, 0.0), (4.9, 4.8, 1.1), (50, 130, 50)),
    ("plant", (0.2, 0.2, 0.0), (0.6, 0.6, 0.9), (60, 140, 60)),
    ("office chair", (5.0, 2.2, 0.0), (5.6, 2.8, 1.0), (30, 30, 30)),
    ("desk", (5.3, 1.9, 0.0), (5.95, 3.1, 0.75), (200, 170, 120)),
]


def write_studio_scan(root: Path, scan: str = "scene0999_00", points_per_m2: float = 900.0) -> Path:
    """A realistic studio scan: each labelled thing sampled on its box's surface, one segment and group per thing."""
    rng = np.random.default_rng(99)
    directory = root / scan
    directory.mkdir(parents=True)
    chunks, seg_of_vertex, groups = [], [], []
    for number, (label, lo, hi) in enumerate((label, np.array(lo), np.array(hi)) for label, lo, hi, _ in STUDIO):
        size = hi - lo
        area = 2 * (size[0] * size[1] + size[0] * size[2] + size[1] * size[2])
        count = max(200, int(area * points_per_m2))
        face = rng.integers(0, 6, count)
        xyz = lo + rng.random((count, 3)) * size
        axis, side = face // 2, face % 2
        xyz[np.arange(count), axis] = np.where(side == 0, lo[axis], hi[axis])
        xyz += rng.normal(0.0, 0.002, xyz.shape)
        chunk = np.empty(count, dtype=SCANNET_VERTEX)
        chunk["x"], chunk["y"], chunk["z"] = xyz.T
        rgb = np.clip(np.array(STUDIO[number][3]) * rng.uniform(0.85, 1.0, (count, 1)), 0, 255)
        chunk["red"], chunk["green"], chunk["blue"] = rgb.T.astype(np.uint8)
        chunk["alpha"] = 255
        chunks.append(chunk)
        seg_of_vertex += [100 + number] * count
        groups.append({"id": number, "objectId": number, "label": label, "segments": [100 + number]})
    write_ply(directory / f"{scan}_vh_clean_2.ply", np.concatenate(chunks), faces=60)
    (directory / f"{scan}_vh_clean_2.0.010000.segs.json").write_text(json.dumps({"sceneId": scan, "segIndices": seg_of_vertex}))
    (directory / f"{scan}.aggregation.json").write_text(json.dumps({"sceneId": scan, "segGroups": groups}))
    (directory / f"{scan}.txt").write_text("sceneType = Apartment\ncolorHeight = 968\n")
    return directory
