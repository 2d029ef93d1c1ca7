"""`Model`: the base of the project's pydantic models."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """A pydantic model whose validator and serializer are built when it is first used, not when its module loads: a
    one-shot command loads dozens of models and uses a few (`scene-agent bench startup` shows the difference)."""

    model_config = ConfigDict(defer_build=True)
