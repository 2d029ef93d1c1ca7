"""How long a pick may be waited for: the figures commands show in --help, apart from the session model (pydantic),
so that showing them imports nothing heavy."""

from __future__ import annotations

DEFAULT_TIMEOUT_S = 60.0
MAX_TIMEOUT_S = 3600.0
