"""The `scene-agent` command: one Typer app assembled from the command modules."""

from __future__ import annotations

import signal
from types import FrameType

import typer

from scene_agent.cli.ask_cmds import ask_command, chat_command
from scene_agent.cli.bench_cmds import bench_app
from scene_agent.cli.color_cmds import clr_command
from scene_agent.cli.common import handled
from scene_agent.cli.doctor_cmds import doctor_command
from scene_agent.cli.import_cmds import import_app
from scene_agent.cli.mcp_cmds import mcp_command
from scene_agent.cli.scene_cmds import demo_scene_command, find_command, scene_app
from scene_agent.cli.serve_cmds import serve_command
from scene_agent.cli.vis_cmds import vis_command
from scene_agent.cli.volume_cmds import vol_command

app = typer.Typer(
    help="Ask questions about scanned 3D buildings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(scene_app, name="scene")
app.add_typer(import_app, name="import")
app.add_typer(bench_app, name="bench")
app.command("find")(handled(find_command))
app.command("demo-scene")(handled(demo_scene_command))
app.command("vis")(handled(vis_command))
app.command("clr")(handled(clr_command))
app.command("vol")(handled(vol_command))
app.command("serve")(handled(serve_command))
app.command("ask")(handled(ask_command))
app.command("chat")(handled(chat_command))
app.command("doctor")(handled(doctor_command))
app.command("mcp")(handled(mcp_command))


def _as_ctrl_c(signum: int, frame: FrameType | None) -> None:
    """SIGTERM and SIGHUP do what Ctrl-C does (a selection being waited for is closed as cancelled, so it takes no
    more picks); a second one of the same kind ends the process at once."""
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signal.SIGINT)


def main() -> None:
    """Console-script entry point."""
    for signum in (signal.SIGTERM, signal.SIGHUP):  # `serve` installs its own for SIGTERM: it shuts down cleanly
        signal.signal(signum, _as_ctrl_c)
    app()
