"""Noun phrases and the things they describe, as the grammar (grammar.py) builds them.

`noun_phrase` reads one noun phrase from the tagged pieces: its determiner, count, ordinal, colour, size,
shape, material and position words, its noun (the last of several: 'kitchen chair' is a chair in a kitchen,
'sofa table' a table by a sofa), a part ('the end of the table' is about the table, at its end) and a
partitive ('the smaller of the shelves' is one of the shelves). A `Thing` gathers what a description says
about one thing across its clauses and becomes a `Reading` when the walk is done.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scene_agent.language.color_words import ColorWord
from scene_agent.language.lexicon import NounHit
from scene_agent.language.order_words import OrderWord
from scene_agent.language.reading import Ordinal, OrdinalBy, Reading, Relation, ShapeWord, Side, Unused, View
from scene_agent.language.size_words import SizeWord
from scene_agent.language.tokens import Piece

_SIZE_ORDER = {"size", "height", "length", "depth"}
_PARTITIVE_HEADS = frozenset({"one", "ones", "smaller", "larger", "bigger", "biggest", "largest", "smallest", "taller",
                              "shorter", "tallest", "shortest", "left", "right", "middle"})


@dataclass
class NounPhrase:
    """One noun phrase as read: its noun and the words around it."""

    text: str
    text_without_det: str = ""
    noun: NounHit | None = None
    said: str = ""  # the noun as written ("cabinets"), where `noun` has its usual form ("cabinet")
    modifiers: list[NounHit] = field(default_factory=list)  # nouns before the last one: rooms, or things it is by
    pronoun: bool = False
    plural: bool = False
    other: bool = False
    count: int | None = None
    colors: list[ColorWord] = field(default_factory=list)
    size: SizeWord | None = None
    shapes: list[ShapeWord] = field(default_factory=list)
    materials: list[str] = field(default_factory=list)
    sides: list[Side] = field(default_factory=list)
    ordinal: Ordinal | None = None
    superlative: str | None = None
    part: str | None = None
    partitive: NounPhrase | None = None
    words_only: bool = False
    used: list[str] = field(default_factory=list)
    unused: list[Unused] = field(default_factory=list)


def _corner_of_a_thing(np: NounPhrase, pieces: list[Piece], inner_start: int) -> bool:
    """'the corner of the table' is a part of the table ('the corner of the room' is the room's)."""
    if np.noun is None or np.noun.words != "corner":
        return False
    inner, _ = noun_phrase(pieces, inner_start)
    return inner.noun is not None and inner.noun.kind == "object"


def noun_phrase(pieces: list[Piece], i: int) -> tuple[NounPhrase, int]:
    """The noun phrase starting at pieces[i] and the index just after it."""
    np = NounPhrase(text="")
    ordinal_at: int | None = None
    words: list[str] = []
    while i < len(pieces):
        piece = pieces[i]
        kind = piece.kind
        if np.noun is not None and kind in ("det", "other", "num", "ord", "color", "size", "shape", "material", "side"):
            break  # "facing the windows the chair on the left": a new noun phrase begins
        if kind == "det":
            if piece.words[0] in ("these", "those", "both", "all"):
                np.plural = True
        elif kind == "other":
            np.other = True
        elif kind == "num":
            np.count = int(piece.value) or None  # type: ignore[call-overload]
            np.plural = np.plural or (np.count or 0) > 1  # "两把椅子" reads "two chair": two is more than one
            np.used.append(piece.text)
        elif kind == "ord":
            ordinal_at = int(piece.value)  # type: ignore[call-overload]
            np.used.append(piece.text)
        elif kind == "color":
            np.colors.append(piece.value)  # type: ignore[arg-type]
            np.used.append(piece.text)
        elif kind == "size":
            np.size = piece.value  # type: ignore[assignment]
            np.used.append(piece.text)
        elif kind == "shape":
            np.shapes.append(piece.value)  # type: ignore[arg-type]
            np.used.append(piece.text)
        elif kind == "material":
            np.materials.append(str(piece.value))
            np.used.append(piece.text)
        elif kind == "side" and np.noun is None:
            np.sides.append(Side(piece.text, piece.value))  # type: ignore[arg-type]
            np.used.append(piece.text)
        elif kind == "rel" and np.noun is None and not np.pronoun and piece.value in ("closest", "farthest") and len(piece.words) == 1:
            np.superlative = piece.words[0]
            np.used.append(piece.text)
        elif kind in ("word", "filler") and _noun_ahead(pieces, i) and (np.noun is not None or words):
            # "the toilet cover dispenser", "the open door": a word inside a noun phrase, describing it
            np.unused.append(Unused(piece.text, "describes"))
        elif kind == "noun" and np.noun is not None and np.noun.kind == "object" and piece.value.kind == "generic":  # type: ignore[attr-defined]
            np.used.append(piece.text)  # "a cabinet unit", "the storage item": the thing is the cabinet
        elif kind == "noun":
            if np.noun is not None:
                np.modifiers.append(np.noun)
            np.noun = piece.value  # type: ignore[assignment]
            np.said = piece.text
            np.plural = np.plural or _plural(piece)
            np.used.append(piece.text)
        elif kind == "pron" and np.noun is None:
            np.pronoun = True
            np.plural = np.plural or piece.words[0] in ("ones", "they", "them")
        elif kind == "name" and i + 1 < len(pieces) and pieces[i + 1].kind == "noun" and np.noun is None:
            np.modifiers.append(NounHit(piece.text, "room"))  # "the 4a kitchen"
            np.used.append(piece.text)
        elif kind == "name" and i + 1 < len(pieces) and pieces[i + 1].kind == "poss":
            np.modifiers.append(NounHit(piece.text, "room"))
            np.used.append(piece.text)
            i += 2
            words += [*piece.words, "'s"]
            continue
        elif kind == "poss" and np.noun is not None and i + 1 < len(pieces) and pieces[i + 1].kind == "noun":
            np.modifiers.append(np.noun)  # "4a's kitchen", "the bed's foot"
            np.noun = None
        else:
            break
        words += piece.words
        i += 1
    # "the end of the table", "the smaller of the shelves", "the kitchen of flat 4a"
    if i + 1 < len(pieces) and pieces[i].kind == "of":
        inner_start = i + 1
        if np.noun is not None and (np.noun.kind == "part" or _corner_of_a_thing(np, pieces, inner_start)) and \
                pieces[inner_start].kind in ("det", "noun", "color", "size", "other"):
            inner, i = noun_phrase(pieces, inner_start)
            np = _with_part(np, inner)
            words = [*words, "of", *inner.text.split()]
        elif (np.noun is None or np.noun.words in _PARTITIVE_HEADS) and pieces[inner_start].kind in ("det", "num", "noun", "other"):
            inner, i = noun_phrase(pieces, inner_start)
            np.partitive = inner
            np.used += inner.used
            words = [*words, "of", *inner.text.split()]
        elif np.noun is not None and np.noun.kind == "room":
            j = inner_start
            extra = []
            while j < len(pieces) and pieces[j].kind in ("word", "det", "noun", "num", "name", "shape"):
                extra += [w for w in pieces[j].words if pieces[j].kind != "det"]
                j += 1
            np.modifiers.append(NounHit(" ".join(extra), "room"))
            words += ["of", *[w for p in pieces[inner_start:j] for w in p.words]]
            i = j
    # "the second from the left", "the third shelf from the top"
    if ordinal_at is not None:
        counted_from = i
        np.ordinal, i = _ordinal(np, ordinal_at, pieces, i)
        np.used += [p.text for p in pieces[counted_from:i]]  # "from the left": where the counting starts
    np.text = " ".join(words)
    np.text_without_det = " ".join(w for w in words if w not in ("the", "a", "an", "this", "that", "'s"))
    np.words_only = np.noun is None and not np.pronoun and bool(np.unused)
    return np, i


def _noun_ahead(pieces: list[Piece], i: int) -> bool:
    j = i + 1
    while j < len(pieces) and pieces[j].kind in ("word", "filler", "color", "size", "shape", "material") and j < i + 4:
        j += 1
    return j < len(pieces) and pieces[j].kind in ("noun", "pron")


def _plural(piece: Piece) -> bool:
    last = piece.words[-1]
    return last.endswith("s") and not last.endswith("ss") and piece.value is not None and isinstance(piece.value, NounHit) \
        and piece.value.words.split()[-1] != last


def _with_part(outer: NounPhrase, inner: NounPhrase) -> NounPhrase:
    """'the left end of the long table': the inner thing, with the outer words' qualifiers and its part."""
    inner.part = outer.noun.words if outer.noun else None
    inner.used += outer.used
    if outer.ordinal is not None and inner.ordinal is None:
        inner.ordinal = outer.ordinal
    return inner


def _ordinal(np: NounPhrase, index: int, pieces: list[Piece], i: int) -> tuple[Ordinal | None, int]:
    word = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"][index] if index >= 0 else "last"
    if np.size is not None and np.size.strict:
        measure: OrdinalBy = np.size.measure
        return Ordinal(f"{word} {np.size.word}", index, measure, smallest_first=np.size.extreme == "min"), i
    if i + 1 < len(pieces) and pieces[i].kind in ("filler", "word", "view") and pieces[i].words[0] == "from":
        j = i + 2 if pieces[i + 1].kind == "det" and i + 2 < len(pieces) else i + 1
        if pieces[j].kind == "side" or (pieces[j].kind == "noun" and pieces[j].words[0] in ("top", "bottom", "left", "right")):
            end = pieces[j]
            axis = str(end.value) if end.kind == "side" else end.words[0]
            return Ordinal(f"{word} from {end.text}", index, _side_axis(axis)), j + 1
    if np.sides:
        side = np.sides.pop()
        return Ordinal(f"{word} {side.word}", index, _side_axis(side.kind)), i
    return Ordinal(word, index, "row"), i


def _side_axis(side: str) -> OrdinalBy:
    """The order a side word counts along ('from the left' → left); the middle has none of its own (a row's)."""
    axis = {"middle": "row", "center": "row", "back": "back", "front": "front"}.get(side, side)
    return axis if axis in ("left", "right", "top", "bottom", "front", "back") else "row"  # type: ignore[return-value]


@dataclass
class Link:
    """A relation as the walk finds it: its words and kind, the things it is relative to (still being described)."""

    word: str
    kind: str
    things: list[Thing]
    negated: bool = False
    count: int | None = None

    def relation(self, seen: frozenset[int] = frozenset()) -> Relation:
        """The finished relation (`seen`: the things already being read, so that 'the X by the Y … the Y left of it'
        does not read without end)."""
        return Relation(self.word, self.kind, tuple(t.reading(t.text, seen=seen) for t in self.things),  # type: ignore[arg-type]
                        negated=self.negated, count=self.count)


@dataclass
class Thing:
    """What a description says about one thing, gathered across its clauses."""

    noun: str | None = None
    said: str = ""
    noun_kind: str | None = None
    limits: list[str] = field(default_factory=list)  # where to look: rooms, floors, codes, names ("kitchen", "floor 1")
    text: str = ""
    plural: bool = False
    other: bool = False
    pronoun: bool = False
    count: int | None = None
    colors: list[ColorWord] = field(default_factory=list)
    size: SizeWord | None = None
    shapes: list[ShapeWord] = field(default_factory=list)
    materials: list[str] = field(default_factory=list)
    relations: list[Link] = field(default_factory=list)
    sides: list[Side] = field(default_factory=list)
    ordinal: Ordinal | None = None
    excluded: list[Thing] = field(default_factory=list)
    view: tuple[str, str] | None = None  # the view's words and kind
    view_toward: Thing | None = None
    view_at: Thing | None = None
    partitive: Thing | None = None
    part: str | None = None  # "the end of the table": the table, at its end
    modifiers: list[str] = field(default_factory=list)  # "sofa" of "sofa table": said, not used to narrow

    @property
    def head_words(self) -> list[str]:
        """The head as the scene reads it: the noun (a pronoun placed by a room: 'one') and where to look."""
        if self.noun is None:
            return ["one", *self.limits] if self.limits and self.pronoun else list(self.limits)
        return [self.noun, *self.limits]

    @property
    def name(self) -> str:
        """What it is called, if anything."""
        return self.noun or ""

    @classmethod
    def of(cls, np: NounPhrase) -> Thing:
        """A thing described by one noun phrase."""
        thing = cls()
        thing.take(np)
        return thing

    def take(self, np: NounPhrase, head: bool = True) -> None:
        """Add what a noun phrase says; with `head`, its noun names the thing (when it names nothing yet)."""
        self.text = self.text or np.text
        if head and np.noun is not None and (self.noun is None or self.noun_kind != "object"):
            rooms = [m.words for m in np.modifiers if m.kind == "room"]
            nearby = [m for m in np.modifiers if m.kind == "object"]
            if np.noun.kind == "room" and self.noun is None:
                self.limits = [*rooms, np.noun.words, *self.limits]
            else:
                if self.noun_kind == "room" and self.noun is not None:
                    self.limits.insert(0, self.noun)  # "kitchen, the chair": the room first, the thing after
                self.noun, self.said = np.noun.words, np.said
                self.limits += rooms
            self.noun_kind = np.noun.kind if np.noun.kind != "room" or self.noun_kind is None else self.noun_kind
            self.modifiers += [noun.words for noun in nearby]
        self.plural = self.plural or np.plural
        self.other = self.other or np.other
        self.pronoun = self.pronoun or (np.pronoun and np.noun is None)
        self.count = self.count or np.count
        self.colors += np.colors
        self.size = self.size or np.size
        self.shapes += np.shapes
        self.materials += np.materials
        self.sides += np.sides
        self.ordinal = self.ordinal or np.ordinal
        if np.superlative is None and np.part in ("left side", "right side", "left end", "right end"):
            self.sides.append(Side(np.part, "left" if np.part.startswith("left") else "right"))
        if np.partitive is not None:
            self.partitive = Thing.of(np.partitive)
        self.part = self.part or np.part

    def _view(self, seen: frozenset[int]) -> View | None:
        if self.view is None:
            return None
        word, kind = self.view
        toward, at = self.view_toward, self.view_at
        return View(word, kind, toward=toward.reading(toward.text, seen=seen) if toward else None,  # type: ignore[arg-type]
                    at=at.reading(at.text, seen=seen) if at else None)

    def order_word(self) -> OrderWord | None:
        """'the other one', 'the second one', 'the last': a position among listed things (answering a pick, a
        follow-up), when the words give no order of their own."""
        if self.other and (self.pronoun or self.noun):
            return OrderWord(word="the other", kind="other")
        if self.ordinal is not None and self.ordinal.by == "row":
            if self.ordinal.index < 0:
                return OrderWord(word=self.ordinal.word, kind="last")
            return OrderWord(word=self.ordinal.word, kind="nth", index=self.ordinal.index)
        return None

    def reading(self, text: str, *, order: OrderWord | None = None, corrections: list[tuple[str, str]] | None = None,
                unused: list[Unused] | None = None, used: list[str] | None = None, seen: frozenset[int] = frozenset()
                ) -> Reading:
        """The finished reading of this thing (a thing met again inside its own reading is read by its name only)."""
        if id(self) in seen:
            return Reading(text=text, head=" ".join(self.head_words), said=self.said)
        seen = seen | {id(self)}
        size = None if self.ordinal is not None and self.ordinal.by in _SIZE_ORDER else self.size
        return Reading(text=text, head=" ".join(self.head_words), said=self.said, part=self.part, plural=self.plural,
                       colors=tuple(self.colors),
                       size=size, shapes=tuple(dict.fromkeys(self.shapes)), materials=tuple(dict.fromkeys(self.materials)),
                       relations=tuple(link.relation(seen) for link in self.relations), sides=tuple(self.sides),
                       ordinal=self.ordinal, order=order, view=self._view(seen),
                       excluded=tuple(t.reading(t.text, seen=seen) for t in self.excluded),
                       corrections=tuple(corrections or ()), used=tuple(dict.fromkeys(used or ())),
                       unused=tuple(unused or ()))
