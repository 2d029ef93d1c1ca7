"""`bench tools`: CLR and VOL at several cloud sizes, each beside its baselines, in one run."""

from __future__ import annotations

from scene_agent.bench.tool_rows import ToolRow

DEFAULT_SIZES = (100_000, 1_000_000, 5_000_000)


def bench_tools(sizes: tuple[int, ...] = DEFAULT_SIZES, repeats: int = 5) -> list[ToolRow]:
    """Colour rows (ours, mean colour, k-means on all points), then volume rows (ours, Open3D's bare hull)."""
    from scene_agent.bench.tools_color import bench_color  # noqa: PLC0415 - each pulls in its own heavy libraries
    from scene_agent.bench.tools_volume import bench_volume  # noqa: PLC0415

    return [*bench_color(sizes=sizes, repeats=repeats), *bench_volume(sizes=sizes, repeats=repeats)]
