"""One reading of a description: what it names, what narrows it, where the speaker stands, and the words left over.

`grammar.read` turns words ("facing the bed, the lamp on the left that is not on the dresser") into a
`Reading`; every caller uses this one structure: the `find` tool resolves it against a scene and shows
it in `find --json`, the planners pick their questions from it, and a pick answered in words is read the
same way. A `Reading` names no codes: what its words mean in a scene is resolution's business.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from scene_agent.language.color_words import ColorWord
from scene_agent.language.order_words import OrderWord
from scene_agent.language.relation_words import RelationKind, SideKind, ViewKind
from scene_agent.language.size_words import SizeWord

OrdinalBy = Literal["size", "height", "length", "depth", "left", "right", "top", "bottom", "front", "back", "row"]
ShapeWord = Literal["round", "square", "rectangular", "long", "flat", "tall", "short", "wide", "narrow", "l-shaped"]


UnusedWhy = Literal["unknown", "describes", "loose", "other_thing", "earlier", "kind_of", "looks_like", "no_such",
                    "none_fits", "fits_none", "no_view", "no_front", "not_there", "excludes_none", "middle_of_two", "two_ends",
                    "no_colour", "instead", "named_other", "untyped", "by_a_room", "part_of", "a_part"]


@dataclass(frozen=True)
class Unused:
    """Words the reading (or the scene) could not use, why, and what about (`about`: the other thing's name)."""

    word: str
    why: UnusedWhy
    about: str = ""


@dataclass(frozen=True)
class Relation:
    """The thing is placed relative to others: 'next to the sofa', 'between the bed and the door', 'not on the table'."""

    word: str
    kind: RelationKind
    references: tuple[Reading, ...] = ()
    negated: bool = False
    count: int | None = None  # "the table with four chairs around it"


@dataclass(frozen=True)
class Side:
    """Where the thing is among its kind or in its room: 'on the left', 'the middle one', 'in the corner'."""

    word: str
    kind: SideKind
    negated: bool = False


@dataclass(frozen=True)
class Ordinal:
    """A position in an order: 'the second largest' (by size), 'third from the left', 'the last one in the row'.

    `index` counts from 0 at the start of the order ("largest", "from the left"); -1 is the last.
    """

    word: str
    index: int
    by: OrdinalBy
    smallest_first: bool = False  # 'the second smallest': counted from the small end of `by`


@dataclass(frozen=True)
class View:
    """Where the speaker stands or looks: 'facing the bed', 'looking at the front of the desk', 'as you enter'."""

    word: str
    kind: ViewKind
    toward: Reading | None = None  # what they face or look at (or have their back to)
    at: Reading | None = None      # where they stand


@dataclass(frozen=True)
class Reading:
    """A description in parts. `head` is what the thing is called ('chair', 'kitchen chair'; '' for 'the one', 'it')."""

    text: str
    head: str = ""
    said: str = ""  # the head's noun as written ("cabinets"; `head` has its usual form): a scene's own name wins
    part: str | None = None  # "the foot of the bed": the bed, at its foot
    plural: bool = False
    colors: tuple[ColorWord, ...] = ()
    size: SizeWord | None = None
    shapes: tuple[ShapeWord, ...] = ()
    materials: tuple[str, ...] = ()
    relations: tuple[Relation, ...] = ()
    sides: tuple[Side, ...] = ()
    ordinal: Ordinal | None = None
    order: OrderWord | None = None
    view: View | None = None
    excluded: tuple[Reading, ...] = ()
    corrections: tuple[tuple[str, str], ...] = ()  # ("sofaa", "sofa"): what a misspelt word was read as
    used: tuple[str, ...] = ()
    unused: tuple[Unused, ...] = field(default=())

    @property
    def color(self) -> ColorWord | None:
        """The first colour word, if any."""
        return self.colors[0] if self.colors else None

    @property
    def qualified(self) -> bool:
        """True when some word narrows which one is meant."""
        return bool(self.colors or self.size or self.shapes or self.materials or self.relations or self.sides
                    or self.ordinal or self.order or self.excluded)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Which kinds of words narrow it: color, size, place, order (the planner's and the bench's vocabulary)."""
        kinds = []
        if self.colors or self.materials:
            kinds.append("color")
        if self.size or self.shapes or (self.ordinal and self.ordinal.by in ("size", "height", "length", "depth")):
            kinds.append("size")
        if self.relations or self.sides or (self.ordinal and self.ordinal.by not in ("size", "height", "length", "depth")):
            kinds.append("place")
        if self.order:
            kinds.append("order")
        return tuple(kinds)

    def without(self, *parts: str) -> Reading:
        """The same reading with some parts dropped ('colors', 'relations' …): what the words mean without them."""
        empty: dict[str, object] = {"size": None, "ordinal": None, "order": None, "view": None}
        return replace(self, **{part: empty.get(part, ()) for part in parts})  # type: ignore[arg-type]

    def references(self) -> tuple[Reading, ...]:
        """Every other thing the reading mentions: its relations' references, its view's, its exclusions."""
        found = [ref for relation in self.relations for ref in relation.references]
        if self.view is not None:
            found += [r for r in (self.view.toward, self.view.at) if r is not None]
        return tuple(found)


def names_nothing(head: str) -> bool:
    """True when the head is only a pronoun or empty ('the red one', 'the first'): it refers to what was listed."""
    return all(w in PRONOUNS or w in ("the", "a", "an") for w in head.split())


PRONOUNS = frozenset({"one", "ones", "thing", "things", "it", "that", "this", "them", "those", "these", "object", "objects",
                      "item", "items"})
