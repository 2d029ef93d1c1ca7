"""Requests from where they should not come, and what a crash or an old install leaves behind.

A real server on a loopback port per test; Host headers set by hand as a DNS-rebinding page's would be.
"""

from __future__ import annotations

import logging
import os
import stat
import time
from pathlib import Path

import pytest
from http_client import call

from api_server import viewer_files
from api_server.app import create_app
from scene_agent.config import Settings, load_allowed_hosts
from scene_agent.errors import UsageError
from scene_agent.selection.files.store import SessionStore
from scene_agent.selection.session import SelectionSession


def test_a_foreign_host_is_refused_before_anything_runs(chat_server):
    server = chat_server()
    port = server.port
    for host in (f"attacker.test:{port}", f"evil.example:{port}", f"127.0.0.1:{port + 1}", "localhost"):
        reply = call("POST", f"{server.url}/api/chat", {"message": "what's the color of the sofa?"}, headers={"Host": host})
        assert reply.status == 421, host
        body = reply.json()
        assert body["error"] == "misdirected_request" and host in body["message"]
        assert "SCENE_AGENT_ALLOWED_HOSTS" in body["message"]
    assert len(server.app.extensions["scene_agent.chat"]) == 0
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}"):
        assert call("GET", f"{server.url}/api/health", headers={"Host": host}).status == 200, host
    # the viewer's own address (a dev server proxying here keeps its Host)
    assert call("GET", f"{server.url}/api/health", headers={"Host": "localhost:5173"}).status == 200


def test_more_hosts_can_be_allowed(chat_server, monkeypatch):
    server = chat_server(ALLOWED_HOSTS=("scene.example", "lab.example:9000"))
    port = server.port
    assert call("GET", f"{server.url}/api/health", headers={"Host": f"scene.example:{port}"}).status == 200
    assert call("GET", f"{server.url}/api/health", headers={"Host": "lab.example:9000"}).status == 200
    assert call("GET", f"{server.url}/api/health", headers={"Host": "lab.example:9001"}).status == 421
    monkeypatch.setenv("SCENE_AGENT_ALLOWED_HOSTS", " scene.example , [::1]:8090,*")
    assert load_allowed_hosts() == ("scene.example", "[::1]:8090", "*")
    monkeypatch.setenv("SCENE_AGENT_ALLOWED_HOSTS", "http://scene.example/")
    with pytest.raises(UsageError, match="SCENE_AGENT_ALLOWED_HOSTS"):
        load_allowed_hosts()


def test_every_answer_varies_by_origin(server):
    for origin in ({}, {"Origin": "http://localhost:5173"}, {"Origin": "http://evil.example"}):
        reply = call("GET", f"{server.url}/api/health", headers=origin)
        assert "Origin" in reply.headers.get("Vary", ""), origin


def test_a_key_given_twice_is_refused(server, open_selection, settings):
    out = open_selection()
    raw = (f'{{"session_id": "{out.session_id}", "selections": [{{"itemCode": "0-1-1"}}], '
           f'"selections": [{{"itemCode": "0-1-2"}}]}}').encode()
    reply = call("POST", f"{server.url}/api/submit-selection", raw=raw, headers={"Content-Type": "application/json"})
    assert (reply.status, reply.json()["error"]) == (400, "bad_usage")
    assert "'selections' appears more than once" in reply.json()["message"]
    assert SessionStore(settings).outcome(out.session_id or "") is None


def test_an_internal_error_is_logged_with_detail_and_answered_without(server, monkeypatch, caplog):
    def broken(dist: Path) -> bool:
        raise PermissionError(13, "Permission denied", "/srv/secret/viewer/dist/index.html")

    monkeypatch.setattr(viewer_files, "viewer_built", broken)
    with caplog.at_level(logging.ERROR):
        reply = call("GET", f"{server.url}/api/health")
    assert reply.status == 500
    assert reply.json() == {"error": "internal_error", "message": "the server failed; the details are in its log"}
    assert any("/srv/secret" in r.getMessage() or (r.exc_info and "/srv/secret" in str(r.exc_info[1]))
               for r in caplog.records)


def test_the_state_dir_is_owner_only_whatever_the_umask(tmp_path):
    settings = Settings(state_dir=tmp_path / "a" / "state", selection_dir=tmp_path / "sel", viewer_url="http://localhost:8090/")
    previous = os.umask(0)
    try:
        SessionStore(settings).create(SelectionSession.create(["0-1"], {"0-1": "kitchen"}, "?", scene_id="t"))
    finally:
        os.umask(previous)
    for directory in (tmp_path / "a", settings.state_dir, settings.sessions_dir):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700, directory


def test_a_server_start_tightens_an_open_state_dir_and_sweeps_crash_leftovers(small_scene_path, tmp_path):
    settings = Settings(state_dir=tmp_path / "state", selection_dir=tmp_path / "sel", viewer_url="http://localhost:8090/")
    for directory in (settings.sessions_dir, settings.views_dir, settings.selection_dir):
        directory.mkdir(parents=True)
    os.chmod(settings.state_dir, 0o755)
    old = time.time() - 3600
    stale = [settings.sessions_dir / f".{'a' * 32}.json.k2j4h5g6.tmp", settings.views_dir / ".select-x.json.AbC_1234.tmp",
             settings.selection_dir / f".viewer_selection_{'b' * 32}.json.zzzzzzzz.tmp"]
    kept = [settings.sessions_dir / f".{'c' * 32}.json.fresh123.tmp",  # young: a writer may be at work
            settings.selection_dir / ".someone-elses.abcdefgh.tmp",  # another program's, in a shared /tmp
            settings.sessions_dir / "notes.tmp"]
    for path in stale + kept:
        path.write_text("x")
    for path in [*stale, kept[1], kept[2]]:
        os.utime(path, (old, old))
    create_app({"SCENE_PATH": str(small_scene_path), "SETTINGS": settings})
    assert stat.S_IMODE(settings.state_dir.stat().st_mode) == 0o700
    assert [p for p in stale if p.exists()] == []
    assert [p for p in kept if not p.exists()] == []
