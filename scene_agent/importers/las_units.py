"""The length unit of a LAS file's coordinates, from its coordinate system records, so that a survey in feet is
imported in metres.

LAS states its coordinate system in a WKT record (LAS 1.4) or GeoTIFF keys (older files); x, y and z are in that
system's units, z in its vertical system's when it has one. Only what the file itself says is read: a bare EPSG code
without its unit written out (GeoTIFF key 3072 alone) needs a projection database, which the project does not carry,
and is taken to be in metres (docs/cli.md, "Labelled point clouds").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scene_agent.errors import ScanImportError

WKT_RECORD = 2112           # LASF_Projection: OGC coordinate system WKT
GEOKEYS_RECORD = 34735      # LASF_Projection: GeoTIFF GeoKeyDirectoryTag
PROJ_LINEAR_UNITS = 3076    # GeoTIFF ProjLinearUnitsGeoKey
VERTICAL_UNITS = 4099       # GeoTIFF VerticalUnitsGeoKey
GEOTIFF_UNITS = {9001: ("metre", 1.0), 9002: ("foot", 0.3048), 9003: ("US survey foot", 1200 / 3937)}
# A unit in WKT 1 (UNIT["US survey foot",0.304800609601219]) or WKT 2 (LENGTHUNIT[…]); never ANGLEUNIT or SCALEUNIT.
_UNIT = re.compile(r'(?<![A-Z_])(?:LENGTHUNIT|UNIT)\[\s*"([^"]*)"\s*,\s*([0-9.eE+-]+)')
_VERTICAL = re.compile(r"VERT_CS\[|VERTCRS\[|VERTICALCRS\[")
_ANGULAR = ("degree", "radian", "grad", "arc")


@dataclass(frozen=True)
class LasUnits:
    """Metres per unit of x and y, and of z, and the units' names as the file gives them."""

    horizontal: float = 1.0
    vertical: float = 1.0
    said: str = "metre"

    @property
    def metres(self) -> bool:
        """Whether the coordinates are already in metres."""
        return abs(self.horizontal - 1.0) < 1e-9 and abs(self.vertical - 1.0) < 1e-9


def _last_length_unit(wkt: str) -> tuple[str, float] | None:
    """The last unit of length in a piece of WKT (a coordinate system's own unit comes after its parameters'); an
    angular one (a system in degrees) is named by ScanImportError by the caller."""
    units = [(name, float(factor)) for name, factor in _UNIT.findall(wkt)]
    return units[-1] if units else None


def _from_wkt(wkt: str, path: Path) -> LasUnits | None:
    at = _VERTICAL.search(wkt)
    horizontal = _last_length_unit(wkt[:at.start()] if at else wkt)
    if horizontal is None:
        return None
    if any(word in horizontal[0].lower() for word in _ANGULAR):
        raise ScanImportError(f"{path}: its coordinates are longitude and latitude in {horizontal[0]}s (its WKT says so); "
                              "reproject it to a projected system in metres or feet first")
    vertical = (_last_length_unit(wkt[at.start():]) if at else None) or horizontal
    names = horizontal[0] if vertical[0] == horizontal[0] else f"{horizontal[0]}, z in {vertical[0]}"
    return LasUnits(horizontal[1], vertical[1], names)


def _from_geokeys(keys: list[Any]) -> LasUnits | None:
    values = {int(key.id): int(key.value_offset) for key in keys if int(key.tiff_tag_location) == 0}
    horizontal = GEOTIFF_UNITS.get(values.get(PROJ_LINEAR_UNITS, 0))
    if horizontal is None:
        return None
    vertical = GEOTIFF_UNITS.get(values.get(VERTICAL_UNITS, 0)) or horizontal
    names = horizontal[0] if vertical[0] == horizontal[0] else f"{horizontal[0]}, z in {vertical[0]}"
    return LasUnits(horizontal[1], vertical[1], names)


def las_units(vlrs: list[Any], path: Path) -> LasUnits:
    """The units the file's coordinate system records state (its WKT first, then its GeoTIFF keys); metres when they
    state none."""
    for vlr in vlrs:
        if getattr(vlr, "record_id", None) == WKT_RECORD and (wkt := getattr(vlr, "string", "")):
            found = _from_wkt(wkt if isinstance(wkt, str) else wkt.decode("utf-8", "replace"), path)
            if found is not None:
                return found
    for vlr in vlrs:
        if getattr(vlr, "record_id", None) == GEOKEYS_RECORD and (found := _from_geokeys(getattr(vlr, "geo_keys", []))):
            return found
    return LasUnits()
