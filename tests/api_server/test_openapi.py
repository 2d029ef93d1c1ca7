"""The OpenAPI document is generated from the routes and models, and is valid OpenAPI 3.1."""

from __future__ import annotations

import json

from http_client import call
from openapi_spec_validator import validate


def test_openapi_document_is_valid_and_complete(server):
    doc = call("GET", f"{server.url}/api/openapi.json").json()
    validate(doc)
    assert doc["openapi"].startswith("3.1")
    assert set(doc["paths"]) >= {"/api/health", "/api/sessions/{session_id}", "/api/submit-selection", "/api/cancel-selection",
                                 "/api/scenes", "/api/scenes/{scene_id}", "/api/scenes/{scene_id}/points/{code}",
                                 "/api/scenes/{scene_id}/objects/{object_code}/info",
                                 "/manifests/{view}.json"}
    submit = doc["paths"]["/api/submit-selection"]["post"]
    assert set(submit["responses"]) == {"200", "400", "404", "409", "410", "413", "415", "422", "503"}
    schema = doc["components"]["schemas"]["SubmitSelection"]
    assert schema["properties"]["session_id"]["pattern"] == "^[0-9a-f]{32}$"
    assert schema["additionalProperties"] is False


def test_every_api_route_is_documented(app):
    from api_server.openapi import build_openapi

    documented = {path.replace("{", "<").replace("}", ">") for path in build_openapi(app)["paths"]}
    routes = {rule.rule for rule in app.url_map.iter_rules() if rule.rule.startswith(("/api/", "/manifests/"))}
    assert routes - documented == {"/api/openapi.json"}


def _event_schema_validator(doc):
    from jsonschema import Draft202012Validator

    # the document as the root, so that the components' "#/components/schemas/…" references resolve
    return Draft202012Validator({"$ref": "#/components/schemas/AgentEvent", "components": doc["components"]})


def test_the_agent_events_are_in_the_document_and_the_events_sent_fit_them(app):
    from api_server.openapi import build_openapi
    from scene_agent.agent.events import Final, SelectionReceived, event_json, tool_call_result
    from scene_agent.tools.question import QuestionResult
    from scene_agent.tools.volume import VolumeResult

    doc = build_openapi(app)
    validate(doc)
    schemas = doc["components"]["schemas"]
    stream = doc["paths"]["/api/runs/{run_id}/events"]["get"]["responses"]["200"]["content"]
    # one event of the stream: a message whose data is an AgentEvent as JSON, or a named event (`end`)
    message, named = stream["text/event-stream"]["schema"]["oneOf"]
    assert message["properties"]["data"] == {"type": "string", "contentMediaType": "application/json",
                                             "contentSchema": {"$ref": "#/components/schemas/AgentEvent"}}
    assert message["properties"]["event"] == {"const": "message"} and named["required"] == ["event", "data"]
    events = schemas["AgentEvent"]["discriminator"]
    assert events["propertyName"] == "type"
    assert set(events["mapping"]) == {"tool_call_start", "tool_call_result", "tool_call_error", "selection_required",
                                      "selection_extended",
                                      "selection_received", "selection_timeout", "selection_cancelled", "question",
                                      "question_answered", "message", "final"}
    assert events["mapping"]["tool_call_result"] == "#/components/schemas/ToolCallResult"
    results = schemas["ToolCallResult"]["discriminator"]
    assert results["propertyName"] == "tool_name"
    assert set(results["mapping"]) == {"find", "visualize", "color", "volume", "measure", "question"}
    for name in ("FindCallResult", "VisualizeCallResult", "ColorCallResult", "VolumeCallResult", "QuestionCallResult"):
        assert {"summary", "result", "type", "tool_name", "ts"} <= set(schemas[name]["required"])
    assert schemas["Summary"]["properties"]["tone"]["enum"] == ["done", "timeout", "nothing"]
    assert set(schemas["Summary"]["required"]) == {"en", "zh", "tone"}
    # what a reader always gets (no None): required; what may be None is left out of the event's JSON: optional
    assert set(schemas["Final"]["required"]) == {"ts", "type", "status", "answer", "codes"}

    validator = _event_schema_validator(doc)
    sent = [
        tool_call_result("call_1", "question", {"questions": []}, QuestionResult(answers=[], cancelled=True, summary=""), 2.0),
        tool_call_result("call_2", "volume", '{"code": "0-1"', VolumeResult(code="0-1", kind="room", label="kitchen",
                                                                          volume_m3=None, method="none", points_used=0), 1.5),
        SelectionReceived(tool_call_id="call_3", session_id="0" * 32, selections=[], codes=[]),
        Final(status="answered", answer="Two chairs."),
    ]
    for event in sent:
        errors = [error.message for error in validator.iter_errors(json.loads(event_json(event)))]
        assert errors == [], (event, errors)
    without_summary = json.loads(event_json(sent[0]))
    del without_summary["summary"]
    assert not validator.is_valid(without_summary)
    assert not validator.is_valid({**json.loads(event_json(sent[3])), "type": "finished"})


def test_the_document_can_be_written_without_a_server(tmp_path):
    from api_server.openapi_dump import main

    out = tmp_path / "generated" / "openapi.json"
    assert main([str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    validate(doc)
    assert {"AgentEvent", "SceneManifest", "ViewManifest", "SessionState"} <= set(doc["components"]["schemas"])
    before = out.stat().st_mtime_ns
    assert main([str(out)]) == 0 and out.stat().st_mtime_ns == before  # unchanged: not rewritten
    assert main([]) == 2
