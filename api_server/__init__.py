"""The HTTP API server (Flask on waitress): selection hand-off, scenes and views, the chat, the built viewer.

`app.create_app` builds the application; `serve` runs it.
"""
