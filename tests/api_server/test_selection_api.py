"""Selection endpoints over real HTTP, on every selection channel: answers, every error status, and that a rejected
request writes nothing."""

from __future__ import annotations

import json
import stat
from datetime import timedelta

import pytest
from channels import EVERY_CHANNEL
from http_client import call

from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.selection_file import selection_path
from scene_agent.selection.session import SelectionSession
from scene_agent.selection.views import build_view

UNKNOWN_ID = "0" * 32


CHANNELS = EVERY_CHANNEL


def nothing_written(settings, channel: SelectionChannel, session_id: str) -> bool:
    """No selection file and no recorded outcome for this session."""
    return not selection_path(settings.selection_dir, session_id).exists() and channel.outcome(session_id) is None


def test_a_pending_session(server, open_selection):
    out = open_selection(prompt="Which chair?")
    reply = call("GET", f"{server.url}/api/sessions/{out.session_id}")
    assert reply.status == 200
    body = reply.json()
    assert body | {"seconds_left": 0, "expires_at": ""} == {
        "session_id": out.session_id, "status": "pending", "mode": "objects", "candidates": ["0-1-1", "0-1-2", "0-1-3"],
        "labels": {"0-1-1": "chair", "0-1-2": "chair", "0-1-3": "chair"}, "prompt": "Which chair?", "multiple": False,
        "seconds_left": 0, "expires_at": "", "scene_id": "small", "view": out.view, "selections": [], "waiting": True}
    assert 0 < body["seconds_left"] <= 60


def test_confirm_one_pick_writes_the_selection_file(server, open_selection, settings):
    out = open_selection()
    reply = call("POST", f"{server.url}/api/submit-selection",
                 {"session_id": out.session_id, "selections": [{"itemCode": "0-1-2", "extra": "ignored"}]})
    assert reply.status == 200
    assert reply.json()["selections"] == [{"itemCode": "0-1-2", "type": "object", "label": "chair"}]
    path = selection_path(settings.selection_dir, out.session_id)
    assert str(path) == out.selection_file
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    written = json.loads(path.read_text())
    assert written == {"session_id": out.session_id, "status": "confirmed",
                       "selections": [{"itemCode": "0-1-2", "type": "object", "label": "chair"}],
                       "submitted_at": written["submitted_at"]}
    state = call("GET", f"{server.url}/api/sessions/{out.session_id}").json()
    assert (state["status"], state["seconds_left"], state["selections"][0]["itemCode"]) == ("confirmed", 0.0, "0-1-2")


def test_a_directory_planted_at_the_selection_files_path_does_not_block_the_pick(server, open_selection, settings):
    out = open_selection()
    path = selection_path(settings.selection_dir, out.session_id)
    path.mkdir(parents=True)  # a tool (or a person) left a directory where the pick's file goes
    reply = call("POST", f"{server.url}/api/submit-selection",
                 {"session_id": out.session_id, "selections": [{"itemCode": "0-1-3"}]})
    assert reply.status == 200, reply.body
    assert path.is_file() and json.loads(path.read_text())["selections"][0]["itemCode"] == "0-1-3"


def test_confirm_several_picks(server, open_selection, settings):
    out = open_selection(multiple=True)
    reply = call("POST", f"{server.url}/api/submit-selection",
                 {"session_id": out.session_id, "selections": [{"itemCode": "0-1-3"}, {"itemCode": "0-1-1"}]})
    assert reply.status == 200
    assert [s["itemCode"] for s in reply.json()["selections"]] == ["0-1-3", "0-1-1"]


def test_rooms_as_candidates(server, open_selection):
    out = open_selection(["1-1", "1-2"])
    assert out.mode == "multi-room"
    reply = call("POST", f"{server.url}/api/submit-selection", {"session_id": out.session_id, "selections": [{"itemCode": "1-2"}]})
    assert reply.json()["selections"] == [{"itemCode": "1-2", "type": "room", "label": "bedroom"}]


def test_cancel(server, open_selection, settings):
    out = open_selection()
    reply = call("POST", f"{server.url}/api/cancel-selection", {"session_id": out.session_id})
    assert (reply.status, reply.json()["status"], reply.json()["selections"]) == (200, "cancelled", [])
    assert json.loads(selection_path(settings.selection_dir, out.session_id).read_text())["status"] == "cancelled"
    assert call("GET", f"{server.url}/api/sessions/{out.session_id}").json()["status"] == "cancelled"


BAD_BODIES = [
    # (description, raw body or JSON, content type, status, error code)
    ("malformed JSON", b'{"session_id": ', "application/json", 400, "bad_usage"),
    ("not an object", [1, 2], None, 400, "bad_usage"),
    ("selections not a list", {"selections": "0-1-1"}, None, 400, "bad_usage"),
    ("session id a number", {"session_id": 7, "selections": [{"itemCode": "0-1-1"}]}, None, 400, "bad_usage"),
    ("session id too short", {"session_id": "a" * 31, "selections": [{"itemCode": "0-1-1"}]}, None, 400, "bad_usage"),
    ("session id a path", {"session_id": "../../../../etc/passwd", "selections": [{"itemCode": "0-1-1"}]}, None, 400, "bad_usage"),
    ("session id upper case", {"session_id": "A" * 32, "selections": [{"itemCode": "0-1-1"}]}, None, 400, "bad_usage"),
    ("item without code", {"selections": [{"type": "object"}]}, None, 400, "bad_usage"),
    ("item code not a code", {"selections": [{"itemCode": "chair"}]}, None, 400, "bad_usage"),
    ("unknown top-level field", {"selections": [{"itemCode": "0-1-1"}], "sessionId": "x"}, None, 400, "bad_usage"),
    ("not among the candidates", {"selections": [{"itemCode": "0-2-1"}]}, None, 422, "invalid_selection"),
    ("two picks for a single pick", {"selections": [{"itemCode": "0-1-1"}, {"itemCode": "0-1-2"}]}, None, 422, "invalid_selection"),
    ("no pick", {"selections": []}, None, 422, "invalid_selection"),
    ("form content type", b"session_id=x", "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
    ("text content type", b"{}", "text/plain", 415, "unsupported_media_type"),
    ("oversized body", {"selections": [{"itemCode": "0-1-1", "pad": "x" * 70_000}]}, None, 413, "request_entity_too_large"),
]


@pytest.mark.parametrize(("what", "body", "content_type", "status", "code"), BAD_BODIES, ids=[b[0] for b in BAD_BODIES])
def test_bad_submissions_are_rejected_and_write_nothing(server, open_selection, settings, channel, what, body, content_type, status, code):
    out = open_selection()
    if isinstance(body, dict) and "session_id" not in body:
        body = {"session_id": out.session_id, **body}
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    reply = call("POST", f"{server.url}/api/submit-selection", raw=raw,
                 headers={"Content-Type": content_type or "application/json"})
    assert reply.status == status, reply.body
    assert reply.json()["error"] == code
    assert reply.json()["message"]
    assert nothing_written(settings, channel, out.session_id)
    assert call("GET", f"{server.url}/api/sessions/{out.session_id}").json()["status"] == "pending"


def test_messages_name_the_problem(server, open_selection):
    out = open_selection()
    reply = call("POST", f"{server.url}/api/submit-selection", {"session_id": out.session_id, "selections": [{"itemCode": "0-2-1"}]})
    assert "0-2-1" in reply.json()["message"] and "0-1-1" in reply.json()["message"]
    reply = call("POST", f"{server.url}/api/submit-selection", {"session_id": out.session_id, "selections": [{}]})
    assert "selections.0.itemCode" in reply.json()["message"]


def test_duplicate_picks_in_a_multiple_session(server, open_selection, settings, channel):
    out = open_selection(multiple=True)
    reply = call("POST", f"{server.url}/api/submit-selection",
                 {"session_id": out.session_id, "selections": [{"itemCode": "0-1-1"}, {"itemCode": "0-1-1"}]})
    assert (reply.status, reply.json()["error"]) == (422, "invalid_selection")
    assert nothing_written(settings, channel, out.session_id)


def test_unknown_session(server, settings):
    for path, body in (("submit-selection", {"session_id": UNKNOWN_ID, "selections": [{"itemCode": "0-1-1"}]}),
                       ("cancel-selection", {"session_id": UNKNOWN_ID})):
        reply = call("POST", f"{server.url}/api/{path}", body)
        assert (reply.status, reply.json()["error"]) == (404, "session_not_found")
    assert call("GET", f"{server.url}/api/sessions/{UNKNOWN_ID}").status == 404
    assert not settings.selection_dir.exists() or not any(settings.selection_dir.iterdir())


@pytest.mark.parametrize("bad_id", ["abc", "A" * 32, "g" * 32, "a" * 32 + "%0A", "..", "a" * 33])
def test_malformed_id_in_the_url(server, bad_id):
    reply = call("GET", f"{server.url}/api/sessions/{bad_id}")
    assert (reply.status, reply.json()["error"]) == (400, "bad_usage")


def test_an_id_with_slashes_matches_no_route(server):
    reply = call("GET", f"{server.url}/api/sessions/..%2F..%2Fetc%2Fpasswd")
    assert (reply.status, reply.json()["error"]) == (404, "not_found")


def test_already_answered(server, open_selection, settings):
    out = open_selection()
    first = call("POST", f"{server.url}/api/submit-selection", {"session_id": out.session_id, "selections": [{"itemCode": "0-1-1"}]})
    assert first.status == 200
    path = selection_path(settings.selection_dir, out.session_id)
    before = path.read_bytes()
    again = call("POST", f"{server.url}/api/submit-selection", {"session_id": out.session_id, "selections": [{"itemCode": "0-1-2"}]})
    cancel = call("POST", f"{server.url}/api/cancel-selection", {"session_id": out.session_id})
    assert (again.status, again.json()["error"]) == (409, "already_answered")
    assert (cancel.status, cancel.json()["error"]) == (409, "already_answered")
    assert path.read_bytes() == before


def test_expired(server, scene, settings, channel):
    session = SelectionSession.create(["0-1-1", "0-1-2"], {}, "Which?", scene_id="small", timeout=30)
    shift = timedelta(seconds=60)
    session = session.model_copy(update={"created_at": session.created_at - shift, "expires_at": session.expires_at - shift,
                                          "view": f"select-{session.session_id}"})
    channel.open(session, build_view(scene, session.candidates, session.mode, session))
    state = call("GET", f"{server.url}/api/sessions/{session.session_id}").json()
    assert (state["status"], state["seconds_left"]) == ("expired", 0.0)
    for path, body in (("submit-selection", {"session_id": session.session_id, "selections": [{"itemCode": "0-1-1"}]}),
                       ("cancel-selection", {"session_id": session.session_id})):
        reply = call("POST", f"{server.url}/api/{path}", body)
        assert (reply.status, reply.json()["error"]) == (410, "session_expired")
    assert nothing_written(settings, channel, session.session_id)


def test_wrong_method_and_unknown_path(server):
    reply = call("GET", f"{server.url}/api/submit-selection")
    assert (reply.status, reply.json()["error"]) == (405, "method_not_allowed")
    assert "POST" in reply.headers["Allow"]
    reply = call("GET", f"{server.url}/api/nothing-here")
    assert (reply.status, reply.json()["error"]) == (404, "not_found")


def test_cors_only_for_the_viewer_origin(server, open_selection):
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
    allowed = call("OPTIONS", f"{server.url}/api/submit-selection", headers={"Origin": "http://localhost:5173", **preflight})
    assert allowed.headers["Access-Control-Allow-Origin"] == "http://localhost:5173"
    other = call("OPTIONS", f"{server.url}/api/submit-selection", headers={"Origin": "http://evil.example", **preflight})
    assert "Access-Control-Allow-Origin" not in other.headers
    out = open_selection()
    reply = call("GET", f"{server.url}/api/sessions/{out.session_id}", headers={"Origin": "http://evil.example"})
    assert reply.status == 200 and "Access-Control-Allow-Origin" not in reply.headers


def test_more_time_moves_the_deadline(server, open_selection):
    out = open_selection()
    before = call("GET", f"{server.url}/api/sessions/{out.session_id}").json()["seconds_left"]
    reply = call("POST", f"{server.url}/api/extend-selection", {"session_id": out.session_id, "seconds": 120})
    assert reply.status == 200, reply.body
    assert reply.json()["status"] == "pending" and reply.json()["seconds_left"] > before + 100
    assert call("GET", f"{server.url}/api/sessions/{out.session_id}").json()["seconds_left"] > before + 100


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"seconds": 0}, 400, "bad_usage"),
    ({"seconds": 601}, 400, "bad_usage"),
    ({"seconds": "60"}, 400, "bad_usage"),
    ({"session_id": UNKNOWN_ID}, 404, "session_not_found"),
])
def test_more_time_refuses_bad_requests(server, open_selection, body, status, code):
    out = open_selection()
    reply = call("POST", f"{server.url}/api/extend-selection", {"session_id": out.session_id, **body})
    assert (reply.status, reply.json()["error"]) == (status, code)


def test_more_time_for_an_answered_or_abandoned_session(server, open_selection):
    answered = open_selection()
    call("POST", f"{server.url}/api/cancel-selection", {"session_id": answered.session_id})
    reply = call("POST", f"{server.url}/api/extend-selection", {"session_id": answered.session_id})
    assert (reply.status, reply.json()["error"]) == (409, "already_answered")
    abandoned = open_selection(waiting=False)
    reply = call("POST", f"{server.url}/api/extend-selection", {"session_id": abandoned.session_id})
    assert (reply.status, reply.json()["error"]) == (410, "nobody_waiting")
