"""Chinese phrases put in English order: what describes a thing moved behind it, as zh.py reads a clause.

A clause is a list of `Tok` (kind, English, Chinese) as zh.py segments it. `rewritten` applies the rules below, each at
the rightmost place it fits, until none does, so inner phrases are built first; a built noun phrase is one `Tok` of kind
"np". First the counting words ("左边第三个": the third from the left), then the relative clauses that start with a
marker (上面有… / …在上面 / 不是… / 除了… / 有… before 的), then the places ("沙发旁边的植物": plant next to sofa, "靠近窗户的":
close to window, "角落里的": in the corner, "在厨房的": in kitchen). `linear` says the result as English words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from scene_agent.language.zh_lexicon import ALONE, COMPARED, COUNTED_FROM_SIDE, HOLDING, NUMBER_WORDS, ON_TOP

WORDLIKE = frozenset({"word", "noun", "np", "name", "pronoun"})
_AMONG = frozenset({"中", "之中", "当中"})  # "两把椅子中较大的": the larger of the two chairs
_NUMBERS = frozenset(NUMBER_WORDS) | {"both"}


class Tok(NamedTuple):
    """One word of a clause: its kind (zh_lexicon.Kind, or "np" / "name" / "tail" once rewritten), English, Chinese."""

    kind: str
    en: str
    zh: str = ""


def rewritten(tokens: list[Tok]) -> list[Tok]:
    """The clause with counting words in place, then relative clauses, then places moved behind their nouns."""
    tokens = [Tok("prep", "facing", t.zh) if t.kind == "view" and t.en == "facing" else t for t in _counting(tokens)]
    tokens = _apply(tokens, (_holding, _held_on_top, _not_one, _except, _having))
    return _apply(tokens, (_place, _before_noun, _side, _at))


Rule = Callable[[list[Tok], int], list[Tok] | None]


def _apply(tokens: list[Tok], rules: tuple[Rule, ...]) -> list[Tok]:
    """Each rule at the rightmost place it fits, again and again until none fits: inner phrases are built first."""
    changed = True
    while changed:
        changed = False
        for k in range(len(tokens) - 1, -1, -1):
            for rule in rules:
                result = rule(tokens, k)
                if result is not None:
                    tokens, changed = result, True
                    break
            if changed:
                break
    return tokens


def linear(tokens: list[Tok]) -> str:
    """The clause's words in order; in a question the question words go first, as in English ('what color …')."""
    question = any(t.kind == "stop" for t in tokens)
    front = [t.en for t in tokens if question and t.kind in ("stop", "is", "have")]
    rest = [t for t in tokens if not (question and t.kind in ("stop", "is", "have"))]
    words = front + render(rest)
    stated = any(t.kind in ("is", "not") for t in tokens)
    if rest and rest[-1].kind == "de" and not stated:
        words.append("one")  # "红色的": the red one
    return " ".join(w for w in words if w)


def render(tokens: list[Tok]) -> list[str]:
    """Tokens as English words, in their order."""
    out: list[str] = []
    for i, t in enumerate(tokens):
        kind = t.kind
        prev = tokens[i - 1] if i else None
        nxt = next((x for x in tokens[i + 1:] if x.kind != "de"), None)
        if kind in ("de", "dropped", "look", "except_end", "li", "if") or not t.en:
            continue
        if kind == "dem":
            if i + 1 < len(tokens) and tokens[i + 1].kind in (*WORDLIKE, "ordinal"):
                out.append(t.en)  # 那个床头柜: the nightstand
            elif prev is not None and (prev.kind == "de" or prev.kind in WORDLIKE):
                out.append("one")  # 红色的那个: the red one
            else:
                out.append("them" if t.en in ("these", "those") else "it")
        elif kind == "ordinal":
            out.append(t.en if nxt is not None and nxt.kind in (*WORDLIKE, "tail") else f"{t.en} one")
        elif kind == "have":
            no = t.en == "there is no"
            out.append(("has no" if no else "has") if prev is not None and prev.kind in WORDLIKE else t.en)
        elif kind == "not":
            out.append("is not" if prev is not None and prev.kind in WORDLIKE else "not")
        else:
            out.append(t.en)
    return out


# -- spans -------------------------------------------------------------------------------------------------------------


def word_run(tokens: list[Tok], i: int) -> int:
    """The end of the words starting at i (no 的 inside): '红色或蓝色' in '不是红色或蓝色的厨房椅子'."""
    while i < len(tokens) and tokens[i].kind in WORDLIKE:
        i += 1
    return i


def _np_end(tokens: list[Tok], i: int) -> int:
    """The end of the noun phrase starting at i: words, with 的 between them ('白色的床头柜')."""
    begin = i
    while i < len(tokens) and (tokens[i].kind in WORDLIKE or (
            tokens[i].kind == "de" and i > begin and i + 1 < len(tokens) and tokens[i + 1].kind in WORDLIKE)):
        i += 1
    return i


def _np_start(tokens: list[Tok], k: int) -> int:
    """The start of the noun phrase ending just before k: words and 的 ('红色的椅子' in '红色的椅子旁边')."""
    while k > 0 and (tokens[k - 1].kind in WORDLIKE or (tokens[k - 1].kind == "de" and k > 1 and
                                                         tokens[k - 2].kind in WORDLIKE)):
        k -= 1
    return k


def _head(tokens: list[Tok], j: int) -> tuple[list[Tok], int]:
    """The noun a modifier describes, from j on, and where it ends; '那个' (or nothing) is 'one'."""
    start = j
    if j < len(tokens) and tokens[j].kind in ("dem", "ordinal") and j + 1 < len(tokens) and tokens[j + 1].kind in WORDLIKE:
        j += 1  # 的那个床头柜, 的第二把椅子
    end = _np_end(tokens, j)
    if end == j:
        if j < len(tokens) and tokens[j].kind == "dem":
            return [], j + 1
        return [], start
    return tokens[start:end], end


def _compared(tokens: list[Tok]) -> list[str]:
    """Size words among a few, as comparatives: '两张床中大的' is 'the larger of the two beds'."""
    return [COMPARED.get(word, word) for word in render(tokens)]


def _bare(tokens: list[Tok], k: int) -> bool:
    """True when no noun comes right before the place word at k: '左边的椅子', '那个上面有台灯的'."""
    return k == 0 or tokens[k - 1].kind not in (*WORDLIKE, "de")


def _np(head: list[Tok], *parts: str) -> Tok:
    """A noun phrase built: its head (or 'one') and what comes after it in English."""
    words = render(head) or ["one"]
    return Tok("np", " ".join([*words, *(p for p in parts if p)]))


def _described(tokens: list[Tok], start: int, j: int, *parts: str) -> list[Tok]:
    """tokens[start:j] describe the noun from j on: both become one noun phrase, the description after the noun."""
    head, stop = _head(tokens, j)
    return [*tokens[:start], _np(head, *parts), *tokens[stop:]]


def _said(tokens: list[Tok], start: int, end: int, negated: bool, *words: str) -> list[Tok]:
    """A place said of the thing named before it ('它在书桌旁边': it · is next to desk), else the place alone."""
    stated = tokens[start].kind in ("at", "not_at") and start > 0 and tokens[start - 1].kind in WORDLIKE
    verb = ("is not" if negated else "is") if stated else ("not" if negated else "")
    return [*tokens[:start], Tok("tail", " ".join(w for w in (verb, *words) if w)), *tokens[end:]]


# -- rules: each returns the rewritten clause, or None when it does not fit at k ------------------------------------


def _counting(tokens: list[Tok]) -> list[Tok]:
    """'左边第三个' / '第三个从左边数' → 'the third from the left'; '两个中较大的' → 'the larger of the two'."""
    for i, t in enumerate(tokens):
        if t.kind == "of_the":
            end = word_run(tokens, i + 1)
            if end > i + 1:
                j = end + (end < len(tokens) and tokens[end].kind == "de")
                j += j < len(tokens) and tokens[j].kind == "dem"
                return [*tokens[:i], Tok("np", " ".join(["the", *_compared(tokens[i + 1:end]), t.en])), *tokens[j:]]
    ordinal = next((i for i, t in enumerate(tokens) if t.kind == "ordinal"), None)
    if ordinal is None:
        return tokens
    side = next((i for i, t in enumerate(tokens) if t.kind == "counted_from"), None)
    drop = 1
    if side is not None:
        said = tokens[side].en
    else:
        before = ordinal - 1 - (ordinal > 1 and tokens[ordinal - 1].kind == "de")
        if before < 0 or tokens[before].kind != "post" or tokens[before].en not in COUNTED_FROM_SIDE or \
                not _bare(tokens, before):
            return tokens
        side, said, drop = before, COUNTED_FROM_SIDE[tokens[before].en], ordinal - before
    rest = tokens[:side] + tokens[side + drop:]
    ordinal = next(i for i, t in enumerate(rest) if t.kind == "ordinal")
    end = _np_end(rest, ordinal + 1)
    return [*rest[:end], Tok("tail", said), *rest[end:]]


def _holding(tokens: list[Tok], k: int) -> list[Tok] | None:
    """'上面有台灯的床头柜' → 'nightstand with lamp on it'; '周围有四把椅子的桌子' → 'table with four chair around it'."""
    post = tokens[k]
    if post.kind != "post" or not _bare(tokens, k) or k + 1 >= len(tokens) or tokens[k + 1].kind != "have":
        return None
    end = word_run(tokens, k + 2)
    if end == k + 2 or end >= len(tokens) or tokens[end].kind != "de":
        return None
    start = k - 1 if k > 0 and tokens[k - 1].kind == "at" else k
    return _described(tokens, start, end + 1, _with(tokens[k + 1]), *render(tokens[k + 2:end]),
                      HOLDING.get(post.en, f"{post.en} it"))


def _held_on_top(tokens: list[Tok], k: int) -> list[Tok] | None:
    """'柜台和水槽在上面的柜子' → 'cabinet with counter and sink on top'."""
    if tokens[k].kind != "at" or k + 2 >= len(tokens) or tokens[k + 1].kind != "post" or tokens[k + 2].kind != "de":
        return None
    start = k
    while start > 0 and tokens[start - 1].kind in WORDLIKE:
        start -= 1
    post = tokens[k + 1].en
    held = ON_TOP.get(post) or HOLDING.get(post, f"{post} it")
    return _described(tokens, start, k + 3, "with", *render(tokens[start:k]), held) if start < k else None


def _not_one(tokens: list[Tok], k: int) -> list[Tok] | None:
    """'不是红色的那个' → 'one that is not red'; '不是红色或蓝色的厨房椅子' → 'kitchen chair that is not red or blue'.
    After a noun it is said of that noun ('它不是红色的': it is not red) and stays."""
    if tokens[k].kind != "not" or (k > 0 and tokens[k - 1].kind in WORDLIKE):
        return None
    end = word_run(tokens, k + 1)
    if end == k + 1 or end >= len(tokens) or tokens[end].kind != "de":
        return None
    return _described(tokens, k, end + 1, "that is not", *render(tokens[k + 1:end]))


def _except(tokens: list[Tok], k: int) -> list[Tok] | None:
    """'除了办公椅以外的椅子' → 'chair except office chair'."""
    if tokens[k].kind != "except":
        return None
    end = _np_end(tokens, k + 1)
    if end == k + 1:
        return None
    j = end
    for kind in ("except_end", "de"):
        j += j < len(tokens) and tokens[j].kind == kind
    return _described(tokens, k, j, "except", *render(tokens[k + 1:end]))


def _having(tokens: list[Tok], k: int) -> list[Tok] | None:
    """'有台灯的床头柜' → 'nightstand with lamp' (not after a noun: '桌子有四把椅子' says the table has them)."""
    if tokens[k].kind != "have" or (k > 0 and tokens[k - 1].kind in (*WORDLIKE, "post")):
        return None
    end = word_run(tokens, k + 1)
    if end == k + 1 or end >= len(tokens) or tokens[end].kind != "de" or tokens[end - 1].kind != "noun":
        return None
    return _described(tokens, k, end + 1, _with(tokens[k]), *render(tokens[k + 1:end]))


def _with(have: Tok) -> str:
    """有 is 'with', 没有 'without'."""
    return "without" if have.en == "there is no" else "with"


def _place(tokens: list[Tok], k: int) -> list[Tok] | None:
    """A place phrase behind its noun: '沙发旁边的植物' → 'plant next to sofa'; alone: '左边的椅子' → 'chair on the left';
    said of something: '它在书桌旁边' → 'it' 'is next to desk'; '厨房里有几把椅子' → 'there are how many chair in kitchen'."""
    post = tokens[k]
    if post.kind != "post":
        return None
    start = _np_start(tokens, k)
    before = [t._replace(en=t.en.removesuffix("'s")) if t.kind == "name" else t  # 4A的厨房里: in 4a kitchen
              for t in tokens[start:k] if t.kind != "de"]
    lead = start - 1 if start > 0 and tokens[start - 1].kind in ("at", "not_at", "li") else start
    negated = lead < start and tokens[lead].kind == "not_at"
    j = k + 1
    de = j < len(tokens) and tokens[j].kind == "de"
    if not before:
        alone = ALONE.get(post.en, post.en)
        if de or _head(tokens, j)[0]:
            return _described(tokens, lead, j + de, *(["not"] if negated else []), alone)
        return _said(tokens, lead, j, negated, alone)
    if post.en in _SIDE_POSTS and len(before) == 1 and before[0].kind == "noun" and _is_room(before[0].en) and \
            (de or _head(tokens, j)[0]):
        return _described(tokens, lead, j + de, ALONE[post.en], "in", before[0].en)  # 主卧左边的床头柜: on the left, in it
    relation = "not " + post.en if negated else post.en
    if not de and j < len(tokens) and tokens[j].kind in ("have", "stop", "is"):
        m = j  # 厨房里有几把椅子: there are how many chairs in the kitchen
        while m < len(tokens) and (tokens[m].kind in ("have", "is") or tokens[m].en == "how many"):
            m += 1
        if m == j or m >= len(tokens) or tokens[m].kind not in WORDLIKE:
            return None
        end = _np_end(tokens, m)
        if lead == start and start > 0 and tokens[start - 1].kind == "dem" and tokens[start - 1].en == "this":
            lead, before = start - 1, [tokens[start - 1], *before]  # 这个柜子旁边有植物: plants next to this cabinet
        return [*tokens[:lead], *tokens[j:m], _np(tokens[m:end], relation, *render(before)), *tokens[end:]]
    head, stop = _head(tokens, j + de)
    room = before[:1] if len(before) > 2 and before[0].kind == "noun" and _is_room(before[0].en) else []
    group = before[len(room):]  # 儿童房两个床头柜中小的那个: the smaller of the two nightstands, in the kids room
    if post.zh in _AMONG and group[0].en in _NUMBERS and head:
        stop += stop < len(tokens) and tokens[stop].kind == "de"
        stop += stop < len(tokens) and tokens[stop].kind == "dem"
        where = ["in", *render(room)] if room else []
        counted = ["two" if w == "both" else w for w in render(group)]  # 两个 is 'both' elsewhere; here, two of them
        return [*tokens[:lead], Tok("np", " ".join(["the", *_compared(head), "of the", *counted, *where])), *tokens[stop:]]
    if head or de:
        return _described(tokens, lead, j + de, relation, *render(before))
    return _said(tokens, lead, j, negated, post.en, *render(before))


_SIDE_POSTS = frozenset({"to the left of", "to the right of", "in front of", "behind"})


def _is_room(english: str) -> bool:
    """Whether a noun names a room ('master bedroom'): a room's left is where in the room, not a thing's side."""
    from scene_agent.language.vocabulary import room_aliases

    return english in room_aliases()


def _before_noun(tokens: list[Tok], k: int) -> list[Tok] | None:
    """A place word before its noun, as in English: '靠近窗户的椅子' → 'chair close to window', '面向窗户的椅子' →
    'chair facing window'; said of something: '椅子靠近窗户' → 'chair' 'is close to window'."""
    prep = tokens[k]
    if prep.kind != "prep":
        return None
    end = word_run(tokens, k + 1)
    if end == k + 1:
        return None
    where = render(tokens[k + 1:end])
    if end < len(tokens) and tokens[end].kind == "de":
        return _described(tokens, k, end + 1, prep.en, *where)
    if end + 1 < len(tokens) and tokens[end].kind == "dem" and tokens[end + 1].kind in WORDLIKE:
        return _described(tokens, k, end + 1, prep.en, *where)  # 靠窗那把椅子: the chair by the window
    return _said(tokens, k, end, False, prep.en, *where)


def _side(tokens: list[Tok], k: int) -> list[Tok] | None:
    """A place said alone, behind its noun: '角落里的植物' → 'plant in the corner'; '它在角落里' → 'it' 'is in the corner'."""
    side = tokens[k]
    if side.kind != "side":
        return None
    lead = k - 1 if k > 0 and tokens[k - 1].kind in ("at", "not_at") else k
    negated = lead < k and tokens[lead].kind == "not_at"
    de = k + 1 < len(tokens) and tokens[k + 1].kind == "de"
    if de or _head(tokens, k + 1)[0]:
        return _described(tokens, lead, k + 1 + de, *(["not"] if negated else []), side.en)
    return _said(tokens, lead, k + 1, negated, side.en)


def _at(tokens: list[Tok], k: int) -> list[Tok] | None:
    """在 with no place word after its noun: '在厨房的椅子' → 'chair in kitchen'; '它在厨房' → 'it' 'is in kitchen'."""
    if tokens[k].kind not in ("at", "not_at"):
        return None
    negated = tokens[k].kind == "not_at"
    end = word_run(tokens, k + 1)
    if end == k + 1:
        return [*tokens[:k], Tok("tail", "is not" if negated else "is"), *tokens[k + 1:]]
    where = render(tokens[k + 1:end])
    if end < len(tokens) and tokens[end].kind == "de":
        return _described(tokens, k, end + 1, *(["not"] if negated else []), "in", *where)
    return _said(tokens, k, end, negated, "in", *where)
