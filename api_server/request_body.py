"""Reading request bodies: JSON only, size-limited by Flask, validated by a pydantic model before anything else runs."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from flask import request
from pydantic import BaseModel, ValidationError

from api_server.errors import UnsupportedMediaTypeError
from scene_agent.errors import UsageError, usage_error

M = TypeVar("M", bound=BaseModel)


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKeyError(key)
        seen[key] = value
    return seen


def json_body(model: type[M]) -> M:
    """The body as `model`; 415 unless sent as JSON, 413 past MAX_CONTENT_LENGTH, 400 naming each bad field."""
    if not request.is_json:
        # Requiring a JSON content type also makes browsers send a CORS preflight for cross-origin posts.
        raise UnsupportedMediaTypeError("send the body as JSON (Content-Type: application/json)")
    data = request.get_data(cache=False)
    # A key given twice is refused rather than read as its last value: two readers of one body must agree.
    try:
        json.loads(data, object_pairs_hook=_no_duplicates)
    except _DuplicateKeyError as exc:
        raise UsageError(f"the key '{exc.key}' appears more than once in the body") from None
    except ValueError:
        pass  # not JSON at all: pydantic says where, below
    try:
        return model.model_validate_json(data)
    except ValidationError as exc:
        raise usage_error(exc) from None
