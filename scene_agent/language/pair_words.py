"""Questions about two things at once: how far one is from the other, whether one fits through the other, and how
they compare.

"how far is the sofa from the tv?", "the distance between the bed and the window", "will the sofa fit through the
door?", "is the red chair bigger than the green chair?", "compare the sofa and the bed", "沙发离电视多远？",
"沙发能通过门吗？", "红色椅子比绿色椅子大吗？" each name two descriptions, read apart: each is then found on its own
(and asked about on its own when it fits several things).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from scene_agent.language.words import has_chinese, normalize_words

PairKind = Literal["distance", "fit", "compare"]

_THINGS = r"(?P<a>.+?)"
_OTHER = r"(?P<b>.+?)"
_ENGLISH: list[tuple[PairKind, re.Pattern[str]]] = [
    ("distance", re.compile(rf"\bhow far (?:away )?(?:is|are) {_THINGS} (?:from|to) {_OTHER}$")),
    ("distance", re.compile(rf"\bhow far apart (?:is|are) {_THINGS} and {_OTHER}$")),
    ("distance", re.compile(rf"\bhow close (?:is|are) {_THINGS} to {_OTHER}$")),
    ("distance", re.compile(rf"\bdistance (?:between|from) {_THINGS} (?:and|to) {_OTHER}$")),
    ("fit", re.compile(rf"\b(?:will|would|does|do|can|could|might) {_THINGS} (?:fit|go|get|pass) "
                       rf"(?:in )?(?:through|thru) {_OTHER}$")),
    ("fit", re.compile(rf"\b(?:can|could|will) (?:i|we|you|they) (?:get|move|carry|bring|take|fit|push) {_THINGS} "
                       rf"(?:in |out )?(?:through|thru) {_OTHER}$")),
    ("fit", re.compile(rf"\bis {_OTHER} (?:wide|big|large|tall|high) enough for {_THINGS}$")),
    ("compare", re.compile(rf"\b(?:compare|comparing) {_THINGS} (?:and|with|to|against|versus|vs) {_OTHER}$")),
    ("compare", re.compile(rf"\bhow (?:does|do) {_THINGS} compare (?:to|with) {_OTHER}$")),
    ("compare", re.compile(rf"\b(?:what is|what s|whats) the difference between {_THINGS} and {_OTHER}$")),
    ("compare", re.compile(rf"\b(?P<yes>is|are) {_THINGS} (?P<word>{{words}}) than {_OTHER}$")),
    ("compare", re.compile(rf"\bwhich (?:one |of them |of the two |(?P<kind>[a-z]+(?: [a-z]+)?) )?is (?P<word>{{words}}) {_THINGS} "
                           rf"or {_OTHER}$")),
]
_CHINESE: list[tuple[PairKind, re.Pattern[str]]] = [
    ("distance", re.compile(rf"^{_THINGS}(?:离|距离|距)(?:开)?{_OTHER}(?:有)?多远")),
    ("distance", re.compile(rf"^{_THINGS}(?:和|与|跟){_OTHER}(?:之间)?(?:相距|相隔|隔)?(?:有)?多远")),
    ("distance", re.compile(rf"^{_THINGS}(?:和|与|跟){_OTHER}(?:之间)?的?距离")),
    ("fit", re.compile(rf"^{_THINGS}(?:能不能|可不可以|能|可以|会)(?:通过|穿过|搬过|搬进|进得了|过得了|放进|搬出){_OTHER}"
                       rf"(?:吗|么|嘛|不)?$")),
    ("compare", re.compile(rf"^(?:请)?(?:比较|对比)(?:一下)?{_THINGS}(?:和|与|跟){_OTHER}$")),
    ("compare", re.compile(rf"^{_THINGS}(?P<yes>比){_OTHER}(?:更|还)?(?P<word>{{zh}})(?:吗|么|嘛|不)?$")),
    ("compare", re.compile(rf"^{_THINGS}(?:和|与|跟|还是){_OTHER}(?:哪个|哪一个|谁)(?:更|比较)?(?P<word>{{zh}})(?:一些|一点)?$")),
    ("compare", re.compile(rf"^(?:哪个|哪一个)(?:更|比较)?(?P<word>{{zh}})(?:一些|一点)?[，,：:]?{_THINGS}还是{_OTHER}$")),
]
# The size comparatives a comparison asks about, and what each says in Chinese.
COMPARATIVES = {"bigger": "大", "larger": "大", "smaller": "小", "taller": "高", "higher": "高", "shorter": "矮", "lower": "低",
                "longer": "长", "wider": "宽", "narrower": "窄", "deeper": "深"}
_WORDS = "|".join(COMPARATIVES)
_ZH_WORDS = {"大": "bigger", "小": "smaller", "高": "taller", "矮": "shorter", "长": "longer", "宽": "wider", "窄": "narrower",
             "深": "deeper", "低": "lower", "短": "shorter"}
_ENGLISH = [(kind, re.compile(p.pattern.replace("{words}", _WORDS))) for kind, p in _ENGLISH]
_CHINESE = [(kind, re.compile(p.pattern.replace("{zh}", "|".join(_ZH_WORDS)))) for kind, p in _CHINESE]
_ENDINGS = re.compile(r"[\s?？。.!！]+$")
# Words at the front of a description that are not part of it ("what is the distance between …").
_LEADING = re.compile(r"^(?:please |and |so |then |the )")


@dataclass(frozen=True)
class PairQuestion:
    """A question about two things: `first` measured against `second` (for fit: the object, then the opening)."""

    kind: PairKind
    first: str
    second: str
    word: str | None = None  # a comparison's comparative, in English ('bigger'); None for "compare A and B"
    yes_no: bool = False     # "is A bigger than B?" (not "which is bigger, A or B?")
    more: tuple[str, ...] = ()  # a comparison of more than two: "which is the biggest, A, B or C?"

    @property
    def things(self) -> tuple[str, ...]:
        """Every description, in the order said."""
        return (self.first, self.second, *self.more)


SUPERLATIVES = {"biggest": "bigger", "largest": "larger", "smallest": "smaller", "tallest": "taller", "highest": "higher",
                "shortest": "shorter", "lowest": "lower", "longest": "longer", "widest": "wider", "narrowest": "narrower",
                "deepest": "deeper"}
_LISTED_EN = re.compile(rf"\b(?:which (?:one |of them |of these |thing )?is (?:the )?(?P<word>{_WORDS}|"
                        rf"{'|'.join(SUPERLATIVES)})\b[,:]?(?: of)?|compare|comparing) (?P<items>.+)$")
_WHICH_ZH = rf"(?:哪个|哪一个)(?:最|更)?(?P<word>{'|'.join(_ZH_WORDS)})"
_LISTED_ZH = re.compile(rf"^(?:{_WHICH_ZH}[，,：:]?|(?:请)?(?:比较|对比)(?:一下)?)(?P<items>.+)$|"
                        rf"^(?P<first>.+?){_WHICH_ZH.replace('word', 'after')}$")


def _listed(query: str) -> PairQuestion | None:
    """A comparison of three or more: 'which is the biggest, the sofa, the bed or the tv?', '哪个最大：沙发、床还是电视'."""
    zh = has_chinese(query)
    text = _ENDINGS.sub("", query.strip() if zh else query.strip().lower())
    match = (_LISTED_ZH if zh else _LISTED_EN).search(text)
    if match is None:
        return None
    found = match.groupdict()
    said = found.get("word") or found.get("after")
    word = (_ZH_WORDS[said] if zh else SUPERLATIVES.get(said, said)) if said else None
    listed = found.get("items") or found.get("first") or ""
    items = [i.strip(" 的") for i in re.split(r"[、，,]|还是|和|与|跟" if zh else r"\s*,\s*(?:and |or )?|\s+or\s+|\s+and\s+",
                                              listed) if i.strip(" 的")]
    if len(items) < 3 or not all(_names_a_thing(i) for i in items):
        return None
    return PairQuestion("compare", items[0], items[1], word=word, more=tuple(items[2:]))


def pair_question(query: str) -> PairQuestion | None:
    """The descriptions of a distance, fit or comparison question, or None when the query is not one."""
    if (listed := _listed(query)) is not None:
        return listed
    if has_chinese(query):
        text = _ENDINGS.sub("", query.strip())
        for kind, pattern in _CHINESE:
            if match := pattern.search(text):
                word = match.groupdict().get("word")
                return _pair(kind, match["a"], match["b"], _ZH_WORDS[word] if word else None, bool(match.groupdict().get("yes")))
        return None
    words = normalize_words(query).replace("'", " ").strip()
    for kind, pattern in _ENGLISH:
        if match := pattern.search(words):
            found = match.groupdict()
            first, second = _ones(found["a"], found["b"], found.get("kind"))
            return _pair(kind, first, second, found.get("word"), bool(found.get("yes")))
    return None


def _ones(first: str, second: str, kind: str | None) -> tuple[str, str]:
    """'the one', 'the red one' named by the kind said ('which chair is bigger, the red one or the green one') or
    by the other description ('is the bed in the master bedroom bigger than the one in the guest bedroom')."""
    if kind is None and not _ONE.search(second):
        return first, second
    from scene_agent.language.grammar import read

    reading = read(first) if kind is None else None
    said = kind or (reading.said or reading.head if reading is not None else "")
    if not said:
        return first, second
    return _ONE.sub(said, first) if kind else first, _ONE.sub(said, second)


_ONE = re.compile(r"\bone\b(?! of| m\b| metre| meter| foot| feet| inch)")


def _pair(kind: PairKind, first: str, second: str, word: str | None = None, yes_no: bool = False) -> PairQuestion | None:
    first, second = first.strip(" ,:，：的"), second.strip(" ,:，：的")
    if not first or not second:
        return None
    if kind == "compare" and not all(_names_a_thing(words) or is_pronoun(words) for words in (first, second)):
        return None  # "compare the red and green chairs", "compare the chair between the sofa and the tv": one description
    return PairQuestion(kind=kind, first=first, second=second, word=word, yes_no=yes_no)


PRONOUNS = frozenset({"it", "this", "that", "this one", "that one", "it s", "它", "这个", "那个", "它们"})


def is_pronoun(words: str) -> bool:
    """Whether a description is only a word for the thing last talked about ('how far is it from the tv?')."""
    return words.strip().lower() in PRONOUNS


def _names_a_thing(words: str) -> bool:
    """Whether the words name one thing of their own and end whole (not 'the red', not 'the chair between the sofa',
    not 'the bed or the tv')."""
    from scene_agent.language.grammar import read
    from scene_agent.language.zh import to_english

    reading = read(to_english(words) if has_chinese(words) else words)
    listed = any(u.why == "loose" for u in reading.unused)  # "the sofa, the bed or the tv": more than one thing
    return bool(reading.head) and not listed and not any(r.kind == "between" and len(r.references) < 2
                                                         for r in reading.relations)
