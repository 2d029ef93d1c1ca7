"""Reading Simplified Chinese: a description rewritten into the English the grammar (grammar.py) reads.

Chinese puts what describes a thing before it: "沙发旁边的植物" (sofa · beside · 的 · plant) is "the plant next to
the sofa", "上面有台灯的床头柜" (on-top · has · lamp · 的 · nightstand) "the nightstand with a lamp on it", "不是红色的那个"
"the one that is not red". The reader cuts the text into sentences (。？！) and clauses (，), segments each clause by
the longest words of `zh_lexicon`, then moves every phrase that places, negates or excepts behind the noun it
describes, innermost first (`zh_phrases`); colour, size, shape, material and order words stay before the noun, as in
English. A viewpoint said first ("面对床，", "进门时") becomes a clause of its own ("facing bed,", "as you enter,").
Sentence and clause breaks are kept as "." and ",", which the grammar relies on. Words the lexicon does not know are
kept as they are, so the reading reports them as unused.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from scene_agent.language.zh_lexicon import FLAT_WORDS, LOOKING, entries
from scene_agent.language.zh_phrases import WORDLIKE, Tok, linear, render, rewritten, word_run

_CODE = re.compile(r"\d+(?:-\d+){0,2}")
_MARKERS = "|".join(sorted(FLAT_WORDS, key=len, reverse=True))
_FLAT = re.compile(rf"(?:({_MARKERS})\s*)?(?<![0-9A-Za-z-])(\d+[A-Za-z]|[A-Za-z]\d+)(?![0-9A-Za-z-])(?:\s*({_MARKERS}))?")
_FLOOR_NUMBER = re.compile(r"第?(\d+)\s*(?:楼|层)(?!梯)")
_SENTENCE = re.compile(r"[。？！?!；;]+|\.(?!\d)")
_CLAUSE = re.compile(r"[,，:：]+")
_SPACES = frozenset(" \t\n\"'“”‘’()（）[]【】《》")


# "床头柜上有什么": whatever is on the nightstand, listed ("里有什么", a room's contents, is read as it is).
_WHATS_THERE = re.compile(r"([^，。？！；,.?!;]*?)(上面|上|旁边|下面|底下|下|附近|前面|后面|对面|周围|之间|中间)"
                          r"(?:都?(?:有|放着|摆着|放了|是)些?(?:什么|哪些)(?:东西)?|有没有东西|有东西(?:吗|(?=[？?。]|$)))")


# "从窗户数第二把椅子": counting from the window, the second chair (the second closest to it); not 从左边数 (a side).
_COUNTED_FROM_THING = re.compile(r"从(?![左右上下前后])([^，。？！；,.?!;从数]{1,12}?)(?:开始|那边|这边)?数起?，?(第[一二三四五])")


# "床尾的凳子", "角落的植物": a place said before the thing, as where it is (在床尾的凳子: the stool at the foot of the bed).
_PLACE_BEFORE = re.compile(r"(?<![在放摆])(床尾|床脚|床头(?!柜)|角落|墙角)(?:那边|这边|那里|这里|旁边)?的")


# "既不是红色也不是蓝色的椅子": neither red nor blue — not red or blue.
_NEITHER = re.compile(r"既?不(是|在)([^，。？！；,.?!;也]+?)，?也不(?:是|在)([^，。？！；,.?!;]+?)的")


# "面对厨房的窗户，左边的椅子": a view said alone before a comma faces the kitchen's window (not "the window facing
# the kitchen", as 面向窗户的椅子 is the chair facing the window).
_FACING_WHOSE = re.compile(r"(?:(?<=^)|(?<=[。？！；.?!;]))(面对着|面对|面向|面朝|朝着|对着)([^，,。的]+?)的([^，,。的]+?)[，,]")


def to_english(text: str) -> str:
    """A Chinese description as English words, sentences joined by '.', clauses by ','
    ('这是一个白色的垃圾桶，它在书桌旁边。' → 'this is a white trash can, it is next to desk')."""
    text = _FLOOR_NUMBER.sub(_floor, unicodedata.normalize("NFKC", text))
    text = _WHATS_THERE.sub(r"列出\1\2的所有东西", text)
    text = _COUNTED_FROM_THING.sub(r"离\1\2近的", text)
    text = _PLACE_BEFORE.sub(r"在\1的", text)
    text = _NEITHER.sub(r"不\1\2或\3的", text)
    text = _FACING_WHOSE.sub(r"\1\2\3，", text)
    sentences: list[list[str]] = []
    for sentence in _SENTENCE.split(text):
        sentences.append([])
        for part in _CLAUSE.split(sentence):
            tokens = _segment(part)
            if tokens and tokens[0].kind == "verb" and tokens[0].en == "choose" and sentences[-1]:
                sentences.append([])  # 找到餐桌，然后选它旁边的椅子: the choosing starts a sentence of its own
            sentences[-1] += _clause(tokens)
    return ". ".join(", ".join(clauses) for clauses in sentences if clauses)


def _room_follows(text: str, at: int, table: Mapping[str, tuple[str, str]]) -> bool:
    """Whether a room word comes next ('4A厨房': flat 4A's kitchen)."""
    from scene_agent.language.vocabulary import room_aliases

    rooms = room_aliases()
    return any(text.startswith(zh, at) and english in rooms for zh, (kind, english) in table.items() if kind == "noun")


def _floor(m: re.Match[str]) -> str:
    n = int(m.group(1))
    return f" floor {max(0, n - 1)} "  # 一楼/1楼 is the ground floor (floor 0), as "first floor" is


# -- words -----------------------------------------------------------------------------------------------------------


def _segment(text: str) -> list[Tok]:
    """Tokens by longest match against the lexicon; flat names (4A), codes and unknown stretches are words of their own."""
    table = entries()
    longest = max(map(len, table))
    tokens: list[Tok] = []
    unknown = ""
    i = 0
    while i < len(text):
        found: Tok | None = None
        size = 0
        if (m := _FLAT.match(text, i)) and (m.group(1) or m.group(3) or text[m.end():m.end() + 1] == "的"
                                            or _room_follows(text, m.end(), table)):
            possessive = text[m.end():m.end() + 1] == "的"
            name = ("flat " if m.group(1) or m.group(3) else "") + m.group(2).lower() + ("'s" if possessive else "")
            found, size = Tok("name", name, m.group(0)), len(m.group(0)) + possessive
        elif m := _CODE.match(text, i):
            found, size = Tok("word", m.group(0), m.group(0)), len(m.group(0))
        else:
            for n in range(min(longest, len(text) - i), 0, -1):
                piece = text[i:i + n]
                if piece in table:
                    kind, english = table[piece]
                    found, size = Tok(kind, english, piece), n
                    break
        if found is None:
            if text[i] in _SPACES:
                size = 1
            else:
                unknown += text[i]
                i += 1
                continue
        if unknown:
            tokens.append(Tok("word", unknown, unknown))
            unknown = ""
        if found is not None and found.kind != "dropped":
            tokens.append(found)
        i += size
    if unknown:
        tokens.append(Tok("word", unknown, unknown))
    return tokens


# -- a clause ----------------------------------------------------------------------------------------------------------


def _clause(tokens: list[Tok]) -> list[str]:
    """A clause as English: a viewpoint said first becomes a clause of its own ('面对床左边的' → 'facing bed',
    'one on the left')."""
    tokens = [t for k, t in enumerate(tokens) if t.kind != "if" and not (  # 红色的那把椅子: the red chair
        t.kind == "dem" and 0 < k < len(tokens) - 1 and tokens[k - 1].kind == "de" and tokens[k + 1].kind in WORDLIKE)]
    out: list[str] = []
    while tokens and tokens[0].kind in ("enter", "view", "from"):
        first = tokens[0]
        if first.kind == "enter":
            out.append(first.en)
            tokens = tokens[1:]
            continue
        end = word_run(tokens, 1)
        if end == 1:
            break
        if first.kind == "from":  # 从窗户看: seen from the window
            if end >= len(tokens) or tokens[end].zh not in LOOKING:
                break
            out.append(" ".join([first.en, *render(tokens[1:end])]))
            tokens = tokens[end + 1:]
            continue
        if end < len(tokens) and tokens[end].kind == "de":
            break  # 面向窗户的椅子: the chair facing the window, a place of the chair (zh_phrases)
        out.append(" ".join([first.en, *render(tokens[1:end])]))
        tokens = tokens[end:]
    if tokens:
        words = linear(rewritten(tokens))
        if words:
            out.append(words)
    return out
