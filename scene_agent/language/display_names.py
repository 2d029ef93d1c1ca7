"""Names of rooms and objects shown to a Chinese reader: from the vocabulary table, a scene's own Chinese names kept;
and the Chinese words a search finds them by (`zh_room_words`, `zh_object_words`: the viewer's search box).

"Kitchen, flat 2B" → "厨房，公寓 2B"; "Master bedroom" → "主卧"; a name the table does not know keeps its words and
is put beside its room type ("Kids bedroom" in a bedroom → "卧室（Kids bedroom）"); "客厅" stays "客厅".
"""

from __future__ import annotations

import re

from scene_agent.language.words import Lang, has_chinese
from scene_agent.language.zh_lexicon import OBJECT_WORDS, ROOM_WORDS, zh_label, zh_room_type

_UNIT = re.compile(r"^(?:flat|apartment|apt|unit|suite)\s+(\S+)$", re.IGNORECASE)


def _part(words: str) -> str | None:
    """One part of a name in Chinese, or None when the table does not know it."""
    if unit := _UNIT.match(words):
        return f"公寓 {unit[1]}"
    said = zh_room_type(words.lower())
    return said if has_chinese(said) else None


def zh_room_name(name: str | None, room_type: str) -> str:
    """A room's name for a Chinese reader."""
    if not name:
        return zh_room_type(room_type)
    if has_chinese(name):
        return name
    parts = [part.strip() for part in name.split(",") if part.strip()]
    said = [_part(part) for part in parts]
    if said and said[0] is not None:
        return "，".join(s if s is not None else p for s, p in zip(said, parts, strict=True))
    kind = zh_room_type(room_type)
    return f"{kind}（{name}）" if has_chinese(kind) else name


def zh_object_label(label: str) -> str:
    """An object's label for a Chinese reader (the label itself when the table has no word for it)."""
    return label if has_chinese(label) else zh_label(label)


def zh_room_words(name: str | None, room_type: str) -> list[str]:
    """Chinese words a reader may look a room up by: its type's words and those of its name's parts, display name first.

    "Master bedroom, flat 2B" in a bedroom → 主卧, 主卧室, 卧室, 睡房, 公寓 2B.
    """
    found: list[str] = []
    parts = [part.strip() for part in (name or "").split(",") if part.strip()]
    for words in [*parts, room_type.replace("_", " ")]:
        if unit := _UNIT.match(words):
            found.append(f"公寓 {unit[1]}")
        found.extend(ROOM_WORDS.get(words.lower(), ()))
    found.append(zh_room_type(room_type))
    return [w for w in dict.fromkeys(found) if has_chinese(w)]


def zh_object_words(label: str) -> list[str]:
    """Chinese words a reader may look an object up by (its label's, display name first; none for a label unknown)."""
    return [label] if has_chinese(label) else list(OBJECT_WORDS.get(label, ()))


def inferred_room_said(code: str, room_type: str, because: list[str], lang: Lang) -> str:
    """How an answer names a room whose type was inferred from its objects, saying so: 'Room 0-0 (which I take for a
    bedroom: it has a bed)' / '房间 0-0（我判断为卧室：里面有床）'."""
    shown = because[:2]
    if lang == "zh":
        return f"房间 {code}（我判断为{zh_room_type(room_type)}：里面有{'、'.join(zh_object_label(b) for b in shown)}）"
    kind = room_type.replace("_", " ")
    has = " and ".join(f"{_article(label)} {label}" for label in shown)
    return f"Room {code} (which I take for {_article(kind)} {kind}: it has {has})"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"
