"""Descriptions split into their head and the colour, size, place and order words around it (English)."""

from __future__ import annotations

import pytest

from scene_agent.language.color_words import color_word, is_colour_word
from scene_agent.language.order_words import order_word
from scene_agent.language.phrase import names_nothing, split_phrase
from scene_agent.language.place_words import split_place


@pytest.mark.parametrize("text, head, color, size, place, reference", [
    ("the big red chair next to the window", "the chair", "red", "big", "near", "the window"),
    ("plant next to the sofa", "plant", None, None, "near", "the sofa"),
    ("the widest wardrobe", "the wardrobe", None, "widest", None, None),
    ("the chair by the window in the kitchen", "the chair", None, None, "near", "the window in the kitchen"),
    ("the lamp on the nightstand", "the lamp", None, None, "on", "the nightstand"),
    ("the rug under the coffee table", "the rug", None, None, "under", "the coffee table"),
    ("the cabinet above the sink", "the cabinet", None, None, "above", "the sink"),
    ("the chair closest to the window", "the chair", None, None, "closest", "the window"),
    ("the chair farthest from the door", "the chair", None, None, "farthest", "the door"),
    ("the dark blue rug", "the rug", "dark blue", None, None, None),
    ("the light one", "the one", "light", None, None, None),
    ("the most spacious room", "the room", None, "most spacious", None, None),
])
def test_split_phrase(text: str, head: str, color: str | None, size: str | None, place: str | None,
                      reference: str | None) -> None:
    phrase = split_phrase(text)
    assert phrase.head == head
    assert (phrase.color.word if phrase.color else None) == color
    assert (phrase.size.word if phrase.size else None) == size
    assert (phrase.place.relation if phrase.place else None) == place
    assert (phrase.place.reference if phrase.place else None) == reference


@pytest.mark.parametrize("text", ["the chair on floor 1", "the bed on the upper floor", "the lamp on the left",
                                  "the chair on level 2", "show it at once", "the light"])
def test_floors_and_idioms_are_not_places(text: str) -> None:
    assert split_phrase(text).place is None


def test_between_takes_two_references_and_corner_none() -> None:
    _, place = split_place("the table between the sofa and the tv")
    assert (place.relation, place.reference, place.reference2) == ("between", "the sofa", "the tv")
    head, corner = split_place("the plant in the corner of the study")
    assert corner.relation == "corner" and corner.reference is None and head == "the plant the study"


@pytest.mark.parametrize("words, term, rgb, tone", [
    ("red", "red", False, None), ("grey", "gray", False, None), ("navy", "blue", True, None),
    ("beige", "white", True, None), ("sky blue", "blue", True, None), ("dark", None, False, "dark"), ("taupe", "brown", True, None),
    ("light blue", "blue", False, "light"), ("greyish", "gray", False, None), ("brown", "brown", False, None),
])
def test_colour_words(words: str, term: str | None, rgb: bool, tone: str | None) -> None:
    found, used = color_word(words.split())
    assert found is not None and used == len(words.split())
    assert (found.term, found.rgb is not None, found.tone) == (term, rgb, tone)


def test_not_colour_words() -> None:
    assert color_word(["chair"]) == (None, 0)
    assert color_word(["deep", "cabinet"]) == (None, 0)  # "deep" is a tone only before a colour
    assert not is_colour_word("sofa") and is_colour_word("navy")


@pytest.mark.parametrize("text, kind, index, rest", [
    ("the second one", "nth", 1, "one"), ("the 3rd", "nth", 2, ""), ("the last one", "last", None, ""),
    ("and the other ones", "other", None, "and"), ("both", "both", None, ""), ("all of them", "all", None, ""),
])
def test_order_words(text: str, kind: str, index: int | None, rest: str) -> None:
    word, remaining = order_word(text)
    assert word is not None and (word.kind, word.index, remaining) == (kind, index, rest)


def test_order_words_pick_among_listed_codes() -> None:
    codes = ["a", "b", "c"]
    assert order_word("the second")[0].pick(codes) == ["b"]
    assert order_word("the other ones")[0].pick(codes, taken=["a"]) == ["b", "c"]
    assert order_word("both")[0].pick(codes) == []  # three are not both
    assert order_word("number 2", numbers=True)[0].pick(codes) == ["b"]
    assert order_word("number 2")[0] is None  # numbers only where a list was shown (a pick)
    assert order_word("the first floor")[0] is None


def test_names_nothing() -> None:
    assert names_nothing("the one") and names_nothing("") and not names_nothing("the chair")
