"""The tools the agent can call, one line each, in the order a model is offered them.

Each tool module declares its `TOOL` (tools/tool.py); `register` offers it to the agent's toolbox, the run events
(agent/events.py builds a typed `tool_call_result` per tool from this list), the CLI cards, the web page and the
MCP server. See "Adding a tool" in docs/architecture.md.
"""

from __future__ import annotations

from scene_agent.tools import color, find, measure, question, visualize, volume
from scene_agent.tools.tool import Tool

TOOLS: dict[str, Tool] = {}


def register(tool: Tool) -> Tool:
    """Offer `tool` from now on (after the ones registered before it); ValueError when its name is taken."""
    if tool.name in TOOLS:
        raise ValueError(f"there is a tool '{tool.name}' already")
    TOOLS[tool.name] = tool
    return tool


def unregister(name: str) -> None:
    """Stop offering the tool `name` (a test's own tool, once the test is over)."""
    TOOLS.pop(name, None)


def tool_named(name: str) -> Tool | None:
    """The tool with this name or CLI alias (any case), or None."""
    key = name.strip().lower()
    return TOOLS.get(key) or next((t for t in TOOLS.values() if key in t.aliases), None)


register(find.TOOL)
register(visualize.TOOL)
register(color.TOOL)
register(volume.TOOL)
register(measure.TOOL)
register(question.TOOL)
