"""A room's type inferred from what it holds, for scans that name none (HOV-SG without its CLIP or GPT step writes
"room_6"; a ScanNet scan typed only "Apartment").

Each object label is evidence for a type, telling (a bed: a bedroom; a toilet, a shower or a bathtub: a bathroom; a
stove or a refrigerator: a kitchen; a washing machine: a laundry room) or not (a sofa, a desk, a nightstand, a sink).
One type with a telling object wins, whatever else stands there (a bed beside a desk is a bedroom); two (a bed and a
toilet) tell nothing. Without one, the type with the most evidence wins when it has enough (a sofa and a tv; a desk
and an office chair) and clearly more than the runner-up. Otherwise the room stays "room", and whoever asks about
"the bedroom" is asked which room. The guess
keeps its confidence and the labels that made it, for `scene info` and for answers ("which I take for a bedroom:
it has a bed").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from pydantic import Field

from scene_agent.model import Model

STRONG, WEAK = 3.0, 1.0
ENOUGH = STRONG  # a strong piece of evidence, or three weak ones
CLEARLY_MORE = 2.0  # over the runner-up
# What each label says, and how strongly (canonical labels: scene_agent/language/vocabulary.py).
EVIDENCE: dict[str, tuple[tuple[str, float], ...]] = {
    "bed": (("bedroom", STRONG),),
    "nightstand": (("bedroom", WEAK),),
    "wardrobe": (("bedroom", WEAK),),
    "dresser": (("bedroom", WEAK),),
    "toilet": (("bathroom", STRONG),),
    "bathtub": (("bathroom", STRONG),),
    "shower": (("bathroom", STRONG),),
    "shower curtain": (("bathroom", STRONG),),
    "towel": (("bathroom", WEAK),),
    "mirror": (("bathroom", WEAK),),
    "sink": (("bathroom", WEAK), ("kitchen", WEAK)),
    "stove": (("kitchen", STRONG),),
    "refrigerator": (("kitchen", STRONG),),
    "dishwasher": (("kitchen", STRONG),),
    "range hood": (("kitchen", STRONG),),
    "microwave": (("kitchen", WEAK),),
    "toaster": (("kitchen", WEAK),),
    "kitchen cabinet": (("kitchen", WEAK),),
    "kitchen counter": (("kitchen", WEAK),),
    "counter": (("kitchen", WEAK),),
    "sofa": (("living_room", 2.0),),
    "tv": (("living_room", WEAK),),
    "coffee table": (("living_room", WEAK),),
    "armchair": (("living_room", WEAK),),
    "fireplace": (("living_room", WEAK),),
    "desk": (("study", 2.0),),
    "office chair": (("study", WEAK),),
    "bookshelf": (("study", WEAK),),
    "computer tower": (("study", WEAK),),
    "monitor": (("study", WEAK),),
    "washing machine": (("laundry_room", STRONG),),
    "clothes dryer": (("laundry_room", STRONG),),
    "dining table": (("dining_room", 2.0),),
}


# Room types a scan gives that say nothing of the room (ScanNet's "Apartment" and "Misc.", HOV-SG's "room_6"): kept
# when nothing the room holds tells its type, and asked among when a type is asked for that no room has.
UNTELLING = frozenset({"room", "apartment", "misc", "other", "unknown"})


class RoomTypeGuess(Model):
    """A room type inferred from the room's objects: how sure, and from which of them."""

    type: str = Field(description="The inferred room type, e.g. 'bedroom'.")
    confidence: float = Field(ge=0, le=1, description="Its share of the evidence (1: nothing points elsewhere).")
    because: list[str] = Field(description="The labels that made it, strongest first (e.g. ['bed', 'nightstand']).")


def infer_room_type(labels: Iterable[str]) -> RoomTypeGuess | None:
    """The type `labels` (a room's objects, canonical) point to clearly enough, or None."""
    score: dict[str, float] = defaultdict(float)
    reasons: dict[str, dict[str, float]] = defaultdict(dict)
    for label in set(labels):  # a second bed says no more than the first
        for room_type, weight in EVIDENCE.get(label, ()):
            score[room_type] += weight
            reasons[room_type][label] = weight
    if not score:
        return None
    strong = {room_type for room_type, weights in reasons.items() if max(weights.values()) >= STRONG}
    if len(strong) > 1:
        return None  # a bed and a toilet: a studio, or one scan of two rooms; either way not one type
    ranked = sorted(score.items(), key=lambda item: (-item[1], item[0]))
    best, best_score = ranked[0]
    if strong:  # one type has a telling object: a bed says bedroom, whatever desk stands beside it
        best, best_score = next(iter(strong)), score[next(iter(strong))]
    else:
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        if best_score < ENOUGH or best_score - runner_up < CLEARLY_MORE:
            return None
    because = sorted(reasons[best], key=lambda label: (-reasons[best][label], label))
    return RoomTypeGuess(type=best, confidence=round(best_score / sum(score.values()), 2), because=because)
