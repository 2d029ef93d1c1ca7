"""The OpenAPI document, generated from the routes and the pydantic models they declare (never written by hand)."""

from __future__ import annotations

import re
from typing import Any, Callable, TypeVar

from flask import Flask
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

import scene_agent
from api_server.bodies import ErrorBody

F = TypeVar("F", bound=Callable[..., Any])
Body = type[BaseModel] | str  # a model, or a media type for non-JSON bodies ("application/octet-stream")

DESCRIPTIONS = {200: "OK", 202: "Accepted: started", 304: "Not modified",
                400: "Malformed JSON, wrong types or a malformed id",
                404: "Unknown session, scene, view, item, conversation, run or question",
                409: "Already answered or ended, or busy with an earlier request", 410: "The session expired",
                413: "The body is too large", 415: "The body is not JSON",
                422: "Well-formed, but does not fit (picks not among the candidates, answers not among the options)",
                503: "No room for more right now; try again shortly"}


def documented(summary: str, *, request: type[BaseModel] | None = None, responses: dict[int, Body] | None = None,
               tag: str = "api") -> Callable[[F], F]:
    """Declare what a view function accepts and returns; the OpenAPI document is built from these."""

    def mark(fn: F) -> F:
        fn._openapi = {"summary": summary, "request": request, "responses": responses or {}, "tag": tag}  # type: ignore[attr-defined]
        return fn

    return mark


def _path(rule: str) -> tuple[str, list[str]]:
    params = re.findall(r"<(?:[^:<>]+:)?([^<>]+)>", rule)
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule), params


def build_openapi(app: Flask) -> dict[str, Any]:
    """OpenAPI 3.1 for every documented route of the app."""
    routes = []
    models: set[type[BaseModel]] = {ErrorBody}
    for rule in app.url_map.iter_rules():
        doc = getattr(app.view_functions[rule.endpoint], "_openapi", None)
        if doc is None:
            continue
        routes.append((rule, doc))
        if doc["request"]:
            models.add(doc["request"])
        models.update(body for body in doc["responses"].values() if isinstance(body, type))
    ordered = sorted(models, key=lambda m: m.__name__)
    keys, schema = models_json_schema([(m, "serialization") for m in ordered], ref_template="#/components/schemas/{model}")
    refs = {model: keys[(model, "serialization")]["$ref"] for model in ordered}
    paths: dict[str, dict[str, Any]] = {}
    for rule, doc in sorted(routes, key=lambda r: r[0].rule):
        path, params = _path(rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            operation: dict[str, Any] = {
                "summary": doc["summary"], "operationId": f"{rule.endpoint.replace('.', '_')}_{method.lower()}",
                "tags": [doc["tag"]], "responses": {}}
            if params:
                operation["parameters"] = [{"name": p, "in": "path", "required": True, "schema": {"type": "string"}}
                                           for p in params]
            if doc["request"]:
                operation["requestBody"] = {"required": True, "content": {
                    "application/json": {"schema": {"$ref": refs[doc["request"]]}}}}
            for status, body in sorted(doc["responses"].items()):
                media = ({"application/json": {"schema": {"$ref": refs[body]}}} if isinstance(body, type)
                         else {body: {"schema": {"type": "string", "format": "binary"} if "octet" in body else {"type": "string"}}})
                operation["responses"][str(status)] = {"description": DESCRIPTIONS.get(status, "OK"), "content": media}
            paths.setdefault(path, {})[method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "scene-agent API", "version": scene_agent.__version__,
                 "description": "Selection hand-off between the agent and the point-cloud viewer; scenes and views."},
        "paths": paths,
        "components": {"schemas": schema.get("$defs", {})},
    }
