"""A thing placed only by its references' rooms, and a reference's kind looked for among its own room's kinds, in the
demo home through the real `find`."""

from __future__ import annotations

import pytest

from scene_agent.scene.loader import Scene
from scene_agent.tools.find import find


def codes(scene: Scene, text: str) -> list[str]:
    return [c.code for c in find(scene, text).candidates]


@pytest.mark.parametrize("text", ["the lamp between the bed and the wardrobe in the guest bedroom",
                                  "the lamp on the table in the guest bedroom", "客房里桌子上的台灯"])
def test_a_room_said_of_a_reference_places_the_thing(demo: Scene, text: str) -> None:
    # a lamp is only placed by things of its own room: the guest bedroom's, not the study's or the master bedroom's
    assert codes(demo, text) == ["1-3-4"]


def test_a_kind_the_references_room_lacks_is_looked_for_among_its_kinds_there(demo: Scene) -> None:
    # the guest bedroom has no table but a nightstand: that is the table meant, and the note says so
    found = find(demo, "the lamp on the table in the guest bedroom")
    assert found.note == "There is no table here, so I looked at what it calls nightstand."
    assert [s.qualifier for s in found.steps] == ["place"] and found.steps[0].reference == ["1-3-2", "1-3-3"]


def test_the_things_own_room_wins(demo: Scene) -> None:
    # said of the thing itself, its room decides; a reference elsewhere places nothing
    assert codes(demo, "the lamp in the study next to the bed in the guest bedroom") == ["0-4-4"]


def test_between_two_kinds_is_said_with_both(demo: Scene) -> None:
    found = find(demo, "the nightstand between the bed and the wardrobe in the guest bedroom")
    assert [c.code for c in found.candidates] == ["1-3-2", "1-3-3"]  # neither is: both asked about
    assert (found.note or "").startswith("No nightstand is between the bed and the wardrobe.")


@pytest.mark.parametrize("text, placed, missing", [
    ("the chair near the fireplace in the kitchen", ["0-3-2", "0-3-3", "0-3-4", "0-3-5"], "fireplace"),
    ("the lamp closest to the door in the master bedroom", ["1-2-4", "1-2-5"], "door"),  # the home has no doors
])
def test_a_reference_the_scene_lacks_still_places_the_thing_in_its_room(demo: Scene, text: str, placed: list[str],
                                                                        missing: str) -> None:
    # the room said of the missing thing is where the thing is; the missing thing is said, never read as the room
    found = find(demo, text)
    assert [c.code for c in found.candidates] == placed
    assert [u.why for u in found.unused_words] == ["no_such"]
    assert found.note is not None and found.note.startswith(f"There is no {missing} here, so I did not use")
