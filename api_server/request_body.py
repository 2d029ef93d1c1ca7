"""Reading request bodies: JSON only, size-limited by Flask, validated by a pydantic model before anything else runs."""

from __future__ import annotations

from typing import TypeVar

from flask import request
from pydantic import BaseModel, ValidationError

from api_server.errors import UnsupportedMediaTypeError
from scene_agent.errors import usage_error

M = TypeVar("M", bound=BaseModel)


def json_body(model: type[M]) -> M:
    """The body as `model`; 415 unless sent as JSON, 413 past MAX_CONTENT_LENGTH, 400 naming each bad field."""
    if not request.is_json:
        # Requiring a JSON content type also makes browsers send a CORS preflight for cross-origin posts.
        raise UnsupportedMediaTypeError("send the body as JSON (Content-Type: application/json)")
    data = request.get_data(cache=False)
    try:
        return model.model_validate_json(data)
    except ValidationError as exc:
        raise usage_error(exc) from None
