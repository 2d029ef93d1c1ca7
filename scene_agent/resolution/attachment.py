"""Which thing a superlative clause is about, when the words leave it open.

"The pillow on the bed that is closest to the window": read as written, 'closest to the window' says
which bed. When the scene has only one such bed, it cannot be about the bed (the only bed is trivially
the closest), so it is about the pillow: the pillow closest to the window. Only superlatives move (closest,
farthest): 'the lamp on the desk that is by the window' still says where the desk is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from scene_agent.language.reading import Reading

SUPERLATIVES = frozenset({"closest", "farthest"})


def hoisted(reading: Reading, alone: Callable[[Reading], bool]) -> Reading:
    """The reading with a superlative relation of a lone reference moved to the thing meant (`alone(ref)`: the scene
    has one thing the reference's own words, without its relations, could mean)."""
    if any(r.kind in SUPERLATIVES for r in reading.relations):
        return reading
    for n, relation in enumerate(reading.relations):
        if relation.negated or len(relation.references) != 1:
            continue
        reference = relation.references[0]
        moving = [r for r in reference.relations if r.kind in SUPERLATIVES and not r.negated]
        if not moving or not alone(reference.without("relations")):
            continue
        kept_there = tuple(r for r in reference.relations if r is not moving[0])
        relations = list(reading.relations)
        relations[n] = replace(relation, references=(replace(reference, relations=kept_there),))
        return replace(reading, relations=(*relations, moving[0]))
    return reading

