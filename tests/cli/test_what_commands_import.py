"""Each one-shot command imports only what it uses: the real command in a subprocess, its modules listed at exit.

`--help` needs neither numpy nor pydantic; no command that reads our point files loads Open3D (they are read
with plyfile); colour-science (a test reference only), Flask, the OpenAI client and the MCP SDK load only in the
commands that use them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_proc import agent_env

# Runs the console entry point as `scene-agent ARGS` does, then writes the names of the modules loaded to a file.
PROBE = """
import atexit, json, sys
out, args = sys.argv[1], sys.argv[2:]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["scene-agent", *args]
from scene_agent.cli.main import main
main()
"""

NEVER = ("open3d", "colour", "flask", "waitress", "openai", "mcp", "redis", "webview")


def imported(tmp_path: Path, *args: str) -> set[str]:
    """The top-level packages loaded while `scene-agent ARGS` ran (it must succeed)."""
    listing = tmp_path / "modules.json"
    env = {**os.environ, **agent_env(tmp_path)}
    done = subprocess.run([sys.executable, "-c", PROBE, str(listing), *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return {name.split(".")[0] for name in json.loads(listing.read_text())}


def test_help_imports_no_numpy_no_pydantic_nothing_of_the_scene(tmp_path: Path) -> None:
    loaded = imported(tmp_path, "--help")
    assert loaded.isdisjoint({"numpy", "pydantic", "scipy", "plyfile", "shapely", *NEVER}), loaded & {"numpy", "pydantic"}
    loaded_sub = imported(tmp_path, "vol", "--help")
    assert "numpy" not in loaded_sub and "scipy" not in loaded_sub


def test_clr_reads_points_without_open3d_and_names_colours_without_colour_science(small_scene_path: Path,
                                                                                   tmp_path: Path) -> None:
    loaded = imported(tmp_path, "clr", "0-1-1", "--scene", str(small_scene_path), "--json")
    assert {"numpy", "plyfile", "webcolors"} <= loaded
    assert loaded.isdisjoint({"scipy", "shapely", *NEVER}), loaded & {"scipy", "shapely", *NEVER}


# Measuring an object hulls with manifold3d and finds neighbours with pykdtree; scipy (a quarter of a second to import)
# is left to rooms' floor areas (docs/volume.md).
@pytest.mark.parametrize(("args", "uses", "spared"), [
    (("vol", "0-1-1"), {"manifold3d", "pykdtree"}, {"scipy", "shapely"}),
    (("find", "chair"), {"numpy"}, {"scipy", "shapely"}),
    (("find", "the chair next to the table"), {"shapely"}, {"scipy"}),  # a place word: footprints as polygons
    (("ask", "how big is the sofa?", "--no-questions"), {"manifold3d", "pykdtree"}, {"scipy", "shapely"}),
])
def test_other_commands_load_what_they_use_and_nothing_heavy_besides(small_scene_path: Path, tmp_path: Path,
                                                                      args: tuple[str, ...], uses: set[str],
                                                                      spared: set[str]) -> None:
    loaded = imported(tmp_path, *args, "--scene", str(small_scene_path))
    assert uses <= loaded
    assert loaded.isdisjoint({*spared, *NEVER}), loaded & {*spared, *NEVER}
