"""The session model: ids, modes, picks, and the outcome's status."""

from __future__ import annotations

from datetime import timedelta

import pytest
from handoff_helpers import OBJECTS, ROOMS
from pydantic import ValidationError

from scene_agent.errors import UsageError
from scene_agent.selection.session import (
    DEFAULT_TIMEOUT_S,
    SESSION_ID_RE,
    SelectionSession,
    SessionOutcome,
    check_session_id,
    mode_for,
    now_utc,
)


def new(labels: dict[str, str], **kw) -> SelectionSession:
    return SelectionSession.create(list(labels), labels, "Which one?", scene_id="test", **kw)


def test_ids_are_32_lowercase_hex_and_unique():
    ids = [new(OBJECTS).session_id for _ in range(500)]
    assert all(SESSION_ID_RE.match(i) for i in ids)
    assert all(len(i) == 32 for i in ids)
    assert len(set(ids)) == len(ids)


def test_create_fills_in_times_and_defaults():
    session = new(ROOMS)
    assert session.timeout == DEFAULT_TIMEOUT_S
    assert session.expires_at - session.created_at == timedelta(seconds=DEFAULT_TIMEOUT_S)
    assert session.created_at.tzinfo is not None
    assert 0 < session.seconds_left() <= DEFAULT_TIMEOUT_S
    assert session.seconds_left(now=session.expires_at + timedelta(seconds=5)) == 0.0


@pytest.mark.parametrize(("codes", "mode"), [
    (["0-1"], "room"),
    (["0-1", "1-1"], "multi-room"),
    (["0-1-1"], "objects"),
    (["0-1-1", "0-2-3"], "objects"),
])
def test_mode_for(codes, mode):
    assert mode_for(codes) == mode
    assert new({c: "x" for c in codes}).mode == mode


@pytest.mark.parametrize("codes", [
    ["0-1", "0-1-1"],  # a room and an object
    ["0"],  # a floor
    ["0", "0-1"],
    [],
    ["kitchen"],
])
def test_mode_for_rejects_floors_mixes_and_non_codes(codes):
    with pytest.raises(UsageError):
        mode_for(codes)


def test_session_rejects_repeated_candidates_and_stray_labels():
    now = now_utc()
    base = dict(session_id="a" * 32, mode="objects", prompt="?", created_at=now,
                expires_at=now + timedelta(seconds=1), scene_id="test")
    with pytest.raises(ValidationError, match="repeat"):
        SelectionSession(candidates=["0-1-1", "0-1-1"], labels={}, **base)
    with pytest.raises(ValidationError, match="not candidates"):
        SelectionSession(candidates=["0-1-1"], labels={"0-1-2": "chair"}, **base)
    with pytest.raises(ValidationError, match="expires_at"):
        SelectionSession(candidates=["0-1-1"], labels={}, **{**base, "expires_at": now})
    with pytest.raises(ValidationError):
        SelectionSession(candidates=["0"], labels={}, **base)


@pytest.mark.parametrize("timeout", [0, -1, 3601])
def test_timeout_must_be_positive_and_bounded(timeout):
    with pytest.raises(ValidationError):
        new(OBJECTS, timeout=timeout)


@pytest.mark.parametrize(("multiple", "picks", "problem"), [
    (False, ["0-1-1"], None),
    (True, ["0-1-1", "0-1-3"], None),
    (True, ["0-1-2"], None),
    (False, [], "at least one"),
    (True, [], "at least one"),
    (False, ["0-1-1", "0-1-2"], "takes one pick, got 2"),
    (False, ["9-9-9"], "not among the candidates"),
    (True, ["0-1-1", "0-2-1"], "0-2-1"),
    (True, ["0-1-1", "0-1-1"], "picked twice"),
    (False, ["../0-1-1"], "not among the candidates"),
])
def test_check_picks(multiple, picks, problem):
    problems = new(OBJECTS, multiple=multiple).check_picks(picks)
    if problem is None:
        assert problems == []
    else:
        assert any(problem in p for p in problems), problems


def test_check_picks_names_each_stranger_once():
    problems = new(OBJECTS, multiple=True).check_picks(["7-7-7", "7-7-7", "0-1-1"])
    stranger = [p for p in problems if "not among" in p]
    assert len(stranger) == 1 and stranger[0].count("7-7-7") == 1


def test_picked_records_type_and_label():
    session = new(ROOMS)
    assert session.picked("0-2").model_dump() == {"itemCode": "0-2", "type": "room", "label": "living room"}
    objects = new(OBJECTS)
    assert objects.picked("0-1-4").model_dump() == {"itemCode": "0-1-4", "type": "object", "label": "dining table"}


def test_check_session_id_accepts_a_real_id():
    sid = new(OBJECTS).session_id
    assert check_session_id(sid) == sid


@pytest.mark.parametrize("bad", [
    "../../etc/passwd",
    "../" + "a" * 29,
    "a" * 31,
    "a" * 33,
    "A" * 32,
    "0123456789ABCDEF0123456789abcdef",
    "g" * 32,
    "a" * 32 + "\n",
    "a" * 16 + "/" + "a" * 15,
    "",
    None,
    123,
    b"a" * 32,
    ["a" * 32],
])
def test_check_session_id_rejects_malformed(bad):
    with pytest.raises(UsageError):
        check_session_id(bad)


@pytest.mark.parametrize(("status", "session_status"), [
    ("confirmed", "confirmed"), ("cancelled", "cancelled"), ("expired", "expired"), ("invalid", "cancelled"),
])
def test_outcome_session_status(status, session_status):
    outcome = SessionOutcome(session_id="b" * 32, status=status, by="waiter", at=now_utc())
    assert outcome.session_status == session_status
