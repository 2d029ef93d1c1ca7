"""Reading request bodies: JSON only, size-limited by Flask, validated by a pydantic model before anything else runs."""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from flask import request
from pydantic import BaseModel, ValidationError

from api_server.errors import UnsupportedMediaTypeError
from scene_agent.errors import UsageError, usage_error

M = TypeVar("M", bound=BaseModel)

# How deep a body may nest arrays and objects. Ours nest four levels at most; a parser handed thousands fails
# deep in its recursion, so a deeper body is refused before any parsing.
MAX_DEPTH = 32
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(rb"[\[\]{}]")


def nesting_depth(data: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside strings do not count)."""
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub(b'""', data)):
        if bracket.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


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
    if nesting_depth(data) > MAX_DEPTH:
        raise UsageError(f"the body nests arrays and objects more than {MAX_DEPTH} levels deep")
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
