"""Geometry on point arrays for the volume tool: noise-corrected convex hulls, boxes, room footprints."""
