"""The OpenAPI document, generated from the routes and the pydantic models they declare (never written by hand).

The web page's TypeScript types are generated from it when the page is built (`npm run types` in viewer/, which
runs api_server/openapi_dump.py), so a model the page reads cannot change without the page's build noticing.
"""

from __future__ import annotations

import inspect
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Flask
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode

import scene_agent
from api_server.bodies import ErrorBody
from scene_agent.selection.session import SESSION_ID_RE, selection_view
from scene_agent.selection.views import VIEW_NAME_RE
from scene_agent.tiles.layout import NODE_NAME_RE

F = TypeVar("F", bound=Callable[..., Any])

# What each documented view function declared (see `documented`); build_openapi reads it per route.
_DECLARED: weakref.WeakKeyDictionary[Callable[..., Any], dict[str, Any]] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Stream:
    """A streamed body: `media_type` (e.g. text/event-stream) whose every message carries one JSON value of `item`.

    `item` is anything pydantic makes a schema of (a model, or an annotated union such as the agent's events), or a
    function that returns one when the document is built (the agent's events: their tool results are the tools
    registered then); its schema becomes the component `name`, and the response's schema refers to it.
    """

    media_type: str
    name: str
    item: Any


Body = type[BaseModel] | str | Stream  # a model, a media type for other bodies ("application/octet-stream"), a stream

DESCRIPTIONS = {200: "OK", 202: "Accepted: started", 304: "Not modified",
                400: "Malformed JSON, wrong types or a malformed id",
                404: "Unknown session, scene, view, item, conversation, run or question",
                409: "Already answered or ended, or busy with an earlier request", 410: "The session expired",
                413: "The body is too large", 415: "The body is not JSON",
                422: "Well-formed, but does not fit (picks not among the candidates, answers not among the options)",
                503: "No room for more right now; try again shortly"}


def documented(summary: str, *, request: type[BaseModel] | None = None, responses: dict[int, Body] | None = None,
               tag: str = "api") -> Callable[[F], F]:
    """Declare what a view function accepts and returns; the OpenAPI document is built from these.

    Put it right under the route decorator, so that the function the app routes to is the one declared.
    """

    def mark(fn: F) -> F:
        _DECLARED[fn] = {"summary": summary, "request": request, "responses": responses or {}, "tag": tag}
        return fn

    return mark


ITEM_CODE_RE = re.compile(r"^(0|[1-9]\d*)-(0|[1-9]\d*)(-(0|[1-9]\d*))?$")  # a room or an object, not a floor
OBJECT_CODE_RE = re.compile(r"^(0|[1-9]\d*)-(0|[1-9]\d*)-(0|[1-9]\d*)$")  # an object only
# What each path parameter accepts; a value outside it is 400 (never a lookup, never a file path).
_ID = {"type": "string", "pattern": SESSION_ID_RE.pattern}
PATH_PARAMS: dict[str, dict[str, Any]] = {
    "session_id": _ID, "run_id": _ID, "question_id": _ID, "conversation_id": _ID,
    "code": {"type": "string", "pattern": ITEM_CODE_RE.pattern, "maxLength": 64},
    "object_code": {"type": "string", "pattern": OBJECT_CODE_RE.pattern, "maxLength": 64},
    # A selection's own view is named after its session: the page builds that name from this template.
    "view": {"type": "string", "pattern": VIEW_NAME_RE.pattern, "x-selection-view": selection_view("{session_id}")},
    "scene_id": {"type": "string", "minLength": 1, "maxLength": 200},
    "node": {"type": "string", "pattern": NODE_NAME_RE.pattern},
}


def _path(rule: str) -> tuple[str, list[str]]:
    params = re.findall(r"<(?:[^:<>]+:)?([^<>]+)>", rule)
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule), params


def _nullable(schema: Any) -> bool:
    """Whether a value of this core schema may be None (and so left out of a dump with exclude_none)."""
    kind = schema["type"]
    if kind in ("default", "function-after", "function-before", "function-wrap"):
        return _nullable(schema["schema"])
    if kind == "union":
        return any(_nullable(choice[0] if isinstance(choice, tuple) else choice) for choice in schema["choices"])
    return bool(kind in ("nullable", "none", "any"))


class _ResponseSchemas(GenerateJsonSchema):
    """pydantic's JSON Schema, but a response field is required unless it may be None.

    A body the server sends has every field of its model: in full (model_dump), or without the fields that are
    None (exclude_none, as the agent's events and the scene manifest are written). So a field that cannot be None
    is always there, a default or not, and a field that can may be missing. Request bodies keep pydantic's rule.
    """

    def field_is_required(self, field: Any, total: bool) -> bool:
        if self.mode != "serialization" or field["type"] == "typed-dict-field":
            return super().field_is_required(field, total)
        return not _nullable(field["schema"]) and field.get("serialization_exclude_if") is None


def _schemas(requests: set[type[BaseModel]], responses: set[type[BaseModel]],
             streams: set[Stream]) -> tuple[dict[Any, dict[str, Any]], dict[str, Any]]:
    """Every body's schema in one pass (so that two models of one name get distinct names): a $ref per request
    model, response model and stream, and the components."""
    ordered_requests = sorted(requests, key=lambda m: m.__name__)
    ordered_responses = sorted(responses, key=lambda m: m.__name__)
    ordered_streams = sorted(streams, key=lambda s: s.name)
    inputs: list[tuple[Any, JsonSchemaMode, Any]] = [
        (model, "validation", TypeAdapter(model).core_schema) for model in ordered_requests]
    inputs += [(model, "serialization", TypeAdapter(model).core_schema) for model in ordered_responses]
    inputs += [(stream, "serialization", TypeAdapter(stream.item() if inspect.isfunction(stream.item) else stream.item).core_schema)
               for stream in ordered_streams]
    generator = _ResponseSchemas(ref_template="#/components/schemas/{model}")
    keyed, definitions = generator.generate_definitions(inputs)
    components: dict[str, Any] = {str(name): schema for name, schema in definitions.items()}
    refs: dict[Any, dict[str, Any]] = {}
    for model in ordered_requests:
        refs[("request", model)] = {"$ref": keyed[(model, "validation")]["$ref"]}
    for model in ordered_responses:
        refs[model] = {"$ref": keyed[(model, "serialization")]["$ref"]}
    for stream in ordered_streams:
        item = keyed[(stream, "serialization")]
        if "$ref" in item and len(item) == 1:  # a model: its own component already
            refs[stream] = item
            continue
        for name, schema in ((stream.name, item), *_nested_unions(item)):
            if name in components:
                raise ValueError(f"{name}, a union in the stream item {stream.name}, has the name of a model")
            components[name] = schema
        refs[stream] = {"$ref": f"#/components/schemas/{stream.name}"}
    return refs, dict(sorted(components.items()))


def _nested_unions(union: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Each union nested in a discriminated union (the tool-call results, told apart by `tool_name`, within the
    events, told apart by `type`) as a component of its own, named after its discriminator value in CamelCase
    ('tool_call_result' → 'ToolCallResult'): OpenAPI maps a discriminator value to a $ref, never to a schema."""
    mapping = union.get("discriminator", {}).get("mapping", {})
    hoisted = []
    for value, target in mapping.items():
        if isinstance(target, dict):
            name = "".join(word.capitalize() for word in value.split("_"))
            ref = f"#/components/schemas/{name}"
            union["oneOf"] = [{"$ref": ref} if choice == target else choice for choice in union["oneOf"]]
            mapping[value] = ref
            # its members are models: saying that it is an object lets a reader (openapi-typescript) put the
            # discriminator value on the union itself
            component = {"type": "object", **target}
            hoisted += [(name, component), *_nested_unions(component)]
    return hoisted


def _content(body: Body, refs: dict[Any, dict[str, Any]]) -> dict[str, Any]:
    if isinstance(body, Stream) and body.media_type == "text/event-stream":
        # In OpenAPI 3.1 the schema of an event stream describes one event: its fields, with `data` a JSON text
        # whose schema is the item's. Events with a name of their own (`end`) carry data that is not an item.
        item = {"type": "object", "required": ["data"], "properties": {
            "id": {"type": "string"}, "event": {"const": "message"}, "retry": {"type": "integer"},
            "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": refs[body]}}}
        named = {"type": "object", "required": ["event", "data"], "properties": {
            "id": {"type": "string"}, "event": {"type": "string", "not": {"const": "message"}}, "data": {"type": "string"}}}
        return {body.media_type: {"schema": {"oneOf": [item, named]}}}
    if isinstance(body, Stream):
        return {body.media_type: {"schema": refs[body]}}
    if isinstance(body, type):
        return {"application/json": {"schema": refs[body]}}
    return {body: {"schema": {"type": "string"} if body.startswith("text/") else {"type": "string", "format": "binary"}}}


def build_openapi(app: Flask) -> dict[str, Any]:
    """OpenAPI 3.1 for every documented route of the app."""
    routes = []
    requests: set[type[BaseModel]] = set()
    responses: set[type[BaseModel]] = {ErrorBody}
    streams: set[Stream] = set()
    for rule in app.url_map.iter_rules():
        doc = _DECLARED.get(app.view_functions[rule.endpoint])
        if doc is None:
            continue
        routes.append((rule, doc))
        if doc["request"]:
            requests.add(doc["request"])
        responses.update(body for body in doc["responses"].values() if isinstance(body, type))
        streams.update(body for body in doc["responses"].values() if isinstance(body, Stream))
    refs, components = _schemas(requests, responses, streams)
    paths: dict[str, dict[str, Any]] = {}
    for rule, doc in sorted(routes, key=lambda r: r[0].rule):
        path, params = _path(rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            operation: dict[str, Any] = {
                "summary": doc["summary"], "operationId": f"{rule.endpoint.replace('.', '_')}_{method.lower()}",
                "tags": [doc["tag"]], "responses": {}}
            if params:
                operation["parameters"] = [{"name": p, "in": "path", "required": True,
                                            "schema": PATH_PARAMS.get(p, {"type": "string"})} for p in params]
            if doc["request"]:
                operation["requestBody"] = {"required": True, "content": {
                    "application/json": {"schema": refs[("request", doc["request"])]}}}
            for status, body in sorted(doc["responses"].items()):
                operation["responses"][str(status)] = {"description": DESCRIPTIONS.get(status, "OK"),
                                                       "content": _content(body, refs)}
            paths.setdefault(path, {})[method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "scene-agent API", "version": scene_agent.__version__,
                 "description": "Selection hand-off between the agent and the point-cloud viewer; scenes and views."},
        "paths": paths,
        "components": {"schemas": components},
    }
