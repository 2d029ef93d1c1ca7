"""Descriptions resolved in a room built from boxes, through the real `find`: relations by contrast, facts that
hold or not, sides from a viewpoint (the words' or the viewer's), ranks, exclusions, and words set aside, said so."""

from __future__ import annotations

from pathlib import Path

import pytest

from scene_agent.resolution.viewpoint import Viewpoint
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.tools.find import find
from scene_bench.grounding.boxes import GroundBox, build_scene, object_code

GREY, RED, WHITE, BROWN, BLUE = (128, 128, 128), (200, 30, 30), (235, 235, 235), (110, 70, 40), (40, 60, 200)


def box(i: int, label: str, x: float, y: float, w: float, d: float, h: float, rgb: tuple[int, int, int] = GREY,
        z: float = 0.0) -> GroundBox:
    """A box standing at (x, y) (its middle), w × d wide and deep, h tall, its bottom at z."""
    return GroundBox(id=i, label=label, center=(x, y, z + h / 2), size=(w, d, h), rgb=rgb)


def walls(first: int, width: float, depth: float) -> list[GroundBox]:
    """Four walls and a floor around a width × depth room whose corner is the origin."""
    t = 0.1
    return [box(first, "wall", width / 2, -t / 2, width, t, 2.5), box(first + 1, "wall", width / 2, depth + t / 2, width, t, 2.5),
            box(first + 2, "wall", -t / 2, depth / 2, t, depth, 2.5), box(first + 3, "wall", width + t / 2, depth / 2, t, depth, 2.5),
            box(first + 4, "floor", width / 2, depth / 2, width, depth, 0.02, z=-0.02)]


# A 6 × 5 m room. Doors on the south wall (y ≈ 0) at x = 0.6, 3 and 5.4; a suitcase 3 m from the middle door and
# farther from the others; a bed against the north wall, its head at the wall, a nightstand each side; a table in
# the middle with a red chair west of it and a white one east of it; a rug under the table; a lamp on the left
# nightstand; a box on the floor in the south-west corner; a picture on the wall above the bed.
ROOM = [
    box(0, "door", 0.6, 0.05, 0.9, 0.1, 2.0, BROWN), box(1, "door", 3.0, 0.05, 0.9, 0.1, 2.0, BROWN),
    box(2, "door", 5.4, 0.05, 0.9, 0.1, 2.0, WHITE), box(3, "suitcase", 3.0, 3.2, 0.5, 0.3, 0.7, BLUE),
    box(4, "bed", 3.0, 4.0, 1.6, 2.0, 0.6, WHITE), box(5, "nightstand", 1.8, 4.75, 0.5, 0.4, 0.5, BROWN),
    box(6, "nightstand", 4.2, 4.75, 0.5, 0.4, 0.5, BROWN), box(7, "table", 3.0, 1.6, 1.2, 0.8, 0.75, BROWN),
    box(8, "chair", 2.0, 1.6, 0.5, 0.5, 0.9, RED), box(9, "chair", 4.0, 1.6, 0.5, 0.5, 0.9, WHITE),
    box(10, "rug", 3.0, 1.6, 2.4, 1.6, 0.01, BLUE), box(11, "lamp", 1.8, 4.75, 0.2, 0.2, 0.4, WHITE, z=0.5),
    box(12, "box", 0.3, 0.5, 0.4, 0.4, 0.4, BROWN), box(13, "picture", 3.0, 4.97, 1.0, 0.04, 0.6, RED, z=1.3),
    *walls(20, 6.0, 5.0),
]


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    return load_scene(build_scene("test_room", ROOM, tmp_path_factory.mktemp("room") / "room"))


def codes(scene: Scene, text: str, viewpoint: Viewpoint | None = None) -> list[str]:
    return [c.code for c in find(scene, text, viewpoint=viewpoint).candidates]


def c(i: int) -> str:
    return object_code(i)


def test_near_is_by_contrast_even_far_away(room: Scene) -> None:
    assert codes(room, "the door near the suitcase") == [c(1)]  # 3 m away, but clearly the nearest
    assert codes(room, "the door farthest from the suitcase") == [c(0), c(2)]  # equally far: the user is asked


def test_facts_hold_or_not(room: Scene) -> None:
    assert codes(room, "the lamp on the nightstand") == [c(11)]
    assert codes(room, "the nightstand with a lamp on it") == [c(5)]
    assert codes(room, "the rug under the table") == [c(10)]
    assert codes(room, "the picture above the bed") == [c(13)]
    assert codes(room, "the chair between the table and the box") == [c(8)]  # the red one, west of the table


def test_opposite_and_negation(room: Scene) -> None:
    assert codes(room, "the chair opposite the red chair") == [c(9)]
    assert codes(room, "the chair that is not red") == [c(9)]
    assert codes(room, "the door that is not white") == [c(0), c(1)]
    assert codes(room, "any door except the brown ones") == [c(2)]


def test_places_in_the_room(room: Scene) -> None:
    assert codes(room, "the box in the corner") == [c(12)]
    assert codes(room, "the table in the middle of the room") == [c(7)]
    assert c(12) in codes(room, "the box on the floor")


def test_left_and_right_from_the_words(room: Scene) -> None:
    # The bed's head is against the north wall: facing the bed is looking north, so west (x small) is on the left.
    assert codes(room, "facing the bed, the nightstand on the left") == [c(5)]
    assert codes(room, "facing the bed, the nightstand on the right") == [c(6)]
    assert codes(room, "with your back to the bed, the nightstand on the left") == [c(6)]
    assert codes(room, "facing the doors, the second door from the left") == [c(1)]


def test_where_one_stands_from_the_words(room: Scene) -> None:
    # At the bed's foot (south end) looking at the nightstands by its head: looking north, west is on the left.
    assert codes(room, "viewing from the foot of the bed, the nightstand on the left") == [c(5)]
    assert codes(room, "从床尾看，左边的床头柜") == [c(5)]
    # "Facing them": the doors themselves, seen from the room (looking south, east is on the left).
    assert codes(room, "the door on the left when facing them") == [c(2)]
    # In through the white door (south-east), looking into the room: the white chair is on the right.
    assert codes(room, "as you enter through the white door, the chair on the right") == [c(9)]
    assert codes(room, "as you enter through the white door, the chair on the left") == [c(8)]
    # Three doors and the words do not say which: where one stands is not known, and the user is asked.
    unsure = find(room, "as you enter, the chair on the right")
    assert [x.code for x in unsure.candidates] == [c(8), c(9)] and any(u.why == "not_there" for u in unsure.unused_words)


def test_a_rank_along_a_relation(room: Scene) -> None:
    assert codes(room, "the nightstand closest to the box") == [c(5)]
    assert codes(room, "the second closest nightstand to the box") == [c(6)]  # counted by distance, not along a row
    assert codes(room, "it is the second closest door to the suitcase") == [c(0), c(2)]  # the two as far: a tie
    # counted from a thing: "the second nightstand from the box" is the second closest to it
    assert codes(room, "the second nightstand from the box") == [c(6)]
    assert codes(room, "the first nightstand from the box") == [c(5)]  # the closest, not one end of a row


def test_the_furthest_one_from_a_thing(room: Scene) -> None:
    found = find(room, "It is the furthest nightstand from the box.")
    assert [x.code for x in found.candidates] == [c(6)]
    assert "from" in found.used_words and not found.unused_words  # 'from' belongs to 'furthest', not left unread


def test_nearest_among_those_on_a_side(room: Scene) -> None:
    # Standing at the box in the south-west corner looking at the bed: both chairs are ahead; the red one (west) is
    # on the left and nearer, the white one on the right. "The closest chair on the right" is the white one.
    assert codes(room, "standing at the box looking at the bed, it is the closest chair on the right") == [c(9)]


def test_left_and_right_without_a_viewpoint_leave_a_choice(room: Scene) -> None:
    found = find(room, "the nightstand on the left")
    assert [x.code for x in found.candidates] == [c(5), c(6)]  # either, depending on where you stand
    assert any(u.why == "no_view" for u in found.unused_words)


def test_left_and_right_follow_the_viewer(room: Scene) -> None:
    looking_north = Viewpoint.looking((3.0, 0.5, 1.6), (3.0, 4.0, 1.0))
    looking_south = Viewpoint.looking((3.0, 4.5, 1.6), (3.0, 1.0, 1.0))
    assert looking_north is not None and looking_south is not None
    assert codes(room, "the chair on the left", looking_north) == [c(8)]
    assert codes(room, "the chair on the left", looking_south) == [c(9)]
    assert codes(room, "the door on the right", looking_south) == [c(0)]


# A closed door (a thin slab) and an open one, its box as deep as it is wide; a square table and a long one.
DOORS_AND_TABLES = [box(0, "door", 1.0, 0.05, 0.9, 0.1, 2.0, BROWN), box(1, "door", 4.0, 0.45, 0.9, 0.8, 2.0, BROWN),
                    box(2, "table", 1.5, 3.0, 0.9, 0.9, 0.75, BROWN), box(3, "table", 4.0, 3.0, 1.8, 0.8, 0.75, BROWN),
                    *walls(20, 6.0, 5.0)]


def test_shapes_of_flat_upright_things_are_not_read_from_their_footprint(tmp_path: Path) -> None:
    scene = load_scene(build_scene("study", DOORS_AND_TABLES, tmp_path / "study"))
    # A door's footprint is a thin strip, whatever its face looks like: 'rectangular' tells neither door apart.
    assert codes(scene, "the rectangular door") == [c(0), c(1)]
    assert codes(scene, "the rectangular table") == [c(3)]
    assert codes(scene, "the square table") == [c(2)]


def test_ranks(room: Scene) -> None:
    assert codes(room, "the biggest door") == [c(0), c(1), c(2)]  # the same size: a tie
    assert codes(room, "the second largest nightstand") == [c(5), c(6)]


def test_words_that_fit_nothing_are_set_aside_and_said(room: Scene) -> None:
    found = find(room, "the purple chair")
    assert [x.code for x in found.candidates] == [c(8), c(9)] and found.note and "no purple chair" in found.note
    found = find(room, "the chair next to the piano")
    assert [x.code for x in found.candidates] == [c(8), c(9)]
    assert found.note is not None and "no piano" in found.note
    assert [u.why for u in found.unused_words] == ["no_such"]


def test_misspelling_is_read_and_said(room: Scene) -> None:
    found = find(room, "the suitcasse")
    assert [x.code for x in found.candidates] == [c(3)] and found.corrections == [["suitcasse", "suitcase"]]
    assert found.note == "I read 'suitcasse' as suitcase."


def test_find_json_shows_the_reading(room: Scene) -> None:
    data = find(room, "facing the bed, the nightstand on the left").model_dump(mode="json")
    reading = data["reading"]
    assert reading["head"] == "nightstand" and reading["sides"][0]["kind"] == "left"
    assert reading["view"]["kind"] == "facing" and reading["view"]["toward"]["head"] == "bed"
    assert "nightstand" in data["used_words"] and data["unused_words"] == []


def test_a_kind_the_scene_has_none_of_is_looked_for_under_its_related_kinds(room: Scene) -> None:
    # The room has chairs and a table, no armchair and no desk: the scan files them under those, and the note says so.
    found = find(room, "the armchair")
    assert [x.code for x in found.candidates] == [c(8), c(9)]
    assert found.note == "There is no armchair here, so I looked at what it calls chair."
    assert codes(room, "the red armchair") == [c(8)]
    assert codes(room, "the desk") == [c(7)]
    assert find(room, "the piano").candidates == []  # nothing related: nothing found


def test_a_head_the_scene_has_none_of_gives_way_to_the_noun_before_it(room: Scene) -> None:
    # No frame here: "picture frame" names the picture, and the note says so.
    found = find(room, "the red picture frame")
    assert [x.code for x in found.candidates] == [c(13)]
    assert found.note == "There is no frame here, so I looked for the picture the words name."
    assert find(room, "the plant next to the suitcase").candidates == []  # a suitcase is no plant
    found = find(room, "there are some plants next to this suitcase")  # the suitcase is meant: no plant is by it
    assert [x.code for x in found.candidates] == [c(3)]
    assert found.note == "There is no plant here, so I did not use 'next to some plants'."
    assert find(room, "the piano next to the unicorn").candidates == []  # nothing it names is here


def test_a_colour_that_disagrees_with_the_place_offers_both(room: Scene) -> None:
    # The red chair is the one nearer the box; the white one is farther: the words disagree with the scan.
    assert codes(room, "the chair next to the box") == [c(8)]
    assert codes(room, "the white chair next to the box") == [c(8), c(9)]


# Three doors: one measured white (L* 81), one light grey a step darker (L* 77), one brown.
DOORS = [box(0, "door", 1.0, 0.05, 0.9, 0.1, 2.0, (200, 200, 200)), box(1, "door", 3.0, 0.05, 0.9, 0.1, 2.0, (188, 188, 188)),
         box(2, "door", 5.0, 0.05, 0.9, 0.1, 2.0, BROWN), *walls(20, 6.0, 5.0)]


def test_colours_too_alike_to_tell_apart_on_a_scan_are_kept_together(tmp_path: Path) -> None:
    doors = load_scene(build_scene("hall", DOORS, tmp_path / "hall"))
    assert codes(doors, "the white door") == [c(0), c(1)]  # ΔE2000 about 4: the light decides which is "white"
    assert codes(doors, "the brown door") == [c(2)]


# A scan naming things finely: two doors and a doorframe, a chair and an office chair, a closet that is a thing.
FINE = [box(0, "door", 1.0, 0.05, 0.9, 0.1, 2.0, BROWN), box(1, "door", 3.0, 0.05, 0.9, 0.1, 2.0, BROWN),
        box(2, "doorframe", 5.0, 0.05, 1.0, 0.1, 2.1, WHITE), box(3, "chair", 1.0, 2.5, 0.5, 0.5, 0.9, RED),
        box(4, "office chair", 4.0, 2.5, 0.6, 0.6, 1.0, GREY), box(5, "closet", 5.6, 4.0, 0.8, 1.5, 2.2, WHITE),
        box(6, "window", 0.05, 3.5, 0.1, 1.0, 1.2, WHITE, z=0.9), box(7, "window", 5.95, 2.0, 0.1, 1.0, 1.2, WHITE, z=0.9),
        *walls(20, 6.0, 5.0)]


def test_the_scans_own_names_tell_things_apart(tmp_path: Path) -> None:
    scene = load_scene(build_scene("flat", FINE, tmp_path / "flat"))
    assert codes(scene, "the doorframe") == [c(2)]  # the scan's doorframe, not its doors, though both are doors
    assert codes(scene, "the door") == [c(0), c(1)]
    assert codes(scene, "the chair") == [c(3), c(4)]  # an office chair is a chair
    assert codes(scene, "the window near the closet") == [c(7)]  # a closet the scan has as a thing, not a room


# A bed against the north wall with a lamp each side of its head, and a third lamp by the south-west door, behind
# and far to the left of someone standing at the foot of the bed.
BEDROOM = [box(0, "bed", 3.0, 3.9, 1.6, 2.0, 0.6, WHITE), box(1, "lamp", 1.9, 4.75, 0.2, 0.2, 0.4, WHITE, z=0.5),
           box(2, "lamp", 4.1, 4.75, 0.2, 0.2, 0.4, WHITE, z=0.5), box(3, "lamp", 0.3, 1.2, 0.3, 0.3, 1.6, WHITE),
           *walls(20, 6.0, 5.0)]


def test_left_and_right_from_a_viewpoint_are_among_the_things_in_sight(tmp_path: Path) -> None:
    bedroom = load_scene(build_scene("bedroom", BEDROOM, tmp_path / "bedroom"))
    assert codes(bedroom, "facing the bed, the lamp on the left") == [c(1)]  # not the one out of sight by the door
    assert codes(bedroom, "facing the bed, the lamp on the right") == [c(2)]
    assert codes(bedroom, "facing the bed, the lamp on the far left") == [c(3)]  # the very end, wherever it is


# Kitchen cabinets on two levels: two below the counter, two on the wall above it (one hung higher).
KITCHEN = [box(0, "kitchen cabinet", 1.0, 0.3, 0.8, 0.6, 0.85, BROWN), box(1, "kitchen cabinet", 2.0, 0.3, 0.8, 0.6, 0.9, BROWN),
           box(2, "kitchen cabinet", 1.0, 0.2, 0.8, 0.35, 0.7, BROWN, z=1.5),
           box(3, "kitchen cabinet", 2.0, 0.2, 0.8, 0.35, 0.7, BROWN, z=2.0), *walls(20, 4.0, 3.0)]


def test_in_front_of_is_the_one_right_there_not_all_on_that_side(tmp_path: Path) -> None:
    # Facing the bed from its foot: one lamp just off the foot, one across the room, both in front of the bed.
    lamps = [*BEDROOM[:1], box(1, "lamp", 3.0, 2.5, 0.3, 0.3, 1.5, WHITE), box(2, "lamp", 3.3, 0.4, 0.3, 0.3, 1.5, WHITE),
             box(3, "lamp", 0.3, 4.6, 0.3, 0.3, 1.5, WHITE), *walls(20, 6.0, 5.0)]
    scene = load_scene(build_scene("by_the_bed", lamps, tmp_path / "by_the_bed"))
    assert codes(scene, "the lamp in front of the bed") == [c(1)]
    # asked for every one in front of it, the one across the room is too far off to be 'in front of' the bed
    assert codes(scene, "the things in front of the bed") == [c(1)]
    assert codes(scene, "the lamp not in front of the bed") == [c(3)]  # neither of those in front of it


def test_the_ones_side_by_side_are_the_closest_pair(tmp_path: Path) -> None:
    # Two monitors side by side on a desk at the west wall, a third on the east wall.
    monitors = [box(0, "desk", 0.4, 2.3, 0.8, 1.6, 0.75, BROWN),
                box(1, "monitor", 0.3, 1.95, 0.15, 0.5, 0.4, GREY, z=0.75),
                box(2, "monitor", 0.3, 2.65, 0.15, 0.5, 0.4, GREY, z=0.75),
                box(3, "monitor", 5.7, 2.5, 0.15, 0.5, 0.4, GREY, z=0.75), *walls(20, 6.0, 5.0)]
    scene = load_scene(build_scene("office", monitors, tmp_path / "office"))
    assert codes(scene, "the two monitors next to each other") == [c(1), c(2)]
    # facing them (looking west), the left one is the southern one
    assert codes(scene, "facing the two monitors next to each other, the monitor on the left") == [c(1)]
    assert codes(scene, "facing the two monitors side by side, the monitor on the right") == [c(2)]


def test_upper_and_lower_are_levels_top_and_bottom_the_ends(tmp_path: Path) -> None:
    kitchen = load_scene(build_scene("kitchen", KITCHEN, tmp_path / "kitchen"))
    assert codes(kitchen, "the upper kitchen cabinet") == [c(2), c(3)]
    assert codes(kitchen, "the lower kitchen cabinet") == [c(0), c(1)]
    assert codes(kitchen, "the top kitchen cabinet") == [c(3)]


def test_a_rank_from_an_unsaid_side_is_counted_from_both_ends_of_the_row(tmp_path: Path) -> None:
    row = [box(i, "desk", 0.8 + 1.1 * i, 2.5, 0.9, 0.6, 0.75, BROWN) for i in range(5)] + walls(20, 6.0, 5.0)
    desks = load_scene(build_scene("row", row, tmp_path / "row"))
    found = find(desks, "the second desk from the left")
    assert [x.code for x in found.candidates] == [c(1), c(3)]  # second from either end: where you stand decides
    assert any(u.why == "no_view" for u in found.unused_words)


def test_the_walls_are_the_rooms_outline(tmp_path: Path) -> None:
    # No wall is a thing of the scan: "closest to the wall" is by how far each is from its room's outline.
    chairs = [box(0, "chair", 0.5, 2.5, 0.5, 0.5, 0.9), box(1, "chair", 2.5, 2.5, 0.5, 0.5, 0.9),
              box(2, "chair", 3.5, 2.0, 0.5, 0.5, 0.9), *walls(20, 4.5, 5.0)]
    scene = load_scene(build_scene("study", chairs, tmp_path / "study"))
    assert codes(scene, "the chair closest to the wall") == [c(0)]
    assert codes(scene, "the chair furthest from the wall") == [c(1)]
    found = find(scene, "the chair closest to the yellow wall")  # which wall is yellow, a scan does not say
    assert [x.code for x in found.candidates] == [c(0), c(1), c(2)]
    assert found.note == "There is no wall here, so I did not use 'closest to the yellow wall'."


def test_a_pillow_sunk_into_a_sofa_is_on_it(tmp_path: Path) -> None:
    # A sofa's box reaches the top of its back: one pillow lies on the seat, below that top; one leans on the back,
    # above it; a third lies on the floor beside the sofa. Both on the sofa are on it.
    lounge = [box(0, "sofa", 2.0, 2.0, 2.0, 0.9, 0.8), box(1, "pillow", 1.5, 2.0, 0.4, 0.4, 0.15, z=0.45),
              box(2, "pillow", 2.5, 2.3, 0.4, 0.2, 0.4, z=0.6), box(3, "pillow", 3.5, 2.0, 0.4, 0.4, 0.15),
              *walls(20, 5.0, 4.0)]
    scene = load_scene(build_scene("lounge", lounge, tmp_path / "lounge"))
    assert codes(scene, "the pillow on the sofa") == [c(1), c(2)]


# Two trash cans side by side at the desk and one by the door; a bed under the west window with a pillow at each
# end (the north one with another on top of it); a laundry hamper; two pictures on the north wall, one on the south.
ODDS = [box(0, "trash can", 1.0, 1.0, 0.3, 0.3, 0.5), box(1, "trash can", 1.4, 1.0, 0.3, 0.3, 0.5),
        box(2, "trash can", 4.5, 0.6, 0.3, 0.3, 0.5), box(3, "door", 4.5, 0.05, 0.9, 0.1, 2.0, BROWN),
        box(4, "window", 0.05, 2.4, 0.1, 1.0, 1.2, z=0.9), box(5, "bed", 0.9, 3.0, 1.6, 2.0, 0.5, WHITE),
        box(6, "pillow", 0.9, 2.3, 0.5, 0.35, 0.15, z=0.5), box(7, "pillow", 0.9, 3.7, 0.5, 0.35, 0.15, z=0.5),
        box(8, "pillow", 0.9, 3.7, 0.45, 0.3, 0.15, z=0.65), box(9, "laundry hamper", 3.0, 4.6, 0.4, 0.4, 0.6),
        box(10, "picture", 2.5, 4.97, 0.6, 0.04, 0.5, RED, z=1.4), box(11, "picture", 3.5, 4.97, 0.6, 0.04, 0.5, BLUE, z=1.4),
        box(12, "picture", 2.5, 0.03, 0.6, 0.04, 0.5, RED, z=1.4), *walls(20, 5.0, 5.0)]


@pytest.fixture(scope="module")
def odds(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    return load_scene(build_scene("odds", ODDS, tmp_path_factory.mktemp("odds") / "odds"))


@pytest.mark.parametrize("text", ["the trash can by itself", "the trash can that is off by itself", "the lone trash can",
                                  "pick the trash can that is on its own", "the trash can standing alone",
                                  "单独放着的垃圾桶", "那个孤零零的垃圾桶"])
def test_the_one_by_itself_is_the_one_farthest_from_its_kind(odds: Scene, text: str) -> None:
    assert codes(odds, text) == [c(2)]


def test_by_itself_is_the_things_own_and_comes_before_contrast(odds: Scene) -> None:
    # "by itself" after "the door" is still the trash can's; alone first, then the farthest of what is left
    assert codes(odds, "the trash can closest to the door by itself") == [c(2)]
    assert codes(odds, "the trash can farthest from the door by itself") == [c(2)]


def test_above_all_others_is_the_top_one(odds: Scene) -> None:
    assert codes(odds, "pick the pillow that is above all other pillows") == [c(8)]
    assert codes(odds, "the pillow under all the other pillows") == [c(6), c(7)]  # both lie on the bed


def test_a_superlative_said_of_the_only_one_of_its_kind_is_about_the_thing_meant(odds: Scene) -> None:
    # there is one bed: 'that is closest to the window' cannot be about it, so it is about the pillow
    assert codes(odds, "the pillow on the bed that is closest to the window") == [c(6)]
    assert codes(odds, "the pillow on the bed closest to the window") == [c(6)]
    # a reference's words the scene cannot use are said, not dropped
    found = find(odds, "the pillow on the bed closest to the fireplace")
    assert [x.code for x in found.candidates] == [c(6), c(7), c(8)]
    assert any(u.why == "no_such" and "fireplace" in u.word for u in found.unused_words)


def test_the_last_word_of_a_scans_label_names_it(odds: Scene) -> None:
    assert codes(odds, "the hamper") == [c(9)]
    assert codes(odds, "you can see the hamper by the wall") == [c(9)]  # 'can' is still a verb
    assert codes(odds, "the trash can near the soda cans") == [c(0), c(1), c(2)]  # no can is a trash can here


def test_what_a_wall_has_describes_the_wall(odds: Scene) -> None:
    found = find(odds, "On the wall with two pictures, it is the one on the right.")
    # not 'the picture with two pictures by it': which wall has two, the boxes do not say, so all are asked about
    assert [x.code for x in found.candidates] == [c(10), c(11), c(12)]
    assert "I read 'with two pictures' as describing the wall." in (found.note or "")


def test_a_beds_head_is_where_its_nightstands_flank_it(tmp_path: Path) -> None:
    # A wide bed (2.4 m east-west, 2.0 m north-south) in the middle of the room: its box's long axis runs east-west,
    # but the nightstands flank its north side, so its head is there and it faces south. Facing it is looking
    # north: the west nightstand is on the left.
    wide = [box(0, "bed", 3.0, 2.5, 2.4, 2.0, 0.5, WHITE), box(1, "nightstand", 1.5, 3.3, 0.5, 0.4, 0.5, BROWN),
            box(2, "nightstand", 4.5, 3.3, 0.5, 0.4, 0.5, BROWN), box(3, "pillow", 2.4, 3.2, 0.6, 0.4, 0.15, z=0.5),
            box(4, "pillow", 3.6, 3.2, 0.6, 0.4, 0.15, z=0.5), *walls(20, 6.0, 6.0)]
    scene = load_scene(build_scene("wide", wide, tmp_path / "wide"))
    assert codes(scene, "facing the headboard of the bed, the nightstand on the left") == [c(1)]
    assert codes(scene, "If you look toward the headboard of the bed, the nightstand is the one to the right of the bed.") \
        == [c(2)]


def test_a_table_the_scene_has_none_of_is_looked_for_among_the_kinds_of_table(tmp_path: Path) -> None:
    # No 'table' here: the nightstand between the bed and the armchair is one, as the desk by the window is
    bedroom = [box(0, "bed", 2.0, 2.0, 1.6, 2.0, 0.5, WHITE), box(1, "nightstand", 3.2, 2.8, 0.5, 0.4, 0.5, BROWN),
               box(2, "armchair", 4.2, 2.8, 0.8, 0.8, 0.9), box(3, "desk", 5.0, 0.6, 1.2, 0.6, 0.75, BROWN),
               box(4, "lamp", 3.2, 2.8, 0.2, 0.2, 0.4, WHITE, z=0.5), box(5, "lamp", 5.0, 0.6, 0.2, 0.2, 0.4, WHITE, z=0.75),
               box(6, "window", 5.0, 0.05, 1.0, 0.1, 1.2, z=0.9), *walls(20, 6.0, 5.0)]
    scene = load_scene(build_scene("guest", bedroom, tmp_path / "guest"))
    assert codes(scene, "The lamp on the table between the bed and the armchair.") == [c(4)]
    assert codes(scene, "the lamp on the table by the window") == [c(5)]


def test_garbage_is_a_trash_can(odds: Scene) -> None:
    assert codes(odds, "a garbage sits on the floor near the door") == [c(2)]


def test_a_clause_that_does_not_narrow_its_reference_is_about_the_thing(odds: Scene) -> None:
    # one bed: 'that has a window next to it' tells no bed from another, so it says which pillow
    found = find(odds, "the pillow on the bed that has a window next to it")
    assert [x.code for x in found.candidates] == [c(6)]
    assert found.reading is not None and [r.word for r in found.reading.relations] == ["on", "that has … next to"]  # as used
    assert codes(odds, "the pillow on the bed") == [c(6), c(7), c(8)]


@pytest.mark.parametrize("text", ["离窗户最近的床上的枕头", "床上离窗户最近的枕头", "旁边有窗户的床上的枕头"])
def test_the_same_clauses_in_chinese(odds: Scene, text: str) -> None:
    assert codes(odds, text) == [c(6)]


def test_what_a_side_has_describes_the_side(odds: Scene) -> None:
    found = find(odds, "The side with two pictures, the one on the right.")
    assert [x.code for x in found.candidates] == [c(10), c(11), c(12)]  # not 'the picture with two pictures by it'
    assert "I read 'with two pictures' as describing the side." in (found.note or "")


def test_a_denial_said_of_the_only_reference_is_about_the_thing(odds: Scene) -> None:
    # one bed, so 'that has no window next to it' says which pillow: not the one by the window
    assert codes(odds, "the pillow on the bed that does not have a window next to it") == [c(7), c(8)]


def test_a_denial_that_holds_for_none_is_said(odds: Scene) -> None:
    found = find(odds, "the bed that does not have a pillow on it")
    assert [x.code for x in found.candidates] == [c(5)]
    assert found.note == "Every bed here has the pillow on it, so I did not use 'not'."


def test_the_side_you_sit_on_is_a_seats_front(room: Scene) -> None:
    # "from the side you sit on it" is where a seat is looked at from the front: a view, every word of it read
    found = find(room, "looking at the red chair from the side you sit on it, choose the box")
    assert found.reading is not None and found.reading.view is not None and found.reading.view.kind == "front_of"
    assert not [u for u in found.unused_words if u.word in ("sit", "from", "side")]
