"""The HTTP API server (Flask on waitress): selection hand-off, scenes and views, the built viewer."""

from api_server.app import create_app

__all__ = ["create_app"]
