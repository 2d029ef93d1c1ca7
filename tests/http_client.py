"""A tiny HTTP client for tests: real requests over loopback, answers (status, headers, body) without raising."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any


@dataclass
class Reply:
    """What came back."""

    status: int
    headers: Any
    body: bytes

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body)


def call(method: str, url: str, body: Any = None, *, raw: bytes | None = None, headers: dict[str, str] | None = None,
         timeout: float = 30) -> Reply:
    """Send one request; `body` is sent as JSON, `raw` as is."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    all_headers = {"Content-Type": "application/json"} if body is not None else {}
    all_headers |= headers or {}
    request = urllib.request.Request(url, data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Reply(response.status, response.headers, response.read())
    except urllib.error.HTTPError as exc:
        return Reply(exc.code, exc.headers, exc.read())
