"""Importers that turn real scans into scene directories (manifest + point files): ScanNet scans, HOV-SG graphs, and
labelled point clouds (PLY with instance / label fields, LAS and LAZ)."""

from scene_agent.importers.hovsg import import_hovsg
from scene_agent.importers.labelled_ply import import_labelled_ply
from scene_agent.importers.las import import_las
from scene_agent.importers.scannet import import_scannet

__all__ = ["import_hovsg", "import_labelled_ply", "import_las", "import_scannet"]
