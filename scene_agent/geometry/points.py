"""A coloured point cloud as two arrays, the value every reader, measure and colour analysis passes around."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Points:
    """A colored point cloud: xyz in meters (N×3 float) and rgb (N×3 uint8)."""

    xyz: np.ndarray
    rgb: np.ndarray

    def __post_init__(self) -> None:
        if self.xyz.ndim != 2 or self.xyz.shape[1] != 3 or self.rgb.shape != self.xyz.shape:
            raise ValueError(f"points need xyz and rgb of shape (N, 3); got {self.xyz.shape} and {self.rgb.shape}")

    def __len__(self) -> int:
        return len(self.xyz)

    def bounds(self) -> tuple[list[float], list[float]]:
        """Axis-aligned (min, max), rounded to the float32 precision the file holds."""
        if len(self) == 0:
            return [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        xyz = self.xyz.astype(np.float32)
        return [round(float(v), 4) for v in xyz.min(0)], [round(float(v), 4) for v in xyz.max(0)]
