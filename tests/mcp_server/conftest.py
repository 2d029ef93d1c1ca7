"""Fixtures of the MCP server tests: an environment of the test's own and a free port for the viewer's API server."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_helpers import mcp_env
from redis_server import free_port


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """`scene-agent mcp` starts the API server in its own process at this environment's viewer URL."""
    return mcp_env(tmp_path, free_port())
