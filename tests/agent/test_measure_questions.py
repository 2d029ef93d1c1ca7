"""Questions answered with numbers from the geometry by the offline planner, in English and Chinese: a distance, a
height, a floor area, whether a sofa fits through a door; a pick when one of the two things is ambiguous."""

from __future__ import annotations

from pathlib import Path

from agent_helpers import Picker
from hall_scene import write_hall

from scene_agent.agent.events import ToolCallResult
from scene_agent.agent.offline_planner import OfflinePlanner
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.config import Settings
from scene_agent.scene.loader import Scene, load_scene
from scene_agent.tools.measure import measure
from scene_agent.tools.volume import volume


def _agent(demo: Scene, settings: Settings) -> SceneAgent:
    return SceneAgent(demo, settings, OfflinePlanner(), selection_timeout=30)


def _measure_calls(events: list) -> list[dict]:  # type: ignore[type-arg]
    return [e.args for e in events if isinstance(e, ToolCallResult) and e.tool_name == "measure"]


def test_how_far_is_the_sofa_from_the_tv(demo: Scene, settings: Settings) -> None:
    gap = measure(demo, "distance", "0-2-1", to="0-2-6").distance
    assert gap is not None
    result = _agent(demo, settings).query("how far is the sofa from the tv?")
    assert result.status == "answered" and result.final.codes == ["0-2-1", "0-2-6"]
    assert result.final.answer == (f"The sofa 0-2-1 and the tv 0-2-6 are {gap.gap_m:.2f} m apart at the closest "
                                   f"({gap.centre_m:.2f} m centre to centre).")
    assert _measure_calls(result.events) == [{"measure": "distance", "code": "0-2-1", "to": "0-2-6"}]


def test_the_distance_in_chinese(demo: Scene, settings: Settings) -> None:
    gap = measure(demo, "distance", "0-2-1", to="0-2-6").distance
    assert gap is not None
    result = _agent(demo, settings).query("沙发离电视多远？")
    assert result.status == "answered" and result.final.codes == ["0-2-1", "0-2-6"]
    assert f"最近处相距 {gap.gap_m:.2f} 米" in result.final.answer and "沙发" in result.final.answer


def test_an_ambiguous_side_is_asked_about_then_measured(demo: Scene, settings: Settings) -> None:
    picker = Picker(settings, lambda event: ["0-3-4"])
    result = _agent(demo, settings).query("how far is the chair in the kitchen from the fridge?", on_event=picker)
    picker.join()
    assert len(picker.required) == 1 and sorted(picker.required[0].candidates) == ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]
    gap = measure(demo, "distance", "0-3-4", to="0-3-6").distance
    assert gap is not None
    assert result.status == "answered" and result.final.codes == ["0-3-4", "0-3-6"]
    assert result.final.answer.startswith("You picked chair 0-3-4 (Kitchen).")
    assert f"{gap.gap_m:.2f} m apart" in result.final.answer


def test_a_cancelled_pick_measures_nothing(demo: Scene, settings: Settings) -> None:
    picker = Picker(settings, lambda event: [])
    result = _agent(demo, settings).query("how far is the chair in the kitchen from the fridge?", on_event=picker)
    picker.join()
    assert result.status == "cancelled" and _measure_calls(result.events) == []


def test_how_tall_is_answered_with_the_height_labelled(demo: Scene, settings: Settings) -> None:
    dims = measure(demo, "dimensions", "0-3-4").dimensions
    assert dims is not None
    result = _agent(demo, settings).query("how tall is chair 0-3-4?")
    assert result.status == "answered"
    assert result.final.answer == (f"Chair 0-3-4 is {dims.height_m:.2f} m tall ({dims.width_m:.2f} m wide, "
                                   f"{dims.depth_m:.2f} m deep).")
    chinese = _agent(demo, settings).query("椅子0-3-4有多高？")
    assert chinese.final.answer.startswith(f"椅子 0-3-4 高 {dims.height_m:.2f} 米")


def test_how_tall_is_it_after_another_question(demo: Scene, settings: Settings) -> None:
    agent = _agent(demo, settings)
    agent.query("what colour is chair 0-3-4?")
    result = agent.query("how tall is it?")
    assert result.status == "answered" and result.final.codes == ["0-3-4"]
    assert result.final.answer.startswith("Chair 0-3-4 is ") and " m tall (" in result.final.answer


def test_the_floor_area_of_the_kitchen(demo: Scene, settings: Settings) -> None:
    area = volume(demo, "0-3").floor_area_m2
    assert area is not None
    result = _agent(demo, settings).query("what's the floor area of the kitchen?")
    assert result.status == "answered" and result.final.codes == ["0-3"]
    assert result.final.answer == f"The floor area of the Kitchen 0-3 is {area:.2f} m²."
    chinese = _agent(demo, settings).query("厨房的地面面积是多少？")
    assert chinese.status == "answered" and chinese.final.answer == f"厨房 0-3的地面面积是 {area:.2f} 平方米。"


def test_how_big_leads_with_the_box(demo: Scene, settings: Settings) -> None:
    result = _agent(demo, settings).query("how big is the sofa?")
    box = volume(demo, "0-2-1").obb
    assert box is not None
    length, width, height = box.extent_m
    assert result.final.answer.startswith(f"Sofa 0-2-1 is {length:.2f} m wide × {width:.2f} m deep × {height:.2f} m tall; "
                                          "its volume is ")


def test_no_door_no_guess(demo: Scene, settings: Settings) -> None:
    result = _agent(demo, settings).query("will the sofa fit through the door?")
    assert result.status == "not_found" and "door" in result.final.answer.lower()
    assert "cannot tell whether it fits" in result.final.answer and _measure_calls(result.events) == []


def test_what_fits_through_the_door(tmp_path: Path, settings: Settings) -> None:
    hall = load_scene(write_hall(tmp_path / "hall"))
    agent = SceneAgent(hall, settings, OfflinePlanner(), selection_timeout=30)
    sofa = agent.query("will the sofa fit through the door?")
    assert sofa.status == "answered" and sofa.final.codes == ["0-1-2", "0-1-1"]
    assert sofa.final.answer.startswith("Yes: the sofa 0-1-2 fits through door 0-1-1: its 0.80 m × 0.9")
    bookcase = agent.query("can I get the bookcase through the door?")
    assert bookcase.final.answer.startswith("No: the bookshelf 0-1-3 does not fit through door 0-1-1")
    chinese = agent.query("书柜能通过门吗？")
    assert chinese.status == "answered" and "无法通过门 0-1-1" in chinese.final.answer


def test_a_bed_is_as_wide_as_its_shorter_side(demo: Scene, settings: Settings) -> None:
    dims = measure(demo, "dimensions", "1-2-1").dimensions
    assert dims is not None and dims.width_m > dims.depth_m
    wide = _agent(demo, settings).query("how wide is the bed in the master bedroom?")
    assert wide.final.answer == (f"Bed 1-2-1 is {dims.depth_m:.2f} m wide and {dims.width_m:.2f} m long "
                                 f"({dims.height_m:.2f} m tall).")
    sofa = _agent(demo, settings).query("how wide is the sofa?")
    assert sofa.final.answer.startswith("Sofa 0-2-1 is 2.") and " m wide and 0." in sofa.final.answer  # its long side
