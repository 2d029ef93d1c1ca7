"""The answer to "what is on the nightstand?": the things the place words found, said with where they are.

The question names no kind of thing, only a place (`Description.nameless`), so the answer lists whatever is there,
each with its room: "On the nightstand: lamp 1-2-4 (Master bedroom) and lamp 1-3-4 (Guest bedroom)." When nothing is
there, `find` already says so ("Nothing is on the coffee table (0-2-4).").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from scene_agent.language.lexicon import GENERIC_NOUNS
from scene_agent.language.say import Words, join, label_name, relation_name

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
    if reading is None or not reading.relations or (reading.head and reading.head not in GENERIC_NOUNS):
        return None
    if not chosen.candidates:
        return None
    relation = reading.relations[0]
    reference = relation.references[0] if relation.references else None
    if reference is None:
        return None
    if lang == "zh":
        noun = reference.said or reference.head  # 'bed', not the head with its room ('bed guest bedroom')
        place = f"{label_name(noun, lang) if noun else reference.text}{relation_name(relation.kind, lang)}"
    else:
        said = reference.text if reference.text.split()[:1] in (["the"], ["a"], ["an"]) else f"the {reference.text}"
        place = f"{relation.word[:1].upper()}{relation.word[1:]} {said}"
    return THERE(lang, place=place, things=join([name_of(c, lang) for c in chosen.candidates], lang))
