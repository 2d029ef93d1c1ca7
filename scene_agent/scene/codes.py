"""Scene codes: floor "F", room "F-R", object "F-R-O"."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator

from scene_agent.errors import UsageError

Kind = Literal["floor", "room", "object"]

CODE_RE = re.compile(r"^(0|[1-9]\d*)(-(0|[1-9]\d*)){0,2}$")
_KINDS: dict[int, Kind] = {1: "floor", 2: "room", 3: "object"}


def is_code(text: str) -> bool:
    """True when text is a well-formed floor, room or object code."""
    return bool(CODE_RE.fullmatch(text))


def kind_of(code: str) -> Kind:
    """The kind of thing a code names; raises UsageError for malformed codes."""
    if not is_code(code):
        raise UsageError(f"'{code}' is not a scene code (expected F, F-R or F-R-O, e.g. 0-7-12)")
    return _KINDS[code.count("-") + 1]


def parent_of(code: str) -> str | None:
    """The code one level up ("0-7-12" -> "0-7"), or None for a floor."""
    head, _, _ = code.rpartition("-")
    return head or None


def code_sort_key(code: str) -> tuple[int, ...]:
    """Numeric ordering so that 0-10 follows 0-9."""
    return tuple(int(part) for part in code.split("-"))


def _check_code(value: str) -> str:
    value = value.strip()
    if not is_code(value):
        raise ValueError(f"'{value}' is not a scene code: not a room or object code (F-R or F-R-O, e.g. 0-7 or 0-7-12)")
    return value


# A tool input field holding one code, stripped and checked (floors pass here; Scene.item refuses them).
ItemCode = Annotated[str, AfterValidator(_check_code)]
