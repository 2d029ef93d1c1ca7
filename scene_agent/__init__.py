"""scene-agent: ask questions about scanned 3D buildings."""

__version__ = "0.1.0"
