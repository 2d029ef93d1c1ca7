"""`bench grounding`: rows from Nr3D / Sr3D / ScanRefer files scored right / asks / wrong on scenes built from boxes
or imported ScanNet scans, beside the reading before and reading nouns only; malformed files named; Sr3D rows that
really hold; with --scene, find timed on a scene beside a baseline (the tables' shape, never the times)."""

from __future__ import annotations

import csv
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from cli_run import run_cli
from llm_stub import LLMStub, call, text, tool_calls
from scan_fixtures import write_studio_scan

from scene_agent.errors import SceneAgentError
from scene_agent.scene.loader import load_scene
from scene_bench.grounding.boxes import GroundBox
from scene_bench.grounding.datasets import part_of, read_dataset, sr3d_type
from scene_bench.grounding.relations import Thing
from scene_bench.grounding.run import POLICIES, run_rows
from scene_bench.grounding.scans import BoxScenes
from scene_bench.grounding.speed import DESCRIPTIONS, SETS, room_words
from scene_bench.grounding.sr3d import Layout, Sr3dRow, generate, layout_of_boxes, write_csv

DEV, HELD_OUT = "scene0001_00", "scene0003_00"  # zlib.crc32 % 5: 1 and 0
WALL = (230, 228, 220)


def _box(i: int, label: str, center: tuple[float, ...], size: tuple[float, ...], rgb: tuple[int, ...]) -> dict[str, Any]:
    return {"id": i, "label": label, "center": list(center), "size": list(size), "rgb": list(rgb)}


def room_boxes() -> list[dict[str, Any]]:
    """A 6 × 5 m room: one lamp, a red, a blue and a green chair, a desk against the north wall, eight books."""
    return [_box(0, "floor", (3, 2.5, -0.01), (6, 5, 0.02), (128, 128, 128)),
            _box(1, "wall", (3, 0, 1.3), (6, 0.1, 2.6), WALL), _box(2, "wall", (3, 5, 1.3), (6, 0.1, 2.6), WALL),
            _box(3, "wall", (0, 2.5, 1.3), (0.1, 5, 2.6), WALL), _box(4, "wall", (6, 2.5, 1.3), (0.1, 5, 2.6), WALL),
            _box(5, "lamp", (5.5, 4.5, 0.8), (0.3, 0.3, 1.6), (230, 200, 60)),
            _box(6, "chair", (1, 1, 0.45), (0.5, 0.5, 0.9), (200, 30, 30)),
            _box(7, "chair", (2.5, 1, 0.45), (0.5, 0.5, 0.9), (30, 30, 200)),
            _box(8, "chair", (4, 1, 0.45), (0.5, 0.5, 0.9), (30, 160, 30)),
            _box(9, "desk", (1.5, 4.6, 0.375), (1.4, 0.7, 0.75), (120, 80, 50)),
            *(_box(10 + k, "book", (3 + 0.3 * k, 2.5, 0.1), (0.15, 0.2, 0.2), (90, 60, 160)) for k in range(8))]


# (utterance, target id, verdict of the current reading, verdict of nouns only); reasons in brackets
NR3D = [("the lamp", 5, "right", "right"), ("the chair", 6, "asks", "asks"), ("the red chair", 6, "right", "asks"),
        ("the piano", 6, "wrong [nothing found]", "wrong [nothing found]"),
        ("the desk", 5, "wrong [another object]", "wrong [another object]"),
        ("the chair", 5, "wrong [target excluded]", "wrong [target excluded]"),
        ("the book", 10, "wrong [too many]", "wrong [too many]")]
NR3D_COLUMNS = ["stimulus_id", "utterance", "correct_guess", "scan_id", "instance_type", "target_id", "uses_spatial_lang",
                "uses_color_lang", "uses_shape_lang"]


def write_inputs(root: Path) -> dict[str, Path]:
    """A boxes file of two scans (one dev, one held out), an Nr3D CSV and a ScanRefer JSON about them."""
    root.mkdir(parents=True, exist_ok=True)
    paths = {"boxes": root / "boxes.json", "nr3d": root / "nr3d.csv", "scanrefer": root / "scanrefer.json"}
    paths["boxes"].write_text(json.dumps({DEV: room_boxes(), HELD_OUT: room_boxes()}))
    with paths["nr3d"].open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(NR3D_COLUMNS)
        for utterance, target, _, _ in NR3D:
            colour = "True" if "red" in utterance else "False"
            writer.writerow([f"{DEV}-x-3-{target}-1-2", utterance, "True", DEV, "x", target, "False", colour, "False"])
        writer.writerow([f"{HELD_OUT}-lamp-1-5-", "the lamp", "True", HELD_OUT, "lamp", 5, "False", "False", "False"])
        writer.writerow([f"{DEV}-lamp-1-5-", "the lamp", "False", DEV, "lamp", 5, "False", "False", "False"])  # missed
        writer.writerow(["scene0999_00-lamp-1-5-", "the lamp", "True", "scene0999_00", "lamp", 5, "False", "False", "False"])
        writer.writerow([f"{DEV}-chair-3-6-7-8", "facing the desk, the piano on the left", "True", DEV, "chair", 6, "True",
                         "False", "False"])  # view-dependent, and nothing found whatever the words are read as
    paths["scanrefer"].write_text(json.dumps([
        {"scene_id": DEV, "object_id": "5", "object_name": "lamp", "ann_id": "0", "description": "the lamp"},
        {"scene_id": DEV, "object_id": "7", "object_name": "chair", "ann_id": "0", "description": "the chair"}]))
    return paths


def _verdict(outcome: Any) -> str:
    return outcome.verdict + (f" [{outcome.reason}]" if outcome.reason else "")


def test_each_row_is_scored_as_predicted(tmp_path: Path) -> None:
    paths = write_inputs(tmp_path / "in")
    assert (part_of(DEV), part_of(HELD_OUT)) == ("dev", "held-out")
    rows = read_dataset("nr3d", paths["nr3d"])[: len(NR3D)]
    run = run_rows(rows, BoxScenes(paths["boxes"], tmp_path / "scenes"), POLICIES)
    got = [(r.row.text, r.row.target_id, _verdict(r.outcomes["current"]), _verdict(r.outcomes["nouns only"]))
           for r in run.results]
    assert got == NR3D
    # the reading before read colour words too: on these rows it does as well as the current one
    assert [_verdict(r.outcomes["before"]) for r in run.results] == [current for _, _, current, _ in NR3D]
    assert run.results[2].row.tags >= {"colour", "view-independent", "hard"}


def _run_json(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    result = run_cli("bench", "grounding", *args, "--json", env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _groups(report: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(g["table"], g["group"]): g for g in report["groups"]}


def test_json_report_counts_datasets_parts_and_tags(tmp_path: Path) -> None:
    paths = write_inputs(tmp_path / "in")
    keep = tmp_path / "kept"
    report = _run_json("--dataset", "nr3d", str(paths["nr3d"]), "--dataset", "scanrefer", str(paths["scanrefer"]),
                       "--boxes", str(paths["boxes"]), "--keep", str(keep))
    assert report["policies"] == ["current", "before", "nouns only"]
    assert report["rows_skipped"] == {"scan not in boxes": 1} and report["listeners_missed"] == 1
    assert [(d["dataset"], d["rows"]) for d in report["datasets"]] == [("nr3d", 11), ("scanrefer", 2)]
    groups = _groups(report)
    everything = groups[("overall", "all")]
    assert everything["n"] == 11  # 13 read, one skipped (its scan is not in the boxes), one missed by its listener
    assert groups[("overall", "nr3d, listeners missed")]["n"] == 1
    assert (groups[("part", "dev")]["n"], groups[("part", "held-out")]["n"]) == (10, 1)
    current = groups[("overall", "scanrefer")]["policies"]["current"]
    assert (current["right"], current["asks"], current["wrong"]) == (1, 1, 0)
    assert (groups[("ScanRefer tags", "unique")]["n"], groups[("ScanRefer tags", "multiple")]["n"]) == (1, 1)
    nr3d = groups[("overall", "nr3d")]["policies"]
    assert nr3d["current"]["wrong_reasons"] == {"nothing found": 2, "another object": 1, "target excluded": 1,
                                                "too many": 1, "error": 0}
    assert nr3d["current"]["right"] == 3 and nr3d["nouns only"]["right"] == 2  # the red chair, and the held-out lamp
    # before, 'facing the desk, the piano on the left' named the desk: a word it did not know (piano) was just left out
    assert nr3d["before"]["right"] == 3 and nr3d["before"]["wrong_reasons"] == {
        "nothing found": 1, "another object": 2, "target excluded": 1, "too many": 1, "error": 0}
    assert groups[("Nr3D tags", "colour")]["n"] == 1 and groups[("Nr3D tags", "view-dependent")]["n"] == 1
    assert groups[("Nr3D tags", "spatial")]["n"] == 1
    assert everything["policies"]["current"]["right_percent"] == round(100 * everything["policies"]["current"]["right"] / 11, 1)
    assert "unused_words_percent" in everything  # null until find reports the words it used
    # the scenes stay, openable, with the dataset's ids as codes
    scene = load_scene(keep / DEV / "scene.json")
    assert scene.index.objects["0-1-6"].label == "lamp" and scene.index.objects["0-1-7"].label == "chair"
    again = run_cli("bench", "grounding", "--dataset", "scanrefer", str(paths["scanrefer"]), "--boxes",
                    str(paths["boxes"]), "--keep", str(keep), "--part", "dev")
    assert again.returncode == 0, again.stderr
    assert "bench grounding: overall" in again.stdout and "nouns only" in again.stdout and "why wrong" in again.stdout
    assert "before" in again.stdout.split("why wrong")[0] and "before" in again.stdout.split("why wrong")[1]
    assert f"Scenes kept in {keep}" in again.stdout and "unused words" in again.stdout


@pytest.mark.parametrize(("kind", "content", "message"), [
    ("nr3d", "scan_id,utterance\nscene0001_00,the lamp\n", "nr3d.csv: missing column target_id"),
    ("nr3d", "scan_id,target_id,utterance\nscene0001_00,5,the lamp\nscene0001_00,five,the chair\n",
     "nr3d.csv: row 2 (line 3): target_id 'five' is not an integer"),
    ("nr3d", "scan_id,target_id,utterance,correct_guess\nscene0001_00,5,the lamp,maybe\n",
     "row 1 (line 2): correct_guess 'maybe' is not True or False"),
    ("nr3d", "", "nr3d.csv: the file is empty"),
    ("scanrefer", '[{"scene_id": "scene0001_00", "object_id": "5", "description": "the lamp"},',
     "scanrefer.json: not valid JSON at line 1"),
    ("scanrefer", '[{"scene_id": "scene0001_00", "object_id": "x5", "description": "the lamp"}]',
     "scanrefer.json: entry 0: object_id 'x5' is not an integer"),
    ("scanrefer", '[{"scene_id": "scene0001_00", "description": "the lamp"}]', "entry 0: missing object_id"),
    ("scanrefer", '{"rows": []}', "expected a JSON list"),
])
def test_malformed_files_are_named(tmp_path: Path, kind: str, content: str, message: str) -> None:
    path = tmp_path / ("nr3d.csv" if kind == "nr3d" else "scanrefer.json")
    path.write_text(content)
    with pytest.raises(SceneAgentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_dataset(kind, path)  # type: ignore[arg-type]


def test_a_malformed_file_is_one_line_before_any_scene_is_built(tmp_path: Path) -> None:
    paths = write_inputs(tmp_path / "in")
    bad = tmp_path / "bad.csv"
    bad.write_text("scan_id,target_id,utterance\nscene0001_00,5.5,the lamp\n")
    result = run_cli("bench", "grounding", "--dataset", "nr3d", str(paths["nr3d"]), "--dataset", "nr3d", str(bad),
                     "--boxes", str(paths["boxes"]), "--keep", str(tmp_path / "kept"))
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: {bad}: row 1 (line 2): target_id '5.5' is not an integer"
    assert not (tmp_path / "kept").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--dataset", "nr3d", "--boxes", "b.json"], "each --dataset KIND needs its FILE"),
    (["--dataset", "nr3d", "n.csv"], "give either --boxes BOXES.json or --scans DIR"),
    (["--dataset", "nr3d", "generate", "--boxes", "b.json"], "only Sr3D rows can be generated"),
    (["--dataset", "nr3d", "n.csv", "--boxes", "b.json", "--planner", "openai"], "--planner openai needs OPENAI_API_KEY"),
    (["--scene", "b.json", "--dataset", "nr3d", "n.csv"], "--scene times find on a scene: give it without --dataset"),
    (["--baseline-scene", "b.json"], "--baseline-scene goes with --scene"),
    (["--scene", "nowhere.json"], "no scene manifest there"),
])
def test_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "n.csv").write_text("scan_id,target_id,utterance\n")
    (tmp_path / "b.json").write_text("{}")
    result = run_cli("bench", "grounding", *[str(tmp_path / a) if a.endswith((".csv", ".json")) else a for a in args],
                     env={"OPENAI_API_KEY": ""})
    assert result.returncode == 2, result.stderr
    assert message in result.stderr


def test_scannet_scans_keep_their_object_ids(tmp_path: Path) -> None:
    scan = write_studio_scan(tmp_path / "scans")  # labels by ScanNet object id: 5 couch, 14 and 15 plants, 16 office chair
    rows = tmp_path / "nr3d.csv"
    rows.write_text("scan_id,target_id,utterance\n" + "".join(f"{scan.name},{t},{u}\n" for t, u in (
        (5, "the couch"), (14, "the plant"), (16, "the office chair"), (0, "the wall"))))
    report = _run_json("--dataset", "nr3d", str(rows), "--dataset", "sr3d", "generate", "--scans", str(tmp_path / "scans"),
                       "--keep", str(tmp_path / "kept"), "--write-sr3d", str(tmp_path / "sr3d.csv"))
    groups = _groups(report)
    current = groups[("overall", "nr3d")]["policies"]["current"]
    assert (groups[("overall", "nr3d")]["n"], current["right"], current["asks"]) == (3, 2, 1)
    assert report["rows_skipped"] == {"target not among the scan's objects": 1}  # id 0 is a wall: part of the room
    assert load_scene(tmp_path / "kept" / scan.name / "scene.json").index.objects["0-1-6"].label == "sofa"
    with (tmp_path / "sr3d.csv").open() as handle:
        assert len(list(csv.DictReader(handle))) == report["sr3d"]["generated"] > 0


def _stub_reply(chairs: list[str]) -> Any:
    def reply(body: dict[str, Any]) -> Any:
        last = body["messages"][-1]
        if last["role"] == "tool":
            return text("Here it is.")
        asked = last["content"]
        if asked == "show me the lamp":
            return tool_calls(call("visualize", {"codes": ["0-1-6"]}))
        if asked == "show me the chair":
            return tool_calls(call("visualize", {"codes": chairs, "selection_mode": True, "prompt": "Which chair?"}))
        return text("There is no piano here.")
    return reply


def test_openai_planner_answers_asks_and_misses(tmp_path: Path) -> None:
    paths = write_inputs(tmp_path / "in")
    rows = tmp_path / "rows.csv"
    rows.write_text(f"scan_id,target_id,utterance\n{DEV},5,the lamp\n{DEV},6,the chair\n{DEV},6,the piano\n")
    chairs = ["0-1-7", "0-1-8", "0-1-9"]
    with LLMStub(*[_stub_reply(chairs)] * 4) as stub:
        report = _run_json("--dataset", "nr3d", str(rows), "--boxes", str(paths["boxes"]), "--planner", "openai",
                           env={"OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": stub.base_url, "SCENE_AGENT_MODEL": "stub-model"})
        last = [r["messages"][-1] for r in stub.requests]
    assert [(m["role"], m["content"] if m["role"] == "user" else "…") for m in last] == [
        ("user", "show me the lamp"), ("tool", "…"), ("user", "show me the chair"), ("user", "show me the piano")]
    assert stub.remaining == 0  # the pick was cancelled at once: no model call after it opened
    everything = _groups(report)[("overall", "all")]
    assert report["planner"] == "openai"
    current, nouns = everything["policies"]["current"], everything["policies"]["nouns only"]
    assert (current["right"], current["asks"], current["wrong"]) == (1, 1, 1)
    assert current["wrong_reasons"]["nothing found"] == 1
    assert (nouns["right"], nouns["asks"], nouns["wrong"]) == (1, 1, 1)


# Sr3D rows written from boxes


def _random_room(rng: random.Random) -> list[GroundBox]:
    """A 6 × 5 m room with walls, unique anchors, classes of 2–4, some things on others and some hanging over them."""
    boxes = [GroundBox(0, "floor", (3, 2.5, -0.01), (6, 5, 0.02), (128, 128, 128)),
             GroundBox(1, "wall", (3, 0, 1.3), (6, 0.1, 2.6), WALL), GroundBox(2, "wall", (3, 5, 1.3), (6, 0.1, 2.6), WALL),
             GroundBox(3, "wall", (0, 2.5, 1.3), (0.1, 5, 2.6), WALL), GroundBox(4, "wall", (6, 2.5, 1.3), (0.1, 5, 2.6), WALL)]
    spots: list[tuple[float, float, float, float]] = []

    def place(label: str, size: tuple[float, float, float], against_wall: bool = False) -> GroundBox | None:
        for _ in range(50):
            x, y = rng.uniform(0.1 + size[0] / 2, 5.9 - size[0] / 2), rng.uniform(0.1 + size[1] / 2, 4.9 - size[1] / 2)
            if against_wall:
                y = 4.95 - size[1] / 2 - rng.uniform(0.0, 0.1)
            r = (x - size[0] / 2 - 0.1, y - size[1] / 2 - 0.1, x + size[0] / 2 + 0.1, y + size[1] / 2 + 0.1)
            if all(r[2] < s[0] or s[2] < r[0] or r[3] < s[1] or s[3] < r[1] for s in spots):
                spots.append(r)
                box = GroundBox(len(boxes), label, (x, y, size[2] / 2), size, (100, 100, 100))
                boxes.append(box)
                return box
        return None

    for label, size in (("bed", (1.6, 2.0, 0.6)), ("desk", (1.2, 0.6, 0.75)), ("cabinet", (0.8, 0.5, 1.0))):
        anchor = place(label, size, against_wall=rng.random() < 0.6)
        if anchor is not None and rng.random() < 0.7:
            top = anchor.center[2] + anchor.size[2] / 2
            lift = 0.0 if rng.random() < 0.6 else 0.8
            boxes.append(GroundBox(len(boxes), "cup", (anchor.center[0], anchor.center[1], top + lift + 0.06),
                                   (0.1, 0.1, 0.12), (200, 200, 200)))
    for label, size, count in (("chair", (0.5, 0.5, 0.9), rng.randint(2, 4)), ("cup", (0.1, 0.1, 0.12), 1),
                               ("stool", (0.4, 0.4, 0.5), rng.randint(2, 3)), ("lamp", (0.3, 0.3, 1.5), 2)):
        for _ in range(count):
            place(label, size)
    return boxes


def _gap(a: Thing, b: Thing) -> float:
    return math.hypot(*(max(0.0, a.lo[i] - b.hi[i], b.lo[i] - a.hi[i]) for i in range(3)))


def _holds(row: Sr3dRow, layout: Layout) -> bool:
    """The row's relation, checked again on the boxes, holds for its target and for none of the others of its label."""
    t, a, others = row.target, row.anchors[0], row.distractors
    kind = row.reference_type
    if kind in ("closest", "farthest"):
        mine, theirs = _gap(t, a), [_gap(o, a) for o in others]
        if kind == "closest":
            return all(d - mine >= 0.2 - 1e-9 for d in theirs)
        return all(mine - d >= 0.2 - 1e-9 for d in theirs)
    if kind in ("supported-by", "above", "supporting", "below"):
        def over(o: Thing) -> bool:  # more than 5 % of the smaller footprint over the other
            shared = max(0.0, min(o.hi[0], a.hi[0]) - max(o.lo[0], a.lo[0])) * max(0.0, min(o.hi[1], a.hi[1]) - max(o.lo[1], a.lo[1]))
            smaller = min((o.hi[0] - o.lo[0]) * (o.hi[1] - o.lo[1]), (a.hi[0] - a.lo[0]) * (a.hi[1] - a.lo[1]))
            return shared > 0.05 * smaller
        upward = kind in ("supported-by", "above")
        def side(o: Thing) -> bool:
            return o.lo[2] >= a.hi[2] - 0.2 if upward else o.hi[2] <= a.lo[2] + 0.2
        touching = abs(t.lo[2] - a.hi[2]) <= 0.15 if kind == "supported-by" else (
            abs(a.lo[2] - t.hi[2]) <= 0.15 if kind == "supporting" else True)
        return over(t) and side(t) and touching and not any(over(o) and side(o) for o in others)
    if kind == "between":  # most of it in the hull of the anchors' footprints, on neither; no other of it there or near
        from shapely.geometry import MultiPoint, box

        b = row.anchors[1]
        hull = MultiPoint([(x, y) for o in (a, b) for x in (o.lo[0], o.hi[0]) for y in (o.lo[1], o.hi[1])]).convex_hull
        def flat(o: Thing) -> Any:
            return box(o.lo[0], o.lo[1], o.hi[0], o.hi[1])
        def share(o: Thing, of: Any) -> float:
            return float(flat(o).intersection(of).area / flat(o).area)
        return (share(t, hull) >= 0.51 and share(t, flat(a)) <= 0.1 and share(t, flat(b)) <= 0.1
                and not any(share(o, hull) > 0.1 or _gap(o, t) < 0.3 for o in others))
    # allocentric: the anchor stands against walls on one side only; its front faces away from them
    fronts = {_front(a, w) for w in layout.walls if _near_wall(a, w)}
    assert len(fronts) == 1, f"{row.utterance}: the anchor's walls face {fronts}"
    front = fronts.pop()
    left = (front[1], -front[0])
    def coords(o: Thing) -> tuple[float, float]:
        dx, dy = o.center[0] - a.center[0], o.center[1] - a.center[1]
        return dx * front[0] + dy * front[1], dx * left[0] + dy * left[1]
    half_u = abs((a.hi[0] - a.lo[0]) * front[0] + (a.hi[1] - a.lo[1]) * front[1]) / 2
    half_w = abs((a.hi[0] - a.lo[0]) * left[0] + (a.hi[1] - a.lo[1]) * left[1]) / 2
    reach_u, reach_w = min(4 * half_u, 1.5) + 0.5, min(4 * half_w, 1.5) + 0.5  # how far the sections reach

    def where(o: Thing) -> str | None:  # by its centre: beside the anchor first, then in front of or behind it
        u, w = coords(o)
        if abs(u) <= half_u + 0.15 and half_w < abs(w) <= half_w + reach_w:
            return "left" if w > 0 else "right"
        if half_u < abs(u) <= half_u + reach_u and abs(w) <= half_w + 0.15:
            return "front" if u > 0 else "back"
        return None
    return where(t) == kind and all(where(o) != kind for o in others)


def _near_wall(a: Thing, w: tuple[float, float, float, float]) -> bool:
    """Whether a thin wall runs alongside the anchor (over half its length) at most 0.3 m away."""
    for axis in (0, 1):
        other = 1 - axis
        thin = w[2 + axis] - w[axis] <= 0.3 and w[2 + other] - w[other] >= 0.5
        alongside = min(a.hi[other], w[2 + other]) - max(a.lo[other], w[other]) >= 0.5 * (a.hi[other] - a.lo[other])
        away = max(w[axis] - a.hi[axis], a.lo[axis] - w[2 + axis])
        if thin and alongside and 0 <= away <= 0.3:
            return True
    return False


def _front(a: Thing, w: tuple[float, float, float, float]) -> tuple[float, float]:
    if w[3] - w[1] <= 0.3:
        return (0.0, 1.0 if a.center[1] > (w[1] + w[3]) / 2 else -1.0)
    return (1.0 if a.center[0] > (w[0] + w[2]) / 2 else -1.0, 0.0)


def test_generated_sr3d_rows_hold_and_single_the_target_out(tmp_path: Path) -> None:
    rng = random.Random(7)
    scans = {f"scene{n:04d}_00": _random_room(rng) for n in range(40)}
    kinds: set[str] = set()
    sentences: set[str] = set()
    made = []
    for scan, boxes in scans.items():
        layout = layout_of_boxes(scan, boxes)
        rows = generate(layout)
        assert [r.record() for r in rows] == [r.record() for r in generate(layout_of_boxes(scan, boxes))]  # deterministic
        for row in rows:
            assert _holds(row, layout), row.record()
            labels = [t.label for t in layout.things]
            assert 2 <= labels.count(row.target.label) <= 6 and all(labels.count(a.label) == 1 for a in row.anchors)
            assert row.target.label in row.utterance and all(a.label in row.utterance for a in row.anchors)
            assert sr3d_type("", "", row.utterance)[0] == row.reference_type, row.utterance  # its words say its type
            kinds.add(row.reference_type)
            sentences.add(row.utterance.split(" the ")[0])
        made += rows
    assert kinds >= {"closest", "farthest", "between", "supported-by", "above", "front", "left", "right"}
    assert len(sentences) >= 6, sentences  # several paraphrases, not one wording
    path = tmp_path / "sr3d.csv"
    assert write_csv(made, path) == len(made)
    back = read_dataset("sr3d", path)
    assert [(r.scan_id, r.target_id, r.text, r.fine_type) for r in back] == [
        (r.scan_id, r.target.id, r.utterance, r.reference_type) for r in made]


def test_the_reading_before_keeps_its_own_words(tmp_path: Path) -> None:
    """A frozen copy: 'mug' was no word for a cup then; 'closest' kept all within half the nearest gap."""
    boxes = tmp_path / "boxes.json"
    boxes.write_text(json.dumps({DEV: [*room_boxes(), _box(30, "cup", (1.5, 4.6, 0.8), (0.08, 0.08, 0.1), (240, 240, 240))]}))
    scene = load_scene(BoxScenes(boxes, tmp_path / "scenes").manifest(DEV))
    before, current = POLICIES["before"], POLICIES["current"]
    assert current(scene, "the mug") == ["0-1-31"] and before(scene, "the mug") == []
    assert before(scene, "the cup on the desk") == ["0-1-31"] and before(scene, "the red chair") == ["0-1-7"]
    assert before(scene, "the chair closest to the lamp") == ["0-1-8", "0-1-9"]  # within half the nearest gap: tied
    with pytest.raises(SceneAgentError):
        before(scene, "x" * 501)  # find took at most 500 characters then


def _speed_json(scene: Path, *extra: str) -> dict[str, Any]:
    return _run_json("--scene", str(scene), "--baseline-scene", str(scene), "--repeats", "2", *extra)


def test_speed_tables_have_every_description_on_both_scenes(tmp_path: Path) -> None:
    paths = write_inputs(tmp_path / "in")
    manifest = BoxScenes(paths["boxes"], tmp_path / "scenes").manifest(DEV)
    report = _speed_json(manifest)
    assert report["goal_ratio"] == 1.5 and report["repeats"] == 2
    assert report["baseline"]["scene_id"] == report["scene"]["scene_id"] and report["scene"]["objects"] == 13
    assert [(d["set"], d["construct"], d["template"]) for d in report["descriptions"]] == list(DESCRIPTIONS)
    for described in report["descriptions"]:
        for side in ("baseline", "scene"):
            timing = described[side]
            assert set(timing) == {"text", "candidates", "first_ms", "median_ms", "p90_ms"}
            assert timing["median_ms"] <= timing["p90_ms"] and "{" not in timing["text"]
    assert [row["set"] for row in report["summary"]] == [*SETS, "all"]
    assert [row["descriptions"] for row in report["summary"]] == [7, 7, 14]
    assert {"ratio_median", "ratio_p90", "goal_met", "scene_p90_ms"} <= set(report["summary"][0])
    shown = run_cli("bench", "grounding", "--scene", str(manifest), "--baseline-scene", str(manifest), "--repeats", "1",
                    env={"COLUMNS": "200"})
    assert shown.returncode == 0, shown.stderr
    assert "ms per description" in shown.stdout and "the chair opposite the red chair" in shown.stdout
    assert "per set" in shown.stdout and "whole building" in shown.stdout and "goal" in shown.stdout


def test_rooms_named_by_group_are_named_with_it(tmp_path: Path) -> None:
    from scene_bench.scene import synthetic_manifest

    manifest = synthetic_manifest(60, objects_per_room=5)
    for floor in manifest["floors"]:
        for room in floor["rooms"]:
            room["name"] = f"{room['type'].replace('_', ' ').capitalize()}, flat {room['code']}"
    (tmp_path / "scene.json").write_text(json.dumps(manifest))
    scene = load_scene(tmp_path / "scene.json")
    first_kitchen = scene.index.rooms_by_type["kitchen"][0].room.code
    assert room_words(scene, "kitchen") == f"the kitchen of flat {first_kitchen}"
    assert room_words(scene, "garage") == "the garage"  # none of that type: the words still name one
