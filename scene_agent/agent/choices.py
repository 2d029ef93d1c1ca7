"""Naming candidates by what tells them apart: "the red one (0-3-2) or the blue one (0-3-3)?".

When the user must choose, each candidate is described by the fewest of its attributes that make the
descriptions all different: its colour, its room, both, or (for two) which is bigger; its code always
comes along, since that is what the viewer labels. Rooms go by their names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scene_agent.language.display_names import zh_room_name
from scene_agent.language.say import Words, color_name, join, label_name, plural, room_type_name
from scene_agent.language.words import Lang
from scene_agent.tools.find import Candidate

MAX_PROMPT = 300  # the viewer's prompt field holds at most this much

PICK_ONE = Words("Which {noun} do you mean? Pick it, then Confirm", "您指的是哪个{noun}？请选择后点击确认")
PICK_ONE_OF = Words("Which {noun} do you mean: {choices}? Pick it, then Confirm", "您指的是哪个{noun}：{choices}？请选择后点击确认")
PICK_SOME = Words("Pick the {nouns} {purpose}, then Confirm", "请选择{purpose}的{nouns}，然后点击确认")
PURPOSE = {"you mean": ("you mean", "您指"), "to compare": ("to compare", "要比较")}
DESCRIBED = {
    "color": Words("the {color} one", "{color}的那个"),
    "room": Words("the one in the {room}", "{room}里的那个"),
    "color+room": Words("the {color} one in the {room}", "{room}里{color}的那个"),
    "size": Words("the {size} one", "{size}的那个"),
}
NAMED = {  # when the candidates are different things, the noun goes along
    "color": Words("the {color} {noun}", "{color}的{noun}"),
    "room": Words("the {noun} in the {room}", "{room}里的{noun}"),
    "color+room": Words("the {color} {noun} in the {room}", "{room}里{color}的{noun}"),
    "size": Words("the {size} {noun}", "{size}的{noun}"),
}
SIZES = {"bigger": ("bigger", "大一点"), "smaller": ("smaller", "小一点")}


def noun(c: Candidate, lang: Lang) -> str:
    """What a candidate is: 'chair' / '椅子', 'bedroom' / '卧室'."""
    if c.kind == "object":
        return label_name(c.label or "object", lang)
    return room_type_name(c.type or "room", lang)


def named(c: Candidate, lang: Lang) -> str:
    """A candidate as an answer names it, without its room: 'sofa 0-2-1', 'Master bedroom 1-2' / '主卧 1-2'."""
    if c.kind == "room":
        return f"{zh_room_name(c.name, c.type or 'room') if lang == 'zh' else c.name or noun(c, lang)} {c.code}"
    return f"{noun(c, lang)} {c.code}"


def common_noun(candidates: Sequence[Candidate], lang: Lang) -> str:
    """The noun all candidates share ('chair' for chairs and office chairs), else 'one' / 'room'."""
    nouns = {noun(c, lang) for c in candidates}
    if len(nouns) == 1:
        return nouns.pop()
    heads = {(c.label or "").rsplit(" ", 1)[-1] for c in candidates if c.kind == "object"}
    if len(heads) == 1 and all(c.kind == "object" for c in candidates):
        return label_name(heads.pop(), lang)
    if all(c.kind == "room" for c in candidates):
        return "房间" if lang == "zh" else "room"
    return "个" if lang == "zh" else "one"


def _room(c: Candidate) -> str:
    return c.room_name or c.room_type.replace("_", " ")


Feature = Callable[[Candidate], str | None]


def _features(lang: Lang) -> dict[str, Feature]:
    def color(c: Candidate) -> str | None:
        return color_name(c.observed.color, lang) if c.observed and c.observed.color else None
    return {"color": color, "room": lambda c: _room(c)}


def describe_each(candidates: Sequence[Candidate], lang: Lang) -> list[str]:
    """One short description per candidate, each different from the others, code in brackets."""
    if all(c.kind == "room" for c in candidates):
        return [_with_code(c.name or room_type_name(c.type or "room", lang), c, lang) for c in candidates]
    same_noun = len({noun(c, lang) for c in candidates}) == 1
    table = DESCRIBED if same_noun else NAMED
    features = _features(lang)
    for key in ("color", "room", "color+room"):
        parts = key.split("+")
        values = [tuple(features[p](c) for p in parts) for c in candidates]
        if all(all(v) for v in values) and len(set(values)) == len(values):
            return [_with_code(table[key](lang, noun=noun(c, lang), **dict(zip(parts, v, strict=True))), c, lang)
                    for c, v in zip(candidates, values, strict=True)]
    volumes = [c.observed.volume_m3 for c in candidates if c.observed and c.observed.volume_m3]
    if len(candidates) == 2 and len(volumes) == 2:
        a, b = volumes
        if max(a, b) > 1.1 * min(a, b):
            sizes = ("bigger", "smaller") if a > b else ("smaller", "bigger")
            return [_with_code(table["size"](lang, noun=noun(c, lang), size=SIZES[s][lang == "zh"]), c, lang)
                    for c, s in zip(candidates, sizes, strict=True)]
    return [f"{c.code} ({_room(c)})" if lang == "en" else f"{c.code}（{_room(c)}）" for c in candidates]


def _with_code(text: str, c: Candidate, lang: Lang) -> str:
    return f"{text} ({c.code})" if lang == "en" else f"{text}（{c.code}）"


def pick_prompt(candidates: Sequence[Candidate], multiple: bool, lang: Lang, purpose: str = "you mean") -> str:
    """What the viewer asks: the candidates told apart when it fits, else 'Which chair do you mean?'."""
    what = common_noun(candidates, lang)
    if multiple:
        en, zh = PURPOSE.get(purpose, (purpose, purpose))
        nouns = "ones" if what == "one" else plural(what, lang)
        return PICK_SOME(lang, nouns=nouns, purpose=zh if lang == "zh" else en)
    described = describe_each(candidates, lang)
    if lang == "zh":
        choices = "、".join(described[:-1]) + "还是" + described[-1] if len(described) > 1 else described[0]
    else:
        choices = join(described, lang, "or")
    prompt = PICK_ONE_OF(lang, noun=what, choices=choices)
    return prompt if len(prompt) <= MAX_PROMPT else PICK_ONE(lang, noun=what)
