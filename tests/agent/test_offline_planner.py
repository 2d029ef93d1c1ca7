"""The offline planner on the demo scene: the query suite's decisions, and whole runs with real picks, cancels and timeouts."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from agent_helpers import Picker, agent_settings

from scene_agent.agent.control import RunControl
from scene_agent.agent.events import Final, SelectionRequired
from scene_agent.agent.offline_planner import OfflinePlanner, plan
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.scene.loader import Scene
from scene_bench.planner import POLICIES, bench_planner
from scene_bench.query_suite import KINDS, SUITE, SuiteQuery


def make_agent(demo: Scene, tmp_path: Path, timeout: float = 20.0) -> SceneAgent:
    """An agent with the offline planner and its own state directories."""
    return SceneAgent(demo, agent_settings(tmp_path), OfflinePlanner(), selection_timeout=timeout)


def check_tool_events(events: list) -> None:
    """One start and one result-or-error per call id, same tool name; the final event last."""
    starts = {e.id: e for e in events if e.type == "tool_call_start"}
    ends = [e for e in events if e.type in ("tool_call_result", "tool_call_error")]
    assert Counter(e.id for e in ends) == Counter(starts.keys())
    for end in ends:
        assert end.tool_name == starts[end.id].tool_name
        assert events.index(starts[end.id]) < events.index(end)
    assert isinstance(events[-1], Final) and sum(isinstance(e, Final) for e in events) == 1


def calls(events: list, tool: str) -> list[dict]:
    """The arguments of every successful call of a tool."""
    return [e.args for e in events if e.type == "tool_call_result" and e.tool_name == tool]


@pytest.mark.parametrize("item", SUITE, ids=[q.query for q in SUITE])
def test_suite_query_gets_the_right_decision_and_candidates(demo: Scene, item: SuiteQuery) -> None:
    chosen = plan(item.query, demo)
    assert (chosen.kind, chosen.candidate_codes) == (item.kind, item.candidates)


def test_suite_covers_every_decision_kind_with_forty_queries_or_more() -> None:
    assert len(SUITE) >= 40
    assert {q.kind for q in SUITE} == set(KINDS)


def test_bench_planner_scores_the_rules_beside_the_baselines(demo: Scene) -> None:
    report = bench_planner(demo)
    rows = {(r.part, r.policy, r.group): r for r in report.rows}
    assert rows[("nouns", POLICIES[0], "all")].correct == len(SUITE) and "nouns" not in report.misses
    # Asking whenever several match can never act on all of them or let the user pick several.
    assert rows[("nouns", POLICIES[2], "act_on_all")].correct == 0
    assert rows[("nouns", POLICIES[2], "ask_several")].correct == 0
    # Reading nouns only gets the referring expressions mostly wrong, and Chinese not at all.
    assert rows[("references", POLICIES[1], "all")].percent < 50
    assert rows[("references", POLICIES[1], "zh")].correct <= 3
    assert report.as_json()["results"][0]["policy"] == POLICIES[0]


def test_seed_scenario_1_view_only_returns_at_once(demo: Scene, tmp_path: Path) -> None:
    agent = make_agent(demo, tmp_path)
    result = agent.query("show me room 0-7")
    check_tool_events(result.events)
    assert "selection_required" not in [e.type for e in result.events]
    assert result.status == "answered" and result.codes == ["0-7"]
    assert "/?manifest=/manifests/view-" in result.final.viewer_url
    view = result.final.viewer_url.split("/manifests/")[1]
    assert (agent.settings.views_dir / view).is_file()
    assert "Garage" in result.answer and result.final.viewer_url in result.answer


def test_seed_scenario_2_asks_which_bedroom_then_answers_about_the_pick(demo: Scene, tmp_path: Path) -> None:
    agent = make_agent(demo, tmp_path)
    picker = Picker(agent.settings, lambda event: ["1-3"])
    result = agent.query("what's the color of the bedroom?", on_event=picker)
    picker.join()
    check_tool_events(result.events)
    [required] = picker.required
    assert required.candidates == ["1-2", "1-3", "1-4"] and not required.multiple
    assert required.prompt.startswith("Which bedroom do you mean: Master bedroom (1-2), Guest bedroom (1-3) or Kids "
                                      "bedroom (1-4)?")
    assert "selectionMode=true" in required.viewer_url and required.session_id in required.viewer_url
    types = picker.types()
    assert types.index("selection_required") < types.index("selection_received") < types.index("final")
    assert calls(result.events, "color") == [{"code": "1-3"}]
    assert result.status == "answered" and result.codes == ["1-3"]
    assert "1-3" in result.answer and "Guest bedroom" in result.answer
    [record] = agent.records.list()
    assert (record.type, record.status, record.answer) == ("SELECTION", "ANSWERED", ["1-3"])
    assert "(asked: Which bedroom do you mean:" in agent.history[-1].summary()


def test_seed_scenario_3_compare_lets_the_user_pick_several_then_measures_each(demo: Scene, tmp_path: Path) -> None:
    agent = make_agent(demo, tmp_path)
    picker = Picker(agent.settings, lambda event: ["0-3-2", "0-3-4"])
    result = agent.query("compare the chairs in the kitchen", on_event=picker)
    picker.join()
    check_tool_events(result.events)
    [required] = picker.required
    assert required.multiple and required.candidates == ["0-3-2", "0-3-3", "0-3-4", "0-3-5"]
    measured = sorted((e.tool_name, e.args["code"]) for e in result.events if e.type == "tool_call_result"
                      and e.tool_name in ("color", "volume"))
    assert measured == [("color", "0-3-2"), ("color", "0-3-4"), ("volume", "0-3-2"), ("volume", "0-3-4")]
    assert result.status == "answered" and result.codes == ["0-3-2", "0-3-4"]
    assert "red" in result.answer and "green" in result.answer and "m³" in result.answer
    assert "about the same size" in result.answer  # kitchen chairs differ by less than 2 %


def test_cancel_in_the_viewer_ends_the_turn_without_measuring(demo: Scene, tmp_path: Path) -> None:
    agent = make_agent(demo, tmp_path)
    picker = Picker(agent.settings, lambda event: [])
    result = agent.query("how big is the bed?", on_event=picker)
    picker.join()
    check_tool_events(result.events)
    cancelled = [e for e in result.events if e.type == "selection_cancelled"]
    assert [e.cancelled_by for e in cancelled] == ["viewer"]
    assert calls(result.events, "volume") == []
    assert result.status == "cancelled" and "cancelled" in result.answer and "1-2-1" in result.answer
    assert [r.status for r in agent.records.list()] == ["IGNORED"]


def test_nobody_picking_times_out(demo: Scene, tmp_path: Path) -> None:
    agent = make_agent(demo, tmp_path, timeout=0.3)
    picker = Picker(agent.settings, lambda event: None)
    result = agent.query("what colour is the armchair?", on_event=picker)
    assert [e.type for e in result.events if e.type.startswith("selection")] == ["selection_required", "selection_timeout"]
    assert result.status == "timeout" and "in time" in result.answer
    assert [r.status for r in agent.records.list()] == ["EXPIRED"]


def test_stopping_the_run_cancels_the_wait(demo: Scene, tmp_path: Path) -> None:
    agent = make_agent(demo, tmp_path)
    control = RunControl()

    def stop(event) -> None:
        if isinstance(event, SelectionRequired):
            control.stop("stopped by the user")

    result = agent.query("what's the color of the chair?", on_event=stop, control=control)
    [cancelled] = [e for e in result.events if e.type == "selection_cancelled"]
    assert cancelled.cancelled_by == "caller"
    assert result.status == "cancelled"


def test_follow_up_the_other_one_acts_on_the_remaining_candidate(demo: Scene, tmp_path: Path) -> None:
    agent = make_agent(demo, tmp_path)
    picker = Picker(agent.settings, lambda event: ["0-2-2"])
    first = agent.query("what colour is the armchair?", on_event=picker)
    picker.join()
    assert first.codes == ["0-2-2"] and "yellow" in first.answer
    second = agent.query("and the other one?", on_event=picker)
    assert len(picker.required) == 1  # no second selection: only one armchair is left
    assert calls(second.events, "color") == [{"code": "0-2-3"}]
    assert second.status == "answered" and second.codes == ["0-2-3"]


def test_follow_up_it_reuses_the_last_items_with_a_new_measure(demo: Scene, tmp_path: Path) -> None:
    agent = make_agent(demo, tmp_path)
    agent.query("what's the color of the sofa")
    second = agent.query("how big is it?")
    assert calls(second.events, "volume") == [{"code": "0-2-1"}]
    assert second.codes == ["0-2-1"] and "m³" in second.answer


def test_follow_up_with_a_new_target_keeps_the_last_question(demo: Scene, tmp_path: Path) -> None:
    agent = make_agent(demo, tmp_path)
    agent.query("how big is the sofa?")
    second = agent.query("and the refrigerator?")
    assert calls(second.events, "volume") == [{"code": "0-3-6"}]


def test_superlative_picks_the_one_it_describes_without_asking(demo: Scene, tmp_path: Path) -> None:
    result = make_agent(demo, tmp_path).query("which bedroom is the biggest?")
    assert "selection_required" not in [e.type for e in result.events]
    assert [a["query"] for a in calls(result.events, "find")] == ["bedroom is the biggest"]  # find reads the words
    assert calls(result.events, "volume") == [{"code": "1-2"}]
    assert result.codes == ["1-2"] and "The biggest bedroom is room 1-2 (Master bedroom)" in result.answer


def test_count_answers_from_the_metadata(demo: Scene, tmp_path: Path) -> None:
    result = make_agent(demo, tmp_path).query("how many chairs are there?")
    assert [e.tool_name for e in result.events if e.type == "tool_call_start"] == ["find"]
    assert result.answer.startswith("There are 5 chairs: 4 chairs in the Kitchen (0-3-2, 0-3-3, 0-3-4, 0-3-5)")


def test_not_found_names_what_is_closest(demo: Scene, tmp_path: Path) -> None:
    result = make_agent(demo, tmp_path).query("what's the color of the couch in the garage")
    assert result.status == "not_found"
    assert "No sofa in the garage" in result.answer and "Lounge (0-2)" in result.answer
    piano = make_agent(demo, tmp_path).query("what's the color of the piano?")
    assert piano.status == "not_found" and "piano" in piano.answer


def test_empty_query_is_an_error_not_a_crash(demo: Scene, tmp_path: Path) -> None:
    result = make_agent(demo, tmp_path).query("   ")
    assert result.status == "error" and "empty" in result.answer
    assert [e.type for e in result.events] == ["final"]


def test_on_event_sees_the_events_as_they_happen_ending_with_final(demo: Scene, tmp_path: Path) -> None:
    events: list = []
    make_agent(demo, tmp_path).query("how many bedrooms are there", on_event=events.append)
    assert [e.type for e in events] == ["tool_call_start", "tool_call_result", "final"]
    assert events[-1].status == "answered" and events[-1].codes == ["1-2", "1-3", "1-4"]


def test_a_noun_of_the_scans_own_is_something_to_answer_about(tmp_path: Path) -> None:
    # 'hamper' is no word of the shared vocabulary: it is this scan's own ('laundry hamper'), so the question is answered
    from scene_agent.scene.loader import load_scene
    from scene_bench.grounding.boxes import GroundBox, build_scene

    boxes = [GroundBox(id=0, label="laundry hamper", center=(1.0, 1.0, 0.3), size=(0.4, 0.4, 0.6), rgb=(40, 60, 200)),
             GroundBox(id=1, label="bed", center=(3.0, 2.0, 0.25), size=(1.6, 2.0, 0.5), rgb=(235, 235, 235))]
    scene = load_scene(build_scene("laundry", boxes, tmp_path / "laundry"))
    chosen = plan("what's the colour of the hamper?", scene)
    assert chosen.kind != "not_found" and chosen.candidate_codes == ("0-1-1",)
