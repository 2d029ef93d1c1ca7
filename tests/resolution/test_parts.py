"""Parts no scan shows on its own (a chair's wheels, armrests and legs, a cabinet's handles): said to be parts, never
read as things of the scene, and, when nothing else names the thing, the things that have such parts — through the
real `find` on the demo home."""

from __future__ import annotations

import pytest

from scene_agent.language.grammar import read
from scene_agent.scene.loader import Scene
from scene_agent.tools.find import find

CHAIRS = ["0-3-2", "0-3-3", "0-3-4", "0-3-5", "0-4-2"]


def codes(scene: Scene, text: str) -> list[str]:
    return [c.code for c in find(scene, text).candidates]


def test_a_part_narrows_nothing_and_is_said_as_a_part(demo: Scene) -> None:
    found = find(demo, "the chair with wheels")
    assert [c.code for c in found.candidates] == CHAIRS
    assert [(u.word, u.why) for u in found.unused_words] == [("wheels", "a_part")]
    assert found.note == "A scan does not show parts such as 'wheels', so I did not use them."


def test_several_parts_are_said_in_one_sentence(demo: Scene) -> None:
    found = find(demo, "the office chair with five legs and armrests")
    assert [c.code for c in found.candidates] == ["0-4-2"]
    assert found.note == "A scan does not show parts such as 'five legs' and 'armrests', so I did not use them."
    assert find(demo, "有扶手和靠背的椅子").note == "扫描看不出“扶手”和“靠背”这样的部件，所以没有用上。"


@pytest.mark.parametrize("text, part", [("it has wheels and armrests", "wheels"),
                                        ("it has wheels on the bottom and two armrests", "armrests"),
                                        ("它有轮子和扶手", "轮子")])
def test_only_parts_said_means_what_has_them(demo: Scene, text: str, part: str) -> None:
    # before: "Say what to look at" — the words name no kind, but what has wheels and armrests is a chair
    found = find(demo, text)
    assert [c.code for c in found.candidates] == CHAIRS
    assert found.note is not None and (f"only '{part}'" in found.note or f"只说了“{part}”" in found.note)


def test_a_part_is_never_a_thing_to_be_placed_by() -> None:
    # "two armrests on it" says what it has, not that something stands on armrests
    reading = read("this is dark and in front of the desk. there are wheels on the bottom. there are two armrests on it.")
    assert [(r.kind, [x.head for x in r.references]) for r in reading.relations] == [("front", ["desk"])]
    assert ("two armrests", "a_part") in [(u.word, u.why) for u in reading.unused]
