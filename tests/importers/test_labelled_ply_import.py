"""Labelled PLY import: per-point instance and label ids in, rooms and objects out; bad input named, nothing left."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from cli_proc import agent_env
from cli_run import run_cli
from plyfile import PlyData, PlyElement

from scene_agent.errors import ScanImportError
from scene_agent.geometry.points import Points
from scene_agent.importers.labelled_ply import import_labelled_ply
from scene_agent.scene.loader import load_scene
from scene_agent.scene.manifest import load_manifest
from scene_agent.tools.find import find
from scene_bench.labelled_room import NYU40, PARTS, LabelledRoom, labelled_room, write_label_map, write_labelled_ply

POINTS = 8000
FURNITURE = [(k, name) for k, (name, *_) in enumerate(PARTS, start=1) if name not in ("wall", "floor", "ceiling")]
CHAIRS = [k for k, name in FURNITURE if name == "chair"]


@pytest.fixture(scope="module")
def room() -> LabelledRoom:
    return labelled_room(POINTS)


def _leftovers(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir() if p.name == "out" or ".staging" in p.name)


def write_vertices(path: Path, columns: dict[str, np.ndarray]) -> Path:
    """A binary PLY whose vertex element has these columns, in this order, with their own dtypes."""
    vertex = np.empty(len(next(iter(columns.values()))), dtype=[(name, values.dtype.str) for name, values in columns.items()])
    for name, values in columns.items():
        vertex[name] = values
    PlyData([PlyElement.describe(vertex, "vertex")], text=False, byte_order="<").write(str(path))
    return path


def room_columns(room: LabelledRoom) -> dict[str, np.ndarray]:
    """The room as PLY columns: float32 x, y, z, uchar colour, int32 instance and label."""
    xyz = room.xyz.astype("<f4")
    return {"x": xyz[:, 0], "y": xyz[:, 1], "z": xyz[:, 2], "red": room.rgb[:, 0], "green": room.rgb[:, 1],
            "blue": room.rgb[:, 2], "instance": room.instance, "label": room.label}


def test_cli_imports_instances_as_objects_and_the_scene_answers(tmp_path: Path, room: LabelledRoom) -> None:
    cloud, labels = write_labelled_ply(room, tmp_path / "cloud.ply"), write_label_map(room, tmp_path / "labels.json")
    out = run_cli("import", "labelled-ply", str(cloud), "--labels", str(labels), "--out", str(tmp_path / "studio"), "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert (summary["rooms"], summary["objects"], summary["points"]) == (1, len(FURNITURE), POINTS)
    assert summary["import"]["objects_from"] == "instances" and summary["import"]["unknown_labels"] == {}
    assert summary["tiles"]["built"] is True
    assert out.stderr == "", "--json keeps progress off stderr"
    manifest = load_manifest(Path(summary["manifest"]))
    [lounge] = manifest.rooms()
    counts = room.counts()
    # one object per instance, its code keeping the instance id; walls, floor and ceiling are the room's
    assert [(o.code, o.label, o.point_count) for o in lounge.objects] == [(f"0-1-{k}", name, counts[k]) for k, name in FURNITURE]
    assert lounge.point_count == sum(counts[k] for k in range(1, 7))
    assert (lounge.code, lounge.type) == ("0-1", "bedroom")  # a room the cloud does not type, typed by its bed
    info = run_cli("scene", "info", "--scene", str(tmp_path / "studio"), "--json")
    assert info.returncode == 0, info.stderr
    found = run_cli("find", "chair", "--scene", str(tmp_path / "studio"), "--json")
    assert [c["code"] for c in json.loads(found.stdout)["candidates"]] == [f"0-1-{k}" for k in CHAIRS]


def test_cli_says_how_far_it_got_on_stderr(tmp_path: Path, room: LabelledRoom) -> None:
    cloud, labels = write_labelled_ply(room, tmp_path / "cloud.ply"), write_label_map(room, tmp_path / "labels.json")
    out = run_cli("import", "labelled-ply", str(cloud), "--labels", str(labels), "--out", str(tmp_path / "out"))
    assert out.returncode == 0, out.stderr
    steps = out.stderr.splitlines()
    assert steps[:3] == [f"Reading {cloud} …", "Finding objects: one per instance id (field 'instance') …",
                         f"Writing 1 room(s) and {len(FURNITURE)} object(s) …"]
    assert f"Read {POINTS:,} points of {cloud}" in out.stdout and f"Imported 1 room(s) and {len(FURNITURE)} object(s)" in out.stdout


def test_ask_about_the_imported_scene(tmp_path: Path, room: LabelledRoom) -> None:
    cloud, labels = write_labelled_ply(room, tmp_path / "cloud.ply"), write_label_map(room, tmp_path / "labels.json")
    import_labelled_ply(cloud, tmp_path / "out", labels)
    out = run_cli("ask", "what's the color of the sofa?", "--scene", str(tmp_path / "out"), "--json", env=agent_env(tmp_path))
    assert out.returncode == 0, out.stderr
    final = [json.loads(line) for line in out.stdout.splitlines()][-1]
    sofa = next(k for k, name in FURNITURE if name == "sofa")
    assert (final["status"], final["codes"]) == ("answered", [f"0-1-{sofa}"])
    assert "blue" in final["answer"].lower(), final["answer"]  # (70, 80, 140), shaded


def test_labels_alone_are_cut_into_the_pieces_that_touch(tmp_path: Path, room: LabelledRoom) -> None:
    cloud = write_labelled_ply(room, tmp_path / "cloud.ply", instance=False)
    path, report = import_labelled_ply(cloud, tmp_path / "out", write_label_map(room, tmp_path / "labels.json"))
    assert report.objects_from == "label parts" and report.split_voxel_m is not None
    objects = load_manifest(path).objects()
    counts = room.counts()
    # numbered 1… in file order: each piece found whole, as the instances would have it
    assert [(o.code, o.label, o.point_count) for o in objects] == [(f"0-1-{n}", name, counts[k])
                                                                   for n, (k, name) in enumerate(FURNITURE, start=1)]
    assert [c.code for c in find(load_scene(path), "chairs").candidates] == [f"0-1-{n}" for n in range(2, 6)]


TSV_HEADER = "id\traw_category\tcategory\tcount\tnyu40id\teigen13id\tnyuClass\tnyu40class\n"


def _scannet_tsv(path: Path) -> Path:
    """ScanNet's scannetv2-labels.combined.tsv style: fine ids in `id`, NYU40 ids repeated over their categories."""
    rows = [(1, "wall", "wall", 8277, 1, 12, "wall", "wall"), (2, "chair", "chair", 4646, 5, 4, "chair", "chair"),
            (3, "books", "book", 1678, 23, 2, "book", "books"), (22, "office chair", "office chair", 595, 5, 4, "chair", "chair")]
    rows += [(100 + i, name, name, 1, i, "", name, name) for name, i in NYU40.items() if name not in ("wall", "chair")]
    path.write_text(TSV_HEADER + "".join("\t".join(map(str, row)) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "write", "columns"),
    [
        ("labels.json", lambda p, names: p.write_text(json.dumps([{"id": i, "name": n, "color": [1, 2, 3]} for i, n in names.items()])),
         None),
        ("labels.txt", lambda p, names: p.write_text("".join(f"{i}\t{n}\n" for i, n in names.items())), None),
        ("labels.tsv", lambda p, names: p.write_text("id\tname\n" + "".join(f"{i}\t{n}\n" for i, n in names.items())), None),
        ("labels.tsv", lambda p, names: _scannet_tsv(p), ("nyu40id", "nyu40class")),
    ],
    ids=["json-list", "two-columns", "tsv-id-name", "scannet-tsv-nyu40"],
)
def test_label_maps(tmp_path: Path, room: LabelledRoom, name: str, write: Callable[[Path, dict[int, str]], object],
                    columns: tuple[str, str] | None) -> None:
    labels = tmp_path / name
    write(labels, room.names)
    path, report = import_labelled_ply(write_labelled_ply(room, tmp_path / "cloud.ply"), tmp_path / "out", labels, columns)
    assert [o.label for o in load_manifest(path).objects()] == [name for _, name in FURNITURE]
    assert report.unknown_labels == {}


def test_field_name_variants_float_ids_and_16_bit_colour(tmp_path: Path, room: LabelledRoom) -> None:
    """CloudCompare's `scalar_` fields are floats; r/g/b may be 16-bit; NaN is "none"."""
    columns = room_columns(room)
    instance = room.instance.astype("<f4")
    instance[room.label == NYU40["floor"]] = np.nan
    cloud = write_vertices(tmp_path / "cc.ply", {
        "X": columns["x"], "Y": columns["y"], "Z": columns["z"], "r": (room.rgb[:, 0].astype("<u2") * 257),
        "g": (room.rgb[:, 1].astype("<u2") * 257), "b": (room.rgb[:, 2].astype("<u2") * 257),
        "scalar_Instance_ID": instance, "scalar_Class": room.label.astype("<f4")})
    path, report = import_labelled_ply(cloud, tmp_path / "out", write_label_map(room, tmp_path / "labels.json"))
    assert report.fields == {"position": "X, Y, Z", "colour": "r, g, b", "instance": "scalar_Instance_ID", "label": "scalar_Class"}
    assert report.colour == "16-bit, scaled to 8-bit"
    scene = load_scene(path)
    assert [o.label for o in scene.manifest.objects()] == [name for _, name in FURNITURE]
    sofa = next(k for k, name in FURNITURE if name == "sofa")
    assert np.array_equal(scene.points(f"0-1-{sofa}").rgb, room.rgb[room.instance == sofa])  # 16-bit back to the 8-bit values


def test_rooms_from_a_region_field_and_instances_from_zero(tmp_path: Path, room: LabelledRoom) -> None:
    # instances numbered from 0 (the table), the walls, floor and ceiling of none (negative)
    table = next(k for k, name in FURNITURE if name == "table")
    region = np.where(room.xyz[:, 0] < 4.3, 0, 1).astype("<i4")
    cloud = write_vertices(tmp_path / "two.ply", room_columns(room) | {"instance": room.instance - table, "region": region})
    labels = write_label_map(room, tmp_path / "labels.json")
    path, report = import_labelled_ply(cloud, tmp_path / "out", labels, zero_is_instance=True)
    assert report.fields["room"] == "region"
    manifest = load_manifest(path)
    assert [(r.code, r.type) for r in manifest.rooms()] == [("0-0", "room"), ("0-1", "bedroom")]
    by_room = {r.code: [(o.code, o.label) for o in r.objects] for r in manifest.rooms()}
    # the bed (x 4.6…6.6) is wholly right of x = 4.3; the cabinet (3.55…4.45) mostly left: it goes there
    assert [label for _, label in by_room["0-1"]] == ["sofa", "bed", "lamp"]
    assert by_room["0-0"][:2] == [("0-0-0", "table"), ("0-0-1", "chair")] and ("0-0-10", "cabinet") in by_room["0-0"]
    # without --zero-is-instance, instance 0 is "none": the table's points are the room's
    path, _ = import_labelled_ply(cloud, tmp_path / "zero-is-none", labels)
    assert "table" not in [o.label for o in load_manifest(path).objects()]


def test_map_coordinates_are_moved_and_noise_and_points_of_no_room_left_out(tmp_path: Path, room: LabelledRoom) -> None:
    columns = room_columns(room)
    columns["x"] = (room.xyz[:, 0] + 30_000.0).astype("<f4")  # a site grid's coordinates, 30 km out
    label = room.label.copy()
    label[:25] = 99  # named "noise" below
    region = np.zeros(len(label), dtype="<i4")
    region[25:40] = -1
    cloud = write_vertices(tmp_path / "site.ply", columns | {"label": label, "room": region})
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({str(i): n for i, n in room.names.items()} | {"99": "Noise"}))
    path, report = import_labelled_ply(cloud, tmp_path / "out", labels)
    assert report.recentred_by is not None and report.recentred_by[0] == pytest.approx(30_000.0 + room.xyz[:, 0].min(), abs=0.01)
    assert (report.noise_points, report.outside_rooms) == (25, 15)
    manifest = load_manifest(path)
    assert manifest.point_total() == POINTS - 40 and manifest.rooms()[0].code == "0-0"
    assert min(manifest.rooms()[0].bounds.min) == pytest.approx(0.0, abs=1e-3)


def test_unknown_label_ids_are_objects_and_counted(tmp_path: Path, room: LabelledRoom) -> None:
    names = {i: n for i, n in room.names.items() if n != "lamp"}
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({str(i): n for i, n in names.items()}))
    out = run_cli("import", "labelled-ply", str(write_labelled_ply(room, tmp_path / "c.ply")), "--labels", str(labels),
                  "--out", str(tmp_path / "out"))
    assert out.returncode == 0, out.stderr
    lamp = next(k for k, name in FURNITURE if name == "lamp")
    assert f"{room.counts()[lamp]:,} points carry label ids the label map does not name (35): labelled \"object\"." in out.stdout
    assert load_manifest(tmp_path / "out").objects()[[k for k, _ in FURNITURE].index(lamp)].label == "object"


def _ply_with(room: LabelledRoom, path: Path, **changes: np.ndarray | None) -> Path:
    columns = room_columns(room)
    for name, values in changes.items():
        if values is None:
            columns.pop(name)
        else:
            columns[name] = values
    return write_vertices(path, columns)


def _xyz_with(room: LabelledRoom, row: int, value: float) -> np.ndarray:
    x = room.xyz[:, 0].astype("<f4")
    x[row] = value
    return x


@pytest.mark.parametrize(
    ("make", "labels", "names"),
    [
        (lambda r, p: _ply_with(r, p, instance=None, label=None), True,
         "cloud.ply: no instance or label field (looked for instance, instance_id"),
        (lambda r, p: _ply_with(r, p, instance=None, label=None), True, "the file has x, y, z, red, green, blue"),
        (lambda r, p: _ply_with(r, p, x=None), True, "cloud.ply: no field 'x' (the file has y, z, red, green, blue, instance, label)"),
        (lambda r, p: _ply_with(r, p), False, "cloud.ply: field 'label' holds label ids; name them with --labels"),
        (lambda r, p: _ply_with(r, p, label=None), True, "cloud.ply: --labels was given, but the cloud has no label field"),
        (lambda r, p: p.write_bytes(b"GARBAGE" * 50), True, "cloud.ply: corrupt or unreadable PLY"),
        (lambda r, p: p.write_bytes(_ply_with(r, p).read_bytes()[:5000]), True, "cloud.ply: corrupt or unreadable PLY"),
        (lambda r, p: None, True, "cloud.ply: missing file"),
        (lambda r, p: _ply_with(r, p, x=_xyz_with(r, 17, np.nan)), True,
         "cloud.ply: 1 point(s) have NaN or infinite coordinates (the first is point 17)"),
        (lambda r, p: _ply_with(r, p, x=_xyz_with(r, 3, 3e6)), True, "cloud.ply: the points span 3,000,000 m along x"),
        (lambda r, p: write_vertices(p, {k: v[:0] for k, v in room_columns(r).items()}), True, "cloud.ply: the cloud has no points"),
        (lambda r, p: _ply_with(r, p, label=(r.label + 0.5).astype("<f4")), True, "cloud.ply: field 'label' holds 2.5; ids are whole"),
        (lambda r, p: _ply_with(r, p, instance=r.xyz[:, 0].astype("<f4") + 0.25), True, "field 'instance' holds"),
    ],
)
def test_bad_cloud_names_the_file_and_leaves_nothing(tmp_path: Path, room: LabelledRoom, make, labels: bool, names: str) -> None:
    cloud = tmp_path / "cloud.ply"
    make(room, cloud)
    with pytest.raises(ScanImportError) as err:
        import_labelled_ply(cloud, tmp_path / "out", write_label_map(room, tmp_path / "labels.json") if labels else None)
    assert names in str(err.value)
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize(
    ("name", "text", "columns", "names"),
    [
        ("labels.json", '{"abc": "chair"}', None, "labels.json: abc.[key]: Input should be a valid integer"),
        ("labels.json", '[{"id": 3}]', None, "labels.json: 0.name: Field required"),
        ("labels.json", '{"3": ""}', None, "labels.json: label 3 has an empty name"),
        ("labels.json", '"chair"', None, "labels.json: a label map is an object"),
        ("labels.json", "{", None, "labels.json: not valid JSON at line 1"),
        ("labels.json", "{}", None, "labels.json: the label map names no labels"),
        ("labels.tsv", "id\tname\nthree\tchair\n", None, "labels.tsv: line 2: label id 'three' is not an integer"),
        ("labels.tsv", "a\tb\tc\n1\t2\t3\n", None, "labels.tsv: cannot tell the id and name columns among a, b, c"),
        ("labels.tsv", TSV_HEADER, ("nyu40id", "nyu40name"), "labels.tsv: no column 'nyu40name'; the header has id, raw_category"),
        ("labels.tsv", "1\tchair\n1\tsofa\n", None, "labels.tsv: line 2: label 1 is named 'sofa', but earlier 'chair'"),
    ],
)
def test_bad_label_map_names_the_file_and_leaves_nothing(tmp_path: Path, room: LabelledRoom, name: str, text: str,
                                                         columns: tuple[str, str] | None, names: str) -> None:
    (tmp_path / name).write_text(text)
    with pytest.raises(ScanImportError) as err:
        import_labelled_ply(write_labelled_ply(room, tmp_path / "cloud.ply"), tmp_path / "out", tmp_path / name, columns)
    assert names in str(err.value)
    assert _leftovers(tmp_path) == []


def test_cli_refuses_a_full_out_directory_and_bad_columns(tmp_path: Path, room: LabelledRoom) -> None:
    cloud, labels = write_labelled_ply(room, tmp_path / "cloud.ply"), write_label_map(room, tmp_path / "labels.json")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    out = run_cli("import", "labelled-ply", str(cloud), "--labels", str(labels), "--out", str(tmp_path / "out"), "--json")
    assert out.returncode == 1
    assert json.loads(out.stdout) == {"error": "import_failed", "message": f"{tmp_path / 'out'}: directory is not empty "
                                                                           "(choose another --out, or remove it first)"}
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["keep.txt"]
    bad = run_cli("import", "labelled-ply", str(cloud), "--labels", str(labels), "--label-columns", "nyu40id",
                  "--out", str(tmp_path / "other"))
    assert bad.returncode == 1 and "--label-columns takes two column names" in bad.stderr
    assert not (tmp_path / "other").exists()


def test_a_failure_while_writing_leaves_nothing(tmp_path: Path, room: LabelledRoom, monkeypatch: pytest.MonkeyPatch) -> None:
    from scene_agent.scene.writer import SceneWriter

    written = SceneWriter.add_points
    calls = []

    def add_points_until_the_disk_is_full(self: SceneWriter, code: str, points: Points) -> object:
        calls.append(code)
        if len(calls) == 4:
            raise OSError(28, "No space left on device")
        return written(self, code, points)

    monkeypatch.setattr(SceneWriter, "add_points", add_points_until_the_disk_is_full)
    with pytest.raises(OSError, match="No space left"):
        import_labelled_ply(write_labelled_ply(room, tmp_path / "cloud.ply"), tmp_path / "out",
                            write_label_map(room, tmp_path / "labels.json"))
    assert len(calls) == 4 and _leftovers(tmp_path) == []


def test_a_y_up_cloud_is_turned_z_up_with_up_y(tmp_path: Path, room: LabelledRoom) -> None:
    labels = write_label_map(room, tmp_path / "labels.json")
    columns = room_columns(room)
    # The same room as a graphics pipeline writes it, y up: (x, y, z) → (x, z, -y).
    y_up = columns | {"y": columns["z"], "z": -columns["y"]}
    cloud = write_vertices(tmp_path / "y-up.ply", y_up)
    out = run_cli("import", "labelled-ply", str(cloud), "--labels", str(labels), "--up", "y", "--out", str(tmp_path / "out"),
                  "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["import"]["turned"] == "y-up turned z-up: (x, y, z) → (x, -z, y)"
    turned, original = load_manifest(tmp_path / "out"), np.asarray(room.xyz, dtype=np.float32)
    bounds = turned.floors[0].rooms[0].bounds
    assert np.allclose(bounds.min, original.min(axis=0), atol=1e-4) and np.allclose(bounds.max, original.max(axis=0), atol=1e-4)
    assert turned.floors[0].elevation == pytest.approx(float(original[:, 2].min()), abs=1e-4)  # the floor is down again
    chairs = [c.code for c in find(load_scene(tmp_path / "out"), "chair").candidates]
    assert chairs == [f"0-1-{k}" for k in CHAIRS]
    refused = run_cli("import", "labelled-ply", str(cloud), "--labels", str(labels), "--up", "x", "--out", str(tmp_path / "x"))
    assert refused.returncode == 2 and "'x' is not one of 'z', 'y'" in refused.stderr, refused.stderr
