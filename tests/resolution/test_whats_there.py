"""Words that name no kind of thing, only a place ('the things on the nightstand', 'anything under the bed', '床头柜上的
东西'): whatever is there, through the real `find` on the demo home; a place that holds for none is the answer
('Nothing is on the coffee table'), never every thing of the house."""

from __future__ import annotations

import pytest

from scene_agent.language.intent import parse_intent
from scene_agent.scene.loader import Scene
from scene_agent.tools.find import find

LAMPS_ON_NIGHTSTANDS = ["1-2-4", "1-2-5", "1-3-4", "1-4-4"]


def codes(scene: Scene, text: str) -> list[str]:
    return [c.code for c in find(scene, text).candidates]


@pytest.mark.parametrize("text", ["the things on the nightstand", "anything on the nightstands", "objects on top of the nightstand",
                                  "床头柜上的东西"])
def test_what_a_place_holds_is_every_thing_there(demo: Scene, text: str) -> None:
    assert codes(demo, text) == LAMPS_ON_NIGHTSTANDS


@pytest.mark.parametrize("text, message", [
    ("the things on the coffee table", "Nothing is on the coffee table (0-2-4)."),
    ("anything above the sofa", "Nothing is above the sofa (0-2-1)."),
    ("茶几上的东西", "茶几（0-2-4）上没有东西。"),
])
def test_a_place_that_holds_nothing_says_so(demo: Scene, text: str, message: str) -> None:
    # before, the place was set aside as words that fit none, and all 80 things of the house were offered
    found = find(demo, text)
    assert found.candidates == [] and found.message == message


def test_next_to_lists_all_close_by_not_only_the_nearest(demo: Scene) -> None:
    # "the thing next to the sofa" is the nearest one (the rug it stands on); "things next to it" are all within reach
    assert codes(demo, "things next to the bed in the guest bedroom") == ["1-3-2", "1-3-3", "1-3-4"]
    assert codes(demo, "the thing next to the sofa") == ["0-2-10"]
    assert codes(demo, "things next to the sofa") == ["0-2-8", "0-2-10"]
    # nothing within reach of the toilet: the nearest ones, as for one thing
    assert codes(demo, "things next to the toilet") == codes(demo, "the thing next to the toilet") != []


def test_under_and_on_mean_over_or_under_its_footprint_when_listed(demo: Scene) -> None:
    # the nightstands stand beside the bed, not under it; the study's window is set in the wall above the desk, not on it
    assert codes(demo, "the things under the bed") == ["1-2-8"]
    assert codes(demo, "things on the desk in the study") == ["0-4-3", "0-4-4"]
    assert "0-4-8" not in codes(demo, "the thing on the desk")


@pytest.mark.parametrize("question, target", [
    ("what is on the coffee table?", "things on the coffee table"),
    ("what's next to the bed?", "things next to the bed"),
    ("What is under the window?", "things under the window"),
])
def test_what_is_somewhere_asks_for_a_list_of_what_is_there(question: str, target: str) -> None:
    intent = parse_intent(question)
    assert intent.intents == ("list",) and intent.target == target


@pytest.mark.parametrize("question", ["is there anything on the nightstand?", "which things are on the desk?", "床头柜上有什么？",
                                      "茶几上有什么东西？"])
def test_other_ways_of_asking_what_is_there(question: str) -> None:
    intent = parse_intent(question)
    assert intent.intents == ("list",) and intent.phrase is not None and intent.phrase.relations


def test_a_rooms_contents_and_a_things_colour_are_asked_as_before() -> None:
    assert parse_intent("厨房里有什么？").target == "what is in kitchen"  # a room's contents: the room, then what it holds
    assert parse_intent("what is the colour of the thing on the desk?").intents == ("color",)


@pytest.mark.parametrize("text", ["the nightstand that doesn't have anything on it", "the nightstand with nothing on it",
                                  "the nightstand that has nothing on it", "上面没有东西的床头柜"])
def test_a_thing_with_nothing_on_it(demo: Scene, text: str) -> None:
    # the guest and kids bedrooms each have one nightstand without a lamp; before, 'anything' was no thing, and every
    # nightstand was offered
    assert codes(demo, text) == ["1-3-3", "1-4-2"]


@pytest.mark.parametrize("text", ["the nightstand with something on it", "上面有东西的床头柜"])
def test_a_thing_with_something_on_it(demo: Scene, text: str) -> None:
    assert codes(demo, text) == ["1-2-2", "1-2-3", "1-3-2", "1-4-3"]


def test_a_place_by_a_thing_the_scene_lacks_finds_nothing(demo: Scene) -> None:
    # the place is all the words say: with no piano, nothing is on it (before, every thing of the house was listed)
    found = find(demo, "the things on the piano")
    assert found.candidates == []
    assert found.message is not None and found.message.startswith("Nothing called 'piano' in this scene.")


def test_in_front_of_lists_what_stands_there_not_the_whole_side_of_the_room(demo: Scene) -> None:
    # the tv, its stand, the bookshelf and the window are across the room: in front of the sofa, but not what is there
    assert codes(demo, "things in front of the sofa") == ["0-2-2", "0-2-3", "0-2-4", "0-2-10"]


@pytest.mark.parametrize("text", ["everything in the middle of the lounge", "things in the middle of the room in the lounge"])
def test_the_middle_of_a_named_room_is_its_middle(demo: Scene, text: str) -> None:
    # before, 'the middle of the lounge' was a room to be between, set aside: every thing of the house
    assert codes(demo, text) == ["0-2-4", "0-2-10"]


def test_the_middle_of_two_things_is_still_between_them() -> None:
    from scene_agent.language.tokens import tokenize

    assert " ".join(tokenize("the chair in the middle of the office chair and the window")) == \
        "the chair in the middle of the office chair and the window"
    assert " ".join(tokenize("the table in the middle of the kitchen")) == "the table in the middle of the room in the kitchen"
