"""`bench tools`: CLR and VOL at several cloud sizes, each beside its baselines, in one run."""

from __future__ import annotations

from scene_bench.tool_rows import ToolRow

DEFAULT_SIZES = (100_000, 1_000_000, 5_000_000)


def bench_tools(sizes: tuple[int, ...] = DEFAULT_SIZES, repeats: int = 5) -> list[ToolRow]:
    """Colour rows (ours, mean colour, k-means on all points), then volume rows (ours, Open3D's bare hull)."""
    from scene_bench.tools_color import bench_color  # each pulls in its own heavy libraries
    from scene_bench.tools_volume import bench_volume

    return [*bench_color(sizes=sizes, repeats=repeats), *bench_volume(sizes=sizes, repeats=repeats)]
