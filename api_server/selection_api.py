"""Selection sessions over HTTP: the viewer reads a session, then submits its picks or cancels."""

from __future__ import annotations

from flask import Blueprint, Response, current_app

from api_server.bodies import CancelSelection, ErrorBody, ExtendSelection, SelectionAnswer, SessionState, SubmitSelection
from api_server.openapi import documented
from api_server.request_body import json_body
from scene_agent.selection.channel import SelectionChannel
from scene_agent.selection.session import SelectionSession, check_session_id

bp = Blueprint("selection", __name__)

# 410: expired, or nobody waits for the answer any more; 503: the answer could not be delivered, or the broker is
# away (retry later).
ERRORS = {400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 410: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody}


def _channel() -> SelectionChannel:
    channel: SelectionChannel = current_app.config["CHANNEL"]
    return channel


@bp.get("/api/sessions/<session_id>")
@documented("A selection session: status, candidates, prompt, seconds left", tag="selection",
            responses={200: SessionState, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody})
def get_session(session_id: str) -> Response:
    """Status (pending/confirmed/cancelled/expired), candidates with labels, prompt, multiple, seconds left."""
    channel = _channel()
    return _state(channel, channel.get(check_session_id(session_id)))


def _state(channel: SelectionChannel, session: SelectionSession) -> Response:
    status, outcome = channel.status(session)
    state = SessionState(session_id=session.session_id, status=status, mode=session.mode, candidates=session.candidates,
                         labels=session.labels, prompt=session.prompt, multiple=session.multiple,
                         seconds_left=round(session.seconds_left(), 1) if status == "pending" else 0.0,
                         expires_at=session.expires_at, scene_id=session.scene_id, view=session.view,
                         selections=outcome.selections if outcome else [],
                         answered_by=outcome.by if outcome and status == "confirmed" and outcome.by in ANSWERERS else None,
                         waiting=status == "pending" and channel.someone_waits(session.session_id))
    # answered_by is said once there is an answer to say it of (left out before, as before it existed)
    return _json(state.model_dump_json(exclude={"answered_by"} if state.answered_by is None else None))


ANSWERERS = ("viewer", "words", "host")


def _json(body: str) -> Response:
    """A 200 JSON response of a body pydantic wrote (one pass from the model to bytes)."""
    return current_app.response_class(body, mimetype="application/json")


@bp.post("/api/submit-selection")
@documented("Confirm the user's picks; the waiting agent receives them through the selection file", tag="selection",
            request=SubmitSelection, responses={200: SelectionAnswer, 422: ErrorBody, **ERRORS})
def submit() -> Response:
    """Validate everything, then deliver through the channel (scene_agent/selection/channel.py); 200 once the waiter will see it."""
    body = json_body(SubmitSelection)
    answer = _channel().submit(body.session_id, [pick.itemCode for pick in body.selections])
    return _json(answer.model_dump_json())


@bp.post("/api/cancel-selection")
@documented("The user declines to pick; the waiting agent is told", tag="selection",
            request=CancelSelection, responses={200: SelectionAnswer, **ERRORS})
def cancel() -> Response:
    """Deliver the cancellation as a pick is delivered: selection file, then outcome."""
    body = json_body(CancelSelection)
    return _json(_channel().cancel(body.session_id).model_dump_json())


@bp.post("/api/extend-selection")
@documented("More time to pick: the session's deadline moves later, and the waiting agent waits that much longer",
            tag="selection", request=ExtendSelection, responses={200: SessionState, 422: ErrorBody, **ERRORS})
def extend() -> Response:
    """Add `seconds` (default 60, at most 600 at a time and 3600 in all) to a pending session someone waits for."""
    body = json_body(ExtendSelection)
    channel = _channel()
    return _state(channel, channel.extend(body.session_id, body.seconds))
