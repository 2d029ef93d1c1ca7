"""`scene-agent mcp` under the official TypeScript SDK's client (tests/mcp_clients/ts_host.mjs), with its default
60 s request timeout, which progress notifications do not extend: a pick made after 70 s is still answered, as the
server returns the call in time and the host follows it with wait_for_selection; no request times out."""

from __future__ import annotations

import time

from mcp_helpers import pick, session_state
from ts_host import TsHost


def test_a_pick_made_after_70_s_is_answered_under_the_typescript_clients_default_timeout(env: dict[str, str]) -> None:
    host = TsHost(env, "--elicit", "url")
    try:
        started = time.monotonic()
        opened = host.next()
        assert opened is not None and opened["event"] == "elicit" and opened["mode"] == "url", opened
        candidates = session_state(opened["url"])["candidates"]
        # the user takes 70 s: meanwhile the host only hears results that keep the pick open, never an error
        meanwhile = host.quiet_for(70.0 - (time.monotonic() - started))
        assert not [line for line in meanwhile if line["event"] == "error"], meanwhile
        assert pick(opened["url"], candidates[0]) == 200
        said = meanwhile + host.rest()
    finally:
        host.close()
    errors = [line for line in said if line["event"] == "error"]
    assert not errors, errors
    first = next(line for line in said if line["tool"] == "ask")
    assert first["structured"]["status"] == "selection_required"  # returned in time, the viewer still open
    assert "viewer is open" in first["structured"]["answer"]
    done = [line["structured"] for line in said if line.get("tool") == "wait_for_selection"
            and line["structured"]["status"] == "done"]
    assert len(done) == 1 and done[0]["ask"]["status"] == "answered"
    assert done[0]["ask"]["codes"] == [candidates[0]]
