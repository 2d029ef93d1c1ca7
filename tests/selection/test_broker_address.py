"""SCENE_AGENT_BROKER read as people write it: one Redis or Sentinel, with how many replicas must have a pick; a
mistake named in one sentence, without the password."""

from __future__ import annotations

import pytest

from scene_agent.config import load_settings, redact_url
from scene_agent.errors import UsageError
from scene_agent.selection.redis.address import parse_broker


def test_one_redis_needs_no_replica_unless_asked_and_keeps_its_own_options() -> None:
    plain = parse_broker("redis://:pw@10.0.0.5:6379/2?health_check_interval=5", "shown")
    assert (plain.sentinel, plain.min_replicas, plain.redis_url) == (
        False, 0, "redis://:pw@10.0.0.5:6379/2?health_check_interval=5")
    asked = parse_broker("redis://10.0.0.5:6379/0?min_replicas=2&timeout_ms=900", "shown")
    assert (asked.min_replicas, asked.wait_ms, asked.redis_url) == (2, 900, "redis://10.0.0.5:6379/0")


def test_sentinel_names_its_sentinels_service_and_db_and_wants_one_replica() -> None:
    ha = parse_broker("redis+sentinel://app:s%40cret@10.0.0.1:26379,10.0.0.2:26380,[::1]:26381/orders/3", "shown")
    assert ha.sentinels == (("10.0.0.1", 26379), ("10.0.0.2", 26380), ("::1", 26381))
    assert (ha.service, ha.db, ha.username, ha.password, ha.min_replicas) == ("orders", 3, "app", "s@cret", 1)
    assert parse_broker("redis+sentinel://h:26379/orders?min_replicas=0", "shown").min_replicas == 0


@pytest.mark.parametrize(("url", "says"), [
    ("redis+sentinel://h:26379", "name the primary's service"),
    ("redis+sentinel://h:26379/a/b/c", "name the primary's service"),
    ("redis+sentinel://h/orders/0", "'h' is not host:port"),
    ("redis+sentinel://h:26379/orders/zero", "the db must be a whole number"),
    ("redis://h:6379/0?min_replicas=one", "min_replicas must be a whole number"),
    ("redis://h:6379/0?timeout_ms=-5", "timeout_ms must be a whole number"),
])
def test_a_malformed_broker_url_is_a_usage_error_naming_the_part(url: str, says: str) -> None:
    with pytest.raises(UsageError, match=says):
        parse_broker(url, url)


def test_settings_check_the_url_and_never_show_its_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCENE_AGENT_BROKER", "redis+sentinel://:topsecret@h:26379")
    with pytest.raises(UsageError) as refused:
        load_settings()
    assert "topsecret" not in refused.value.message and "***" in refused.value.message
    monkeypatch.setenv("SCENE_AGENT_BROKER", "redis+sentinel://:topsecret@h1:26379,h2:26380/orders/0")
    assert load_settings().broker == "redis+sentinel://:topsecret@h1:26379,h2:26380/orders/0"
    assert redact_url(load_settings().broker or "") == "redis+sentinel://:***@h1:26379,h2:26380/orders/0"
