"""Which thing a clause after a reference is about, when the words leave it open.

"The pillow on the bed that is closest to the window": read as written, 'closest to the window' says
which bed. When the scene has only one such bed, it cannot be (the only bed is trivially the closest),
so it is about the pillow: the pillow closest to the window. Any other clause of a reference that makes
no difference to which things the reference means ("the monitor on the table with the blue screen": no
table has a screen) is about the thing meant too. A superlative that does make a difference stays
where it was said, and so does a clause that picks the reference out ('the lamp on the desk that is by
the window', among two desks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from scene_agent.language.reading import Reading, Relation
from scene_agent.language.relation_words import PARTS_OF
from scene_agent.language.words import singular

SUPERLATIVES = frozenset({"closest", "farthest"})

Means = Callable[[Reading], frozenset[str]]  # what a reading means in the scene (the codes it resolves to)


def hoisted(reading: Reading, means: Means) -> Reading:
    """The reading with the first clause of a reference that is not about it moved to the thing meant."""
    for n, relation in enumerate(reading.relations):
        if relation.negated or len(relation.references) != 1:
            continue
        reference = relation.references[0]
        whole: list[frozenset[str]] = []  # what the reference means with all its clauses, worked out once
        for clause in reference.relations:
            if any(r.kind == clause.kind for r in reading.relations) or _a_part_of(clause, reading):
                continue
            if not _not_about(reference, clause, means, whole):
                continue
            rest = tuple(r for r in reference.relations if r is not clause)
            relations = list(reading.relations)
            relations[n] = replace(relation, references=(replace(reference, relations=rest),))
            return replace(reading, relations=(*relations, clause))
    return reading


def _a_part_of(clause: Relation, reading: Reading) -> bool:
    """'with the blue screen' said of a table, moving to a monitor: the monitor's own screen, which places it by
    nothing (left where it was said)."""
    parts = PARTS_OF.get(reading.head.split()[-1], frozenset()) if reading.head else frozenset()
    return clause.kind == "with" and any(singular(r.said.split()[-1]) in parts for r in clause.references if r.said)


def _not_about(reference: Reading, clause: Relation, means: Means, whole: list[frozenset[str]]) -> bool:
    """A superlative is not about a reference the scene has one of; another clause is not about a reference it
    does not narrow (`whole`: what the reference means with all its clauses, once known)."""
    if clause.kind in SUPERLATIVES:
        return len(means(reference.without("relations"))) == 1
    if not whole:
        whole.append(means(reference))
    rest = replace(reference, relations=tuple(r for r in reference.relations if r is not clause))
    return whole[0] == means(rest)
