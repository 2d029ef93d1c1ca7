"""`count`, a tool the product does not have, written here as a tool module is: its input model, its result model
with `human_summary()`, the function that runs it and its `TOOL` declaration. `registered()` offers it through
the registry's one public call and takes it away again, so that the agent, the events, the CLI cards, the web
page and the MCP server can be shown to pick it up with no edit anywhere else.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pydantic import Field

from scene_agent.model import Model
from scene_agent.tools.context import ToolContext
from scene_agent.tools.registry import register, unregister
from scene_agent.tools.summary import Summary, codes_shown
from scene_agent.tools.tool import Tool


class CountInput(Model):
    """Count the objects of the scene that have a label."""

    label: str = Field(min_length=1, max_length=80, description="The label, as find returns it: 'chair', 'bed'.")
    room: str | None = Field(default=None, description="Only in this room (its code, e.g. '0-1').")


class CountResult(Model):
    """How many objects have the label, and which."""

    label: str
    count: int
    codes: list[str]

    def human_summary(self) -> Summary:
        """'4 × chair: 0-1-1, …' / '0 × unicorn'."""
        codes = f": {codes_shown(self.codes)}" if self.codes else ""
        return Summary(en=f"{self.count} × {self.label}{codes}", zh=f"{self.count} 个 {self.label}{codes}",
                       tone="done" if self.count else "nothing")


def count(ctx: ToolContext, args: CountInput) -> CountResult:
    """The objects labelled `args.label` (in `args.room`, when given), in code order."""
    codes = [code for code, entry in ctx.scene.index.objects.items()
             if entry.label == args.label.strip().lower() and args.room in (None, entry.obj.code.rsplit("-", 1)[0])]
    return CountResult(label=args.label, count=len(codes), codes=codes)


TOOL = Tool("count", CountInput, CountResult, count, returns="Returns how many there are and their codes.")


@contextmanager
def registered() -> Iterator[Tool]:
    """`count` offered everywhere while the block runs."""
    register(TOOL)
    try:
        yield TOOL
    finally:
        unregister(TOOL.name)
