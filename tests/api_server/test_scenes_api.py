"""Scenes, point data, view manifests and the built viewer over real HTTP."""

from __future__ import annotations

import numpy as np
import pytest
from http_client import call

from api_server.point_data import HEADER, unpack_points
from scene_agent.scene.manifest import load_manifest


def test_scene_list_and_manifest(server, small_scene_path):
    scenes = call("GET", f"{server.url}/api/scenes").json()["scenes"]
    assert [(s["scene_id"], s["url"], s["rooms"], s["objects"]) for s in scenes] == [("small", "/api/scenes/small", 7, 16)]
    reply = call("GET", f"{server.url}/api/scenes/small")
    assert reply.status == 200
    assert reply.json() == load_manifest(small_scene_path).model_dump(mode="json", exclude_none=True)
    other = call("GET", f"{server.url}/api/scenes/elsewhere")
    assert (other.status, other.json()["error"]) == (404, "not_found")
    assert "small" in other.json()["message"]


def test_the_manifest_is_made_once_and_revalidated_by_etag(server, small_scene_path):
    first = call("GET", f"{server.url}/api/scenes/small")
    again = call("GET", f"{server.url}/api/scenes/small")
    assert first.body == again.body == (small_scene_path).read_bytes()  # the manifest as stored, byte for byte
    assert first.headers["ETag"] == again.headers["ETag"] and first.headers["Cache-Control"] == "no-cache"
    same = call("GET", f"{server.url}/api/scenes/small", headers={"If-None-Match": first.headers["ETag"]})
    assert (same.status, same.body) == (304, b"")


@pytest.mark.parametrize("code", ["0-1", "0-1-2"])
def test_points_round_trip_within_quantisation(server, scene, code):
    reply = call("GET", f"{server.url}/api/scenes/small/points/{code}")
    assert reply.status == 200
    assert reply.headers["Content-Type"] == "application/vnd.scene-agent.points"
    expected = scene.points(code)
    assert len(reply.body) == HEADER.size + 9 * len(expected)
    got = unpack_points(reply.body)
    extent = expected.xyz.max(0) - expected.xyz.min(0)
    assert np.all(np.abs(got.xyz - expected.xyz) <= extent / 65535 + 1e-6)
    assert np.array_equal(got.rgb, expected.rgb)
    assert int(reply.headers["X-Point-Count"]) == len(expected)


def test_points_are_revalidated_by_etag(server):
    first = call("GET", f"{server.url}/api/scenes/small/points/0-1-1")
    etag = first.headers["ETag"]
    again = call("GET", f"{server.url}/api/scenes/small/points/0-1-1", headers={"If-None-Match": etag})
    assert (again.status, again.body) == (304, b"")


@pytest.mark.parametrize(("code", "status"), [("0-9", 404), ("0-1-99", 404), ("0", 400), ("chair", 400), ("0-01", 400)])
def test_points_of_bad_codes(server, code, status):
    reply = call("GET", f"{server.url}/api/scenes/small/points/{code}")
    assert reply.status == status
    assert set(reply.json()) == {"error", "message"}


@pytest.mark.parametrize("name", ["nothing", "view-0123456789abcdef", "VIEW-0123456789abcdef", "..%2Fsessions%2Fx",
                                  "view-0123456789abcdef%00"])
def test_unknown_or_malformed_view_names(server, name):
    reply = call("GET", f"{server.url}/manifests/{name}.json")
    assert reply.status == 404
    assert reply.json()["error"] == "not_found"


def test_viewer_not_built_says_how_to_build_it(server):
    reply = call("GET", f"{server.url}/")
    assert reply.status == 404
    assert b"npm run build" in reply.body and b"make run" in reply.body
    assert call("GET", f"{server.url}/api/health").json()["viewer_built"] is False


def test_a_built_viewer_is_served(server, tmp_path):
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>viewer</title>")
    (dist / "assets" / "app-1234.js").write_text("console.log(1)")
    (tmp_path / "secret.txt").write_text("no")
    page = call("GET", f"{server.url}/?manifest=/manifests/x.json")
    assert (page.status, page.body) == (200, b"<!doctype html><title>viewer</title>")
    asset = call("GET", f"{server.url}/assets/app-1234.js")
    assert asset.status == 200 and "max-age" in asset.headers["Cache-Control"]
    assert call("GET", f"{server.url}/assets/..%2F..%2Fsecret.txt").status == 404
    assert call("GET", f"{server.url}/api/health").json()["viewer_built"] is True


def test_names_for_a_chinese_reader_and_the_words_that_find_them(server):
    reply = call("GET", f"{server.url}/api/scenes/small/names")
    assert reply.status == 200
    body = reply.json()
    assert body["scene_id"] == "small"
    names = {item["code"]: item for item in body["items"]}
    assert len(names) == 7 + 16  # every room and object
    assert names["0-1"]["zh"] == "厨房" and "厨房" in names["0-1"]["words"]
    assert names["1-1"]["zh"] == "主卧" and {"主卧", "卧室"} <= set(names["1-1"]["words"])  # "Master bedroom", a bedroom
    assert names["0-1-1"]["zh"] == "椅子" and {"椅子", "餐椅"} <= set(names["0-1-1"]["words"])
    assert call("GET", f"{server.url}/api/scenes/elsewhere/names").status == 404
