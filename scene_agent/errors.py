"""One error hierarchy for every expected failure; callers turn these into messages or JSON."""

from __future__ import annotations


class SceneAgentError(Exception):
    """Base of every error the product expects and reports without a traceback."""

    code = "scene_agent_error"
    exit_status = 1

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class ManifestError(SceneAgentError):
    """A scene manifest is missing, not JSON, or does not match the schema."""

    code = "invalid_manifest"


class PointFileError(SceneAgentError):
    """A point file referenced by a manifest is missing or unreadable."""

    code = "invalid_point_file"


class NotFoundError(SceneAgentError):
    """A code or description matched nothing in the scene."""

    code = "not_found"


class ScanImportError(SceneAgentError):
    """An importer was given missing, inconsistent or corrupt input."""

    code = "import_failed"


class UsageError(SceneAgentError):
    """The caller asked for something malformed (empty query, bad code syntax)."""

    code = "bad_usage"
    exit_status = 2
