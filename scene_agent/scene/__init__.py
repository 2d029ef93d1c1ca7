"""The scene model: codes, the manifest, point files, the index over them, the cached attributes, and
the loaded `Scene` that ties them together (`loader`); `writer` writes a scene directory whole."""
