"""The one place errors become HTTP responses: `{"error": code, "message": text}` with the right status."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from scene_agent.errors import (
    BrokerUnavailableError,
    BusyError,
    ConflictError,
    InvalidSelectionError,
    NobodyWaitingError,
    NotFoundError,
    SceneAgentError,
    SelectionNotDeliveredError,
    SelectionRecoveringError,
    SessionAnsweredError,
    SessionExpiredError,
    UnprocessableError,
    UsageError,
)

log = logging.getLogger(__name__)

# Most specific first: SessionNotFoundError is a NotFoundError.
STATUS = [(UsageError, 400), (NotFoundError, 404), (SessionAnsweredError, 409), (ConflictError, 409),
          (SessionExpiredError, 410), (NobodyWaitingError, 410), (InvalidSelectionError, 422), (UnprocessableError, 422),
          (BusyError, 503), (SelectionNotDeliveredError, 503), (BrokerUnavailableError, 503),
          (SelectionRecoveringError, 503)]


class UnsupportedMediaTypeError(SceneAgentError):
    """A body that is not declared as JSON."""

    code = "unsupported_media_type"


def error_response(code: str, message: str, status: int) -> Response:
    """A JSON error body with its status."""
    response = jsonify(error=code, message=message)
    response.status_code = status
    return response


def register_error_handlers(app: Flask) -> None:
    """Expected errors → their status; HTTP errors (404, 405, 413 …) → the same JSON shape; anything else → 500."""

    @app.errorhandler(SceneAgentError)
    def scene_agent_error(exc: SceneAgentError) -> Response:
        if isinstance(exc, UnsupportedMediaTypeError):
            return error_response(exc.code, exc.message, 415)
        status = next((s for cls, s in STATUS if isinstance(exc, cls)), 500)
        if status == 500:
            log.error("request failed: %s", exc.message)
        response = error_response(exc.code, exc.message, status)
        if status == 503:  # every 503 here is worth a retry: busy, not delivered, the broker away for a moment
            response.headers["Retry-After"] = "1"
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        code = (exc.name or "error").lower().replace(" ", "_")
        message = exc.description or exc.name
        if exc.code == 413:
            message = f"the request body is larger than {app.config['MAX_CONTENT_LENGTH']} bytes"
        response = error_response(code, message, exc.code or 500)
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:  # only MethodNotAllowed carries them
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:
        log.exception("unexpected error")  # the details (exception, paths) go to the log, never to the client
        return error_response("internal_error", "the server failed; the details are in its log", 500)
