"""A viewpoint said in words stands in one room: in a building it is read in each room that holds what it names.

The demo home's three bedrooms upstairs each have a bed with its head against a wall: the master bedroom (1-2) a
lamp on each nightstand (1-2-4 at the bed's left as one faces it from its foot, 1-2-5 at its right), the guest room
(1-3) one lamp at the bed's left (1-3-4), the kids' room (1-4) one at its right (1-4-4). The lamps downstairs are in
rooms with no bed.
"""

from __future__ import annotations

import pytest

from scene_agent.scene.loader import Scene
from scene_agent.tools.find import find


def codes(scene: Scene, text: str) -> list[str]:
    return [c.code for c in find(scene, text).candidates]


@pytest.mark.parametrize(("text", "expected"), [
    # In each bedroom from its own bed; a room's lone lamp counts only on the side said.
    ("facing the bed, the lamp on the left", ["1-2-4", "1-3-4"]),
    ("facing the bed, the lamp on the right", ["1-2-5", "1-4-4"]),
    ("面对床，左边的台灯", ["1-2-4", "1-3-4"]),
    ("facing the bed, the lamp on the left that is not on the dresser", ["1-2-4", "1-3-4"]),
    # The view reads the reference's side too, said first or last; a room where a word fits nothing is left out.
    ("facing the bed, the lamp on the nightstand on the left", ["1-2-4", "1-3-4"]),
    ("the lamp on the nightstand on the left in the master bedroom, facing the bed", ["1-2-4"]),
    ("卧室里没有放在梳妆台上的台灯", ["1-2-4", "1-2-5", "1-3-4", "1-4-4"]),
    # A room named: that room alone.
    ("facing the bed, the lamp on the left in the master bedroom", ["1-2-4"]),
])
def test_a_view_in_words_is_read_in_each_room_that_has_what_it_names(demo: Scene, text: str,
                                                                    expected: list[str]) -> None:
    assert codes(demo, text) == expected


@pytest.mark.parametrize(("text", "lang", "note"), [
    ("facing the bed, the lamp on the right in the guest bedroom", "en", "No lamp is on the right."),
    ("面对床，客卧里右边的台灯", "zh", "没有右边的台灯。"),
])
def test_a_lone_one_on_the_other_side_is_kept_and_the_side_said(demo: Scene, text: str, lang: str, note: str) -> None:
    # The guest room's only lamp is at the bed's left: the words' side fits none, so it is set aside, and said.
    result = find(demo, text, lang=lang)
    assert [c.code for c in result.candidates] == ["1-3-4"] and result.note == note
    assert result.steps[-1].set_aside


def test_rooms_without_what_the_view_names_are_left_out_and_the_steps_say_so(demo: Scene) -> None:
    result = find(demo, "facing the bed, the lamp on the left")
    first = result.steps[0]
    assert (first.words, first.before) == ("facing the bed", 6)  # the living room's and study's lamps go
    assert first.kept == ["1-2-4", "1-2-5", "1-3-4", "1-4-4"]


def test_a_word_of_a_room_name_says_where_to_look(demo: Scene) -> None:
    assert codes(demo, "the guest bed") == ["1-3-1"]
    assert codes(demo, "the lamp in the kids room") == ["1-4-4"]


def test_a_room_is_no_thing_to_measure_from(demo: Scene) -> None:
    found = find(demo, "the table furthest from the kitchen")  # not the kitchen's own table, taken for the farthest
    assert len(found.candidates) == len(find(demo, "the table").candidates) > 1
    assert [(u.word, u.why) for u in found.unused_words] == [("furthest from the kitchen", "by_a_room")]
    assert found.note == "'furthest from the kitchen' measures from a whole room, which I cannot do, so I did not use it."
    assert find(demo, "离厨房最远的桌子").note == "无法从整个房间量起，所以没有按这个房间来找。"
