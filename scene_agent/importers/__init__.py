"""Importers that turn real scans into scene directories (manifest + point files)."""

from scene_agent.importers.hovsg import import_hovsg
from scene_agent.importers.scannet import import_scannet

IMPORTERS = {"scannet": import_scannet, "hovsg": import_hovsg}

__all__ = ["IMPORTERS", "import_hovsg", "import_scannet"]
