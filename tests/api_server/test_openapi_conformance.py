"""The server keeps its own OpenAPI document: schemathesis sends generated requests, valid and invalid, to a real
server on loopback and checks every answer against the document (status codes, content types, bodies, SSE events),
and that no request makes it fail (no 5xx). Bounded and derandomized, so a run is the same on every machine."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings

from api_server.serve import BackgroundServer

EXAMPLES_PER_OPERATION = 25


def test_every_operation_answers_as_documented(server: BackgroundServer) -> None:
    schema = schemathesis.openapi.from_url(f"{server.url}/api/openapi.json")
    failed: dict[str, str] = {}
    tested = 0
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, derandomize=True, database=None,
                  phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
        def check(case: schemathesis.Case) -> None:
            case.call_and_validate()

        try:
            check()
        except Exception as exc:  # noqa: BLE001 - every operation's failure is reported, not only the first
            failed[operation.label] = str(exc)[:2000]
        tested += 1
    assert tested >= 15
    assert failed == {}, "\n\n".join(f"{label}:\n{text}" for label, text in failed.items())
