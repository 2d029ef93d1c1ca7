"""The HTTP API server (Flask): health today; selection hand-off, viewer and chat build on it."""

from api_server.app import create_app

__all__ = ["create_app"]
