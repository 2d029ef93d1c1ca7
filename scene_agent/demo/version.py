"""Which demo scene a directory holds: its scene id (and name) and the version of the generator that built it.

Apart from the generator (build.py) so that opening an already-built demo imports none of it.
"""

from __future__ import annotations

SCENE_ID = "demo"
SCENE_NAME = "Demo home"

# Version of what the generator builds. Bump it with every change to the demo's contents
# (layout, parts, colours, sampling) so that an already-built demo scene is rebuilt: the build
# writes it to VERSION_FILE beside scene.json, and demo/place.py (ensure_demo_scene) compares the two.
DEMO_VERSION = 5
VERSION_FILE = ".demo-version"
