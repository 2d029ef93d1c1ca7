"""Level-of-detail tiles of a scene's points: an octree built once per scene and cached beside the manifest.

layout.py: the node names, cubes and the binary tile form; source.py: the scene's point files read one at a time
with their item ids; build.py: the octree builder; store.py: the cache directory (index.json, staleness, atomic
placement); current.py: the build a server serves, kept in memory. The format is described in docs/scene-format.md.
"""
