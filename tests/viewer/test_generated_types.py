"""The web page's API and event types come from the server's OpenAPI document, so a model change breaks its build.

Each test copies the page's sources into tmp_path, generates src/generated/api.ts from a document with
openapi-typescript (the page's own devDependency) and names.ts with api_server/openapi_dump.py, and type-checks the
copy with tsc, as `npm run build` does.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from api_server.openapi_dump import names_module, openapi_document, write_document
from scene_agent.selection.session import SESSION_ID_RE, selection_view
from scene_agent.selection.views import VIEW_NAME_RE

VIEWER = Path(__file__).resolve().parents[2] / "viewer"
BIN = VIEWER / "node_modules" / ".bin"
TOOL_TIMEOUT_S = 180


@pytest.fixture
def page_copy(tmp_path: Path) -> Path:
    """The page's sources, tsconfig and installed packages, without anything generated."""
    assert (BIN / "tsc").is_file(), "install the page's packages: make viewer"
    copy = tmp_path / "viewer"
    copy.mkdir()
    shutil.copytree(VIEWER / "src", copy / "src", ignore=shutil.ignore_patterns("generated"))
    shutil.copy(VIEWER / "tsconfig.json", copy / "tsconfig.json")
    (copy / "node_modules").symlink_to(VIEWER / "node_modules")
    return copy


def typecheck(copy: Path, document: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """Generate the page's types and names from `document` (as `npm run types` does), then run tsc on the copy."""
    spec = copy / "src" / "generated" / "openapi.json"
    spec.parent.mkdir()
    spec.write_text(json.dumps(document), encoding="utf-8")
    spec.with_name("names.ts").write_text(names_module(document), encoding="utf-8")
    generate = subprocess.run([BIN / "openapi-typescript", spec, "--default-non-nullable", "false", "-o", spec.with_name("api.ts")],
                              cwd=copy, capture_output=True, text=True, timeout=TOOL_TIMEOUT_S, check=False)
    assert generate.returncode == 0, generate.stderr
    return subprocess.run([BIN / "tsc", "--noEmit", "-p", copy / "tsconfig.json"], cwd=copy, capture_output=True, text=True,
                          timeout=TOOL_TIMEOUT_S, check=False)


def test_the_page_type_checks_against_the_servers_document(page_copy: Path) -> None:
    checked = typecheck(page_copy, openapi_document())
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_renamed_field_of_a_tool_result_fails_the_pages_build(page_copy: Path) -> None:
    document = openapi_document()
    cluster = document["components"]["schemas"]["ColorCluster"]
    cluster["properties"]["hex_code"] = cluster["properties"].pop("hex")
    cluster["required"] = ["hex_code" if name == "hex" else name for name in cluster["required"]]
    checked = typecheck(page_copy, document)
    assert checked.returncode != 0
    assert "swatches.ts" in checked.stdout and "'hex'" in checked.stdout, checked.stdout


def test_an_event_that_lost_a_field_fails_the_pages_build(page_copy: Path) -> None:
    document = openapi_document()
    required = document["components"]["schemas"]["SelectionRequired"]
    del required["properties"]["viewer_url"]
    required["required"].remove("viewer_url")
    checked = typecheck(page_copy, document)
    assert checked.returncode != 0
    assert "viewer_url" in checked.stdout, checked.stdout


def test_the_dump_writes_the_document_once_and_leaves_an_unchanged_file_alone(tmp_path: Path) -> None:
    out = tmp_path / "deeper" / "openapi.json"
    assert write_document(out) is True
    written = out.stat().st_mtime_ns
    assert json.loads(out.read_text(encoding="utf-8")) == openapi_document()
    assert write_document(out) is False and out.stat().st_mtime_ns == written


def test_the_pages_names_are_the_servers(tmp_path: Path) -> None:
    text = names_module(openapi_document())
    assert f"SESSION_ID = /{SESSION_ID_RE.pattern}/;" in text and f"VIEW_NAME = /{VIEW_NAME_RE.pattern}/;" in text
    prefix = selection_view("{id}").split("{id}")[0]
    assert f'=> "{prefix}" + sessionId + "";' in text  # the selection's own view, named as the server names it
    out = tmp_path / "generated" / "openapi.json"
    write_document(out)
    assert (out.parent / "names.ts").read_text(encoding="utf-8") == text
