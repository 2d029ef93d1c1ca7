"""The `scene-agent` command: one Typer app assembled from the command modules."""

from __future__ import annotations

import importlib
import os
import signal
import sys
from types import FrameType

# pydantic looks for third-party plugins (every installed package's entry points) when it builds its first model:
# ~11 ms of every command's start, for instrumentation nobody asked this CLI for. PYDANTIC_DISABLE_PLUGINS= (empty)
# in the environment brings them back.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

import typer

from scene_agent.cli.common import handled

# Every command: its module, the object there, and whether it is a group of subcommands. A run imports the module of
# the command it runs and no other (all of them for the top-level --help, or a name that is not a command).
COMMANDS: dict[str, tuple[str, str, bool]] = {
    "scene": ("scene_agent.cli.scene_cmds", "scene_app", True),
    "import": ("scene_agent.cli.import_cmds", "import_app", True),
    "bench": ("scene_agent.cli.bench_cmds", "bench_app", True),
    "find": ("scene_agent.cli.scene_cmds", "find_command", False),
    "demo-scene": ("scene_agent.cli.scene_cmds", "demo_scene_command", False),
    "vis": ("scene_agent.cli.vis_cmds", "vis_command", False),
    "clr": ("scene_agent.cli.color_cmds", "clr_command", False),
    "vol": ("scene_agent.cli.volume_cmds", "vol_command", False),
    "measure": ("scene_agent.cli.measure_cmds", "measure_command", False),
    "serve": ("scene_agent.cli.serve_cmds", "serve_command", False),
    "ask": ("scene_agent.cli.ask_cmds", "ask_command", False),
    "chat": ("scene_agent.cli.ask_cmds", "chat_command", False),
    "doctor": ("scene_agent.cli.doctor_cmds", "doctor_command", False),
    "mcp": ("scene_agent.cli.mcp_cmds", "mcp_command", False),
}


def build_app(only: str | None = None) -> typer.Typer:
    """The Typer app with every command, or with the one named `only`."""
    app = typer.Typer(
        help="Ask questions about scanned 3D buildings.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback()(_root)  # a group even with one command: the command's name stays the first argument
    for name, (module, attribute, group) in COMMANDS.items():
        if only is not None and name != only:
            continue
        target = getattr(importlib.import_module(module), attribute)
        if group:
            app.add_typer(target, name=name)
        else:
            app.command(name)(handled(target))
    return app


def _root() -> None:
    """Ask questions about scanned 3D buildings."""


def _as_ctrl_c(signum: int, frame: FrameType | None) -> None:
    """SIGTERM and SIGHUP do what Ctrl-C does (a selection being waited for is closed as cancelled, so it takes no
    more picks); a second one of the same kind ends the process at once."""
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signal.SIGINT)


def main() -> None:
    """Console-script entry point."""
    for signum in (signal.SIGTERM, signal.SIGHUP):  # `serve` installs its own for SIGTERM: it shuts down cleanly
        signal.signal(signum, _as_ctrl_c)
    name = sys.argv[1] if len(sys.argv) > 1 else None
    build_app(name if name in COMMANDS else None)()
