"""The OpenAPI document is generated from the routes and models, and is valid OpenAPI 3.1."""

from __future__ import annotations

from openapi_spec_validator import validate

from http_client import call


def test_openapi_document_is_valid_and_complete(server):
    doc = call("GET", f"{server.url}/api/openapi.json").json()
    validate(doc)
    assert doc["openapi"].startswith("3.1")
    assert set(doc["paths"]) >= {"/api/health", "/api/sessions/{session_id}", "/api/submit-selection", "/api/cancel-selection",
                                 "/api/scenes", "/api/scenes/{scene_id}", "/api/scenes/{scene_id}/points/{code}",
                                 "/manifests/{view}.json"}
    submit = doc["paths"]["/api/submit-selection"]["post"]
    assert set(submit["responses"]) == {"200", "400", "404", "409", "410", "413", "415", "422"}
    schema = doc["components"]["schemas"]["SubmitSelection"]
    assert schema["properties"]["session_id"]["pattern"] == "^[0-9a-f]{32}$"
    assert schema["additionalProperties"] is False


def test_every_api_route_is_documented(app):
    from api_server.openapi import build_openapi  # noqa: PLC0415

    documented = {path.replace("{", "<").replace("}", ">") for path in build_openapi(app)["paths"]}
    routes = {rule.rule for rule in app.url_map.iter_rules() if rule.rule.startswith(("/api/", "/manifests/"))}
    assert routes - documented == {"/api/openapi.json"}
