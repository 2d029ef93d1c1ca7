"""One importer run in a process of its own, so that `bench import` can read that process's peak memory (resident
set, as the kernel counts it: numpy's, plyfile's and lazrs' allocations alike).

`python -m scene_bench.import_child KIND OUT [INPUT [LABELS]]` prints one JSON line: {"seconds", "rooms", "objects",
"points"}. Every importer and its libraries are imported before the clock starts, so the row times the import alone;
KIND `imports` stops there (the floor under every row's memory). The scene's tiles are not built: they cost the same
whichever importer wrote the points.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

KINDS = ("imports", "scannet", "hovsg", "labelled-ply", "labelled-ply-labels", "las", "laz")


def run(kind: str, out: Path, inputs: list[Path]) -> dict[str, float]:
    """Import with the importer `kind`; its time and what it wrote."""
    import laspy  # noqa: F401 - loaded before the clock, as the PLY importers' libraries are
    import scipy.sparse.csgraph  # noqa: F401

    from scene_agent.importers.hovsg import import_hovsg
    from scene_agent.importers.labelled_ply import import_labelled_ply
    from scene_agent.importers.las import import_las
    from scene_agent.importers.scannet import import_scannet
    from scene_agent.scene.manifest import load_manifest

    if kind == "imports":
        return {"seconds": 0.0, "rooms": 0, "objects": 0, "points": 0}
    start = time.perf_counter()
    if kind == "scannet":
        path = import_scannet([inputs[0]], out)
    elif kind == "hovsg":
        path = import_hovsg(inputs[0], out)
    elif kind in ("labelled-ply", "labelled-ply-labels"):
        path, _ = import_labelled_ply(inputs[0], out, inputs[1])
    else:
        path, _ = import_las(inputs[0], out, inputs[1])
    seconds = time.perf_counter() - start
    manifest = load_manifest(path)
    return {"seconds": seconds, "rooms": len(manifest.rooms()), "objects": len(manifest.objects()),
            "points": manifest.point_total()}


def main(argv: list[str]) -> int:
    """Run one import as the arguments say and print its figures."""
    if len(argv) < 2 or argv[0] not in KINDS:
        print(f"usage: python -m scene_bench.import_child {{{','.join(KINDS)}}} OUT [INPUT [LABELS]]", file=sys.stderr)
        return 2
    print(json.dumps(run(argv[0], Path(argv[1]), [Path(a) for a in argv[2:]])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
