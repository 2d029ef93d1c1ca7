"""The offline planner's query suite over the demo scene: each query with the decision it needs and its candidates.

Decisions: ask_one (the user picks one), ask_several (picks several), act_on_all (measure every
candidate), answer (one thing, a count or a place), view (open the viewer, no waiting), not_found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["ask_one", "ask_several", "act_on_all", "answer", "view", "not_found"]
KINDS: tuple[Kind, ...] = ("ask_one", "ask_several", "act_on_all", "answer", "view", "not_found")

KITCHEN_CHAIRS = ("0-3-2", "0-3-3", "0-3-4", "0-3-5")
CHAIRS = (*KITCHEN_CHAIRS, "0-4-2")  # 'chair' also finds the study's office chair
BEDROOMS = ("1-2", "1-3", "1-4")
BEDS = ("1-2-1", "1-3-1", "1-4-1")
WARDROBES = ("1-2-6", "1-3-5", "1-4-5")
PLANTS = ("0-1-3", "0-2-9", "0-4-7", "1-1-1", "1-3-7")


@dataclass(frozen=True)
class SuiteQuery:
    """One query, the decision it needs, and the candidates that decision is about."""

    query: str
    kind: Kind
    candidates: tuple[str, ...] = ()


SUITE: tuple[SuiteQuery, ...] = (
    # A singular reference with several candidates: the user picks one.
    SuiteQuery("what's the color of the chair?", "ask_one", CHAIRS),
    SuiteQuery("what's the color of the bedroom?", "ask_one", BEDROOMS),
    SuiteQuery("how big is the bed?", "ask_one", BEDS),
    SuiteQuery("show me the bedroom", "ask_one", BEDROOMS),
    SuiteQuery("what colour is the armchair?", "ask_one", ("0-2-2", "0-2-3")),
    SuiteQuery("how big is the nightstand in the master bedroom", "ask_one", ("1-2-2", "1-2-3")),
    SuiteQuery("what color is the chair in the kitchen?", "ask_one", KITCHEN_CHAIRS),
    SuiteQuery("what's the volume of the wardrobe upstairs?", "ask_one", WARDROBES),
    SuiteQuery("what colour is the rug on the ground floor", "ask_one", ("0-1-4", "0-2-10")),
    SuiteQuery("how big is the bathroom?", "ask_one", ("0-6", "1-5")),
    SuiteQuery("measure the dresser", "ask_one", ("1-2-7", "1-3-6", "1-4-6")),
    SuiteQuery("what's the colour of the lamp in the master bedroom", "ask_one", ("1-2-4", "1-2-5")),
    # Comparing some of many: the user picks several.
    SuiteQuery("compare the chairs in the kitchen", "ask_several", KITCHEN_CHAIRS),
    SuiteQuery("compare the bedrooms", "ask_several", BEDROOMS),
    SuiteQuery("compare the beds", "ask_several", BEDS),
    SuiteQuery("compare some of the plants", "ask_several", PLANTS),
    SuiteQuery("compare the wardrobes upstairs", "ask_several", WARDROBES),
    SuiteQuery("I want to compare a few of the chairs", "ask_several", CHAIRS),
    # all / each / every, plurals, a comparison of only two: every candidate, without asking. A superlative picks the one
    # it describes from the cached sizes (it measured them all before size words were understood).
    SuiteQuery("what's the volume of each chair in the kitchen?", "act_on_all", KITCHEN_CHAIRS),
    SuiteQuery("which chair is the largest?", "answer", ("0-4-2",)),
    SuiteQuery("what color are all the chairs?", "act_on_all", CHAIRS),
    SuiteQuery("which bedroom is the biggest?", "answer", ("1-2",)),
    SuiteQuery("how big are the beds?", "act_on_all", BEDS),
    SuiteQuery("what colour is every rug upstairs", "act_on_all", ("1-1-3", "1-2-8", "1-4-9", "1-5-5")),
    SuiteQuery("compare the armchairs", "act_on_all", ("0-2-2", "0-2-3")),
    SuiteQuery("which is the tallest wardrobe", "act_on_all", ("1-2-6", "1-3-5")),  # equally tall
    SuiteQuery("what's the smallest room on floor 0", "answer", ("0-6",)),
    SuiteQuery("volume of both nightstands in the guest bedroom", "act_on_all", ("1-3-2", "1-3-3")),
    # One thing, a count or a place: answered at once.
    SuiteQuery("how big is the sofa?", "answer", ("0-2-1",)),
    SuiteQuery("how many chairs are there?", "answer", CHAIRS),
    SuiteQuery("what's the color of the sofa", "answer", ("0-2-1",)),
    SuiteQuery("how big is the kitchen", "answer", ("0-3",)),
    SuiteQuery("what color is chair 0-3-2", "answer", ("0-3-2",)),
    SuiteQuery("volume of 0-2-1", "answer", ("0-2-1",)),
    SuiteQuery("how many bedrooms are there", "answer", BEDROOMS),
    SuiteQuery("where is the sofa?", "answer", ("0-2-1",)),
    SuiteQuery("what colour is the refrigerator", "answer", ("0-3-6",)),
    SuiteQuery("how big is the bathtub", "answer", ("1-5-1",)),
    SuiteQuery("what's in the study?", "answer", ("0-4",)),
    SuiteQuery("what color is the fridge", "answer", ("0-3-6",)),
    SuiteQuery("how big is the couch", "answer", ("0-2-1",)),
    SuiteQuery("what colour is the living room", "answer", ("0-2",)),
    SuiteQuery("how many lamps are on the upper floor", "answer", ("1-2-4", "1-2-5", "1-3-4", "1-4-4")),
    SuiteQuery("what's the colour of the chair in the study", "answer", ("0-4-2",)),
    # Asked to see something clear: the viewer opens view-only, nothing waits.
    SuiteQuery("show me room 0-7", "view", ("0-7",)),
    SuiteQuery("visualize the kitchen", "view", ("0-3",)),
    SuiteQuery("display object 0-3-2", "view", ("0-3-2",)),
    SuiteQuery("show me the bedrooms", "view", BEDROOMS),
    SuiteQuery("show me floor 1", "view", ("1-1", "1-2", "1-3", "1-4", "1-5")),
    SuiteQuery("show me the chairs in the kitchen", "view", KITCHEN_CHAIRS),
    SuiteQuery("show me the garage", "view", ("0-7",)),
    # Not in the scene: say so (and what is closest).
    SuiteQuery("what's the color of the piano?", "not_found"),
    SuiteQuery("show me room 3-1", "not_found"),
    SuiteQuery("how big is the swimming pool", "not_found"),
    SuiteQuery("what colour is the chair in the bathroom", "not_found"),
    SuiteQuery("show me floor 5", "not_found"),
    SuiteQuery("what's the volume of 0-3-99", "not_found"),
    # Written after the rules above were settled, and passed as they stood (a check that they generalise).
    SuiteQuery("what colour is the toilet?", "ask_one", ("0-6-1", "1-5-2")),
    SuiteQuery("how tall is the bookshelf in the lounge", "answer", ("0-2-7",)),
    SuiteQuery("show me the kids bedroom", "view", ("1-4",)),
    SuiteQuery("which rug is the biggest", "answer", ("0-2-10",)),
    SuiteQuery("compare the sinks", "ask_several", ("0-3-8", "0-5-2", "0-6-2", "1-5-3")),
    SuiteQuery("what is the volume of the stove", "answer", ("0-3-9",)),
    SuiteQuery("how many plants are there", "answer", PLANTS),
    SuiteQuery("display the landing", "view", ("1-1",)),
    SuiteQuery("what colour is the desk", "ask_one", ("0-4-1", "1-4-7")),
    SuiteQuery("what's the colour of the television", "answer", ("0-2-6",)),
    SuiteQuery("show me the fireplace", "not_found"),
    SuiteQuery("what colour are the nightstands in the kids bedroom", "act_on_all", ("1-4-2", "1-4-3")),
    SuiteQuery("how big is the laundry room", "answer", ("0-5",)),
    SuiteQuery("compare all the beds", "act_on_all", BEDS),
    SuiteQuery("visualize the stool", "ask_one", ("0-7-4", "1-4-8")),
)
