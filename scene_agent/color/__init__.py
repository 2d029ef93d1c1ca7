"""Colour: sRGB ↔ CIELAB and colour names by CIEDE2000 (`science`), dominant colours of a point cloud (`clusters`)."""
