"""What `find` says when the words fit nothing, in the user's language: what is missing, and what exists instead."""

from __future__ import annotations

from dataclasses import replace

from scene_agent.language.reading import Unused
from scene_agent.language.say import SIDE_WORDS_ZH, Words, color_name, count, join, label_name, plural, relation_name, room_type_name
from scene_agent.language.words import Lang
from scene_agent.resolution.matching import Missing, entry
from scene_agent.resolution.narrowing import Narrowing
from scene_agent.resolution.outcome import Resolution
from scene_agent.scene.codes import code_sort_key
from scene_agent.scene.index import IndexedObject
from scene_agent.scene.loader import Scene

UNKNOWN_COLOR = Words("I do not know the colour '{word}': say a basic colour (red, blue, grey …) or a common name (navy, beige).",
                      "我不认识颜色“{word}”：请说基本颜色（红、蓝、灰……）或常见颜色名（藏青、米色）。")
NO_FLOOR = Words("This scene has no floor {floor}; its floors are {floors}.", "这个场景没有 {floor} 层；它的楼层是 {floors}。")
NO_CODE = Words("Nothing in scene {scene} has the code {codes}.", "场景 {scene} 中没有编号为 {codes} 的东西。")
NO_LABEL = Words("No {what}{where}.", "{where}没有{what}。")
LABEL_ELSEWHERE = Words(" There are {whats} in: {rooms}.", "{what}在：{rooms}。")
NO_ROOM = Words("No {what}{where}.", "{where}没有{what}。")
ROOM_ELSEWHERE = Words(" There are: {rooms}.", "有：{rooms}。")
ROOMS_HERE = Words(" Rooms here: {types}.", "这里的房间有：{types}。")
ROOM_UNTYPED = Words(" I could not tell the type of room {code} ({holds}): say 'room {code}' if you mean it.",
                     "看不出房间 {code} 的类型（{holds}）：如果指的是它，请说“房间 {code}”。")
NO_WORDS_CLOSEST = Words("Nothing called '{named}' in this scene; closest: {closest}.", "这个场景中没有“{named}”；最接近的是：{closest}。")
NO_WORDS = Words("Nothing called '{named}' in this scene. It has: {labels}; rooms: {rooms}.",
                 "这个场景中没有“{named}”。这里有：{labels}；房间：{rooms}。")
NO_COLOR = Words("There is no {color} {noun}; the {nouns} are {colors}.", "没有{color}的{noun}；这些{noun}是{colors}。")
NO_COLOR_ONE = Words("There is no {color} {noun}; the {noun} is {colors}.", "没有{color}的{noun}；这个{noun}是{colors}。")
NO_REFERENCE = Words("{missing} So I cannot tell which {noun} is {relation} it.", "{missing}所以无法判断哪个{noun}在它{relation}。")
NO_PLACE = Words("No {noun} is {relation} the {reference}.", "没有{noun}在{reference}{relation}。")
ALL_PLACED = Words("Every {noun} here is {relation} the {reference}, so I did not use 'not'.",
                   "这里每个{noun}都在{reference}{relation}，所以没有按“不”来找。")
ALL_HOLD = Words("Every {noun} here has the {reference} on it, so I did not use 'not'.",
                 "这里每个{noun}上面都有{reference}，所以没有按“不”来找。")
NOTHING_PLACED = Words("Nothing is {relation} the {reference} ({codes}).", "{reference}（{codes}）{relation}没有东西。")
NEAREST = Words(" The nearest is {code}, {distance} away.", "最近的是 {code}，相距 {distance}。")
NO_SIDE = Words("No {noun} is {side}.", "没有{side}的{noun}。")
NO_CORNER = Words("No {noun} stands in a corner of its room.", "没有{noun}在房间的角落里。")
UNLISTED = Words("What the words name ({codes}) is not among the ones listed.", "所说的（{codes}）不在列出的候选中。")
BOTH = Words("'Both' needs two; there are {n}: {codes}.", "“两个”需要正好两个；这里有 {n}：{codes}。")
ONLY = Words("There are only {n}: {codes}.", "只有 {n}：{codes}。")
NO_OTHER = Words("There is no other one: the last answer already covered every candidate.", "没有另一个了：上一个回答已经包括了所有候选。")
ROOM_FALLBACK = Words("This scene has no {rooms} as a room, so these are the {nouns} anywhere in it.",
                      "这个场景没有{rooms}这样的房间，所以这里列出的是场景中所有的{nouns}。")
READ_AS = Words("I read {pairs}.", "我把{pairs}。")
READ_PAIR = Words("'{written}' as {read}", "“{written}”理解为“{read}”")
NOT_USED = Words("I did not use: {words}.", "这些词我没有用上：{words}。")
# Why some words were not used, as `Unused.why` says it (language/reading.py); {about}: the other thing's name.
WHY: dict[str, Words] = {
    "no_such": Words("There is no {about} here, so I did not use '{word}'.", "这里没有{about}，所以没有按它来找。"),
    "none_fits": Words("No {about} fits '{word}'; I used every {about}.", "没有符合描述的{about}；我用了所有的{about}。"),
    "no_view": Words("'{word}' depends on where you stand, and the words do not say.",
                     "左右前后取决于你站在哪里，而描述里没有说。"),
    "no_front": Words("I cannot tell which way it faces, so I did not use '{word}'.", "看不出它朝哪个方向，所以没有用上朝向。"),
    "not_there": Words("I cannot tell where '{word}' puts you here.", "无法判断你所说的位置在哪里。"),
    "middle_of_two": Words("With two, '{word}' does not pick one.", "只有两个时，“中间”选不出一个。"),
    "two_ends": Words("A row has two ends: '{word}' could be either.", "一排有两端，两端都可能。"),
    "instead": Words("There is no {word} here, so I looked at what it calls {about}.", "这里没有{word}，所以看了它叫作{about}的东西。"),
    "named_other": Words("There is no {word} here, so I looked for the {about} the words name.",
                         "这里没有{word}，所以找了描述里提到的{about}。"),
    "by_a_room": Words("'{word}' measures from a whole room, which I cannot do, so I did not use it.",
                       "无法从整个房间量起，所以没有按这个房间来找。"),
    "untyped": Words("No room here is known to be {an} {word}: these are the rooms whose type I could not tell.",
                     "没有哪个房间能确定是{word}：这些是看不出类型的房间。"),
    "kind_of": Words("I read '{word}' as describing the {about}.", "我把“{word}”理解为对{about}的描述。"),
    "a_part": Words("A scan does not show parts such as {word}, so I did not use them.",  # {word}: each quoted
                    "扫描看不出{word}这样的部件，所以没有用上。"),
    "part_of": Words("The words name no kind of thing, only '{word}': I looked at what has such parts ({about}).",
                     "描述里没有说是什么东西，只说了“{word}”：我看了有这种部件的东西（{about}）。"),
    "looks_like": Words("I read '{word}' as what it looks like, not what it is.", "我把“{word}”理解为外观，而不是它是什么。"),
}
SAY_WHAT = Words("Say what to look at, e.g. 'the sofa' or 'room 0-2'.", "请说明要看什么，例如“沙发”或“房间 0-2”。")


def noun_of(scene: Scene, codes: tuple[str, ...] | list[str], lang: Lang) -> str:
    """What the codes are in one word: their common label or room type ('chair', 'bedroom'), else 'one'/'room'."""
    nouns, heads, rooms = set(), set(), False
    for code in codes:
        found = entry(scene.index, code)
        if isinstance(found, IndexedObject):
            nouns.add(found.label)
            heads.add(found.head)
        else:
            nouns.add(found.type)
            rooms = True
    if len(nouns) == 1:
        only = next(iter(nouns))
        return room_type_name(only, lang) if rooms else label_name(only, lang)
    if len(heads) == 1 and not rooms:
        return label_name(next(iter(heads)), lang)
    if rooms:
        return "房间" if lang == "zh" else "room"
    return "东西" if lang == "zh" else "thing"


def _where(m: Missing, lang: Lang) -> str:
    """' in the kitchen or Lounge on floor 1' / '1 层的厨房或Lounge里' — the limits that left nothing."""
    rooms = [room_type_name(r, lang) if "_" in r or r.islower() else r for r in m.rooms]
    names = " ".join(n.upper() for n in m.names)
    if lang == "zh":
        place = join(rooms, lang, "or") + "里" if rooms else ""
        named = (names + ("的" if place else "里")) if names else ""
        return (f"{m.floor} 层的" if m.floor is not None else "") + named + place
    where = f" in the {' or '.join(rooms)}" if rooms else ""
    where += (f" of {names}" if rooms else f" in {names}") if names else ""
    return where + (f" on floor {m.floor}" if m.floor is not None else "")


def _room_list(scene: Scene, codes: tuple[str, ...], lang: Lang) -> str:
    return ("、" if lang == "zh" else ", ").join(f"{scene.index.rooms[c].room.display_name} ({c})" for c in codes)


def _missing(m: Missing, scene: Scene, lang: Lang) -> str:
    index = scene.index
    if m.kind == "floor":
        floors = ", ".join(f"{c} ({f.name})" if f.name else c for c, f in index.floors.items())
        return NO_FLOOR(lang, floor=m.asked[0], floors=floors)
    if m.kind == "unlisted":
        return UNLISTED(lang, codes=", ".join(m.asked[:8]))
    if m.kind == "codes":
        return NO_CODE(lang, scene=scene.scene_id, codes=", ".join(m.asked))
    if m.kind == "label":
        what = join([label_name(a, lang) for a in m.asked], lang, "or")
        text = NO_LABEL(lang, what=what, where=_where(m, lang))
        if m.elsewhere:
            elsewhere = tuple(sorted(m.elsewhere, key=code_sort_key))
            text += LABEL_ELSEWHERE(lang, whats=plural(what, lang), what=what, rooms=_room_list(scene, elsewhere, lang))
        return text
    if m.kind == "room":
        what = join([room_type_name(a.replace(" ", "_"), lang) if lang == "zh" else a for a in m.asked], lang, "or")
        text = NO_ROOM(lang, what=what, where=_where(Missing("room", (), floor=m.floor), lang))
        if m.elsewhere:
            rooms = ", ".join(f"{c} {index.rooms[c].room.display_name} (floor {index.rooms[c].floor.code})" for c in m.elsewhere)
            return text + ROOM_ELSEWHERE(lang, rooms=rooms)
        if m.untyped:
            text += ROOMS_HERE(lang, types=("、" if lang == "zh" else ", ").join(room_type_name(t, lang)
                                                                               for t in index.room_types()))
            return text + ROOM_UNTYPED(lang, code=m.untyped[0], holds=_holds(scene, m.untyped[0], lang))
        return text + ROOMS_HERE(lang, types=("、" if lang == "zh" else ", ").join(room_type_name(t, lang)
                                                                                for t in index.room_types()))
    named = " ".join(m.asked).strip()
    if not named:
        return SAY_WHAT(lang)
    if m.suggestions:
        return NO_WORDS_CLOSEST(lang, named=named, closest=", ".join(m.suggestions))
    labels = ", ".join(label_name(label, lang) for label in index.labels()[:12])
    rooms = ", ".join(room_type_name(t, lang) for t in index.room_types())
    return NO_WORDS(lang, named=named, labels=labels, rooms=rooms)


def _failed(step: Narrowing, resolution: Resolution, scene: Scene, lang: Lang) -> str:
    noun = noun_of(scene, step.before, lang)
    if step.kind == "color":
        colors = list(dict.fromkeys(color_name(str(v), lang) for v in step.values.values() if v))
        words = NO_COLOR_ONE if len(step.before) == 1 else NO_COLOR
        shown = step.words if lang == "en" else (color_name(step.words, lang) if " " not in step.words else step.words)
        return words(lang, color=shown, noun=noun, nouns=plural(noun, lang), colors=join(colors, lang) or "?")
    if step.kind == "side" and "corner" in step.words:
        return NO_CORNER(lang, noun=noun)
    if step.kind == "side":
        side = next((sd for sd in resolution.description.reading.sides if sd.word == step.words), None)
        shown = step.words if lang == "en" or side is None else SIDE_WORDS_ZH.get(side.kind, step.words)
        return NO_SIDE(lang, noun=noun, side=shown)
    if step.kind in ("place", "side"):
        reference = _references_named(scene, step.references, lang)
        relation = relation_name(_relation(resolution, step), lang) if step.kind == "place" else step.words
        if step.negated:  # "the table that does not have the plant on it", where every one has
            holds = ALL_HOLD if step.kind == "place" and _relation(resolution, step) == "supporting" else ALL_PLACED
            return holds(lang, noun=noun, relation=relation, reference=reference)
        if resolution.description.nameless:  # "what is on the coffee table": nothing, and that is the answer
            return NOTHING_PLACED(lang, relation=relation, reference=reference, codes=", ".join(step.references[:6]))
        text = NO_PLACE(lang, noun=noun, relation=relation, reference=reference)
        known = [(v, c) for c, v in step.values.items() if isinstance(v, float)]
        if known:
            distance, code = min(known)
            text += NEAREST(lang, code=code, distance=f"{distance:.1f} m" if lang == "en" else f"{distance:.1f} 米")
        return text
    if step.kind == "order":
        if step.words.startswith(("the other", "other", "another", "the rest", "rest")) or "other" in step.words:
            return NO_OTHER(lang)
        words = BOTH if step.words.startswith("both") or step.words in ("两个", "两个都") else ONLY
        return words(lang, n=count(noun, len(step.before), lang), codes=", ".join(step.before))
    return SAY_WHAT(lang)


def _references_named(scene: Scene, codes: tuple[str, ...], lang: Lang) -> str:
    """What a step's references are: one kind ('sofa'), or each kind in turn ('bed and the wardrobe', between them)."""
    if not codes:
        return "?"
    together = noun_of(scene, codes, lang)
    if together not in ("thing", "东西"):  # one kind, or kinds of one ('table' for a coffee and a dining table)
        return together
    kinds = list(dict.fromkeys(noun_of(scene, (code,), lang) for code in codes))
    return join(kinds, lang).replace(" and ", " and the ")


def _relation(resolution: Resolution, step: Narrowing | None = None) -> str:
    relations = resolution.description.reading.relations
    chosen = next((r for r in relations if step is not None and r.word == step.words), relations[0] if relations else None)
    return chosen.kind if chosen is not None else "near"


def nothing_found(resolution: Resolution | None, scene: Scene, lang: Lang, unknown_color: str | None = None) -> str:
    """Why a find came back empty, in words: a missing thing, reference, colour, place or position."""
    if unknown_color is not None or resolution is None:
        return UNKNOWN_COLOR(lang, word=unknown_color or "")
    if resolution.reference is not None:
        ref = resolution.reference
        missing = nothing_found(ref, scene, lang)
        noun = noun_of(scene, resolution.considered, lang) if resolution.considered else "?"
        return NO_REFERENCE(lang, missing=missing, noun=noun, relation=relation_name(_relation(resolution), lang))
    if resolution.missing is not None:
        return _missing(resolution.missing, scene, lang)
    if resolution.failed is not None:
        return _failed(resolution.failed, resolution, scene, lang)
    return SAY_WHAT(lang)


def reading_note(resolution: Resolution, scene: Scene, lang: Lang) -> str | None:
    """What to tell the user about how the words were read: misspellings read as words, a room word dropped, words
    that fit none of the candidates (and what they are instead), words not used at all."""
    parts: list[str] = []
    corrections = resolution.description.reading.corrections
    if corrections:
        pairs = [READ_PAIR(lang, written=written, read=_thing_name(read, lang)) for written, read in corrections]
        parts.append(READ_AS(lang, pairs=join(pairs, lang)))
    if resolution.fallback_rooms:
        parts.append(fallback_note(resolution, scene, lang))
    set_aside = [step for step in resolution.narrowings if step.set_aside]
    parts += [_failed(replace(step, kept=()), resolution, scene, lang) for step in set_aside]
    aside_words = {step.words for step in set_aside}
    explained = [u for u in resolution.unused if u.why in WHY and u.word not in aside_words]
    parts_said = [u.word for u in explained if u.why == "a_part"]
    if parts_said:  # "five legs and armrests": one sentence for every part
        said = join([f"'{w}'" if lang == "en" else f"“{_thing_name(w, lang)}”" for w in dict.fromkeys(parts_said)], lang)
        explained = [u for u in explained if u.why != "a_part"] + [Unused(said, "a_part")]
    parts += list(dict.fromkeys(_why(u, lang) for u in explained))
    words = list(dict.fromkeys(u.word for u in resolution.unused if u.word not in aside_words and u.why not in WHY))
    if words:
        parts.append(NOT_USED(lang, words=", ".join(f"'{w}'" if lang == "en" else f"“{w}”" for w in words)))
    return " ".join(parts) or None


def _holds(scene: Scene, room: str, lang: Lang) -> str:
    """'it holds a chair and a potted plant' / '里面有椅子、盆栽' (at most three kinds; 'it is empty')."""
    labels = list(dict.fromkeys(o.label for o in scene.index.rooms[room].room.objects))
    if not labels:
        return "里面是空的" if lang == "zh" else "it is empty"
    names = [label_name(label, lang) for label in labels[:3]]
    shown = join(names if lang == "zh" else [("an " if n[:1] in "aeiou" else "a ") + n for n in names], lang)
    return f"里面有{shown}" if lang == "zh" else f"it holds {shown}"


def _why(unused: Unused, lang: Lang) -> str:
    """Why some words were not used, in the user's language (a kind said instead of another named as a thing)."""
    if unused.why == "untyped":
        word = room_type_name(unused.word.replace(" ", "_"), lang)
        return WHY["untyped"](lang, word=word, an="an" if word[:1] in "aeiou" else "a")
    word = _thing_name(unused.word, lang) if unused.why in ("instead", "named_other", "part_of") else unused.word
    return WHY[unused.why](lang, word=word, about=_thing_name(unused.about, lang))


def _thing_name(words: str, lang: Lang) -> str:
    """A thing's name as the words gave it, in the user's language where the vocabulary knows it."""
    if lang != "zh" or not words:
        return words
    from scene_agent.language.vocabulary import canonical_label

    return label_name(canonical_label(words), lang)


def fallback_note(resolution: Resolution, scene: Scene, lang: Lang) -> str:
    """'This scene has no kitchen as a room, so these are the cabinets anywhere in it.'"""
    rooms = join([room_type_name(r, lang) for r in resolution.fallback_rooms], lang, "or")
    nouns = plural(noun_of(scene, resolution.codes, lang), lang)
    return ROOM_FALLBACK(lang, rooms=rooms, nouns=nouns)
