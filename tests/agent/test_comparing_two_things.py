"""Two things described apart and compared by the offline planner, in English and Chinese: "is the red chair bigger
than the green chair?", "which is bigger, the sofa or the bed?", "compare the sofa and the coffee table"; each found
on its own (a pick when one is ambiguous), both measured by the volume tool, the figures in the answer."""

from __future__ import annotations

import pytest
from agent_helpers import Picker

from scene_agent.agent.events import ToolCallResult
from scene_agent.agent.offline_planner import OfflinePlanner
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.config import Settings
from scene_agent.language.pair_words import pair_question
from scene_agent.scene.loader import Scene
from scene_agent.tools.volume import volume


def _agent(demo: Scene, settings: Settings) -> SceneAgent:
    return SceneAgent(demo, settings, OfflinePlanner(), selection_timeout=30)


def _m3(demo: Scene, code: str) -> str:
    v = volume(demo, code).volume_m3
    assert v is not None
    return f"{v:.3g}"


@pytest.mark.parametrize("query, first, second, word, yes_no", [
    ("is the red chair bigger than the green chair?", "the red chair", "the green chair", "bigger", True),
    ("Which is taller: the wardrobe or the dresser?", "the wardrobe", "the dresser", "taller", False),
    ("compare the sofa with the coffee table", "the sofa", "the coffee table", None, False),
    ("what's the difference between the sofa and the bed?", "the sofa", "the bed", None, False),
    ("红色椅子比绿色椅子大吗？", "红色椅子", "绿色椅子", "bigger", True),
    ("沙发和茶几哪个大？", "沙发", "茶几", "bigger", False),
    ("比较沙发和茶几", "沙发", "茶几", None, False),
    ("哪个更大，沙发还是床？", "沙发", "床", "bigger", False),
    # 'one' is the kind said, or the other thing's
    ("which chair is bigger, the red one or the green one?", "the red chair", "the green chair", "bigger", False),
    ("is the bed in the master bedroom bigger than the one in the guest bedroom?", "the bed in the master bedroom",
     "the bed in the guest bedroom", "bigger", True),
    ("which of the two is longer, the sofa or the bench?", "the sofa", "the bench", "longer", False),
])
def test_a_comparison_names_two_descriptions(query: str, first: str, second: str, word: str | None, yes_no: bool) -> None:
    pair = pair_question(query)
    assert pair is not None and (pair.kind, pair.first, pair.second, pair.word, pair.yes_no) == (
        "compare", first, second, word, yes_no)


@pytest.mark.parametrize("query", ["compare the red and green chairs", "compare the chair between the sofa and the tv",
                                   "compare the chairs in the kitchen", "比较红色和绿色的椅子"])
def test_one_description_of_several_things_is_no_pair(query: str) -> None:
    assert pair_question(query) is None


def test_is_one_bigger_than_the_other(demo: Scene, settings: Settings) -> None:
    result = _agent(demo, settings).query("is the sofa smaller than the coffee table?")
    assert result.status == "answered" and result.final.codes == ["0-2-1", "0-2-4"]
    assert result.final.answer == (f"No: the sofa 0-2-1 is bigger than the coffee table 0-2-4 "
                                   f"({_m3(demo, '0-2-1')} m³ against {_m3(demo, '0-2-4')} m³).")
    volumes = [e.args["code"] for e in result.events if isinstance(e, ToolCallResult) and e.tool_name == "volume"]
    assert sorted(volumes) == ["0-2-1", "0-2-4"]


def test_which_is_taller_names_the_taller_first(demo: Scene, settings: Settings) -> None:
    result = _agent(demo, settings).query("which is taller, the dresser in the guest bedroom or the wardrobe in the "
                                          "guest bedroom?")
    assert result.status == "answered"
    assert result.final.answer.startswith("The wardrobe 1-3-5 is taller than the dresser 1-3-6 (")


def test_two_of_the_same_size_are_said_so(demo: Scene, settings: Settings) -> None:
    result = _agent(demo, settings).query("is the red chair bigger than the green chair?")
    assert result.final.answer.startswith("Not really: the chair 0-3-2 and the chair 0-3-4 are about the same size (")


def test_compare_gives_colour_and_size_of_each(demo: Scene, settings: Settings) -> None:
    result = _agent(demo, settings).query("比较沙发和茶几")
    lines = result.final.answer.splitlines()
    assert lines[0].startswith("- 沙发 0-2-1（Lounge）：灰色；") and lines[1].startswith("- 茶几 0-2-4（Lounge）：棕色；")
    assert lines[2] == f"沙发 0-2-1比茶几 0-2-4大（{_m3(demo, '0-2-1')} 立方米，{_m3(demo, '0-2-4')} 立方米）。"


def test_an_ambiguous_one_is_asked_about_then_compared(demo: Scene, settings: Settings) -> None:
    picker = Picker(settings, lambda event: ["0-3-3"])
    result = _agent(demo, settings).query("is the chair in the kitchen taller than the coffee table?", on_event=picker)
    picker.join()
    assert len(picker.required) == 1 and sorted(picker.required[0].candidates) == ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]
    assert result.status == "answered" and result.final.codes == ["0-3-3", "0-2-4"]
    assert result.final.answer.startswith("You picked chair 0-3-3 (Kitchen).\nYes: the chair 0-3-3 is taller than the "
                                          "coffee table 0-2-4 (")


def test_the_same_words_as_one_description_still_compare_those(demo: Scene, settings: Settings) -> None:
    result = _agent(demo, settings).query("compare the red and green chairs")
    assert result.status == "answered" and sorted(result.final.codes) == ["0-3-2", "0-3-4"]
    assert "Colours: 0-3-2 red, 0-3-4 green." in result.final.answer


def test_it_is_what_the_last_answer_was_about(demo: Scene, settings: Settings) -> None:
    agent = _agent(demo, settings)
    assert agent.query("what colour is the sofa?").final.codes == ["0-2-1"]
    assert agent.query("how far is it from the tv?").final.codes == ["0-2-1", "0-2-6"]
    bigger = agent.query("is it bigger than the coffee table?")  # still the sofa, not the tv
    assert bigger.final.answer.startswith("Yes: the sofa 0-2-1 is bigger than the coffee table 0-2-4 (")
    taller = agent.query("它比电视高吗？")
    assert taller.final.answer.startswith("是的：沙发 0-2-1比电视 0-2-6高（")


@pytest.mark.parametrize("query, things, word", [
    ("Which is the biggest: the sofa, the bed, or the wardrobe?", ("the sofa", "the bed", "the wardrobe"), "bigger"),
    ("which is the tallest of the sofa, the tv and the lamp", ("the sofa", "the tv", "the lamp"), "taller"),
    ("compare the sofa, the bed and the tv", ("the sofa", "the bed", "the tv"), None),
    ("哪个最大：沙发、床还是电视？", ("沙发", "床", "电视"), "bigger"),
    ("沙发、床和电视哪个最高", ("沙发", "床", "电视"), "taller"),
])
def test_more_than_two_are_compared_together(query: str, things: tuple[str, ...], word: str | None) -> None:
    pair = pair_question(query)
    assert pair is not None and (pair.kind, pair.things, pair.word) == ("compare", things, word)


def test_the_biggest_of_three_is_named_with_every_figure(demo: Scene, settings: Settings) -> None:
    result = _agent(demo, settings).query("哪个最大：沙发、茶几还是电视？")
    assert result.status == "answered" and result.final.codes == ["0-2-1", "0-2-4", "0-2-6"]
    assert result.final.answer == (f"沙发 0-2-1最大：{_m3(demo, '0-2-1')} 立方米（茶几 0-2-4：{_m3(demo, '0-2-4')} 立方米，"
                                   f"电视 0-2-6：{_m3(demo, '0-2-6')} 立方米）。")
    english = _agent(demo, settings).query("which is the biggest: the tv, the coffee table or the sofa?")
    assert english.final.answer.startswith("The sofa 0-2-1 is the biggest: ")
