"""The official MCP conformance suite (`@modelcontextprotocol/conformance`, run on the Node 22 it needs, from the
`node` package in tests/mcp_clients) against `scene-agent mcp --http`: every server scenario that applies to a server
without the suite's own test tools (those call tools named `test_*`, prompts and completions this server does not
have). A regression in any of them fails the build."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_proc import CliProcess
from mcp_helpers import mcp_env
from redis_server import free_port

CLIENTS = Path(__file__).resolve().parents[1] / "mcp_clients"
NODE = CLIENTS / "node_modules" / "node" / "bin" / "node"
SUITE = CLIENTS / "node_modules" / "@modelcontextprotocol" / "conformance"
SCENARIOS = ["server-initialize", "ping", "tools-list", "tools-call-error", "resources-list", "prompts-list",
             "server-sse-multiple-streams", "dns-rebinding-protection"]
SCENARIO_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def mcp_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One `scene-agent mcp --http` for every scenario (each opens sessions of its own)."""
    process = CliProcess("mcp", "--http", "--port", "0", "--json", env=mcp_env(tmp_path_factory.mktemp("mcp"), free_port()))
    try:
        yield str(process.json_line()["url"])
    finally:
        process.kill()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_conformance_scenario_passes(mcp_url: str, scenario: str) -> None:
    if not NODE.is_file() or not SUITE.is_dir():
        pytest.fail("the conformance suite is not installed: run `make test` (npm ci in tests/mcp_clients)")
    ran = subprocess.run([NODE, CLIENTS / "node_modules" / ".bin" / "conformance", "server", "--url", mcp_url,
                          "--scenario", scenario], capture_output=True, text=True, timeout=SCENARIO_TIMEOUT_S,
                         check=False)
    said = ran.stdout + ran.stderr
    assert ran.returncode == 0 and " 0 failed" in said, said[-3000:]
