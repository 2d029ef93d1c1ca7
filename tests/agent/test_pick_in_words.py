"""A pending pick answered in words, by a user in another thread, while a real agent waits on the real hand-off."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest
from agent_helpers import agent_settings
from pydantic import BaseModel

from scene_agent.agent.events import SelectionCancelled, SelectionExtended, SelectionReceived, SelectionRequired
from scene_agent.agent.offline_planner import OfflinePlanner
from scene_agent.agent.pick_in_words import WordsNotUnderstoodError, answer_in_words
from scene_agent.agent.scene_agent import SceneAgent
from scene_agent.errors import SessionAnsweredError
from scene_agent.scene.loader import Scene, load_scene


@pytest.fixture(scope="module")
def scene(small_scene_path: Path) -> Scene:
    return load_scene(small_scene_path)


class Speaker:
    """Plays the user at the chat: when the agent asks for a pick, types each of `lines` in turn (from a thread)."""

    def __init__(self, scene: Scene, agent: SceneAgent, *lines: str):
        self.scene, self.channel, self.lines = scene, agent.channel, lines
        self.replies: list[object] = []
        self.events: list[BaseModel] = []
        self._required: queue.Queue[SelectionRequired] = queue.Queue()
        self.thread = threading.Thread(target=self._speak, daemon=True)
        if lines:
            self.thread.start()

    def __call__(self, event: BaseModel) -> None:
        self.events.append(event)
        if isinstance(event, SelectionRequired):
            self._required.put(event)

    def _speak(self) -> None:
        required = self._required.get(timeout=20)
        for line in self.lines:
            try:
                self.replies.append(answer_in_words(self.scene, self.channel, required.session_id, line))
            except WordsNotUnderstoodError as exc:
                self.replies.append(exc)


def run(scene: Scene, tmp_path: Path, question: str, *lines: str, lang: str | None = None):
    agent = SceneAgent(scene, agent_settings(tmp_path), OfflinePlanner(), selection_timeout=20, lang=lang)
    speaker = Speaker(scene, agent, *lines)
    result = agent.query(question, on_event=speaker)
    if lines:
        speaker.thread.join(timeout=20)
    return agent, speaker, result


def test_the_red_one_answers_which_chair(scene: Scene, tmp_path: Path) -> None:
    agent, speaker, result = run(scene, tmp_path, "what's the color of the chair?", "the purple one", "the red one")
    not_understood, picked = speaker.replies
    assert isinstance(not_understood, WordsNotUnderstoodError)
    assert "There is no purple chair; the chairs are red, blue, green, black and yellow." in not_understood.message
    assert (picked.status, picked.codes, picked.said) == ("confirmed", ["0-1-1"], "the red one")
    [received] = [e for e in speaker.events if isinstance(e, SelectionReceived)]
    assert received.codes == ["0-1-1"] and received.words == "the red one"
    assert result.status == "answered" and result.codes == ["0-1-1"] and "red" in result.answer
    [record] = agent.records.list()
    assert (record.status, record.answer) == ("ANSWERED", ["0-1-1"])


@pytest.mark.parametrize("line, code", [("0-1-3", "0-1-3"), ("the second one", "0-1-2"), ("2", "0-1-2"),
                                        ("the one in the study", "1-3-2"), ("the office chair", "1-3-2"),
                                        ("黄色的那个", "1-4-1")])
def test_words_of_every_kind(scene: Scene, tmp_path: Path, line: str, code: str) -> None:
    _, speaker, result = run(scene, tmp_path, "how big is the chair?", line)
    assert result.codes == [code], speaker.replies


def test_words_that_fit_several_are_asked_about_again(scene: Scene, tmp_path: Path) -> None:
    _, speaker, result = run(scene, tmp_path, "how big is the chair?", "the one in the kitchen", "the blue one")
    several, _picked = speaker.replies
    assert isinstance(several, WordsNotUnderstoodError) and "still fits 4" in several.message  # the Kitchenette too
    assert "the red chair (0-1-1)" in several.message or "the red one (0-1-1)" in several.message
    assert result.codes == ["0-1-2"]


def test_cancel_in_words(scene: Scene, tmp_path: Path) -> None:
    agent, speaker, result = run(scene, tmp_path, "what's the color of the chair?", "never mind")
    assert speaker.replies[0].status == "cancelled"
    [cancelled] = [e for e in speaker.events if isinstance(e, SelectionCancelled)]
    assert cancelled.cancelled_by == "words"
    assert result.status == "cancelled" and "You cancelled the selection" in result.answer
    assert agent.records.list()[0].status == "IGNORED"


def test_all_of_them_when_several_may_be_picked(scene: Scene, tmp_path: Path) -> None:
    _, _, result = run(scene, tmp_path, "compare the chairs", "all of them")
    assert result.codes == ["0-1-1", "0-1-2", "0-1-3", "1-3-2", "1-4-1"]


def test_words_after_the_viewer_answered_get_what_the_viewer_gets(scene: Scene, tmp_path: Path) -> None:
    agent = SceneAgent(scene, agent_settings(tmp_path), OfflinePlanner(), selection_timeout=20)
    channel = agent.channel
    late: list[Exception] = []
    users: list[threading.Thread] = []

    def on_event(event: BaseModel) -> None:
        if isinstance(event, SelectionRequired):
            def user() -> None:
                channel.submit(event.session_id, ["0-1-2"])
                try:
                    answer_in_words(scene, channel, event.session_id, "the red one")
                except SessionAnsweredError as exc:
                    late.append(exc)
            users.append(threading.Thread(target=user))
            users[-1].start()

    result = agent.query("what's the color of the chair?", on_event=on_event)
    assert result.codes == ["0-1-2"]
    users[0].join(10)  # the words may come after the agent has its answer: wait for the user to finish typing
    assert late and "already confirmed in the viewer" in late[0].message


def test_the_answer_comes_in_the_language_of_the_question(scene: Scene, tmp_path: Path) -> None:
    _, _, chinese = run(scene, tmp_path, "椅子是什么颜色？", "红色的那个", lang="en")
    assert chinese.status == "answered" and chinese.codes == ["0-1-1"]
    assert "红色" in chinese.answer and " is " not in chinese.answer
    _, _, english = run(scene, tmp_path, "how big is the sofa?", lang="zh")
    assert english.answer.startswith("Sofa 0-2-1 is ") and "m³" in english.answer
    _, _, default = run(scene, tmp_path, "0-2-1", lang="zh")  # no words of either language: the agent's default
    assert "0-2-1" in default.answer and "在" in default.answer


def test_more_time_asked_in_the_viewer_is_told_to_the_run(scene: Scene, tmp_path: Path) -> None:
    agent = SceneAgent(scene, agent_settings(tmp_path), OfflinePlanner(), selection_timeout=20)
    extended = threading.Event()
    events: list[BaseModel] = []

    def on_event(event: BaseModel) -> None:
        events.append(event)
        if isinstance(event, SelectionExtended):
            extended.set()
        if isinstance(event, SelectionRequired):
            def user() -> None:
                agent.channel.extend(event.session_id, 100)
                assert extended.wait(10), "no selection_extended event"
                agent.channel.submit(event.session_id, ["0-1-1"])
            threading.Thread(target=user).start()

    result = agent.query("what's the color of the chair?", on_event=on_event)
    assert result.codes == ["0-1-1"]
    kinds = [e.type for e in events if e.type.startswith("selection")]
    assert kinds == ["selection_required", "selection_extended", "selection_received"]
    [more] = [e for e in events if isinstance(e, SelectionExtended)]
    assert 110 < more.timeout < 125
