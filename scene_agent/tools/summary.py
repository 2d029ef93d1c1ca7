"""The one-line human summary of a tool's result, in English and Chinese, as the CLI cards and the web page show it.

Each tool's result model has a `human_summary()` that returns one; the agent sends it in the `tool_call_result`
event beside the result, so that no reader has to decode a result by tool name.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from scene_agent.language.words import Lang
from scene_agent.model import Model

MAX_CODES_SHOWN = 8

Tone = Literal["done", "timeout", "nothing"]


class Summary(Model):
    """What a finished call came to, in one line per language; `tone` picks the icon (✅ done, ⏰ timeout, ✖ nothing)."""

    en: str
    zh: str
    tone: Tone = Field(default="done", description="done: it worked; timeout: nobody answered in time; "
                                                   "nothing: it ended without a result (a cancelled pick or question).")

    def text(self, lang: Lang) -> str:
        """The line in `lang`."""
        return self.zh if lang == "zh" else self.en


def codes_shown(codes: list[str]) -> str:
    """'0-3-2, 0-3-3' — at most MAX_CODES_SHOWN of them, then how many in all."""
    shown = ", ".join(codes[:MAX_CODES_SHOWN])
    return shown + (f", … ({len(codes)} in all)" if len(codes) > MAX_CODES_SHOWN else "")


def codes_shown_zh(codes: list[str]) -> str:
    """The same list, said in Chinese."""
    shown = ", ".join(codes[:MAX_CODES_SHOWN])
    return shown + (f", …（共 {len(codes)} 个）" if len(codes) > MAX_CODES_SHOWN else "")
