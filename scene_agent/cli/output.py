"""How the CLI prints: rich tables for people, one JSON document per line for programs."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

if TYPE_CHECKING:
    from pydantic import BaseModel


def print_json(payload: BaseModel | dict[str, Any]) -> None:
    """One JSON document on one line of stdout."""
    if isinstance(payload, dict):
        text = json.dumps(payload, ensure_ascii=False)
    else:
        text = payload.model_dump_json(exclude_none=True)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def print_error(code: str, message: str, as_json: bool) -> None:
    """An expected failure: JSON {"error", "message"} on stdout with --json, a red line on stderr otherwise."""
    if as_json:
        print_json({"error": code, "message": message})
    else:
        err_console.print(f"[bold red]error:[/] {escape(message)}")
