"""The deterministic demo scene: a two-floor home sampled as coloured point clouds."""

from scene_agent.demo.build import build_demo_scene

__all__ = ["build_demo_scene"]
