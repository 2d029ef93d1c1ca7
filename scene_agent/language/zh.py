"""Reading Simplified Chinese: a question rewritten into the English the parsers know, word by word.

Chinese puts what places a thing before it: "沙发旁边的植物" (sofa · beside · 的 · plant) is "the
plant next to the sofa", and "离窗户最近的椅子" is "the chair closest to the window". The reader
segments the text by the longest words of `zh_lexicon`, then moves each place phrase behind the noun
it describes; everything else keeps its order (the English parsers read intents and nouns wherever
they stand). Words it does not know are kept, so an answer can name them.
"""

from __future__ import annotations

import re

from scene_agent.language.zh_lexicon import CLOSEST, FARTHEST, lexicon, postposition_of

_STOPS = {"is", "there are", "what color", "how big", "how tall", "how wide", "how long", "how many", "show", "compare",
          "where is", "what is in", "list", "which", "please", "volume", "size", "area"}
_CODE = re.compile(r"\d+(?:-\d+){0,2}")
_FLOOR_NUMBER = re.compile(r"第?(\d+)\s*(?:楼|层)(?!梯)")
_PUNCT = re.compile(r"[，。？！、；：,.?!;:\s“”\"'（）()]+")

Token = tuple[str, str]  # (kind, english): kind is "word", "post" (a place postposition), "de" (的), "li" (离), "stop"


def _floor(m: re.Match[str]) -> str:
    n = int(m.group(1))
    return f" floor {max(0, n - 1)} "  # 一楼/1楼 is the ground floor (floor 0), as "first floor" is


def _segment(text: str) -> list[Token]:
    """Tokens by longest match against the lexicon; unknown characters are grouped into words of their own."""
    words, posts = lexicon(), postposition_of()
    longest = max(map(len, [*words, *posts]))
    tokens: list[Token] = []
    unknown = ""
    i = 0
    while i < len(text):
        if m := _CODE.match(text, i):
            if unknown:
                tokens.append(("word", unknown))
                unknown = ""
            tokens.append(("word", m.group(0)))
            i = m.end()
            continue
        for n in range(min(longest, len(text) - i), 0, -1):
            piece = text[i:i + n]
            if piece == "的":
                hit: Token = ("de", "")
            elif piece == "离" or piece == "距离":
                hit = ("li", "")
            elif piece in (CLOSEST, FARTHEST):
                hit = ("post", "closest to" if piece == CLOSEST else "farthest from")
            elif piece in words:
                english = words[piece]
                hit = ("stop" if english in _STOPS else "word", english)
            elif piece in posts:
                hit = ("post", posts[piece])
            else:
                continue
            if unknown:
                tokens.append(("word", unknown))
                unknown = ""
            if hit[0] != "word" or hit[1]:
                tokens.append(hit)
            i += n
            break
        else:
            if text[i] == " ":
                if unknown:
                    tokens.append(("word", unknown))
                    unknown = ""
            else:
                unknown += text[i]
            i += 1
    if unknown:
        tokens.append(("word", unknown))
    return tokens


def _phrase_start(tokens: list[Token], end: int) -> int:
    """Where the noun phrase ending just before `end` starts: after the last stop word, 离 or postposition."""
    start = end
    while (start > 0 and tokens[start - 1][0] in ("word", "de") and tokens[start - 1][1] != "and") or (
            start > 0 and tokens[start - 1] == ("word", "and")):
        start -= 1
    return start


def _phrase_end(tokens: list[Token], begin: int) -> int:
    """Where the noun phrase starting at `begin` ends: before the next stop word, 的 or postposition."""
    end = begin
    while end < len(tokens) and (tokens[end][0] == "word" or (
            tokens[end][0] == "de" and end + 1 < len(tokens) and tokens[end + 1][0] == "word" and end > begin)):
        end += 1
    return end


def _english(tokens: list[Token]) -> list[str]:
    """The tokens with every place phrase moved behind its noun: [X, 旁边, 的, Y] → [Y, next to, X]; [X, 里, 有, Y] →
    [有, Y, in, X]."""
    for k in range(len(tokens) - 1, -1, -1):
        kind, relation = tokens[k]
        if kind != "post":
            continue
        after_begin = k + 1 + (1 if k + 1 < len(tokens) and tokens[k + 1][0] == "de" else 0)
        kept: list[Token] = []
        if relation == "in" and after_begin == k + 1:
            # 厨房里有椅子 / 厨房里窗户旁边的椅子: "in" also places the noun after 有 (there are) or right after it
            j = after_begin
            while j < len(tokens) and tokens[j][0] == "stop" and tokens[j][1] in ("there are", "how many", "is"):
                j += 1
            if j >= len(tokens) or tokens[j][0] != "word":
                continue
            kept, after_begin = tokens[after_begin:j], j
        start = _phrase_start(tokens, k)
        if start > 0 and tokens[start - 1][0] == "li":
            start -= 1
        before = [t for t in tokens[start:k] if t[0] not in ("li", "de")]
        after_end = _phrase_end(tokens, after_begin)
        head = tokens[after_begin:after_end]
        if not before or not head:
            continue
        moved = [*head, ("word", relation), *before]
        return _english([*tokens[:start], *kept, ("word", " ".join(_english(moved))), *tokens[after_end:]])
    # Question words first, as English puts them ("what colour is the plant next to the sofa"): a place's reference
    # then ends the sentence instead of running into "is what color".
    stops = [english for kind, english in tokens if kind == "stop"]
    return stops + [english for kind, english in tokens if english and kind not in ("de", "stop")]


def to_english(text: str) -> str:
    """A Chinese question as English words ('沙发旁边的植物是什么颜色' → 'plant next to sofa is what color')."""
    text = _FLOOR_NUMBER.sub(_floor, text)
    parts = [part for part in _PUNCT.split(text) if part]
    return " ".join(" ".join(_english(_segment(part))) for part in parts)
