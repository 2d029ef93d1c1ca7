"""Shapes of clauses and phrases the grammar's walk recognises: a clause opening with 'there is' (and the thing it
points at: 'there are plants next to this cabinet'), one opening with its place ('above it is …'), a side or
superlative inside a noun phrase ('the left chair', 'the closest chair'), whether a later noun names the thing
already described, and the kind a thing with no name is said to be among ('the smaller of the shelves').
"""

from __future__ import annotations

from scene_agent.language.lexicon import NounHit
from scene_agent.language.phrase_parts import Link, Thing
from scene_agent.language.relation_words import INVERSE
from scene_agent.language.tokens import Piece
from scene_agent.language.views import starts_np
from scene_agent.language.vocabulary import head_noun


def there_is(pieces: list[Piece]) -> bool:
    """Whether a sentence opens with 'there is' / 'there are'."""
    return len(pieces) > 1 and pieces[0].words == ("there",) and pieces[1].kind == "cop"


def pointed_at(target: Thing) -> tuple[Thing, Thing] | None:
    """'there are some plants next to this cabinet', 'there is no sofa behind this desk': the thing meant is the one
    pointed at, placed by what is (or is not) there. The thing pointed at, and the one it is now placed by; None when
    the clause points at nothing."""
    links = [link for link in target.relations if len(link.things) == 1 and
             link.things[0].text.split()[:1] in (["this"], ["these"]) and link.kind in INVERSE]
    if len(links) != 1 or target.text.split()[:1] in (["this"], ["these"]) or links[0].things[0].noun is None:
        return None
    link = links[0]
    pointed = link.things[0]
    denied = bool(target.excluded) and target.excluded[0].noun == target.noun
    placed_by = Thing(noun=target.noun, said=target.said, noun_kind=target.noun_kind, text=target.text,
                      plural=target.plural, colors=target.colors, size=target.size)
    pointed.relations.append(Link(link.word, INVERSE[link.kind], [placed_by], negated=denied != link.negated))
    pointed.view, pointed.view_toward, pointed.view_at = target.view, target.view_toward, target.view_at
    return pointed, placed_by


def kind_among(target: Thing, things: list[Thing]) -> str | None:
    """No name for the thing meant ('facing the sinks, it is the one on the right'): the kind named in the plural or
    after 'of' ('the smaller of the shelves', 'in the middle of the other plants') is what it is among."""
    viewed = [t for t in (target.view_toward, target.view_at) if t is not None]
    candidates = [t for t in viewed if t.plural] + [t for t in things if t.plural or t.other or (t.count or 0) > 1]
    if len(viewed) == 2 and viewed[0].noun is not None and viewed[0].noun == viewed[1].noun:
        candidates.append(viewed[0])  # "standing at the white table looking at the round one, …": one of the tables
    if target.partitive is not None:
        candidates.insert(0, target.partitive)
    return next((t.noun for t in candidates if t.noun and t.noun_kind == "object"), None)


def there_by_it(pieces: list[Piece]) -> list[Piece] | None:
    """'there is a table next to it' said after the thing was named: 'it is next to a table' (None when the sentence
    is not so)."""
    k = next((k for k in range(3, len(pieces)) if pieces[k].kind == "rel"), None)
    if k is None or str(pieces[k].value) not in INVERSE or pieces[k + 1:k + 2] == [] or pieces[k + 1].words != ("it",) \
            or any(p.kind not in ("stop",) for p in pieces[k + 2:]) or not starts_np(pieces[2]):
        return None
    turned = Piece("rel", pieces[k].words, INVERSE[str(pieces[k].value)])
    return [Piece("pron", ("it",)), pieces[1], turned, *pieces[2:k], *pieces[k + 2:]]


def fronted(pieces: list[Piece], i: int) -> int | None:
    """Where the other thing starts in a clause that opens with its place: 'above it is …', 'to its left is …', 'to
    the left is …' (None when the clause is not such)."""
    if i > 0 and pieces[i - 1].kind not in ("stop", "comma", "and"):
        return None
    j = i + 1
    if pieces[i].kind == "rel":
        if not (j < len(pieces) and pieces[j].kind == "pron" and pieces[j].words[0] == "it"):
            return None
        j += 1
    elif pieces[i].value not in ("left", "right", "front", "back"):
        return None
    if j + 1 < len(pieces) and pieces[j].kind == "cop" and starts_np(pieces[j + 1]) and pieces[j + 1].kind != "pron":
        return j + 1
    return None


def adjective_side(pieces: list[Piece], i: int) -> bool:
    """'the left chair', 'the middle one', 'the top shelf': a side word inside a noun phrase, not after it."""
    before = pieces[i - 1].kind if i > 0 else None
    after = pieces[i + 1] if i + 1 < len(pieces) else None
    return before in ("det", "other", "num", "ord") and after is not None and after.kind in ("noun", "pron", "color", "size",
                                                                                            "shape", "material")


def adjective_rel(pieces: list[Piece], i: int) -> bool:
    """'the closest chair to the door': a superlative place word before the noun."""
    piece = pieces[i]
    before = pieces[i - 1].kind if i > 0 else None
    after = pieces[i + 1] if i + 1 < len(pieces) else None
    return (piece.value in ("closest", "farthest") and len(piece.words) == 1 and before in ("det", "ord", "stop", None)
            and after is not None and after.kind in ("noun", "pron", "color", "size"))


def same_kind(noun: NounHit, thing: Thing) -> bool:
    """Whether a noun names the kind of thing already described ('the chair' after 'this is a brown chair')."""
    if not thing.noun:
        return False
    head = thing.noun.split()[-1]
    words = noun.words.split()
    if words[-1] == head or noun.words == thing.noun or head in words:
        return True
    # "the armchair … the chair", "the couch … the sofa": a kind of it, or another name for it
    return (len(words[-1]) >= 4 and head.endswith(words[-1])) or head_noun(noun.words) == head_noun(thing.noun)


def place_before(pieces: list[Piece], i: int) -> str | None:
    """The place a 'with' at i is said of, when it follows one that is no thing of a scan: a wall ('on the wall with
    two pictures') or a part of the room ('the side with two monitors'); None otherwise."""
    before = pieces[i - 1] if i > 0 else None
    if before is None:
        return None
    if before.kind == "side" and before.value == "wall":
        return "wall"
    if before.kind == "noun" and isinstance(before.value, NounHit) and before.value.kind == "part" and (
            i < 2 or pieces[i - 2].kind == "det"):
        return before.value.words
    return None
