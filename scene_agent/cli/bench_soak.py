"""`scene-agent bench soak`: its options and its table (the run itself is scene_bench/soak.py)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from scene_agent.cli.common import JsonOption, handled
from scene_agent.cli.output import console, print_json


class SoakBroker(StrEnum):
    """Where `bench soak`'s picks travel."""

    files = "files"
    sentinel = "sentinel"


@handled
def soak(
    minutes: Annotated[float, typer.Option("--minutes", min=0.05, max=120, help="How long to run.")] = 1.0,
    agents: Annotated[int, typer.Option("--agents", min=1, max=64, help="Agents waiting at once.")] = 16,
    restart_every: Annotated[float, typer.Option("--restart-every", min=1, help="Seconds between server restarts.")] = 10.0,
    broker: Annotated[SoakBroker, typer.Option("--broker", help="files: this machine's directories; sentinel: a Redis primary, "
                                                         "a replica and three Sentinels started by the bench, the "
                                                         "primary killed (kill -9) every other time instead of the "
                                                         "server.")] = SoakBroker.files,
    json_output: JsonOption = False,
) -> None:
    """Sessions picked, cancelled, stopped and timed out at random while the server restarts (SIGTERM, SIGKILL), or
    the Redis primary is killed: delivered / lost / duplicated / cross-delivered answers, and false refusals."""
    from scene_bench.soak import bench_soak

    report = bench_soak(minutes=minutes, agents=agents, restart_every_s=restart_every, broker=broker.value)
    if json_output:
        print_json(report.as_json())
        return
    what = ("the server restarted (SIGTERM, SIGKILL) and the Redis primary killed, in turn" if broker == "sentinel"
            else "the server restarted, every other time by SIGKILL")
    table = Table(title=f"bench soak ({minutes:g} min, {agents} agents, every {restart_every:g} s {what})",
                  title_justify="left")
    table.add_column("what", justify="left")
    table.add_column("count", justify="right")
    for name in ("sessions", "picked", "cancelled", "timed_out", "stopped", "delivered", "lost", "duplicated",
                 "cross_delivered", "server_restarts", "killed", "failovers", "retries", "refused", "false_refusals"):
        table.add_row(name.replace("_", " "), f"{getattr(report, name):,}")
    console.print(table)
    for example in report.examples:
        console.print(f"  {example}")
