"""Words cut into tokens and tagged: each stretch of tokens becomes one `Piece` — a noun, a relation, a side, a
colour, a negation … — by the longest phrase any table knows, so 'on top of', 'kitchen cabinets' and 'facing the
front of' are one piece each. What no table knows stays a `word` piece, for the grammar to report as unused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from scene_agent.language.color_words import color_word
from scene_agent.language.lexicon import Lexicon, NounHit
from scene_agent.language.relation_words import RELATIONS, SIDES, VIEW_PREFIX, VIEWS
from scene_agent.language.size_words import size_word
from scene_agent.language.vocabulary import room_aliases

PieceKind = Literal["name", "noun", "rel", "side", "view", "color", "size", "shape", "material", "neg", "and", "or", "det",
                    "other", "pron", "cop", "wh", "of", "poss", "num", "ord", "floor", "code", "stop", "comma", "filler",
                    "word"]

SHAPES = {"round": "round", "circular": "round", "oval": "round", "rounded": "round", "cylindrical": "round",
          "circle": "round", "square": "square", "squared": "square", "squarish": "square", "cube": "square",
          "rectangular": "rectangular", "rectangle": "rectangular", "oblong": "rectangular", "long": "long",
          "elongated": "long", "flat": "flat", "thin": "flat", "l shaped": "l-shaped", "l-shaped": "l-shaped"}
MATERIALS = ("wooden", "wood", "metal", "metallic", "steel", "glass", "leather", "fabric", "plastic", "cloth",
             "cardboard", "paper", "upholstered", "cushioned", "padded", "marble", "stone", "chrome", "wicker")
NEGATIONS = {"not": "not", "no": "not", "never": "not", "except": "except", "except for": "except", "other than": "except",
             "but not": "not", "instead of": "except", "rather than": "except", "nor": "not", "neither": "not",
             "without": "without", "but the": "except", "apart from": "except", "excluding": "except", "any except": "except"}
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
           "single": 1, "pair": 2, "couple": 2, "double": 2, "both": 2}
ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4, "5th": 4,
            "sixth": 5, "6th": 5, "seventh": 6, "7th": 6, "eighth": 7, "8th": 7, "last": -1, "final": -1}
DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "some", "any", "its", "their", "his", "her",
                         "my", "your", "our", "each", "every", "all", "both"})
# How many without a number: "a few of the chairs", "a group of three bins", "in the row".
QUANTITIES = frozenset({"few", "couple", "several", "many", "lot", "lots", "bunch", "group", "set", "pair", "row", "line",
                        "stack", "pile", "cluster", "series", "collection", "handful", "number", "bank", "array", "column"})
# Words of the question around a description: what to do with it, not which thing it is.
QUESTION_WORDS = frozenset({"show", "display", "visualize", "visualise", "what", "whats", "how", "big", "colour", "color",
                            "colours", "colors", "size", "volume", "tell", "describe", "give", "list", "count", "measure",
                            "dimensions", "dimension", "compare", "comparing", "which", "whichever", "where", "wheres",
                            "open", "highlight", "let", "many", "much", "long", "wide", "tall", "high", "deep"})
OTHERS = frozenset({"other", "another", "others", "remaining", "rest", "second one"})
PRONOUNS = frozenset({"it", "one", "ones", "itself", "they", "them", "themselves", "he", "she", "him", "thing", "things",
                      "something", "anything", "everything", "nothing"})
COPULAS = frozenset({"is", "are", "was", "were", "be", "being", "been", "am"})
WH_WORDS = frozenset({"that", "which", "who", "whose", "where", "whom"})
# Words that carry no meaning for which thing is meant: imperatives, question frames, politeness, hedges.
FILLERS = frozenset({
    "choose", "select", "pick", "find", "click", "locate", "identify", "look", "looking", "for", "please", "want",
    "wanted", "you", "i", "we", "me", "us", "correct", "target", "answer", "mean", "meant", "referring", "talking",
    "about", "here", "there", "see", "can", "could", "would", "will", "should", "do", "does", "did", "get", "grab",
    "go", "to", "need", "needs", "shall", "may", "might", "must", "just", "only", "actually", "exactly", "basically",
    "also", "too", "as", "well", "so", "then", "now", "currently", "located", "placed", "positioned", "situated",
    "sitting", "standing", "set", "found", "kept", "lying", "laying", "resting", "sits", "stands", "lies", "rests",
    "hanging", "hangs", "mounted", "seen", "appears", "seems", "directly", "immediately", "kind", "sort", "type",
    "somewhat", "slightly", "pretty", "very", "fairly", "rather", "quite", "really", "definitely", "probably", "if",
    "when", "while", "where", "whilst", "had", "like", "looks", "similar", "same", "way", "direction", "towards",
    "toward", "up", "down", "out", "off", "scene", "view", "image", "option", "options", "choice", "whole",
    "entire", "clicked", "pushed", "put", "tucked", "stored", "leaning", "leans", "installed", "attached", "built",
    "parked", "stacked", "oh", "ok", "okay", "yes", "yeah", "hi", "hello", "thanks", "thank", "sure", "yep", "guess",
    "think", "believe", "say", "said", "called", "named", "labeled", "labelled", "marked", "shown", "showing",
    "displayed", "visible", "available", "going", "make", "note", "notice", "noticed", "spot", "spotted",
})


@dataclass(frozen=True)
class Piece:
    """One stretch of tokens and what it is."""

    kind: PieceKind
    words: tuple[str, ...]
    value: object = None

    @property
    def text(self) -> str:
        """The tokens as written (normalised)."""
        return " ".join(self.words)


_CONTRACTIONS = ((r"\bit's\b", "it is"), (r"\bthat's\b", "that is"), (r"\bthere's\b", "there is"),
                 (r"\bwhat's\b", "what is"), (r"\bhere's\b", "here is"), (r"\bwho's\b", "who is"),
                 (r"\bwhere's\b", "where is"), (r"\bcan't\b", "can not"), (r"\bwon't\b", "will not"),
                 (r"n't\b", " not"), (r"'re\b", " are"), (r"'ll\b", " will"), (r"'ve\b", " have"), (r"'m\b", " am"),
                 (r"'d\b", " would"), (r"\bits (?=the |a |an |on |in |at |next |to |by |near |under |above |behind |"
                                        r"between |located |placed |sitting |closest |furthest |farthest )", "it is "))
_CODE = re.compile(r"(?<![\w.])\d+-\d+(?:-\d+)?(?![\w.])")
_FLOOR = re.compile(r"\b(?:on |at )?(?:the )?(?:(?:ground|first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|top|upper|"
                    r"lower|bottom) (?:floor|level|storey|story)|(?:floor|level|storey|story) (?:number |no )?\d+)\b|"
                    r"\b(?:upstairs|downstairs)\b")
# A flat, apartment or room by its number ("flat 4a", "apartment 12", "unit b3"), or such a number alone ("4a's").
_NAME = re.compile(r"(?:(?:flat|apartment|apt|unit|suite|room|house|no|number) )?(?=\w*\d)[a-z]?\d+[a-z]?\b")
_SPLIT = re.compile(r"\s*([.;:!?\n]+|[,()\[\]\"“”]+)\s*")


_ROOM_MIDDLE = re.compile(r"\b(?:in )?the (?:very )?(?:middle|center|centre) of (?:the|this|that) ([a-z]+(?: [a-z]+){0,2}?)"
                          r"(?=\s*(?:$|[.,;!?]|(?:in|of|on|at|near|next|by|with|that|which|where|is|are)\b))")


_COUNTED_FROM = re.compile(r"\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th) ((?:(?!from\b)[a-z]+ ){0,2})"
                           r"(?:away )?from (?=(?:the|a|an) (?!(?:left|right|top|bottom|end|front|back|middle|center|centre|"
                           r"far|near|other|opposite|side|corner)\b))")


def _room_middle(m: re.Match[str]) -> str:
    """'in the middle of the lounge' (the room's middle), not 'in the middle of the office chair and the window'."""
    said = m.group(1)
    if said in room_aliases() and said != "room":
        return f"in the middle of the room in the {said}"
    return m.group(0)


def tokenize(text: str) -> list[str]:
    """Lower-case tokens: contractions spelt out, "'s" its own token, punctuation as '.' (sentence) or ','."""
    text = text.lower().replace("’", "'").replace("`", "'").replace("&", " and ").replace("/", " or ")
    for pattern, full in _CONTRACTIONS:
        text = re.sub(pattern, full, text)
    text = re.sub(r"(\w)'s\b", r"\1 's", text)
    text = re.sub(r"(?<=[^\W\d])-(?=[^\W\d])", " ", text)  # "left-hand" → "left hand"; codes keep their hyphens
    text = re.sub(r"\.(?=\s|$)", " . ", text)
    text = re.sub(r"\bvery (?=top|bottom|end|left|right|back|front|middle|center|centre|last|first|edge|corner)", "", text)
    # "looking at the chair from the side you sit on it": at its front (Sr3D's words for a seat's facing)
    text = re.sub(r"\b(looking|facing|looking at|standing at|viewing) (the [a-z]+(?: [a-z]+)?) from the (?:side|way) "
                  r"(?:you|one|people|someone) (?:would )?(?:sit|sits) (?:on|in)(?: it| them)?\b",
                  r"\1 the front of \2", text)
    text = re.sub(r"\blooking (?=the front of)", "looking at ", text)
    # "in the middle of the lounge": the middle of the room, in the lounge (a room is no thing to be between)
    text = _ROOM_MIDDLE.sub(_room_middle, text)
    # "on the bed's left": on the left side of the bed
    text = re.sub(r"\b(on|at|to) the ([a-z]+(?: [a-z]+)?) ?'s (left|right)(?: hand)?(?: side)?\b", r"\1 the \3 side of the \2", text)
    # "with nothing on it", "has nothing on top": without anything there
    text = re.sub(r"\bwith nothing\b", "without anything", text)
    text = re.sub(r"\b(?:has|have) nothing\b", "does not have anything", text)
    text = re.sub(r"\bstand ?alone\b", "standalone", text)  # "the stand alone desk": a kind of desk, not a lone one
    # "above all other pillows", "under all the other towels": the top one, the bottom one
    text = re.sub(r"\b(?:above|over|higher than) all (?:of )?(?:the )?(?:others\b|other \w+)", "above the others", text)
    text = re.sub(r"\b(?:below|under|underneath|beneath|lower than) all (?:of )?(?:the )?(?:others\b|other \w+)",
                  "below the others", text)
    # "at the end of the row", "on the end": the last in the row (either end, where the words do not say which)
    text = re.sub(r"\b(?:at|on) the (?:far )?end(?: of (?:the|a|this) (?:row|line))?(?! of)\b", "the last in the row", text)
    # "the third chair from the door", "the 2nd desk from the window": counted by nearness to it
    text = _COUNTED_FROM.sub(lambda m: f"{m.group(1)} closest {m.group(2) or ''}to ", text)
    tokens: list[str] = []
    for part in _SPLIT.split(text):
        part = part.strip()
        if not part:
            continue
        if _SPLIT.fullmatch(part) or part in ".;:!?,":
            tokens.append("," if part[0] in ",()[]\"“”" else ".")
            continue
        words = (t if t == "'s" else t.strip("'") for t in re.split(r"[^\w'-]+", part))  # 'quoted' words
        tokens += [t for t in words if t]
    return tokens


def tag(tokens: list[str], lexicon: Lexicon) -> list[Piece]:
    """The tokens as pieces, each the longest phrase any table knows (a view only where a clause starts)."""
    pieces: list[Piece] = []
    longest = _LONGEST
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in (".", ","):
            pieces.append(Piece("stop" if token == "." else "comma", (token,)))
            i += 1
            continue
        best = _special(tokens, i)
        clause_start = _clause_start(pieces)
        for n in range(min(longest, len(tokens) - i), 0, -1):
            if best is not None and len(best.words) >= n:
                break
            phrase = " ".join(tokens[i:i + n])
            if "." in tokens[i:i + n] or "," in tokens[i:i + n]:
                continue
            if phrase in VIEWS and (clause_start or (VIEWS[phrase] == "facing" and _standing(pieces))):
                best = Piece("view", tuple(tokens[i:i + n]), VIEWS[phrase])
            elif phrase in SIDES and (phrase not in RELATIONS or (n > 1 and not _before_a_thing(tokens, i + n, phrase))) \
                    and not _of_a_thing(tokens, i + n, SIDES[phrase], phrase) and not _a_things_side(tokens, i, n, lexicon, pieces):
                best = Piece("side", tuple(tokens[i:i + n]), SIDES[phrase])
            elif phrase in RELATIONS:
                best = Piece("rel", tuple(tokens[i:i + n]), RELATIONS[phrase])
        noun = lexicon.match(tokens, i)
        if noun is not None and (best is None or noun[0] > len(best.words)):
            best = Piece("noun", tuple(tokens[i:i + noun[0]]), noun[1])
        colour, used = color_word(tokens[i:i + 3])
        if colour is not None and (best is None or used >= len(best.words)):
            best = Piece("color", tuple(tokens[i:i + used]), colour)
        if best is None:
            best = _single(tokens, i, lexicon)
        best = _in_context(best, pieces, tokens, i + len(best.words), lexicon)
        pieces.append(best)
        i += len(best.words)
    return _listed_adjectives(pieces)


_ADJECTIVES = frozenset({"color", "size", "shape", "material"})
_VERB_NOUNS = frozenset({"stand", "stands"})  # 'a desk stands in the middle': a verb after a noun, not a nightstand
_PLACE_AFTER = frozenset({"in", "on", "at", "against", "next", "by", "near", "beside", "between", "under", "behind",
                          "to", "along", "alone", "out", "up", "there", "here", "upright", "above", "below", "inside"})


def _in_context(piece: Piece, before: list[Piece], tokens: list[str], after: int, lexicon: Lexicon) -> Piece:
    """A word read by its neighbours: 'the can' is a trash can ('you can see' stays a filler); 'a desk stands in
    the corner' has a verb, not a stand; 'the table top is white' is about the table's top."""
    last = before[-1].kind if before else None
    word = piece.words[0]
    if piece.kind == "filler" and word == "can" and last in ("det", "color", "size", "shape", "material", "other") \
            and lexicon.kinds.get("trash can") == "object":
        return Piece("noun", piece.words, NounHit(words="trash can", kind="object"))
    if piece.kind == "side" and piece.words in (("top",), ("surface",)) and last == "noun" and \
            tokens[after:after + 1] and tokens[after] in ("is", "has", "are", "of"):
        return Piece("filler", piece.words)  # "the table top is white": its top, not the top one
    if piece.kind == "noun" and len(piece.words) == 1 and word in _VERB_NOUNS and last == "noun" and \
            tokens[after:after + 1] and tokens[after] in _PLACE_AFTER:
        return Piece("filler", piece.words)
    return piece


def _listed_adjectives(pieces: list[Piece]) -> list[Piece]:
    """Commas between adjectives dropped: 'the big, brown, round table' is one noun phrase, not three clauses; so is
    'and' before the last of them ('the white and open door')."""
    return [p for k, p in enumerate(pieces)
            if not (p.kind in ("comma", "and") and 0 < k < len(pieces) - 1 and pieces[k - 1].kind in _ADJECTIVES
                    and ((p.kind == "comma" and pieces[k + 1].kind in _ADJECTIVES) or (
                        p.kind == "and" and pieces[k + 1].kind in ("word", "filler") and pieces[k + 2:k + 3]
                        and pieces[k + 2].kind == "noun")))]


def _of_a_thing(tokens: list[str], after: int, side: str, phrase: str = "") -> bool:
    """'at the corner of the table', 'in the middle of the desk': a part of a thing, not a place in the room ('the
    higher of the two shelves' is one of the shelves)."""
    follows = tokens[after:after + 3]
    if phrase.split()[-1:] and phrase.split()[-1] in _COMPARED:
        return False
    return side in ("corner", "middle", "center", "top", "bottom", "front", "back", "left", "right") and bool(follows) \
        and follows[0] == "of" and not ((len(follows) > 1 and follows[-1] in ("room", "rooms")) or follows[1:2] == ["room"])


def _a_things_side(tokens: list[str], i: int, n: int, lexicon: Lexicon, before: list[Piece]) -> bool:
    """'the lamp on the left nightstand': on that nightstand (the left one), not a lamp on the left."""
    words = tokens[i:i + n]
    placing = n >= 3 and words[0] in ("on", "at", "in", "by", "near", "beside")
    after_relation = n == 2 and words[0] == "the" and bool(before) and before[-1].kind == "rel"
    if not (placing or after_relation) or words[-1] not in ("left", "right"):
        return False
    after = i + n + (1 if tokens[i + n:i + n + 1] and color_word(tokens[i + n:i + n + 1])[0] is not None else 0)
    noun = lexicon.match(tokens, after)
    return noun is not None and noun[1].kind == "object"  # not 'on the right side', 'on the left wall'


def _before_a_thing(tokens: list[str], after: int, phrase: str) -> bool:
    """'in between the two couches': a relation to them, where 'it is in between' is a place among its kind."""
    return phrase == "in between" and tokens[after:after + 1] != [] and tokens[after] in ("the", "a", "an", "two", "both")


_COMPARED = frozenset({"higher", "highest", "lower", "lowest", "upper", "uppermost", "lowermost", "topmost",
                       "bottommost", "leftmost", "rightmost"})


def _words(phrase: str) -> int:
    return phrase.count(" ") + 1


_LONGEST = max(map(_words, [*RELATIONS, *SIDES, *VIEWS]))  # words in the longest phrase of the tables


def _clause_start(pieces: list[Piece]) -> bool:
    """True when only words such as 'if you are' came since the clause began: a view may start here."""
    for piece in reversed(pieces):
        if piece.kind in ("stop", "comma"):
            return True
        if not all(w in VIEW_PREFIX for w in piece.words):
            return False
        if piece.words[0] in _SUBORDINATORS:
            return True
    return True


def _standing(pieces: list[Piece]) -> bool:
    """Whether the clause so far says where someone stands ('if you stood on the table …'): where they look may
    follow ('… looking towards the round table')."""
    for piece in reversed(pieces):
        if piece.kind in ("stop", "comma"):
            return False
        if piece.kind == "view":
            return piece.value == "standing"
    return False


_SUBORDINATORS = frozenset({"if", "when", "while", "as", "assuming", "once", "upon"})


def _special(tokens: list[str], i: int) -> Piece | None:
    """Floors, codes and the several-word negations and shapes, which outrank the tables."""
    rest = " ".join(tokens[i:i + 6])
    if (m := _FLOOR.match(rest)) and m.start() == 0:
        return Piece("floor", tuple(m.group(0).split()))
    if _CODE.fullmatch(tokens[i]):
        return Piece("code", (tokens[i],))
    if (m := _NAME.match(rest)) and not rest[m.end():m.end() + 1].isalnum() and rest[m.end():m.end() + 1] != "-" \
            and not tokens[i].isdigit():
        return Piece("name", tuple(m.group(0).split()))
    for n in (3, 2):
        phrase = " ".join(tokens[i:i + n])
        if phrase in NEGATIONS:
            return Piece("neg", tuple(tokens[i:i + n]), NEGATIONS[phrase])
        if phrase in SHAPES:
            return Piece("shape", tuple(tokens[i:i + n]), SHAPES[phrase])
    return None


def _single(tokens: list[str], i: int, lexicon: Lexicon) -> Piece:
    """One token by itself: a size, a shape, a number, a function word … or an unknown word."""
    token = tokens[i]
    sized, used = size_word(tokens[i:i + 2])
    if sized is not None:
        return Piece("size", tuple(tokens[i:i + used]), sized)
    simple: dict[str, tuple[PieceKind, object]] = {
        **{w: ("neg", v) for w, v in NEGATIONS.items() if " " not in w}, "and": ("and", None), "or": ("or", None),
        "but": ("and", None), "plus": ("and", None), "of": ("of", None), "'s": ("poss", None),
        **{w: ("shape", v) for w, v in SHAPES.items()}, **{w: ("material", w) for w in MATERIALS},
        **{w: ("ord", v) for w, v in ORDINALS.items()}, **{w: ("other", None) for w in OTHERS},
        **{w: ("det", None) for w in DETERMINERS}, **{w: ("pron", None) for w in PRONOUNS}, "which": ("wh", None),
        **{w: ("cop", None) for w in COPULAS}, **{w: ("wh", None) for w in WH_WORDS}}
    if token in simple:
        kind, value = simple[token]
        if token == "one" and i + 1 < len(tokens) and tokens[i + 1] == "of":
            return Piece("num", (token,), 1)
        return Piece(kind, (token,), value)
    if token in NUMBERS or token.isdigit():
        return Piece("num", (token,), NUMBERS.get(token) or int(token))
    if token in QUANTITIES:
        return Piece("num", (token,), 0)
    if token in FILLERS or token in QUESTION_WORDS:
        return Piece("filler", (token,))
    if token in lexicon.name_words:
        return Piece("name", (token,))  # "the master bed": a word of a room's name says where to look
    return Piece("word", (token,))
