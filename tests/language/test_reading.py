"""Descriptions read into one structure: the thing meant, its colours, sizes and shapes, what places it, where the
speaker stands, what it is not, and the words left over (grammar.read → Reading)."""

from __future__ import annotations

import pytest

from scene_agent.language.color_words import color_word, is_colour_word
from scene_agent.language.grammar import read
from scene_agent.language.order_words import order_word
from scene_agent.language.reading import Reading, names_nothing


def relations(r: Reading) -> list[tuple[str, ...]]:
    """(kind, reference heads…) of each relation, 'not ' before a negated kind."""
    return [(("not " if rel.negated else "") + rel.kind, *(ref.head for ref in rel.references)) for rel in r.relations]


@pytest.mark.parametrize("text, head, color, size, kind, reference", [
    ("the big red chair next to the window", "chair", "red", "big", "near", "window"),
    ("plant next to the sofa", "plant", None, None, "near", "sofa"),
    ("the widest wardrobe", "wardrobe", None, "widest", None, None),
    ("the lamp on the nightstand", "lamp", None, None, "on", "nightstand"),
    ("the rug under the coffee table", "rug", None, None, "under", "coffee table"),
    ("the cabinet above the sink", "cabinet", None, None, "above", "sink"),
    ("the chair closest to the window", "chair", None, None, "closest", "window"),
    ("the chair farthest from the door", "chair", None, None, "farthest", "door"),
    ("the dark blue rug", "rug", "dark blue", None, None, None),
    ("the most spacious room", "room", None, "most spacious", None, None),
])
def test_a_noun_with_its_colour_size_and_place(text: str, head: str, color: str | None, size: str | None,
                                               kind: str | None, reference: str | None) -> None:
    r = read(text)
    assert r.head == head
    assert (r.color.word if r.color else None) == color
    assert (r.size.word if r.size else None) == size
    assert (relations(r)[0][:2] if r.relations else (None, None)) == (kind, reference)


@pytest.mark.parametrize("text", ["the chair on floor 1", "the bed on the upper floor", "show it at once", "the light"])
def test_floors_and_idioms_are_not_places(text: str) -> None:
    assert not read(text).relations


def test_several_sentences_refer_back_to_the_thing() -> None:
    r = read("this is a white trash can. it is beside a desk.")
    assert (r.head, r.color.word if r.color else None, relations(r)) == ("trash can", "white", [("near", "desk")])
    r = read("the printer is to the right of the copier. the printer is a white box.")
    assert r.head == "printer" and r.color is not None and r.color.term == "white" and relations(r) == [("right", "copier")]
    assert read("this is a brown chair. it is at the end of the table.").relations[0].kind == "end"


@pytest.mark.parametrize("text, head, expected", [
    ("find the dresser that is far away from the mirror", "dresser", [("farthest", "mirror")]),
    ("select the lamp that is on top of the nightstand", "lamp", [("on", "nightstand")]),
    ("choose the chair located in front of the large white board", "chair", [("front", "white board")]),
    ("the cabinet with the counter and sink on it", "cabinet", [("supporting", "counter"), ("supporting", "sink")]),
    ("the monitor with a blue pen in front of it", "monitor", [("behind", "pen")]),
    ("the door that is near the suitcase", "door", [("near", "suitcase")]),
    ("the table with four chairs around it", "table", [("near", "chair")]),
    ("the chair opposite the red chair", "chair", [("opposite", "chair")]),
    ("the stool between the sink and the fridge", "stool", [("between", "sink", "fridge")]),
    ("the end table next to a chair, that doesn't have anything sitting on it", "end table",
     [("near", "chair"), ("not supporting", "anything")]),
    ("this plant is on the windowsill, not the table", "plant", [("on", "windowsill"), ("not on", "table")]),
    ("the chair at the end of the table", "chair", [("end", "table")]),
    ("the chair on the short side of the table", "chair", [("near", "table")]),
])
def test_relative_clauses_imperatives_and_what_things_hold(text: str, head: str, expected: list[tuple[str, ...]]) -> None:
    r = read(text)
    assert r.head == head and relations(r) == expected


def test_counts_and_sides() -> None:
    assert read("the table with four chairs around it").relations[0].count == 4
    assert [s.kind for s in read("the plant in the corner").sides] == ["corner"]
    assert [s.kind for s in read("the lamp hanging on the wall").sides] == ["wall"]
    assert [s.kind for s in read("the box on the floor").sides] == ["floor"]
    assert [s.kind for s in read("the table in the middle of the room").sides] == ["center"]
    assert [s.kind for s in read("the middle chair").sides] == ["middle"]
    assert [(s.kind, s.negated) for s in read("the table not against the wall").sides] == [("wall", True)]


@pytest.mark.parametrize("text, index, by, smallest_first", [
    ("the second largest bed", 1, "size", False),
    ("the second smallest chair", 1, "size", True),
    ("the third from the left", 2, "left", False),
    ("the second shelf from the top", 1, "top", False),
    ("the last one in the row", -1, "row", False),
])
def test_ordinals(text: str, index: int, by: str, smallest_first: bool) -> None:
    ordinal = read(text).ordinal
    assert ordinal is not None and (ordinal.index, ordinal.by, ordinal.smallest_first) == (index, by, smallest_first)
    assert read("the second largest bed").size is None  # the rank says it, not a size word


def test_comparatives_of_two() -> None:
    r = read("the larger of the two cabinets")
    assert r.head == "cabinet" and r.size is not None and r.size.word == "larger"


@pytest.mark.parametrize("text, head, excluded", [
    ("the kitchen chair that is not red or blue", "chair kitchen", [("", "red"), ("", "blue")]),
    ("not the red one", "", []),
    ("any chair except the office chair", "chair", [("office chair", None)]),
    ("the brown door not the white one", "door", [("", "white")]),
])
def test_negation_and_exclusion(text: str, head: str, excluded: list[tuple[str, str | None]]) -> None:
    r = read(text)
    assert r.head == head
    assert [(e.head, e.color.word if e.color else None) for e in r.excluded] == excluded or not excluded


def test_not_in_one_room_or_another() -> None:
    r = read("the plant that is not in the lounge or the kitchen")
    assert r.head == "plant" and [e.head for e in r.excluded] == ["one lounge", "one kitchen"]  # neither room


def test_the_other_one_is_an_order_word() -> None:
    order = read("the other chair").order
    assert order is not None and order.kind == "other"
    assert read("on top of the other box").order is None  # a reference's "other" is not the thing's


@pytest.mark.parametrize("text, kind, toward, at", [
    ("facing the bed, the nightstand on the left", "facing", "bed", None),
    ("looking at the front of the desk, choose the chair on the right of it", "front_of", "desk", None),
    ("with your back to the window, the door on the right", "back_to", "window", None),
    ("the door on the right as you enter", "entering", None, None),
    ("standing at the door looking at the windows, the far right table", "facing", "window", "door"),
    ("facing the headboard from the foot of the bed, the white pillow on the left", "facing", "bed", "bed"),
    ("facing the couch from the side you sit on it, choose the lamp on the left of this couch", "front_of", "couch", None),
])
def test_where_the_speaker_stands(text: str, kind: str, toward: str | None, at: str | None) -> None:
    view = read(text).view
    assert view is not None and view.kind == kind
    assert (view.toward.head if view.toward else None, view.at.head if view.at else None) == (toward, at)


def test_where_someone_stands_and_looks_across_a_list_of_adjectives() -> None:
    # "stood on … looking towards …": standing at one table, facing another; commas between adjectives end nothing.
    r = read("If you stood on the white square table looking towards the big, brown, round table, the one you want is "
             "on the left.")
    assert r.view is not None and r.view.kind == "facing"
    assert r.view.toward is not None and r.view.toward.shapes == ("round",) and r.view.toward.size is not None
    assert r.view.at is not None and r.view.at.shapes == ("square",)
    assert r.head == "table" and [s.kind for s in r.sides] == ["left"] and not r.unused


def test_left_and_right_are_sides_or_relations() -> None:
    r = read("facing the bed, the nightstand on the left")
    assert r.head == "nightstand" and [s.kind for s in r.sides] == ["left"]
    assert relations(read("the lamp to the left of the bed")) == [("left", "bed")]
    assert relations(read("the chair in front of the desk")) == [("front", "desk")]
    assert relations(read("the box behind the couch")) == [("behind", "couch")]
    assert relations(read("the nightstand on the bed's left")) == [("left", "bed")]  # its left side, not on it


def test_side_by_side_is_said_of_the_group_it_follows() -> None:
    assert [(s.word, s.kind) for s in read("the two chairs side by side").sides] == [("side by side", "together")]
    view = read("facing the two monitors next to each other, the monitor on the left").view
    assert view is not None and view.toward is not None and [s.kind for s in view.toward.sides] == ["together"]
    alone = read("the trash can that is off by itself, ignore the two trash cans next to each other")
    assert [s.kind for s in alone.sides] == ["alone"]  # not also 'together': that is the other two


@pytest.mark.parametrize("text, word, kind", [
    ("the closest chair to the door", "closest to", "closest"),
    ("it is the furthest door from the bed", "furthest from", "farthest"),
])
def test_a_superlative_before_its_noun_keeps_its_preposition(text: str, word: str, kind: str) -> None:
    (relation,) = read(text).relations  # said back whole: "the door furthest from the bed (…)"
    assert (relation.word, relation.kind, relation.references[0].head) == (word, kind, text.split()[-1])


@pytest.mark.parametrize("text, reference, side", [
    ("the lamp on the left nightstand", "nightstand", "left"),
    ("the pillow on the right white couch", "couch", "right"),
    ("the chair next to the left table", "table", "left"),
])
def test_a_side_word_before_a_reference_is_the_references(text: str, reference: str, side: str) -> None:
    r = read(text)
    assert not r.sides and not r.unused  # the nightstand on the left, not a lamp on the left
    (ref,) = r.relations[0].references
    assert ref.head == reference and [s.kind for s in ref.sides] == [side]


@pytest.mark.parametrize("text", ["the chair on the left", "the pillow on the far right side", "the towel on the right wall"])
def test_a_side_before_a_part_or_a_wall_stays_the_things(text: str) -> None:
    assert [s.kind for s in read(text).sides] == ["left" if "left" in text else "right"]


@pytest.mark.parametrize("text, head, sides, expected", [
    # A view said in a sentence of its own, the door "of the room": the next sentence names the thing.
    ("Face the door of the room.  The recycling bin you want to pick is on the right side.", "recycling bin", ["right"], []),
    # "you want …", "you will find …" after a comma say which thing is meant, as "choose …" does.
    ("the table that has 4 chairs around it, you want the chair closest to the window", "chair", [], [("closest", "window")]),
    ("when you enter the room through the door, you will find this shelf on your left", "shelf", ["left"], []),
    # "the one nearest the window": the one is the thing, nearest a relation (not "the nearest window").
    ("two computer towers are on this side, select the one nearest the window", "computer tower", [],
     [("closest", "window")]),
    # "the higher of the two": a position, one of them; "furthest to the left": the leftmost.
    ("the higher of the two shelves", "shelf", ["top"], []),
    ("facing the sink, the stall furthest to the left", "stall", ["left"], []),
    # "the can" is a trash can; "a desk stands in …" has a verb, not a stand; "side by side" says only that they are.
    ("the can to the left of the other machine", "trash can", [], [("left", "machine")]),
    ("a desk stands in the middle of the room", "desk", ["center"], []),
    ("out of the two chairs side by side, pick the one on the left", "chair", ["left"], []),
    ("if you stand looking toward the headboard of the bed, the door is the one on the left", "door", ["left"], []),
    # "toward the couches," opening a clause is where one looks; inside one, "towards the window" is nearer to it.
    ("looking at the chairs, toward the couches, it is the middle chair on the left", "chair", ["middle", "left"], []),
    ("the chair towards the window", "chair", [], [("closest", "window")]),
])
def test_which_sentence_and_which_noun_name_the_thing(text: str, head: str, sides: list[str],
                                                     expected: list[tuple[str, ...]]) -> None:
    r = read(text)
    assert (r.head, [s.kind for s in r.sides], relations(r)) == (head, sides, expected)
    assert [u.word for u in r.unused] == NOT_READ.get(text, [])


# Setting clauses the reading does not use, said so (never dropped unsaid): the table the chairs are at, "this side".
NOT_READ = {"the table that has 4 chairs around it, you want the chair closest to the window":
            ["that has", "4 chairs", "table", "around"],
            "two computer towers are on this side, select the one nearest the window": ["on", "side"]}


def test_a_clause_right_after_a_reference_is_about_the_reference() -> None:
    r = read("the chair opposite the chair which is against the wall")
    assert not r.sides and [s.kind for s in r.relations[0].references[0].sides] == ["wall"]
    r = read("the chair at the end of the table, that is near the window")  # after a comma: the thing meant again
    assert relations(r) == [("end", "table"), ("near", "window")]


def test_a_clause_opening_with_a_place_says_where_the_other_thing_is() -> None:
    # "above it is another pillow": the pillow is above it, so it is under that pillow; "to the left is a lamp": right.
    r = read("this is a white pillow on a bed. above it is another white pillow.")
    assert relations(r) == [("on", "bed"), ("under", "pillow")]
    assert relations(read("it is a chair. to the left is a table.")) == [("right", "table")]
    assert relations(read("of the chairs in the room, it is the one in front of the shelf")) == [
        ("inside", "room"), ("front", "shelf")]  # "…, it is the one in front of X": the thing meant, not the room
    assert not read("a black table. the table top is white.").sides  # its top, not the top one


def test_a_later_sentence_may_call_the_thing_by_its_kind_or_another_name() -> None:
    assert [s.kind for s in read("the strange armchair. the chair is in the corner.").sides] == ["corner"]
    assert relations(read("this is a couch. the sofa is next to the window.")) == [("near", "window")]
    assert [u.why for u in read("this is a chair. the table is brown.").unused] == ["other_thing"]


def test_a_setting_clause_names_a_reference_not_the_thing() -> None:
    # "if you are using the sinks it's the dispenser …": the sinks set the scene; the dispenser is meant.
    r = read("if you are using the sinks its the paper towel dispenser on the right")
    assert (r.head, [s.kind for s in r.sides]) == ("paper towel dispenser", ["right"])
    r = read("when the door is behind you, the chair on the right")  # a relation left waiting ends at the comma
    assert (r.head, relations(r), [s.kind for s in r.sides]) == ("chair", [], ["right"])
    r = read("if you are at the door, the chair on the left")
    assert r.head == "chair" and r.view is not None and r.view.kind == "standing" and not r.relations
    assert read("if facing the bed, the lamp on the left").head == "lamp"


def test_what_follows_a_negated_thing_is_said_of_it() -> None:
    r = read("choose the chair between the other two. it is not the one closest to the door")
    assert not r.relations and relations(r.excluded[0]) == [("closest", "door")]
    r = read("the lamp that is nearest the window. NOT the lamp that is between the two beds.")
    assert relations(r) == [("closest", "window")] and relations(r.excluded[0]) == [("between", "bed")]


def test_what_a_thing_has_as_a_part_places_it_by_nothing() -> None:
    for text in ("the monitor with a pink screen", "the cabinet with two doors", "the chair has a cream colored seat"):
        r = read(text)
        assert not r.relations and "describes" in [u.why for u in r.unused]
    assert relations(read("the desk with a chair")) == [("with", "chair")]  # a chair is no part of a desk
    assert relations(read("the chair is the closest one to the door")) == [("closest", "door")]


def test_one_as_a_reference_is_another_of_its_kind() -> None:
    r = read("the large square shelf next to the tall skinny one")
    assert relations(r) == [("near", "shelf")] and r.relations[0].references[0].size is not None
    assert relations(read("the long table at the end of three square ones")) == [("end", "table")]
    assert relations(read("the chair next to it")) == [("near", "")]  # 'it' is not 'one': no kind is given to it


def test_far_sides_of_a_thing_and_adjectives_joined_by_and() -> None:
    assert relations(read("it is on the far left side of the table")) == [("left", "table")]
    r = read("the door is left of the white and open door")
    assert relations(r) == [("left", "door")] and [u.why for u in r.unused] == ["describes"]


def test_there_is_something_by_it_later_places_the_thing() -> None:
    assert relations(read("this is a brown chair. there is a table next to it.")) == [("near", "table")]
    assert relations(read("this is a lamp. there is a book under it.")) == [("above", "book")]
    r = read("this is a chair. there are two more chairs.")  # says what else is there: the scene, not the chair
    assert (r.head, r.relations) == ("chair", ())


def test_in_between_things_is_a_relation_alone_a_place() -> None:
    assert relations(read("the table in between the two couches")) == [("between", "couch")]
    assert [s.kind for s in read("the chair in between").sides] == ["middle"]


def test_a_generic_noun_after_a_thing_names_that_thing() -> None:
    assert read("this is a white installed cabinet unit").head == "cabinet"
    assert read("the shelving unit").head == "shelving unit"  # a name of its own stays whole


def test_quoted_descriptions_read_as_unquoted() -> None:
    r = read("'The lamp that is nearest the window.'")
    assert (r.head, relations(r), r.unused) == ("lamp", [("closest", "window")], ())


def test_intensifiers_and_ends_of_rows() -> None:
    assert [s.kind for s in read("the book on the very bottom").sides] == ["bottom"]
    for text in ("the box at the end of the row", "the chair on the end"):
        ordinal = read(text).ordinal
        assert ordinal is not None and (ordinal.index, ordinal.by) == (-1, "row")
    assert relations(read("the chair at the end of the table")) == [("end", "table")]  # the end of a thing: a part
    assert relations(read("the kitchen cabinet that includes the sink")) == [("with", "sink")]


def test_there_is_something_by_this_one_means_this_one() -> None:
    r = read("there are some plants next to this cabinet")
    assert (r.head, relations(r)) == ("cabinet", [("near", "plant")])
    r = read("there is no dispenser above this trash can")
    assert (r.head, relations(r)) == ("trash can", [("not under", "dispenser")])
    assert read("there is a chair next to the table").head == "chair"  # no 'this': the chair is meant


def test_what_it_has_said_in_unknown_words_is_set_aside_with_where() -> None:
    r = read("the brown chair at the table, that does not have magazines in front of it")
    assert relations(r) == [("near", "table")]
    assert [u.word for u in r.unused] == ["magazines", "in front of it"]


def test_the_thing_named_from_its_kind_when_the_words_only_point() -> None:
    r = read("facing the sinks, it is the one on the right")
    assert r.head == "sink" and [s.kind for s in r.sides] == ["right"]
    assert read("the smaller of the shelves").head == "shelf"
    assert read("closest towel to the toilet").head == "towel"  # a superlative before the noun, no article
    assert read("you can see the lamp").head == "lamp"  # "can" after no article is only a verb


def test_shapes_and_materials() -> None:
    assert read("the square table").shapes == ("square",)
    assert read("the round table").shapes == ("round",)
    long = read("the long bench").size
    assert long is not None and long.measure == "length"
    assert read("the wooden chair").materials == ("wooden",)
    assert read("the tall lamp").size is not None


def test_room_and_flat_names_stay_with_the_thing() -> None:
    assert read("the red chair in the kitchen of flat 4A").head == "chair kitchen of flat 4a"
    assert read("4A's kitchen").head == "4a kitchen"
    assert read("the kitchen in apartment 4a").head == "kitchen apartment 4a"
    assert read("the one in the study").head == "one study"


def test_misspellings_are_read_as_the_words_meant() -> None:
    r = read("the chiar next to the tabel")
    assert (r.head, relations(r), r.corrections) == ("chair", [("near", "table")], (("chiar", "chair"), ("tabel", "table")))
    assert read("the bronw door").color is not None
    assert read("sofaa").head == "sofa"
    assert read("when you exit this place, you use this door").head == "door"  # 'place' is English: never 'plate'


def test_every_word_is_accounted_for() -> None:
    r = read("the chair with the creepy person sitting at it")
    assert "creepy" in [u.word for u in r.unused]
    assert {u.why for u in r.unused} <= {"unknown", "describes", "loose", "other_thing", "kind_of", "looks_like", "earlier"}
    assert "chair" in " ".join(r.used)


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


def test_a_room_word_after_a_relation_is_where_to_look_or_a_thing() -> None:
    assert read("the chair in the kitchen").head == "chair kitchen"  # where to look
    hamper = read("the laundry hamper on the right side of the closet.")  # a closet: the thing it is beside
    assert (hamper.head, relations(hamper), hamper.unused) == ("laundry hamper", [("right", "closet")], ())
    far = read("This window is on the opposite side of the room from the whiteboard")  # opposite the whiteboard
    assert (far.head, relations(far), far.unused) == ("window", [("opposite", "whiteboard")], ())


def test_what_follows_a_reference_naming_nothing_known_is_said_of_the_thing() -> None:
    plant = read("the plant in the pot on the left side of the tv stand")  # 'pot' unknown: the stand places the plant
    assert (plant.head, relations(plant), [(u.word, u.why) for u in plant.unused]) == (
        "plant", [("left", "tv stand")], [("pot", "unknown")])


def test_every_word_of_content_is_used_or_said_unused() -> None:
    setting = read("there are four chairs in the kitchen. choose the green one.")  # where the chairs are, the chair is
    assert (setting.head, setting.unused) == ("chair kitchen", ())
    other = read("there are four chairs in the kitchen. choose the green lamp.")  # not the lamp's place: said so
    assert [u.word for u in other.unused] == ["in", "the kitchen", "four", "chairs"]
    nightstand = read("there are two nightstands by the bed. choose the one with a lamp on it.")  # by the bed, too
    assert (nightstand.head, relations(nightstand), nightstand.unused) == (
        "nightstand", [("supporting", "lamp"), ("near", "bed")], ())
    couches = read("There are two green couches with circular end tables. Choose the other couch.")
    assert relations(couches) == [("with", "end table")]  # the couches' end tables are this one's too
    assert [u.word for u in couches.unused] == ["two", "green"]  # said of both: not used to tell them apart
