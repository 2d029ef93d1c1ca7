"""The one reader of descriptions: words → `Reading`.

A grammar of our own over tagged pieces (tokens.py), written for how people describe one thing among
others (docs/language.md, "How a description is read"): an optional viewpoint clause ("facing the bed,"),
the thing meant — the first noun phrase, or the one after "choose", "this is a", "it is the" — then what
places it ("next to X", "that is on top of Y", "with a lamp on it", "not the red one"), sentence after
sentence, "it" and "the chair" in later sentences meaning the same thing. Noun phrases carry their own
colour, size, shape, position and ordinal words; what follows a reference describes the reference
("the chair next to the table by the window"). Every word ends up used, a function word, or listed as
unused with the reason.
"""

from __future__ import annotations

import re

from scene_agent.language import clause_shapes as shapes
from scene_agent.language.lexicon import Lexicon, default_lexicon
from scene_agent.language.order_words import OrderWord, order_word
from scene_agent.language.phrase_parts import Link, NounPhrase, Thing, noun_phrase
from scene_agent.language.reading import Reading, Side, Unused
from scene_agent.language.relation_words import INVERSE, PART_RELATION, PLACING, said_as_part
from scene_agent.language.sentences import cut_sentences, selecting_sentence
from scene_agent.language.settings import Setting, apply_settings, read_setting, unaccounted
from scene_agent.language.spelling import mend_pieces
from scene_agent.language.tokens import Piece, tag, tokenize
from scene_agent.language.views import promote_view, read_view, starts_np

_ALL_OR_BOTH = re.compile(r"\b(?:both|all of them|each of them|all three|all four|all five|all of those|every one of them)\b|"
                          r"(?:number|no|option|#)\s*\d|^\s*#?\d{1,2}\s*$")
_OBJECT_PRONOUNS = frozenset({"it", "them", "itself", "its", "top", "their", "one"})


def read(text: str, lexicon: Lexicon | None = None, *, numbers: bool = False) -> Reading:
    """Read a description (English words; Chinese is read into English first by zh.py) into its parts.

    `numbers`: 'number 2', '#2' and a bare '2' are order words too (answering a pick among listed things).
    """
    lexicon = lexicon or default_lexicon()
    order: OrderWord | None = None
    if numbers or _ALL_OR_BOTH.search(text.lower()):
        order, _ = order_word(" ".join(tokenize(text)), numbers=numbers)
        if order is not None and order.kind not in ("both", "all") and not (numbers and order.kind == "nth"):
            order = None
    pieces, mends = mend_pieces(tag(tokenize(text), lexicon), lexicon)
    reader = _Reader(pieces)
    reader.corrections += mends
    reader.walk()
    reader.unused += unaccounted(pieces, reader.used, reader.unused, reader.target.noun)
    order = order or reader.target.order_word()
    return reader.target.reading(text, order=order, corrections=reader.corrections, unused=reader.unused,
                                 used=reader.used)


class _Reader:
    """Walks the pieces once, sentence by sentence, filling the thing meant and the things it is placed by."""

    def __init__(self, pieces: list[Piece]):
        self.pieces = pieces
        self.target = Thing()
        self.things: list[Thing] = []        # every other thing mentioned, in order
        self.unused: list[Unused] = []
        self.used: list[str] = []
        self.corrections: list[tuple[str, str]] = []
        self.target_named = False
        self.denied: dict[int, Thing] = {}       # the thing a negated relation's reference was said of, by reference
        self.settings: list[Setting] = []        # what earlier sentences say of things of some kind (settings.py)

    # -- the walk ---------------------------------------------------------------------------------------------------

    def walk(self) -> None:
        sentences = cut_sentences(self.pieces)
        start = selecting_sentence(sentences)
        for number, sentence in enumerate(sentences):
            sentence = (shapes.there_by_it(sentence) or sentence) if number > start and shapes.there_is(sentence) else sentence
            if number < start or (number > start and shapes.there_is(sentence)):  # "… there is a person.": the scene
                self.settings += read_setting(sentence, self)
            else:
                self._sentence(sentence, first=number == start)
        if self.target.noun is None and self.target.view_toward is not None and not self.target.pronoun and \
                not self.target.sides and not self.target.relations and self.target.view_at is None:
            promote_view(self.target)
        if self.target.noun is None and (among := shapes.kind_among(self.target, self.things)) is not None:
            self.target.noun, self.target.noun_kind = among, "object"  # "the smaller of the shelves"
        apply_settings(self.settings, self.target, self, lambda owner, rel, thing: self._relate(owner, rel, thing, None))

    def _sentence(self, pieces: list[Piece], first: bool) -> None:
        subject: Thing | None = None
        copula = False
        negated: str | None = None
        relation: tuple[Piece, Thing] | None = None   # a relation waiting for what it is relative to
        last_np: Thing | None = None                   # the last thing named, for "… by the window" after it
        separated = True                               # a comma, 'and' or 'that' since the last noun phrase
        setting = bool(pieces) and pieces[0].words[0] in ("if", "when", "while")  # "if you are using the sinks, …"
        i = 0
        while i < len(pieces):
            piece = pieces[i]
            kind = piece.kind
            if kind == "view":
                i = self._view(pieces, i)
                separated, setting = True, False
                continue
            start_np = i
            if kind in ("det", "other", "num", "ord", "color", "size", "shape", "material", "noun", "pron") or (
                    kind == "name" and i + 1 < len(pieces) and pieces[i + 1].kind == "poss") or (
                    kind == "side" and shapes.adjective_side(pieces, i)) or (kind == "rel" and shapes.adjective_rel(pieces, i)):
                np, i = noun_phrase(pieces, i)
                self.note(np)
                if relation is not None:
                    rel_piece, owner = relation
                    if negated is not None and np.noun is not None and np.noun.kind == "room":
                        owner.excluded.append(Thing(pronoun=True, limits=[np.text_without_det]))  # "not in the kids room"
                        if not (i < len(pieces) and pieces[i].kind in ("or", "and")):  # "… or the kitchen": not there either
                            relation, negated = None, None
                        continue
                    # "in the kitchen", "on floor 1" say where to look; "to the right of the closet" names a thing
                    if np.text_without_det == "room" and pieces[i:i + 1] and pieces[i].words == ("from",) and \
                            i + 1 < len(pieces) and starts_np(pieces[i + 1]):
                        self.used.append(pieces[i].text)  # "on the opposite side of the room from the whiteboard"
                        np, i = noun_phrase(pieces, i + 1)
                        self.note(np)
                    if rel_piece.value in PLACING and self._location(np, owner):
                        relation = None
                        continue
                    things = [self._antecedent(np, owner) or self.thing(np)]
                    if rel_piece.value == "with":
                        while i + 1 < len(pieces) and pieces[i].kind == "and" and starts_np(pieces[i + 1]):
                            more, i = noun_phrase(pieces, i + 1)
                            self.note(more)
                            things.append(self.thing(more))
                        rel_piece, i = self._with_tail(rel_piece, pieces, i)
                    if rel_piece.value == "between" and owner.relations and owner.relations[-1].kind == "between" and \
                            len(owner.relations[-1].things) == 1 and pieces[start_np - 1].kind == "and":
                        owner.relations[-1].things += things  # "between the door and the bed": one relation, two things
                    else:
                        for thing in things:
                            self._relate(owner, rel_piece, thing, negated)
                    negated = None
                    relation = (rel_piece, owner) if rel_piece.value == "between" and pieces[i:i + 1] and pieces[i].kind == "and" else None
                    # a reference that names nothing known ("in the pot") places nothing: what follows is the owner's
                    related = any(thing in link.things for link in owner.relations)
                    last_np, separated = (things[-1] if related else owner), False
                    continue
                if subject is None and negated is not None:
                    # "not the red chair" / "not the red one": one of its kind, but not that one
                    subject = self.target
                    if first and np.noun is not None and np.noun.kind == "object" and not self.target_named:
                        self.target.noun, self.target.said, self.target.noun_kind = np.noun.words, np.said, "object"
                        self.target_named = True
                    self.target.excluded.append(Thing.of(np))
                    negated = negated if i < len(pieces) and pieces[i].kind in ("or", "and") else None
                    # "NOT the lamp that is between the beds" ("there is no X by this Y" is read whole: clause_shapes)
                    last_np, separated = subject if shapes.there_is(pieces) else self.target.excluded[-1], False
                    continue
                if subject is None and setting and np.noun is not None and not np.pronoun:
                    last_np, separated, setting = self.thing(np), False, False  # what it says is where: a reference
                    continue
                if subject is None:
                    subject = self._subject(np, first)
                    last_np, separated = subject, False
                    if np.superlative is not None:
                        relation = self._superlative(np, subject, pieces, i)
                    continue
                if negated is not None:  # "not the one closest to the door": what follows is said of that one
                    last_np = self._negated(subject, np, negated)
                    negated = negated if i < len(pieces) and pieces[i].kind in ("or", "and") else None
                    separated = False
                    continue
                if copula:
                    self._predicate(subject, np)
                    copula, separated, last_np = False, False, subject  # "…, it is the one in front of X": its place
                    if np.superlative is not None:  # "it is the closest one to the door"
                        relation = self._superlative(np, subject, pieces, i)
                    continue
                if subject is self.target and not self.target_named and np.noun is not None and np.noun.kind == "object":
                    subject.take(np)  # "in the corner, the plant", "upstairs rug": the thing named after where it is
                    self.target_named = True
                    continue
                if np.noun is None and not np.partitive and (not np.pronoun or (start_np > 0 and
                                                             pieces[start_np - 1].kind == "comma")):
                    subject.take(np, head=False)  # "the bed biggest" (from Chinese), "…, the bigger one": more about it
                    last_np = subject
                    continue
                if self._location(np, subject):
                    continue
                self.unused.append(Unused(np.text, "loose"))
                continue
            if kind in ("rel", "side") and (after := shapes.fronted(pieces, i)) is not None:
                # "above it is another pillow", "to the left is a lamp": the other thing is there, so the thing
                # meant is the other way from it
                turned = INVERSE.get(str(piece.value))
                if turned is not None:
                    subject = subject or self.target
                    relation = (Piece("rel", piece.words, turned), subject)
                    self.used.append(piece.text)
                    i = after
                    continue
            if kind == "rel" and piece.value == "with" and (place := shapes.place_before(pieces, i)) and \
                    i + 1 < len(pieces) and starts_np(pieces[i + 1]):
                np, i = noun_phrase(pieces, i + 1)  # "on the wall with two pictures, …", "the side with two
                self.thing(np)                      # monitors, …": what that place has, and what kind of thing
                self.unused.append(Unused(f"{piece.text} {np.text}", "kind_of", place))  # is meant
                continue
            if kind == "rel":
                owner = (subject or self.target) if separated or last_np is None or last_np is subject else last_np
                subject = subject or self.target
                copula = False  # "it is next to the door": what follows is the reference, not what it is
                relation = (piece, owner)
                self.used.append(piece.text)
            elif kind == "side" and piece.value == "together" and not (last_np or subject or self.target).plural:
                pass  # 'IGNORE the two trash cans next to each other': said of a group that is not the thing meant
            elif kind == "side":
                # "the trash can farthest from the door by itself": being alone is the thing's own, never a reference's
                owner = last_np if not separated and last_np is not None and last_np is not subject and \
                    piece.value != "alone" else (subject or self.target)
                if subject is None:
                    subject = self.target
                owner.sides.append(Side(piece.text, piece.value, negated=negated is not None))  # type: ignore[arg-type]
                negated = None
                self.used.append(piece.text)
            elif kind == "neg":
                negated = str(piece.value)
                self.used.append(piece.text)
                if piece.value == "without":
                    relation = (Piece("rel", piece.words, "with"), subject or self.target)
            elif kind in ("floor", "code", "name"):
                (last_np if relation is None and last_np is not None else relation[1] if relation else subject or
                 self.target).limits.append(piece.text)
                relation = None if kind == "name" else relation
                self.used.append(piece.text)
            elif kind == "cop":
                copula = True
            elif kind in ("comma", "and", "or", "wh"):
                # "the chair opposite the chair which is against the wall": a clause right after a reference is about it
                separated = not (kind == "wh" and last_np is not None and last_np is not subject and relation is None
                                 and pieces[i - 1].kind != "comma")
                if kind == "comma" or kind == "wh":
                    negated = None
                if kind == "comma":  # a relation still waiting ("when the door is behind you, …") ends here
                    copula, setting, relation = False, False, relation if relation and relation[0].value == "between" else None
            elif kind == "word":
                self.unused.append(Unused(piece.text, "unknown"))
                if relation is not None and relation[0].value == "with" and (relation[1] is subject or not separated):
                    # "that doesn't have magazines in front of it": what it has is a word unknown, and so is where
                    relation, negated = None, None
                    tail = pieces[i + 1:i + 3]
                    if len(tail) == 2 and tail[0].kind == "rel" and tail[1].kind == "pron":
                        self.unused.append(Unused(f"{tail[0].text} {tail[1].text}", "unknown"))
                        i += 2
            i += 1
        if relation is not None and relation[0].value in ("closest", "farthest"):
            relation[1].sides.append(Side(relation[0].text, "near" if relation[0].value == "closest" else "far"))
        if first and shapes.there_is(pieces) and (pointed := shapes.pointed_at(self.target)) is not None:
            self.target, placed_by = pointed  # "there are some plants next to this cabinet": the cabinet is meant
            self.things = [t for t in self.things if t is not self.target] + [placed_by]
            self.target_named = True

    # -- pieces of the walk -------------------------------------------------------------------------------------------

    def note(self, np: NounPhrase) -> None:
        self.used += np.used
        self.unused += np.unused
        for noun in np.modifiers:
            if noun.kind == "object" and np.noun is not None:
                self.unused.append(Unused(noun.words, "kind_of", np.noun.words))
        if np.noun is not None and np.noun.corrected:
            self.corrections.append((np.noun.corrected, np.noun.words))

    def thing(self, np: NounPhrase) -> Thing:
        thing = Thing.of(np)
        self.things.append(thing)
        return thing

    def _subject(self, np: NounPhrase, first: bool) -> Thing:
        """Who a clause is about: the thing meant (the first one named, 'it', or one called as it is), or a reference."""
        target = self.target
        if np.noun is not None and np.noun.kind == "part" and not np.partitive:
            np.noun = None  # "the side with two monitors": a part of the room names no thing
            np.pronoun = True
        if first and not self.target_named:
            self.target_named = np.noun is not None and np.noun.kind == "object"
            target.take(np)
            return target
        if np.pronoun or np.noun is None or target.noun is None or shapes.same_kind(np.noun, target):
            if target.noun is None and np.noun is not None and np.noun.kind == "object":
                self.target_named = True
            target.take(np)
            return target
        for thing in self.things:
            if thing.noun and shapes.same_kind(np.noun, thing):
                thing.take(np)
                return thing
        other = self.thing(np)
        self.unused.append(Unused(np.text, "other_thing"))
        return other

    def _predicate(self, subject: Thing, np: NounPhrase) -> None:
        """'it is a brown chair', 'the printer is a white box', 'it is the one on the right'."""
        if subject is self.target and (subject.noun is None or subject.noun_kind == "generic") and np.noun is not None \
                and np.noun.kind not in ("part", "generic"):
            subject.take(np)
            return
        subject.take(np, head=False)
        if np.noun is not None and np.noun.kind == "object" and not shapes.same_kind(np.noun, subject):
            self.unused.append(Unused(np.noun.words, "looks_like", subject.name))

    def _negated(self, subject: Thing, np: NounPhrase, negation: str) -> Thing:
        """'not the red one', 'except the office chair' (another of its kind), or 'on the sill, not the table' (the
        last relation, not to that). The thing said not to be it (or not to be by it)."""
        if np.noun is None or np.pronoun or shapes.same_kind(np.noun, subject) or not subject.relations:
            subject.excluded.append(Thing.of(np))
            return subject.excluded[-1]
        last = subject.relations[-1]
        subject.relations.append(Link(last.word, last.kind, [self.thing(np)], negated=True))
        return subject.relations[-1].things[0]

    def _antecedent(self, np: NounPhrase, owner: Thing) -> Thing | None:
        """What 'it' / 'them' after a relation word means: the last thing named that is not the one being placed
        ('if facing the stove it is to the right of it': the stove)."""
        if not np.pronoun or np.noun is not None or np.words_only or np.colors or np.size or \
                not set(np.text.split()) & {"it", "them", "itself", "they", "themselves"}:
            return None
        for thing in reversed([*self.things, *(t for t in (self.target.view_toward, self.target.view_at) if t)]):
            if thing is not owner and thing.noun and thing.noun_kind == "object":
                return thing
        return None

    def _with_tail(self, rel: Piece, pieces: list[Piece], i: int) -> tuple[Piece, int]:
        """'with a lamp on it', 'with the counter and sink on top', 'with a pen in front of it': the relation turned
        around (the lamp is on it: it is under the lamp … it supports the lamp)."""
        j = i
        while j < len(pieces) and pieces[j].kind == "filler":
            j += 1
        after = pieces[j] if j < len(pieces) else None
        follows = pieces[j + 1] if j + 1 < len(pieces) else None
        if after is None:
            return rel, i
        if after.kind == "side" and after.value == "top":
            self.used.append(after.text)
            return Piece("rel", (*rel.words, "…", *after.words), "supporting"), j + 1
        if after.kind == "rel" and (follows is None or follows.kind in ("stop", "comma", "and") or (
                follows.kind in ("pron", "det") and follows.words[0] in _OBJECT_PRONOUNS)):
            self.used.append(after.text)
            end = j + 2 if follows is not None and follows.kind in ("pron", "det") else j + 1
            return Piece("rel", (*rel.words, "…", *after.words), INVERSE.get(str(after.value), "near")), end
        return rel, i

    def _relate(self, owner: Thing, rel: Piece, thing: Thing, negated: str | None) -> None:
        """A relation with what it is relative to ('in the row', 'of the group' say nothing more: dropped)."""
        kind = str(rel.value)
        if not thing.head_words and not thing.pronoun and not (thing.colors or thing.size or thing.sides):
            return
        if thing.noun is None and thing.pronoun and {"one", "ones"} & set(thing.text.split()) and owner.noun_kind == "object":
            thing.noun, thing.noun_kind = owner.noun, "object"  # "next to the tall one": another of its kind
        if thing.part is not None and kind in ("near", "on", "inside", "closest", "end"):
            kind = PART_RELATION.get(thing.part, kind)  # "on the short side of the table": by the table
        if (part := said_as_part(owner.noun, thing.noun, rel.value == "with")) is not None:  # its own wheels, its seat
            self.unused.append(Unused(thing.text, part))
            return
        count = thing.count if kind in ("with", "near", "supporting") and thing.count and thing.count > 1 else None
        owner.relations.append(Link(rel.text, kind, [thing], negated=negated is not None, count=count))
        if negated is not None:
            self.denied[id(thing)] = owner

    def _location(self, np: NounPhrase, owner: Thing) -> bool:
        """'in the kitchen', 'of flat 4A', 'on floor 1': words that say where to look, kept with the thing's name
        ('the lamp not on the dresser in the bedroom': the lamp's, since the dresser only says where it is not)."""
        if (np.noun is not None and np.noun.kind == "room") or (np.noun is None and np.words_only and owner.head_words):
            owner = self.denied.get(id(owner), owner)
            if owner.noun is None and not owner.limits:
                owner.pronoun = True  # "the one in the study": still a pronoun, placed in a room
            owner.limits.append(np.text_without_det)
            return True
        return False

    def _superlative(self, np: NounPhrase, subject: Thing, pieces: list[Piece], i: int) -> tuple[Piece, Thing] | None:
        """'the closest chair to the door': the relation waits for 'to the door'."""
        near = np.superlative in ("closest", "nearest")
        if i < len(pieces) and pieces[i].kind in ("filler", "word") and pieces[i].words[0] in ("to", "from"):
            self.used += [pieces[i].text] if pieces[i].kind == "word" else []  # "the furthest door from the bed"
            pieces[i] = Piece("filler", pieces[i].words)  # the relation is said whole: "furthest from"
            return Piece("rel", (np.superlative or "", pieces[i].words[0]), "closest" if near else "farthest"), subject
        subject.sides.append(Side(np.superlative or "", "near" if near else "far"))
        return None

    def _view(self, pieces: list[Piece], i: int) -> int:
        """'facing the bed,' / 'standing at the door looking at the windows,' / 'as you enter': where the speaker is."""
        clause, i = read_view(pieces, i, self)
        self.target.view = (clause.word, clause.kind)
        self.target.view_toward, self.target.view_at = clause.toward, clause.at
        return i
