"""Saying things in the user's language: lists, counts, and the names of labels, room types and colours, in en and zh.

The sentences themselves are kept beside the code that says them, each as a pair (`Words`), so the
two languages stay side by side and cannot drift apart in their placeholders.
"""

from __future__ import annotations

from dataclasses import dataclass

import inflection

from scene_agent.language.words import Lang
from scene_agent.language.zh_lexicon import zh_color, zh_label, zh_room_type

RELATION_WORDS: dict[str, tuple[str, str]] = {
    "near": ("next to", "旁边"), "closest": ("closest to", "最近"), "farthest": ("farthest from", "最远"),
    "on": ("on", "上"), "under": ("under", "下面"), "above": ("above", "上方"), "between": ("between", "之间"),
    "corner": ("in a corner", "在角落里"), "inside": ("in", "里面"), "supporting": ("under", "下面"),
    "opposite": ("across from", "对面"), "end": ("at the end of", "尽头"), "left": ("to the left of", "左边"),
    "right": ("to the right of", "右边"), "front": ("in front of", "前面"), "behind": ("behind", "后面"),
    "facing": ("facing", "对面"),
}
# Where a thing is among its kind or in its room (language/relation_words.py SIDES), in Chinese; English says the words
# as they were written.
SIDE_WORDS_ZH: dict[str, str] = {
    "left": "左边", "right": "右边", "middle": "中间", "front": "前面", "back": "后面", "top": "最上面", "bottom": "最下面",
    "corner": "角落里", "center": "房间中间", "wall": "靠墙", "far": "远处", "near": "近处", "floor": "地上",
    "ceiling": "天花板上", "alone": "单独放着", "together": "挨在一起",
}


@dataclass(frozen=True)
class Words:
    """One sentence in English and Chinese, with the same {placeholders}."""

    en: str
    zh: str

    def __call__(self, lang: Lang, **values: object) -> str:
        """The sentence in `lang` with its placeholders filled."""
        return (self.zh if lang == "zh" else self.en).format(**values)


def join(items: list[str], lang: Lang, last: str = "and") -> str:
    """'a, b and c' / 'a、b和c' ('or' / '或' with last='or')."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if lang == "zh":
        return "、".join(items[:-1]) + ("或" if last == "or" else "和") + items[-1]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def label_name(label: str, lang: Lang) -> str:
    """An object label as people read it: 'chair' / '椅子'."""
    return zh_label(label) if lang == "zh" else label


def room_type_name(room_type: str, lang: Lang) -> str:
    """A room type as people read it: 'living room' / '客厅'."""
    return zh_room_type(room_type) if lang == "zh" else room_type.replace("_", " ")


def color_name(term: str, lang: Lang) -> str:
    """A basic colour term: 'red' / '红色'."""
    return zh_color(term) if lang == "zh" else term


def count(noun: str, n: int, lang: Lang) -> str:
    """'1 chair', '4 chairs' / '4 个椅子' (the noun already in `lang`)."""
    if lang == "zh":
        return f"{n} 个{noun}"
    return f"{n} {noun if n == 1 else inflection.pluralize(noun)}"


def plural(noun: str, lang: Lang) -> str:
    """'chairs' / '椅子' (Chinese nouns have no plural)."""
    return noun if lang == "zh" else inflection.pluralize(noun)


def relation_name(relation: str, lang: Lang) -> str:
    """'next to' / '旁边'."""
    en, zh = RELATION_WORDS.get(relation, (relation, relation))
    return zh if lang == "zh" else en


def metres(value: float, lang: Lang) -> str:
    """'1.20 m' / '1.20 米'."""
    return f"{value:.2f} 米" if lang == "zh" else f"{value:.2f} m"

