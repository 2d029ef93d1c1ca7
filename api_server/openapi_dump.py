"""Write the OpenAPI document to a file, with no server running: `python -m api_server.openapi_dump OUT.json`.

The web page's build runs it (`npm run types` in viewer/) and generates its TypeScript types from the file.
The document depends only on the routes and their models, so the app is made for an empty scene (one floor, no
rooms) in a temporary directory: no demo scene to build, no network, nothing written outside that directory.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from api_server.app import create_app
from api_server.openapi import build_openapi
from scene_agent.config import DEFAULT_VIEWER_URL, Settings
from scene_agent.scene.manifest import MANIFEST_NAME, Floor, SceneManifest, manifest_json


def openapi_document() -> dict[str, Any]:
    """The document `GET /api/openapi.json` serves (the same for every scene)."""
    with tempfile.TemporaryDirectory(prefix="scene-agent-openapi-") as tmp:
        root = Path(tmp)
        manifest = root / MANIFEST_NAME
        manifest.write_text(manifest_json(SceneManifest(scene_id="openapi", name="OpenAPI", floors=[Floor(code="0")])),
                            encoding="utf-8")
        settings = Settings(state_dir=root / "state", selection_dir=root / "selection", viewer_url=DEFAULT_VIEWER_URL)
        return build_openapi(create_app({"SCENE_PATH": str(manifest), "SETTINGS": settings}))


def write_document(out: Path) -> bool:
    """Write the document to `out` (its directory made if missing); False when the file already held it."""
    text = json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n"
    try:
        if out.read_text(encoding="utf-8") == text:
            return False
    except OSError:
        pass
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: python -m api_server.openapi_dump OUT.json", file=sys.stderr)
        return 2
    out = Path(args[0])
    print(f"{out}: {'written' if write_document(out) else 'unchanged'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
