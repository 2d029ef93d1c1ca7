"""What the sentences around the one that picks say, and the last check that every word was accounted for.

A sentence before the one that picks ("there are four chairs in the kitchen. choose the green one.") sets the
scene: the things it names are references the rest may mention, and what it says of things of the thing's kind
(where they are, what they are by) is said of the thing (`Setting`, `apply_settings`). After the walk, `unaccounted`
reports any word of content that was neither used nor set aside with a reason (docs/language.md, "Words left over").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scene_agent.language.phrase_parts import NounPhrase, Thing, noun_phrase
from scene_agent.language.reading import Unused
from scene_agent.language.tokens import Piece
from scene_agent.language.views import Words, starts_np
from scene_agent.language.words import singular_phrase

# Pieces that say something of a thing; function words (the, is, located, select …) say nothing to lose.
CONTENT = frozenset({"noun", "color", "size", "shape", "material", "word", "side", "rel", "num", "view", "ord"})


@dataclass(frozen=True)
class Setting:
    """What an earlier sentence says of things of one kind: 'four chairs in the kitchen', 'two nightstands by the bed'."""

    kind: str
    relation: Piece
    other: NounPhrase


def read_setting(sentence: list[Piece], words: Words) -> list[Setting]:
    """A sentence before the one that picks ('look for the bed. choose the pillow …'): the things it names become
    references the rest may mention, and what it says of things of a kind is kept for the thing meant."""
    settings: list[Setting] = []
    i = 0
    kind: str | None = None
    while i < len(sentence):
        if starts_np(sentence[i]):
            np, i = noun_phrase(sentence, i)
            if np.noun is not None and np.noun.kind == "object":
                kind = np.noun.words
            if np.noun is not None:
                words.thing(np)  # "find the dining table. choose the green chair next to it": it is the table
            continue
        if sentence[i].kind == "rel" and kind is not None and i + 1 < len(sentence) and starts_np(sentence[i + 1]):
            other, after = noun_phrase(sentence, i + 1)
            if other.noun is not None and other.noun.kind in ("object", "room"):  # "… chairs in the kitchen"
                settings.append(Setting(kind, sentence[i], other))
                i = after
                continue
        if sentence[i].kind == "word":
            words.unused.append(Unused(sentence[i].text, "earlier"))
        i += 1
    return settings


def apply_settings(settings: list[Setting], target: Thing, words: Words,
                   relate: Callable[[Thing, Piece, Thing], None]) -> None:
    """What the settings say of the thing's kind, said of it (a room: where to look, unless it says so itself); what
    they say of other kinds is not used, and said so."""
    for setting in settings:
        rel, other = setting.relation, setting.other
        if setting.kind != target.noun:
            words.unused += [Unused(rel.text, "earlier"), Unused(other.text, "earlier")]
            continue
        if other.noun is not None and other.noun.kind == "room":
            if not target.limits:
                target.limits.append(other.text_without_det)
        else:
            relate(target, rel, words.thing(other))
        words.used += [rel.text, other.text]


def unaccounted(pieces: list[Piece], used: list[str], unused: list[Unused], head: str | None) -> list[Unused]:
    """Words of content the walk neither used nor set aside with a reason (a setting clause it does not read, "there
    are two green couches"): said as not used, so that no word is dropped unsaid. The thing's own kind, wherever it
    is said, is used ("out of the two chairs …, the one on the left": a chair)."""
    covered = {w.lower() for phrase in [*used, *(u.word for u in unused)] for w in phrase.split()}
    out: list[Unused] = []
    for k, piece in enumerate(pieces):
        if piece.kind not in CONTENT or {w.lower() for w in piece.words} & covered or piece.value == "together":
            continue  # ('side by side' said of a group only sets the scene: "out of the two chairs side by side, …")
        kind = piece if piece.kind != "num" or k + 1 >= len(pieces) else pieces[k + 1]
        if kind.kind == "noun" and head is not None and singular_phrase(kind.text.lower()) == head:
            continue  # the kind of the thing meant, or how many of it there are
        out.append(Unused(piece.text, "unknown" if piece.kind == "word" else "loose"))
    return out
