"""One error hierarchy for every expected failure; callers turn these into messages or JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


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


class SessionNotFoundError(NotFoundError):
    """No selection session with this id (never created, or cleaned up long after it expired)."""

    code = "session_not_found"


class SessionAnsweredError(SceneAgentError):
    """The selection session already has its answer (confirmed, cancelled, or closed by the agent)."""

    code = "already_answered"


class SessionExpiredError(SceneAgentError):
    """The selection session's time ran out before an answer arrived."""

    code = "session_expired"


class InvalidSelectionError(SceneAgentError):
    """The picks do not fit the session: not among the candidates, or several where one is allowed."""

    code = "invalid_selection"


class NobodyWaitingError(SceneAgentError):
    """Nobody waits for the session's answer any more (the program that asked has stopped); nothing was written."""

    code = "nobody_waiting"


class SelectionNotDeliveredError(SceneAgentError):
    """The answer could not be put where the waiting program reads it; nothing was recorded, so a retry may succeed."""

    code = "selection_not_delivered"


class SelectionRecoveringError(SceneAgentError):
    """The selection broker may just have been away (restarted, stalled, unreachable): the session or its waiter may
    only not be back yet. Nothing was written; a retry in a moment is answered for real."""

    code = "selection_recovering"


class BrokerUnavailableError(SceneAgentError):
    """The selection broker (Redis, SCENE_AGENT_BROKER) cannot be reached, or did not answer in time; the message names
    it, and says when what was asked may have been done all the same (a reply that timed out)."""

    code = "broker_unavailable"


class ConflictError(SceneAgentError):
    """The request fits, but not now: the thing already ended, or is busy with something else."""

    code = "conflict"


class UnprocessableError(SceneAgentError):
    """Well-formed, but it does not fit what it answers (an option that does not exist, a missing answer)."""

    code = "unprocessable"


class BusyError(SceneAgentError):
    """The server has no room for more of this right now; try again later."""

    code = "busy"

def usage_error(exc: ValidationError) -> UsageError:
    """A pydantic ValidationError as one UsageError naming each bad field: 'selections.0.itemCode: Field required'."""
    parts = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"])
        message = str(err["ctx"]["error"]) if err.get("ctx", {}).get("error") else err["msg"]
        parts.append(f"{where}: {message}" if where else message)
    return UsageError("; ".join(parts))
