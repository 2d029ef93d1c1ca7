"""Every malformed body is a 4xx, never a 500: generated JSON (hypothesis) and raw bytes sent to every endpoint that
takes a JSON body, on a real server on loopback; a body nested deeper than the limit is refused before parsing,
naming the limit. Bounded and derandomized, so a run is the same on every machine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from http_client import call
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from api_server.request_body import MAX_DEPTH
from api_server.serve import BackgroundServer

EXAMPLES_PER_ENDPOINT = 40
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=25)
# Bodies shaped like ours, with fields of any type: what a confused client sends.
FIELDS = st.sampled_from(["session_id", "selections", "itemCode", "seconds", "message", "question", "answers",
                          "camera", "lang", "run_id", "codes", "id"])
SHAPED = st.dictionaries(FIELDS, JSON_VALUES, max_size=4)


def json_endpoints(server: BackgroundServer) -> list[str]:
    """Every POST of the server's OpenAPI document whose body is JSON, path parameters filled in."""
    document = call("GET", f"{server.url}/api/openapi.json").json()
    paths = []
    for path, operations in document["paths"].items():
        body = operations.get("post", {}).get("requestBody", {})
        if "application/json" in body.get("content", {}):
            paths.append(path.replace("{", "").replace("}", ""))  # /api/chat/{run_id}/answers → an unknown run
    return paths


def _checked(server: BackgroundServer, path: str, raw: bytes) -> None:
    reply = call("POST", f"{server.url}{path}", raw=raw, headers={"Content-Type": "application/json"})
    assert reply.status < 500, (path, raw[:200], reply.status, reply.body[:300])
    if reply.status >= 400:
        assert reply.json()["message"]  # a clear error, in our shape


def test_every_json_endpoint_answers_generated_bodies_with_a_4xx_never_a_500(server: BackgroundServer) -> None:
    endpoints = json_endpoints(server)
    assert len(endpoints) >= 5, endpoints

    @given(path=st.sampled_from(endpoints), body=JSON_VALUES | SHAPED | st.binary(max_size=64))
    @settings(max_examples=EXAMPLES_PER_ENDPOINT * len(endpoints), deadline=None, derandomize=True, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    def check(path: str, body: Any) -> None:
        _checked(server, path, body if isinstance(body, bytes) else json.dumps(body).encode())

    check()


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1_000, 10_000])
def test_a_body_nested_past_the_limit_is_refused_naming_it(server: BackgroundServer, depth: int) -> None:
    for path in json_endpoints(server):
        for nested in (b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth):
            reply = call("POST", f"{server.url}{path}", raw=nested, headers={"Content-Type": "application/json"})
            assert reply.status == 400, (path, reply.status, reply.body[:300])
            assert f"more than {MAX_DEPTH} levels deep" in reply.json()["message"]


def test_brackets_inside_strings_do_not_count_as_nesting(server: BackgroundServer) -> None:
    reply = call("POST", f"{server.url}/api/submit-selection",
                 {"session_id": "[" * 100 + "{" * 100, "selections": [{"itemCode": "0-1-1"}]})
    assert reply.status == 400 and "levels deep" not in reply.json()["message"]  # refused for the session id itself
