"""SessionStore: sessions and outcomes as private files; exactly one outcome per session; sweeping."""

from __future__ import annotations

import os
import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from file_answers import file_channel

from scene_agent.errors import SessionAnsweredError, SessionExpiredError, SessionNotFoundError, UsageError
from scene_agent.fileio import write_atomic
from scene_agent.selection.files import store as store_module
from scene_agent.selection.files.store import RETAIN_AFTER_EXPIRY, SessionStore
from scene_agent.selection.session import SelectionSession, SessionOutcome, now_utc


def outcome(session_id: str, status: str = "cancelled", by: str = "caller") -> SessionOutcome:
    return SessionOutcome(session_id=session_id, status=status, by=by, at=now_utc())


def mode_of(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


VIEWS = {name: f"view-{i:016x}" for i, name in enumerate(("v1", "fresh", "recent", "old"))}


def plant(store: SessionStore, session: SelectionSession) -> SelectionSession:
    """Write a session record directly, bypassing create's sweep."""
    path = store.directory / f"{session.session_id}.json"
    write_atomic(path, session.model_dump_json().encode())
    os.utime(path, (session.created_at.timestamp(), session.created_at.timestamp()))  # as old as it claims
    return session


def test_create_get_round_trip(store, make_session):
    session = make_session(multiple=True, view=VIEWS["v1"])
    assert store.get(session.session_id) == session
    # A second store (the other process) sees the same session.
    assert SessionStore(store.settings).get(session.session_id) == session
    assert store.outcome(session.session_id) is None
    assert file_channel(store).status(session) == ("pending", None)


def test_files_are_private(store, make_session):
    session = make_session()
    store.close(outcome(session.session_id))
    assert mode_of(store.directory) == 0o700
    assert mode_of(store.directory / f"{session.session_id}.json") == 0o600
    assert mode_of(store.directory / f"{session.session_id}.outcome.json") == 0o600
    assert [p.name for p in store.directory.iterdir() if p.name.endswith(".tmp")] == []


def test_create_refuses_an_existing_id(store, make_session):
    session = make_session()
    with pytest.raises(SessionAnsweredError, match="already exists"):
        store.create(session)


def test_get_unknown_and_malformed_ids(store, make_session):
    make_session()
    with pytest.raises(SessionNotFoundError):
        store.get("0" * 32)
    with pytest.raises(UsageError):
        store.get("../sessions/" + "0" * 20)


def test_an_unreadable_record_is_not_a_session(store, make_session):
    session = make_session()
    path = store.directory / f"{session.session_id}.json"
    path.write_text('{"session_id": ')
    with pytest.raises(SessionNotFoundError):
        store.get(session.session_id)


def test_a_symlinked_record_is_not_followed(store, make_session):
    real = make_session()
    other = make_session(save=False)
    # A symlink at the other session's name pointing at a valid record must not be read through.
    (store.directory / f"{other.session_id}.json").symlink_to(store.directory / f"{real.session_id}.json")
    with pytest.raises(SessionNotFoundError):
        store.get(other.session_id)


def test_close_records_the_outcome_once(store, make_session):
    session = make_session()
    first = store.close(outcome(session.session_id, "confirmed", "viewer"))
    assert store.outcome(session.session_id) == first
    assert file_channel(store).status(session) == ("confirmed", first)
    with pytest.raises(SessionAnsweredError, match="confirmed in the viewer"):
        store.close(outcome(session.session_id, "cancelled", "caller"))
    assert store.outcome(session.session_id) == first


def test_close_after_an_expired_outcome_says_expired(store, make_session):
    session = make_session()
    store.close(outcome(session.session_id, "expired", "waiter"))
    assert file_channel(store).status(session)[0] == "expired"
    with pytest.raises(SessionExpiredError):
        store.close(outcome(session.session_id, "confirmed", "viewer"))


def test_close_of_an_unknown_session(store, make_session):
    make_session()
    with pytest.raises(SessionNotFoundError):
        store.close(outcome("c" * 32))
    assert not (store.directory / f"{'c' * 32}.outcome.json").exists()


def test_racing_closes_have_exactly_one_winner(store, make_session):
    session = make_session()
    start = threading.Barrier(20)

    def close(i: int) -> SessionOutcome | Exception:
        start.wait(timeout=10)
        try:
            # under the session's lock, as store.close asks of its callers (the waiter and every delivery take it)
            with store.locked(session.session_id):
                return store.close(SessionOutcome(session_id=session.session_id, status="cancelled", by="caller",
                                                  reason=str(i), at=now_utc()))
        except SessionAnsweredError as exc:
            return exc

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(close, range(20)))
    winners = [r for r in results if isinstance(r, SessionOutcome)]
    assert len(winners) == 1
    assert all(isinstance(r, SessionAnsweredError) for r in results if r not in winners)
    assert store.outcome(session.session_id) == winners[0]
    assert [p.name for p in store.directory.iterdir() if p.name.endswith(".tmp")] == []


def test_check_open(store, make_session):
    session = make_session()
    file_channel(store).check_open(session)  # pending: no error
    expired = make_session(age=60, timeout=30)
    assert file_channel(store).status(expired) == ("expired", None)
    with pytest.raises(SessionExpiredError, match="expired at"):
        file_channel(store).check_open(expired)
    store.close(outcome(session.session_id, "cancelled", "viewer"))
    with pytest.raises(SessionAnsweredError, match="cancelled in the viewer"):
        file_channel(store).check_open(session)


def test_sweep_removes_only_long_expired_sessions(store, settings, make_session):
    retain = RETAIN_AFTER_EXPIRY.total_seconds()
    fresh = make_session(view=VIEWS["fresh"])
    # Records left by an earlier run (store.create would sweep the old ones as it writes the next).
    recently_expired = plant(store, make_session(age=60 + retain / 2, timeout=60, view=VIEWS["recent"], save=False))
    old = plant(store, make_session(age=60 + retain + 10, timeout=60, view=VIEWS["old"], save=False))
    old_answered = plant(store, make_session(age=60 + retain + 10, timeout=60, save=False))
    store.close(outcome(old_answered.session_id, "confirmed", "viewer"))
    settings.views_dir.mkdir(parents=True)
    settings.selection_dir.mkdir(parents=True)
    for view in (VIEWS["fresh"], VIEWS["recent"], VIEWS["old"]):
        (settings.views_dir / f"{view}.json").write_text("{}")
    for s in (fresh, old, old_answered):
        (settings.selection_dir / f"viewer_selection_{s.session_id}.json").write_text("{}")
    unrelated = settings.selection_dir / "notes.json"
    unrelated.write_text("{}")

    removed = store.sweep()

    assert sorted(removed) == sorted([old.session_id, old_answered.session_id])
    for s in (old, old_answered):
        with pytest.raises(SessionNotFoundError):
            store.get(s.session_id)
        assert store.outcome(s.session_id) is None
        assert not (settings.selection_dir / f"viewer_selection_{s.session_id}.json").exists()
    assert not (settings.views_dir / f"{VIEWS['old']}.json").exists()
    for s in (fresh, recently_expired):
        assert store.get(s.session_id) == s
    assert (settings.views_dir / f"{VIEWS['fresh']}.json").exists() and (settings.views_dir / f"{VIEWS['recent']}.json").exists()
    assert (settings.selection_dir / f"viewer_selection_{fresh.session_id}.json").exists()
    assert unrelated.exists()


def test_sweep_with_a_given_now(store, make_session):
    session = make_session()
    later = session.expires_at + RETAIN_AFTER_EXPIRY + timedelta(seconds=1)
    assert store.sweep(now=session.expires_at) == []
    assert store.sweep(now=later) == [session.session_id]


def test_create_sweeps_at_most_once_a_minute(store, make_session):
    first = make_session()  # the first create in a directory sweeps
    old = plant(store, make_session(age=RETAIN_AFTER_EXPIRY.total_seconds() + 120, timeout=60, save=False))
    make_session()  # within the minute: no sweep, so the old record is still there
    assert store.get(old.session_id) == old
    store_module._last_sweep[store.directory] -= store_module.SWEEP_EVERY_S  # as if a minute had passed
    new = make_session()
    with pytest.raises(SessionNotFoundError):
        store.get(old.session_id)
    assert store.get(new.session_id) == new and store.get(first.session_id) == first


def test_sweep_of_a_missing_directory(store):
    assert store.sweep() == []


def test_a_session_read_once_is_read_again_when_its_file_is_replaced(store, make_session):
    session = make_session()
    assert store.get(session.session_id) == session
    later = session.model_copy(update={"expires_at": session.expires_at + timedelta(seconds=60)})
    store.replace(later)  # more time, as extend writes it
    assert store.get(session.session_id).expires_at == later.expires_at
    SessionStore(store.settings).replace(session)  # another process (its own store) writes it back
    assert store.get(session.session_id).expires_at == session.expires_at


def test_a_session_read_once_is_gone_with_its_file(store, make_session):
    session = make_session()
    store.get(session.session_id)
    path = store.directory / f"{session.session_id}.json"
    path.unlink()
    with pytest.raises(SessionNotFoundError):
        store.get(session.session_id)
    other = make_session()
    path.symlink_to(store.directory / f"{other.session_id}.json")  # planted where the record was: not followed
    with pytest.raises(SessionNotFoundError):
        store.get(session.session_id)
