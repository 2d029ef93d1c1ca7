"""The answer to "what is on the nightstand?": the things the place words found, said with where they are.

The question names no kind of thing, only a place (`Description.nameless`), so the answer lists whatever is there,
each with its room: "On the nightstand: lamp 1-2-4 (Master bedroom) and lamp 1-3-4 (Guest bedroom)." When nothing is
there, `find` already says so ("Nothing is on the coffee table (0-2-4).").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from scene_agent.language.intent import ROOM_PLACES
from scene_agent.language.lexicon import GENERIC_NOUNS
from scene_agent.language.say import SIDE_WORDS_ZH, Words, join, label_name, relation_name

if TYPE_CHECKING:
    from scene_agent.agent.plan import Plan
    from scene_agent.language.words import Lang
    from scene_agent.tools.find import Candidate

THERE = Words("{place}: {things}.", "{place}有：{things}。")


def things_there(chosen: Plan, name_of: Callable[[Candidate, Lang], str]) -> str | None:
    """'On the nightstand: lamp 1-2-4 (Master bedroom), …' for a list of whatever a place holds; None when the words
    named a kind of thing (then it is no question of what is there)."""
    found, lang = chosen.found, chosen.lang
    reading = found.reading if found is not None else None
    if reading is None or (reading.head and reading.head.split()[0] not in GENERIC_NOUNS) or not chosen.candidates:
        return None
    things = join([name_of(c, lang) for c in chosen.candidates], lang)
    if not reading.relations:  # "what's in the corner of the kitchen": where the words put it in its room
        side = next((s for s in reading.sides if s.kind in ROOM_PLACES), None)
        if side is None:
            return None
        said = side.word.removesuffix(" of")  # "in the corner of the kitchen": the kitchen is each thing's room
        place = SIDE_WORDS_ZH.get(side.kind, said) if lang == "zh" else f"{said[:1].upper()}{said[1:]}"
        return THERE(lang, place=place, things=things)
    relation = reading.relations[0]
    if not relation.references:
        return None
    if lang == "zh":  # 'bed', not the head with its room ('bed guest bedroom')
        nouns = [label_name(r.said or r.head, lang) if (r.said or r.head) else r.text for r in relation.references]
        place = f"{join(nouns, lang)}{relation_name(relation.kind, lang)}"
    else:
        refs = [r.text if r.text.split()[:1] in (["the"], ["a"], ["an"]) else f"the {r.text}" for r in relation.references]
        place = f"{relation.word[:1].upper()}{relation.word[1:]} {join(refs, lang)}"
    return THERE(lang, place=place, things=things)
