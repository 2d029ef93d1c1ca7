"""Where the speaker stands, as a clause says it: 'facing the bed,', 'standing at the door looking at the windows,',
'as you enter through the door,', 'facing the couch from the side you sit on it,'.

`read_view` reads the clause from its view word up to the comma (or to where the main clause begins) into a
`ViewClause`: its kind (facing, front_of, back_to, standing, entering), what is looked at and where one stands,
each a `Thing` of its own. The grammar (grammar.py) keeps the clause with the thing meant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from scene_agent.language.phrase_parts import Link, NounPhrase, Thing, noun_phrase
from scene_agent.language.reading import Side, Unused
from scene_agent.language.tokens import Piece


class Words(Protocol):
    """What a reader keeps of the words it reads: which were used, which not, and every thing they name."""

    used: list[str]
    unused: list[Unused]

    def note(self, np: NounPhrase) -> None:
        """Record a noun phrase's used and unused words."""

    def thing(self, np: NounPhrase) -> Thing:
        """The thing a noun phrase names, kept among the things mentioned."""


@dataclass(frozen=True)
class ViewClause:
    """A view clause read: its words, its kind, what is looked at and where one stands."""

    word: str
    kind: str
    toward: Thing | None
    at: Thing | None


def starts_np(piece: Piece) -> bool:
    """Whether a noun phrase may start with this piece."""
    return piece.kind in ("det", "other", "num", "color", "size", "shape", "material", "noun")


def read_view(pieces: list[Piece], i: int, words: Words) -> tuple[ViewClause, int]:
    """The view clause starting at pieces[i] (a view word) and the index just after it."""
    piece = pieces[i]
    start = i
    words.used.append(piece.text)
    kind = piece.value
    toward: Thing | None = None
    at: Thing | None = None
    standing_at = False
    i += 1
    while i < len(pieces) and pieces[i].kind not in ("comma", "stop"):
        current = pieces[i]
        if current.kind == "view" or (current.kind == "rel" and current.value == "facing" and (toward or at)):
            words.used.append(current.text)
            if kind == "standing":
                kind = "facing" if current.value != "front_of" else "front_of"
            elif current.value == "standing":
                standing_at = True  # "facing the headboard from the foot of the bed": where one stands comes next
            i += 1
            continue
        if current.kind in ("det", "other", "num", "color", "size", "shape", "material", "noun", "pron"):
            if toward is not None and current.kind in ("det", "pron") and kind != "standing":
                break  # "facing the sinks it is the one on the right": the main clause begins
            np, i = noun_phrase(pieces, i)
            words.note(np)
            thing = words.thing(np)
            if np.part in ("front", "front side", "head", "headboard") and kind == "facing":
                kind = "front_of"
            if (kind == "standing" or standing_at) and at is None:
                at = thing
            elif toward is None:
                toward = thing
            continue
        if current.words[0] in ("through", "via") and i + 1 < len(pieces) and starts_np(pieces[i + 1]):
            np, i = noun_phrase(pieces, i + 1)  # "as you enter through the door": the way in, a door
            words.note(np)
            words.used.append(current.text)
            if kind == "entering" and at is None:
                at = words.thing(np)  # "through the white door": which door, where one stands
            continue
        if current.kind == "of" and (toward or at) is not None and i + 1 < len(pieces) and starts_np(pieces[i + 1]):
            np, i = noun_phrase(pieces, i + 1)  # "face the door of the room": the room it is in, or the room itself
            words.note(np)
            if np.noun is not None and np.noun.kind == "room":
                (toward or at).limits.append(np.text_without_det)  # type: ignore[union-attr]
            continue
        if current.kind == "side" and current.value == "together" and (toward or at) is not None:
            words.used.append(current.text)  # "facing the two monitors next to each other": those two
            (toward or at).sides.append(Side(current.text, "together"))  # type: ignore[union-attr]
            i += 1
            continue
        if current.kind == "rel" and (toward or at) is not None:
            owner = toward or at
            assert owner is not None
            words.used.append(current.text)
            j = i + 1
            if j < len(pieces) and pieces[j].kind in ("det", "other", "num", "color", "size", "noun", "pron"):
                np, j = noun_phrase(pieces, j)
                words.note(np)
                owner.relations.append(Link(current.text, str(current.value), [words.thing(np)]))
            i = j
            continue
        if current.words[0] == "from" and i + 1 < len(pieces) and "sit" not in _words_until_comma(pieces, i) \
                and starts_np(pieces[i + 1]) and at is None:
            words.used.append(current.text)
            np, i = noun_phrase(pieces, i + 1)  # "looking at the window from the door"
            words.note(np)
            at = words.thing(np)
            continue
        if current.words[0] == "from" and i + 1 < len(pieces) and "sit" in _words_until_comma(pieces, i):
            kind = "front_of"  # "facing the couch from the side you sit on it": facing its front
            while i < len(pieces) and pieces[i].kind not in ("comma", "stop"):
                i += 1
            continue
        if current.kind == "word":
            words.unused.append(Unused(current.text, "unknown"))
        i += 1
    if toward is not None and toward.noun_kind == "part" and at is not None and at.noun:
        # "facing the headboard from the foot of the bed": the headboard of that bed
        toward = Thing(noun=at.noun, said=at.said, noun_kind=at.noun_kind, text=at.text, part=toward.noun)
    said = " ".join(w for p in pieces[start:i] for w in p.words)
    if kind == "facing" and ("sit on" in said or "front of" in said or "front side" in said):
        kind = "front_of"  # "facing the chair from the side you sit on it": facing its front
    view_kind = kind if kind in ("facing", "front_of", "back_to", "standing", "entering") else "facing"
    return ViewClause(piece.text, view_kind, toward, at), i



def _words_until_comma(pieces: list[Piece], i: int) -> list[str]:
    out: list[str] = []
    while i < len(pieces) and pieces[i].kind not in ("comma", "stop"):
        out += pieces[i].words
        i += 1
    return out


def promote_view(target: Thing) -> None:
    """'look at the picture right above the seat': no clause after the view, so what it looks at is the thing
    meant, and the words after it place that thing."""
    seen = target.view_toward
    assert seen is not None
    target.noun, target.noun_kind, target.said = seen.noun, seen.noun_kind, seen.said
    for part in ("limits", "colors", "shapes", "materials", "relations", "sides", "excluded"):
        getattr(target, part).extend(getattr(seen, part))
    target.size = target.size or seen.size
    target.plural = seen.plural
    target.view, target.view_toward = None, None
