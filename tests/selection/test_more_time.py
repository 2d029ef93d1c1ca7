"""More time to pick, on every channel: the stored deadline moves, the waiter waits to the new one (and counts down
from it), and the limits and the ended or abandoned sessions are refused."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from channels import EVERY_CHANNEL
from handoff_helpers import OBJECTS, Ticks, Worker

from scene_agent.errors import NobodyWaitingError, SessionAnsweredError, SessionExpiredError, UnprocessableError
from scene_agent.scene.loader import load_scene
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.session import MAX_EXTENSION_S, SelectionSession
from scene_agent.selection.views import build_view

CHANNELS = EVERY_CHANNEL


def opened(channel: SelectionChannel, small_scene_path: Path, timeout: float) -> SelectionSession:
    labels = dict(OBJECTS)
    session = SelectionSession.create(list(labels), labels, "Which one?", scene_id="small", timeout=timeout)
    session = session.model_copy(update={"view": f"select-{session.session_id}"})
    return channel.open(session, build_view(load_scene(small_scene_path), session.candidates, session.mode, session))


def test_the_waiter_waits_to_the_new_deadline(channel: SelectionChannel, small_scene_path: Path) -> None:
    session = opened(channel, small_scene_path, timeout=1.5)
    pending = channel.watch(session)
    ticks = Ticks()
    worker = Worker(lambda: pending.wait(on_progress=ticks, progress_every=0.2))
    ticks.wait_for(1)
    longer = channel.extend(session.session_id, 30)
    assert (longer.expires_at - session.expires_at).total_seconds() == pytest.approx(30)
    assert channel.get(session.session_id).expires_at == longer.expires_at
    began = time.monotonic()
    while time.monotonic() - began < 2.5:  # past the old deadline: still waiting, counting down from the new one
        assert worker.alive()
    assert ticks.values[-1] > 25
    channel.submit(session.session_id, ["0-1-2"])
    assert worker.result().codes == ["0-1-2"]


def test_limits_and_ended_sessions_are_refused(channel: SelectionChannel, small_scene_path: Path) -> None:
    session = opened(channel, small_scene_path, timeout=60)
    with pytest.raises(NobodyWaitingError):
        channel.extend(session.session_id, 30)
    pending = channel.watch(session)
    with pytest.raises(UnprocessableError, match="between 0 and 600"):
        channel.extend(session.session_id, MAX_EXTENSION_S + 1)
    for _ in range(5):
        channel.extend(session.session_id, MAX_EXTENSION_S)
    with pytest.raises(UnprocessableError, match="at most 3600 s in all"):
        channel.extend(session.session_id, MAX_EXTENSION_S)
    channel.cancel(session.session_id)
    assert pending.wait().status == "cancelled"
    with pytest.raises(SessionAnsweredError):
        channel.extend(session.session_id, 10)


def test_too_close_to_the_deadline_it_is_too_late(channel: SelectionChannel, small_scene_path: Path) -> None:
    session = opened(channel, small_scene_path, timeout=0.5)
    pending = channel.watch(session)
    with pytest.raises(SessionExpiredError, match="too late"):
        channel.extend(session.session_id, 10)
    assert pending.wait().status == "timeout"
