"""LAS / LAZ import: classification and instance dimensions in, rooms and objects out, at the origin; bad files named."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import laspy
import numpy as np
import pytest
from cli_proc import agent_env
from cli_run import run_cli

from scene_agent.errors import ScanImportError
from scene_agent.importers.las import import_las
from scene_agent.scene.loader import load_scene
from scene_agent.scene.manifest import load_manifest
from scene_bench.labelled_room import PARTS, LabelledRoom, labelled_room, write_label_map, write_las

POINTS = 8000
ORIGIN = (512_000.0, 5_400_000.0, 310.0)  # where write_las puts the room: UTM-like map coordinates
FURNITURE = [(k, name) for k, (name, *_) in enumerate(PARTS, start=1) if name not in ("wall", "floor", "ceiling")]


@pytest.fixture(scope="module")
def room() -> LabelledRoom:
    return labelled_room(POINTS)


def _leftovers(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir() if p.name == "out" or ".staging" in p.name)


@pytest.mark.parametrize("suffix", [".las", ".laz"])
def test_cli_imports_a_las_room_at_the_origin_and_the_scene_answers(tmp_path: Path, room: LabelledRoom, suffix: str) -> None:
    cloud, labels = write_las(room, tmp_path / f"room{suffix}"), write_label_map(room, tmp_path / "labels.json")
    out = run_cli("import", "las", str(cloud), "--labels", str(labels), "--out", str(tmp_path / "scan"), "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert (summary["rooms"], summary["objects"], summary["points"]) == (1, len(FURNITURE), POINTS)
    report = summary["import"]
    assert report["fields"]["instance"] == "instance" and report["colour"] == "16-bit, scaled to 8-bit"
    lowest = room.xyz.min(axis=0) + ORIGIN
    assert report["recentred_by"] == pytest.approx(lowest, abs=1e-3)
    manifest = load_manifest(Path(summary["manifest"]))
    counts = room.counts()
    assert [(o.code, o.label, o.point_count) for o in manifest.objects()] == [(f"0-1-{k}", name, counts[k]) for k, name in FURNITURE]
    assert manifest.rooms()[0].bounds.min == pytest.approx((0.0, 0.0, 0.0), abs=1e-3)
    sofa = next(k for k, name in FURNITURE if name == "sofa")
    scene = load_scene(Path(summary["manifest"]))
    assert np.array_equal(scene.points(f"0-1-{sofa}").rgb, room.rgb[room.instance == sofa])  # 16-bit back to 8-bit exactly
    # millimetre scale: the points are where they were, less the corner
    assert scene.points(f"0-1-{sofa}").xyz == pytest.approx(room.xyz[room.instance == sofa] - room.xyz.min(axis=0), abs=2e-3)
    info = run_cli("scene", "info", "--scene", str(tmp_path / "scan"), "--json")
    assert info.returncode == 0, info.stderr
    asked = run_cli("ask", "what's the color of the sofa?", "--scene", str(tmp_path / "scan"), "--json", env=agent_env(tmp_path))
    assert asked.returncode == 0, asked.stderr
    final = [json.loads(line) for line in asked.stdout.splitlines()][-1]
    assert (final["status"], final["codes"]) == ("answered", [f"0-1-{sofa}"])


def test_cli_progress_and_report_for_people(tmp_path: Path, room: LabelledRoom) -> None:
    cloud, labels = write_las(room, tmp_path / "room.laz"), write_label_map(room, tmp_path / "labels.json")
    out = run_cli("import", "las", str(cloud), "--labels", str(labels), "--out", str(tmp_path / "out"))
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines()[0] == f"Reading {cloud} ({POINTS:,} points; LAS 1.4, point format 7) …"
    assert "Recentred: (" in out.stdout and "was subtracted from every point" in out.stdout
    assert f"Imported 1 room(s) and {len(FURNITURE)} object(s), {POINTS:,} points" in out.stdout


def _las(path: Path, xyz: np.ndarray, classification: np.ndarray, point_format: int = 1,
         extra: dict[str, np.ndarray] | None = None, rgb: np.ndarray | None = None) -> Path:
    header = laspy.LasHeader(point_format=point_format, version="1.2" if point_format < 6 else "1.4")
    for name, values in (extra or {}).items():
        header.add_extra_dim(laspy.ExtraBytesParams(name=name, type=values.dtype))
    header.offsets, header.scales = xyz.min(axis=0) if len(xyz) else np.zeros(3), np.array([0.001, 0.001, 0.001])
    data = laspy.LasData(header)
    data.x, data.y, data.z = xyz.T
    data.classification = classification
    for name, values in (extra or {}).items():
        data[name] = values
    if rgb is not None:
        data.red, data.green, data.blue = rgb.T
    data.write(str(path))
    return path


def _forest(n_trees: int = 3, per_tree: int = 300, seed: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ground, a building wall, trees (high vegetation, treeID 1…) and a few noise points, at map coordinates."""
    rng = np.random.default_rng(seed)
    ground = np.column_stack([rng.random(2000) * 60, rng.random(2000) * 60, rng.normal(0, 0.02, 2000)])
    wall = np.column_stack([np.full(500, 50.0), rng.random(500) * 10, rng.random(500) * 6])
    directions = rng.normal(size=(n_trees, per_tree, 3))
    crowns = directions / np.linalg.norm(directions, axis=2, keepdims=True) * rng.random((n_trees, per_tree, 1)) ** (1 / 3)
    trees = [np.array([10.0 + 15 * t, 20.0, 4.0]) + crowns[t] for t in range(n_trees)]  # crowns of 1 m radius, 15 m apart
    noise = rng.random((7, 3)) * [60, 60, 40] + [0, 0, 30]
    xyz = np.concatenate([ground, wall, *trees, noise]) + np.array([700_000.0, 4_100_000.0, 250.0])
    classes = np.concatenate([np.full(2000, 2), np.full(500, 6), np.full(n_trees * per_tree, 5), np.full(7, 7)]).astype(np.uint8)
    tree_id = np.concatenate([np.zeros(2500), np.repeat(np.arange(1, n_trees + 1), per_tree), np.zeros(7)]).astype(np.int32)
    return xyz, classes, tree_id


def test_asprs_classes_and_tree_ids_without_colour(tmp_path: Path) -> None:
    xyz, classes, tree_id = _forest()
    cloud = _las(tmp_path / "forest.las", xyz, classes, extra={"treeID": tree_id})
    path, report = import_las(cloud, tmp_path / "out")
    assert report.fields["instance"] == "treeID" and report.colour == "none in the file (every point gray)"
    assert report.noise_points == 7 and "7 points labelled noise were left out." in report.notes()
    manifest = load_manifest(path)
    assert [(o.code, o.label, o.point_count) for o in manifest.objects()] == [(f"0-1-{t}", "high vegetation", 300) for t in (1, 2, 3)]
    [site] = manifest.rooms()
    assert site.point_count == 2500  # ground and building are the room's own
    assert np.all(load_scene(path).points("0-1").rgb == 128)


def test_classes_alone_are_cut_into_parts_and_8_bit_colour_is_kept(tmp_path: Path) -> None:
    xyz, classes, _ = _forest()
    rgb = np.tile(np.array([[30, 140, 40]], dtype=np.uint16), (len(xyz), 1))  # 8-bit values in the 16-bit fields
    path, report = import_las(_las(tmp_path / "forest.las", xyz, classes, point_format=3, rgb=rgb), tmp_path / "out")
    assert report.objects_from == "label parts" and report.colour == "8-bit values in 16-bit fields"
    assert [(o.label, o.point_count) for o in load_manifest(path).objects()] == [("high vegetation", 300)] * 3
    assert np.all(load_scene(path).points("0-1-1").rgb == [30, 140, 40])


def test_unknown_classes_are_objects_and_counted(tmp_path: Path) -> None:
    xyz, classes, tree_id = _forest()
    classes[2500:2800] = 200  # a user class the map does not name: tree 1
    labels = tmp_path / "classes.tsv"
    labels.write_text("2\tfloor\n5\ttree\n6\twall\n7\tnoise\n")
    cloud = _las(tmp_path / "f.laz", xyz, classes, point_format=6, extra={"treeID": tree_id})  # 8-bit classes: LAS 1.4
    path, report = import_las(cloud, tmp_path / "out", labels)
    assert report.unknown_labels == {200: 300}
    assert [o.label for o in load_manifest(path).objects()] == ["object", "tree", "tree"]


def _truncated(room: LabelledRoom, path: Path, suffix: str) -> None:
    whole = write_las(room, path.with_suffix(f".whole{suffix}"))
    path.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])


@pytest.mark.parametrize(
    ("make", "names"),
    [
        (lambda r, p: p.write_bytes(b"GARBAGE" * 100), "cloud.las: corrupt or unreadable LAS/LAZ file (Invalid file signature"),
        (lambda r, p: _truncated(r, p, ".las"), "cloud.las: corrupt or unreadable LAS/LAZ file"),
        (lambda r, p: _truncated(r, p, ".laz"), "cloud.las: corrupt or unreadable LAS/LAZ file"),
        (lambda r, p: None, "cloud.las: missing file"),
        (lambda r, p: _las(p, np.zeros((0, 3)), np.zeros(0, dtype=np.uint8)), "cloud.las: the cloud has no points"),
        (lambda r, p: _las(p, np.array([[0.0, 0, 0], [1, 1, 1], [300_000, 2, 2]]), np.full(3, 2, dtype=np.uint8)),
         "cloud.las: the points span 300,000 m along x (0 to 300000)"),
        (lambda r, p: _las(p, r.xyz, r.label.astype(np.uint8), point_format=6,
                           extra={"instance_id": (r.instance + 0.5).astype(np.float32)}),
         "cloud.las: field 'instance_id' holds 1.5; ids are whole numbers"),
    ],
)
def test_bad_file_names_itself_and_leaves_nothing(tmp_path: Path, room: LabelledRoom, make, names: str) -> None:
    cloud = tmp_path / "cloud.las"
    make(room, cloud)
    with pytest.raises(ScanImportError) as err:
        import_las(cloud, tmp_path / "out")
    assert names in str(err.value)
    assert _leftovers(tmp_path) == []


def test_cli_bad_input_is_one_line_exit_1(tmp_path: Path, room: LabelledRoom) -> None:
    cloud = write_las(room, tmp_path / "room.las")
    (tmp_path / "labels.json").write_text('{"1": "wall", "x": "chair"}')
    out = run_cli("import", "las", str(cloud), "--labels", str(tmp_path / "labels.json"), "--out", str(tmp_path / "out"))
    assert out.returncode == 1
    assert out.stderr.strip().startswith(f"error: {tmp_path / 'labels.json'}: x.[key]: Input should be a valid integer")
    assert _leftovers(tmp_path) == []


US_FOOT = 1200 / 3937
WKT_FEET = ('PROJCS["NAD83 / New York Long Island (ftUS)",GEOGCS["NAD83",DATUM["North_American_Datum_1983",SPHEROID['
            '"GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],'
            'PROJECTION["Lambert_Conformal_Conic_2SP"],PARAMETER["false_easting",984250],'
            'UNIT["US survey foot",0.304800609601219],AXIS["Easting",EAST],AXIS["Northing",NORTH]]')
WKT_DEGREES = 'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],UNIT["degree",0.0174532925199433]]'


def _in_feet(room: LabelledRoom, path: Path, vlr: laspy.VLR) -> Path:
    """The room surveyed in US survey feet (its coordinates divided by the foot), its unit stated by `vlr`."""
    feet = replace(room, xyz=room.xyz / US_FOOT)
    write_las(feet, path)
    data = laspy.read(str(path))
    data.header.vlrs.append(vlr)
    data.write(str(path))
    return path


def _geokeys(*pairs: tuple[int, int]) -> laspy.VLR:
    from laspy.vlrs.geotiff import GeoKeyEntryStruct
    from laspy.vlrs.known import GeoKeyDirectoryVlr

    vlr = GeoKeyDirectoryVlr()
    vlr.geo_keys_header.key_directory_version, vlr.geo_keys_header.number_of_keys = 1, len(pairs)
    vlr.geo_keys = []
    for key, value in pairs:
        entry = GeoKeyEntryStruct()
        entry.id, entry.tiff_tag_location, entry.count, entry.value_offset = key, 0, 1, value
        vlr.geo_keys.append(entry)
    return vlr


@pytest.mark.parametrize("stated", ["wkt", "geokeys"])
def test_a_survey_in_feet_is_imported_in_metres(tmp_path: Path, room: LabelledRoom, stated: str) -> None:
    from laspy.vlrs.known import WktCoordinateSystemVlr

    vlr = WktCoordinateSystemVlr(WKT_FEET) if stated == "wkt" else _geokeys((3076, 9003))
    cloud = _in_feet(room, tmp_path / "feet.las", vlr)
    path, report = import_las(cloud, tmp_path / "out", write_label_map(room, tmp_path / "labels.json"))
    assert report.fields["position"] == "x, y, z (scaled and offset; in US survey foot, converted to metres)"
    bounds = load_manifest(path).rooms()[0].bounds
    extent = room.xyz.max(axis=0) - room.xyz.min(axis=0)
    assert np.subtract(bounds.max, bounds.min) == pytest.approx(extent, abs=2e-3)  # metres again, not 3.28 times too big


def test_longitude_and_latitude_are_refused_by_name(tmp_path: Path, room: LabelledRoom) -> None:
    from laspy.vlrs.known import WktCoordinateSystemVlr

    cloud = _in_feet(room, tmp_path / "lonlat.las", WktCoordinateSystemVlr(WKT_DEGREES))
    with pytest.raises(ScanImportError, match=r"lonlat\.las: its coordinates are longitude and latitude in degrees"):
        import_las(cloud, tmp_path / "out")
    assert _leftovers(tmp_path) == []
