"""decide's offline rules on candidates that `find` returned from a small real scene."""

from __future__ import annotations

from pathlib import Path

import pytest

from scene_agent.agent.disambiguation import Decision, ask_prompt, decide, rules_decision
from scene_agent.scene.loader import load_scene
from scene_agent.tools.find import find


def asked(decision: Decision) -> tuple[bool, str | None, bool]:
    """(needs_selection, prompt, multiple): what the viewer is asked, if anything."""
    return decision.needs_selection, decision.prompt, decision.multiple


@pytest.fixture(scope="module")
def index(small_scene_path: Path):
    return load_scene(small_scene_path)


@pytest.mark.parametrize("query, expected", [
    ("what's the color of the sofa", (False, None, False)),                 # one candidate
    ("what color is chair 0-1-2", (False, None, False)),                     # an explicit code
    ("how many chairs are there", (False, None, False)),                     # how many → all
    ("what's the volume of each chair", (False, None, False)),               # each → all
    ("what colour are all the armchairs", (False, None, False)),             # all → all
    ("which chair is the biggest", (False, None, False)),                    # superlative → all
    ("what colour are the chairs", (False, None, False)),                    # a plural → all
    ("compare the armchairs", (False, None, False)),                         # compare, only two → both
])
def test_acts_without_asking(index, query: str, expected: tuple) -> None:
    assert asked(decide(query, find(index, query).candidates)) == expected


def test_a_singular_reference_with_several_candidates_asks_for_one(index) -> None:
    candidates = find(index, "the chair").candidates
    assert len(candidates) == 5  # three kitchen chairs, the kitchenette's chair, the study's office chair
    assert asked(decide("what's the color of the chair?", candidates)) == (
        True, "Which chair do you mean: the red chair (0-1-1), the blue chair (0-1-2), the green chair (0-1-3), the black "
              "office chair (1-3-2) or the yellow chair (1-4-1)? Pick it, then Confirm", False)


def test_compare_among_many_asks_for_several(index) -> None:
    candidates = find(index, "chairs in the kitchen").candidates
    needs, prompt, multiple = asked(decide("compare the chairs in the kitchen", candidates))
    assert (needs, multiple) == (True, True) and prompt == "Pick the chairs to compare, then Confirm"


def test_some_of_several_asks_for_several(index) -> None:
    decision = rules_decision("pick some chairs", find(index, "chairs").candidates)
    assert (decision.needs_selection, decision.multiple, decision.act_on) == (True, True, "several")


def test_a_floor_or_room_reference_acts_on_everything_in_it(index) -> None:
    candidates = find(index, "floor 1").candidates
    assert len(candidates) == 4
    assert rules_decision("show me floor 1", candidates).act_on == "all"


def test_words_like_best_or_guest_are_not_superlatives(index) -> None:
    candidates = find(index, "bed").candidates
    assert len(candidates) == 2
    assert rules_decision("what colour is the bed in the guest room or the best one", candidates).needs_selection


def test_prompts_name_what_is_picked(index) -> None:
    bedrooms = find(index, "bedrooms").candidates
    assert ask_prompt(bedrooms, False) == "Which bedroom do you mean: Master bedroom (1-1) or Guest bedroom (1-2)? Pick it, then Confirm"
    mixed = find(index, "0-1-1 0-2-1").candidates
    assert ask_prompt(mixed, True) == "Pick the ones you mean, then Confirm"
