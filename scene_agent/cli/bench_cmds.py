"""`bench …`: benchmarks that print a table, or one JSON line with --json."""

from __future__ import annotations

from dataclasses import asdict
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from scene_agent.cli.bench_grounding import grounding
from scene_agent.cli.bench_import import import_bench
from scene_agent.cli.bench_soak import soak
from scene_agent.cli.common import JsonOption, SceneOption, handled
from scene_agent.cli.output import console, err_console, print_json


class ViewerLod(StrEnum):
    """How `bench viewer --lod` has the viewer draw every view."""

    items = "items"
    tiles = "tiles"


bench_app = typer.Typer(help="Benchmarks: each prints a table, or one JSON line with --json.", no_args_is_help=True)


def _manifest(scene: Path | None) -> Path:
    """--scene's manifest, or the demo's (built on first use)."""
    from scene_agent.demo.place import ensure_demo_scene
    from scene_agent.scene.manifest import resolve_manifest_path

    return resolve_manifest_path(scene) if scene else ensure_demo_scene()


def _existing_manifest(path: Path, option: str) -> Path:
    """path's manifest; a UsageError naming the option when there is none (before a long benchmark starts)."""
    from scene_agent.errors import UsageError
    from scene_agent.scene.manifest import resolve_manifest_path

    manifest = resolve_manifest_path(path)
    if not manifest.is_file():
        raise UsageError(f"{option} {path}: no scene manifest there (give a scene.json or the directory holding one)")
    return manifest


@bench_app.command("scene")
@handled
def scene(
    scene: SceneOption = None,
    objects: Annotated[int, typer.Option("--objects", min=1, help="Size of the generated comparison scene.")] = 2000,
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Timed runs per step.")] = 20,
    json_output: JsonOption = False,
) -> None:
    """Manifest load + index build time and memory: the demo (or --scene) and a generated large scene."""
    from scene_bench.scene import bench_scene

    manifest = _manifest(scene)
    rows = bench_scene(manifest, n_objects=objects, repeats=repeats)
    if json_output:
        print_json({"results": [asdict(r) for r in rows]})
        return
    table = Table(title=f"bench scene (median of {repeats} runs; peak memory by tracemalloc)", title_justify="left")
    for col in ("scene", "objects", "step", "median ms", "p95 ms", "peak MiB"):
        table.add_column(col, justify="left" if col in ("scene", "step") else "right")
    for r in rows:
        table.add_row(r.scene, str(r.objects), r.step, f"{r.median_ms:.2f}", f"{r.p95_ms:.2f}", f"{r.peak_mb:.2f}")
    console.print(table)


@bench_app.command("handoff")
@handled
def handoff(
    n: Annotated[int, typer.Option("--n", min=1, help="Sessions answered per method.")] = 200,
    idle_seconds: Annotated[float, typer.Option("--idle-seconds", min=0.1, hidden=True,
                                                help="Wall time of each idle-CPU window (developer option).")] = 3.0,
    json_output: JsonOption = False,
) -> None:
    """Answer submitted → waiter returns, for watchdog, polling, a plain once-a-second loop and Redis (SCENE_AGENT_BROKER,
    else a redis-server of its own); idle CPU of 1,000 waiters."""
    from scene_bench.handoff import bench_handoff

    report = bench_handoff(n=n, idle_seconds=idle_seconds)
    if json_output:
        print_json(report.as_json())
        return
    by_method = {r.method: r for r in report.rows}
    ratio = by_method["legacy-1s"].p99_ms / max(by_method["watchdog"].p99_ms, 1e-3)
    caption = (f"watchdog p99 is {ratio:.0f}× better than legacy-1s. Idle CPU, {report.idle_waiters:,} "
               f"waiters over {report.idle_seconds:g} s: watchdog {report.idle_cpu_percent:.2f} % of one "
               f"core, legacy-1s {report.idle_cpu_percent_legacy:.2f} %")
    if report.idle_cpu_percent_redis is not None:
        caption += f", redis {report.idle_cpu_percent_redis:.2f} %"
        if report.idle_cpu_percent_redis_server is not None:
            caption += f" (+ {report.idle_cpu_percent_redis_server:.2f} % in redis-server)"
    if "redis" in by_method:
        caption += (f".\nRedis: {report.redis}; each pick is submitted through a second channel with its own pool and "
                    "selection directory, as by an API server on another host.")
    else:
        caption += f".\nThe redis row was {report.redis}"
    table = Table(title="bench handoff (answer submitted → waiter returns; sessions waited on concurrently)",
                  title_justify="left", caption=escape(caption), caption_justify="left")
    for col in ("method", "n", "p50 ms", "p95 ms", "p99 ms", "max ms"):
        table.add_column(col, justify="left" if col == "method" else "right")
    for r in report.rows:
        table.add_row(r.method, str(r.n), f"{r.p50_ms:.2f}", f"{r.p95_ms:.2f}", f"{r.p99_ms:.2f}", f"{r.max_ms:.2f}")
    console.print(table)


@bench_app.command("api")
@handled
def api(
    requests: Annotated[int, typer.Option("--requests", min=1, help="Requests per row (each submit answers its own "
                                                                    "session).")] = 2000,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64,
                                             help="Client threads, one keep-alive connection each.")] = 8,
    load_requests: Annotated[int, typer.Option("--load-requests", min=1,
                                               help="Requests per row under load (500 idle connections, 100 event "
                                                    "streams).")] = 200,
    json_output: JsonOption = False,
) -> None:
    """Submit-selection requests per second on loopback: waitress (the product) beside its health endpoint, the same
    submit with fsync turned off (what durability costs) and Werkzeug's development server; health and submit under
    load (idle connections, open event streams) against waitress as it was tuned before; submit and health on two
    servers sharing one Redis (SCENE_AGENT_BROKER, else a redis-server of its own)."""
    from scene_bench.api import bench_api
    from scene_bench.api_fsync import SERVER as NO_FSYNC
    from scene_bench.api_redis import SERVER as SHARED_REDIS

    report = bench_api(n=requests, concurrency=concurrency, load_n=load_requests)
    if json_output:
        print_json(report.as_json())
        for example in report.error_examples:
            err_console.print(f"[yellow]error:[/] {escape(example)}")
        return
    submit, health = report.rows[0], report.rows[1]
    dev = next(r for r in report.rows if r.server == "werkzeug-dev")
    unsynced = next(r for r in report.rows if r.server == NO_FSYNC)
    ratio = submit.req_per_s / max(dev.req_per_s, 1e-9)
    caption = (f"waitress serves submit-selection at {submit.req_per_s / max(health.req_per_s, 1e-9):.2f}× the rate of "
               f"its health endpoint and {ratio:.1f}× the rate of Werkzeug's development server; each server in its "
               "own process; every session is claimed and looked at, as the waiting agent does, before the clock "
               "starts.\n")
    if report.fsync is not None:
        caption += (f"Durability: a 200 means the pick is on the disk (appended to the outcome journal, then fdatasync, "
                    f"one for the submits that arrive together). Here an append and its fdatasync take "
                    f"{report.fsync.journal_ms:.2f} ms; flushing each outcome as a file of its own would take "
                    f"{report.fsync.file_ms:.2f} ms (fsync of a new file's data) + {report.fsync.directory_ms:.2f} ms "
                    f"(its directory) (medians of {report.fsync.samples}, one writer); {NO_FSYNC}, the same server with "
                    f"fsync turned off (developer-only, never durable), serves submit at {unsynced.req_per_s:,.0f} "
                    f"req/s against {submit.req_per_s:,.0f}.\n")
    caption += ("Under load: waitress as `serve` runs it, and as it was tuned before (waitress-before: 100 connections "
                "at most, no read-ahead, 16 threads); a request unanswered after 2 s is an error. Idle connections and "
                "event streams come from 100 per client address.\n"
                "Slow clients: connections sending a request whose headers never end, a byte a second, connecting again "
                "when cut; on waitress as `serve` runs it (a request must arrive whole within 10 s, 256 connections per "
                "address, 4,096 in all) and as it ran before (waitress-unguarded: 1,000 connections, no request timer, no "
                "cap per address).\n")
    if any(r.server == SHARED_REDIS for r in report.rows):
        caption += (f"{SHARED_REDIS}: two `serve` processes with their own directories sharing one Redis at "
                    f"{report.redis}; requests alternate between them; every session is opened and waited for (one "
                    "listener) by the bench process before the clock starts.")
    else:
        caption += f"The {SHARED_REDIS} rows were {report.redis}"
    caption += "".join(f"\nerror: {example}" for example in report.error_examples)
    table = Table(title=f"bench api ({concurrency} keep-alive client connections, loopback)",
                  title_justify="left", caption=escape(caption), caption_justify="left")
    for col in ("server", "endpoint", "load", "requests", "req/s", "p50 ms", "p99 ms", "errors"):
        table.add_column(col, justify="left" if col in ("server", "endpoint", "load") else "right", no_wrap=True)
    for r in report.rows:
        table.add_row(r.server, r.endpoint.replace("/api/", "…/"), r.load, f"{r.requests:,}", f"{r.req_per_s:,.0f}",
                      f"{r.p50_ms:.2f}", f"{r.p99_ms:.2f}", str(r.errors))
    console.print(table)


@bench_app.command("tools")
@handled
def tools(
    sizes: Annotated[str, typer.Option("--sizes", help="Cloud sizes, comma-separated.")] = "100000,1000000,5000000",
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Timed runs per row (the median is shown).")] = 5,
    json_output: JsonOption = False,
) -> None:
    """CLR and VOL at 100 k, 1 M and 5 M points, each beside its baselines (mean colour, k-means; bare hull)."""
    from scene_bench.tools import bench_tools

    try:
        counts = tuple(int(s.replace("_", "")) for s in sizes.split(","))
    except ValueError:
        raise typer.BadParameter(f"--sizes takes comma-separated point counts, got {sizes!r}") from None
    if not counts or min(counts) < 10:
        raise typer.BadParameter("--sizes: every size must be at least 10 points")
    rows = bench_tools(sizes=counts, repeats=repeats)
    if json_output:
        print_json({"results": [asdict(r) for r in rows]})
        return
    table = Table(title=f"bench tools (median of {repeats} runs; peak memory traced by tracemalloc)", title_justify="left")
    for col in ("tool", "points", "median ms", "peak MiB"):
        table.add_column(col, justify="left" if col == "tool" else "right")
    for r in rows:
        table.add_row(r.tool, f"{r.points:,}", f"{r.median_ms:.1f}", f"{r.peak_mb:.1f}")
    console.print(table)


@bench_app.command("planner")
@handled
def planner(scene: SceneOption = None, json_output: JsonOption = False) -> None:
    """The offline planner on its suites (nouns; colour, size, place and order words; Chinese; held out), beside the
    planner reading nouns only and the naive "ask whenever several match", per decision and per kind of words."""
    from scene_agent.demo.place import open_scene_or_demo
    from scene_bench.planner import PARTS, POLICIES, bench_planner

    report = bench_planner(open_scene_or_demo(scene))
    if json_output:
        print_json(report.as_json())
        return
    for part in PARTS:
        rows = [r for r in report.rows if r.part == part]
        if not rows:
            continue
        table = Table(title=f"bench planner: {part} (right decision and right candidates)", title_justify="left")
        table.add_column("decision / words")
        table.add_column("n", justify="right")
        policies = [p for p in POLICIES if any(r.policy == p for r in rows)]
        for policy in policies:
            table.add_column(policy, justify="right")
        for group in dict.fromkeys(r.group for r in rows):
            cells = [next(r for r in rows if r.policy == p and r.group == group) for p in policies]
            table.add_row(group, str(cells[0].n), *(f"{c.correct}/{c.n} ({c.percent:.0f} %)" for c in cells))
        console.print(table)
        for miss in report.misses.get(part, []):
            console.print(f"miss: {miss}")
    console.print(f"Planning took {report.mean_plan_ms:.2f} ms per query (offline rules).")


bench_app.command("grounding")(grounding)  # its options and tables: cli/bench_grounding.py


@bench_app.command("viewer")
@handled
def viewer(
    scene: SceneOption = None,
    baseline_scene: Annotated[Path | None, typer.Option(
        "--baseline-scene", help="Measure this scene first, in the same browser, and compare: ratios scene / baseline "
                                 "and the goals (first frame and orbiting frame ≤ 1.5×, GPU picks hit every click).")] = None,
    runs: Annotated[int, typer.Option("--runs", min=1, help="Page loads per view (the median is shown).")] = 3,
    clicks: Annotated[int, typer.Option("--clicks", min=1, help="Clicks per picking method.")] = 12,
    lod: Annotated[ViewerLod | None, typer.Option(
        "--lod", help="Draw every view this way (the page's ?lod=): item by item, or from level-of-detail tiles. "
                      "Default: the viewer chooses by the view's size.")] = None,
    json_output: JsonOption = False,
) -> None:
    """The web viewer in headless Chromium: time to first frame and ready per view, orbiting frame time, points drawn;
    pick latency, GPU vs Raycaster; with --baseline-scene, both scenes and their ratios."""
    from scene_agent.cli.bench_viewer_tables import print_viewer_report
    from scene_bench.viewer import bench_viewer

    manifest = _existing_manifest(scene, "--scene") if scene else _manifest(None)
    baseline = _existing_manifest(baseline_scene, "--baseline-scene") if baseline_scene else None
    report = bench_viewer(manifest, runs=runs, clicks=clicks, baseline=baseline, lod=lod.value if lod else None)
    if json_output:
        print_json(report.as_json())
        return
    print_viewer_report(report, runs)


bench_app.command("soak")(soak)  # its options and table: cli/bench_soak.py
bench_app.command("import")(import_bench)  # its options and table: cli/bench_import.py


@bench_app.command("fleet")
@handled
def fleet(
    sessions: Annotated[int, typer.Option("--sessions", min=1, help="Sessions opened, answered and received.")] = 1000,
    servers: Annotated[int, typer.Option("--servers", min=1, max=8, help="API server processes.")] = 2,
    agents: Annotated[int, typer.Option("--agents", min=1, max=16, help="Agent processes, 64 waits at a time each.")] = 4,
    seed: Annotated[int, typer.Option("--seed", help="Which server and candidate each pick goes to.")] = 0,
    pause_ms: Annotated[float, typer.Option("--pause-ms", min=0, help="Each pick waits a random 0…N ms first, as a user "
                                                                      "looks before pressing (0: as fast as it can).")] = 0,
    json_output: JsonOption = False,
) -> None:
    """Sessions over several API servers and agent processes sharing one Redis (SCENE_AGENT_BROKER, else a redis-server
    of its own), each process with its own directories: delivered / lost / duplicated / cross-delivered picks."""
    from scene_bench.fleet import SUBMITTERS, bench_fleet

    report = bench_fleet(sessions=sessions, servers=servers, agents=agents, seed=seed, pause_ms=pause_ms)
    if json_output:
        print_json(report.as_json())
        return
    pace = f"paused up to {pause_ms:g} ms each" if pause_ms else "as fast as they go"
    caption = (f"Redis: {report.redis}. Picks from {SUBMITTERS} threads, {pace}, each to a random server; about one "
               "session in ten also gets a second, different pick on another server, which must be refused (409). "
               f"Latency: the 200 read → the agent's wait returned (same monotonic clock); {report.returned_before_ack:,} "
               f"of {report.delivered:,} returned before the 200 was read (counted as 0). Run took {report.wall_s:.1f} s.")
    caption += "".join(f"\n  {example}" for example in report.examples)
    table = Table(title=f"bench fleet ({report.sessions_asked:,} sessions, {servers} API servers, {agents} agent processes, "
                        "one Redis; every process with its own directories)", title_justify="left",
                  caption=escape(caption), caption_justify="left")
    table.add_column("what", justify="left")
    table.add_column("value", justify="right")
    for name in ("sessions", "acknowledged", "delivered", "lost", "refused", "duplicated", "cross_delivered",
                 "second_picks", "second_refused_409", "agent_errors"):
        table.add_row(name.replace("_", " "), f"{getattr(report, name):,}")
    for name in ("p50_ms", "p95_ms", "p99_ms", "max_ms"):
        table.add_row(f"latency {name.replace('_ms', '')} ms", f"{getattr(report, name):.2f}")
    console.print(table)


@bench_app.command("mcp")
@handled
def mcp(
    n: Annotated[int, typer.Option("--n", min=1, help="Timed calls per MCP row, on one session (after one warm-up "
                                                      "call each).")] = 20,
    cli_n: Annotated[int, typer.Option("--cli-n", min=1, help="Timed processes per CLI row (after one warm-up "
                                                              "process each).")] = 5,
    json_output: JsonOption = False,
) -> None:
    """find and ask (the pick made at once) through `scene-agent mcp` over stdio, warm calls on one session, beside the
    same calls as fresh `scene-agent find|ask --json` processes; the MCP server's start-up time."""
    from scene_bench.mcp import bench_mcp

    report = bench_mcp(n=n, cli_n=cli_n)
    if json_output:
        print_json(report.as_json())
        return
    answer = report.asked.answer.replace("\n", " ")
    caption = (f"mcp: warm calls on one `scene-agent mcp` stdio session (MCP SDK client, protocol 2025-11-25), after "
               "one warm-up call each; ask includes the URL elicitation round trip and the pick (one POST to the API "
               "server).\ncli: a fresh `python -m scene_agent find|ask … --json` process per call, spawn to exit: "
               "interpreter start, imports, loading the scene, the call; ask has its pick POSTed as soon as "
               "selection_required appears on stdout; one warm-up process each first.\nBoth use one API server in the "
               f"bench process (no row starts a web server). MCP server start-up (spawn → initialize() done): "
               f"{report.mcp_startup_ms:.0f} ms.\nBoth paths answered {answer!r}")
    table = Table(title="bench mcp (the same calls over MCP and on the command line; the demo scene)",
                  title_justify="left", caption=escape(caption), caption_justify="left")
    for col in ("path", "call", "n", "p50 ms", "p99 ms", "mean ms"):
        table.add_column(col, justify="left" if col in ("path", "call") else "right")
    for r in report.rows:
        table.add_row(r.path, r.call, str(r.n), f"{r.p50_ms:.1f}", f"{r.p99_ms:.1f}", f"{r.mean_ms:.1f}")
    console.print(table)


@bench_app.command("startup")
@handled
def startup(
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Timed rounds (the median is shown).")] = 5,
    json_output: JsonOption = False,
) -> None:
    """One-shot commands (--help, clr, vol, find, ask) as fresh processes beside `python -c "import numpy"`, with the
    ratio each must stay under; the tool-call card of `ask` beside the same tool timed warm."""
    from scene_bench.startup import bench_startup

    report = bench_startup(repeats=repeats)
    if json_output:
        print_json(report.as_json())
        return
    caption = (f"Each run is a new process, spawn to exit, on the demo home (offline planner); rounds take turns, after one "
               f"warm-up round.\nask's {report.ask_tool} card showed {report.ask_tool_card_ms:.1f} ms; the same call in a "
               f"warm process takes {report.ask_tool_warm_ms:.1f} ms.")
    table = Table(title=f"bench startup (wall ms, median of {repeats} runs; × the baseline)", title_justify="left",
                  caption=escape(caption), caption_justify="left")
    for col in ("command", "median", "min", "max", "×", "goal", "met"):
        table.add_column(col, justify="left" if col == "command" else "right", no_wrap=col != "command")
    for r in report.rows:
        goal = "baseline" if r.goal is None else f"≤ {r.goal:g}"
        met = "" if r.met is None else ("yes" if r.met else "[red]no[/]")
        table.add_row(escape(r.command), f"{r.median_ms:.0f}", f"{r.min_ms:.0f}", f"{r.max_ms:.0f}", f"{r.ratio:.2f}", goal, met)
    console.print(table)
