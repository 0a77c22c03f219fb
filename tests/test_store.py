"""The SQLite state store: round trips, WAL, migration, and bad files moved aside."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from display.store import APPLICATION_ID, SCHEMA_VERSION, Store, StoreError, default_state_dir


def test_values_and_stack_survive_reopening(tmp_path: Path):
    store = Store(tmp_path)
    store.put("comix", "game", {"round": 2, "scores": [1, 2]})
    store.put("comix", "other", [1])
    store.save_stack([{"kind": "home", "snapshot": {"selected": 1}}])
    store.commit()
    store.delete("comix", "other")
    store.commit()
    store.close()
    again = Store(tmp_path)
    assert again.get("comix", "game") == {"round": 2, "scores": [1, 2]}
    assert again.get("comix", "other", "gone") == "gone"
    assert again.load_stack() == [{"kind": "home", "snapshot": {"selected": 1}}]
    assert again.dump()["data"] == {"comix": {"game": {"round": 2, "scores": [1, 2]}}}
    assert again.notices == []
    again.close()


def test_uncommitted_writes_are_lost_like_a_power_cut(tmp_path: Path):
    store = Store(tmp_path)
    store.put("a", "kept", 1)
    store.commit()
    store.put("a", "pending", 2)
    assert store.dirty
    store.db.close()  # no commit: the process died
    again = Store(tmp_path)
    assert again.items("a") == {"kept": 1}
    again.close()


def test_wal_and_full_sync(tmp_path: Path):
    store = Store(tmp_path)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    store.close()


def test_corrupt_file_is_moved_aside_not_deleted(tmp_path: Path):
    junk = b"this is not sqlite " * 200
    (tmp_path / "state.db").write_bytes(junk)
    store = Store(tmp_path)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("state.db.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == junk
    assert "moved to" in store.notices[0] and str(aside[0]) in store.notices[0]
    store.put("x", "y", 1)  # the fresh database works
    store.commit()
    store.close()


def test_damaged_pages_are_detected(tmp_path: Path):
    store = Store(tmp_path)
    for i in range(300):
        store.put("bulk", f"k{i}", "x" * 200)
    store.commit()
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    path = tmp_path / "state.db"
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(page * 2, len(data), page):  # scribble over every page after the 2nd
        data[offset + 8 : offset + 200] = b"\xff" * 192
    path.write_bytes(bytes(data))
    again = Store(tmp_path)
    assert again.notices and "could not be used" in again.notices[0]
    assert any(p.name.startswith("state.db.corrupt-") for p in tmp_path.iterdir())
    again.close()


def test_foreign_database_is_moved_aside(tmp_path: Path):
    other = sqlite3.connect(tmp_path / "state.db")
    other.execute("CREATE TABLE photos (id INTEGER)")
    other.commit()
    other.close()
    store = Store(tmp_path)
    assert "another program" in store.notices[0]
    assert any(p.name.startswith("state.db.foreign-") for p in tmp_path.iterdir())
    store.close()


def test_newer_schema_is_refused_and_left_alone(tmp_path: Path):
    store = Store(tmp_path)
    store.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    store.close()
    before = (tmp_path / "state.db").read_bytes()
    with pytest.raises(StoreError, match="newer Tablekeeper"):
        Store(tmp_path)
    assert (tmp_path / "state.db").read_bytes() == before
    assert not any(".corrupt-" in p.name or ".foreign-" in p.name for p in tmp_path.iterdir())


def test_older_schema_is_migrated(tmp_path: Path):
    old = sqlite3.connect(tmp_path / "state.db")
    old.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    old.execute("PRAGMA user_version = 0")
    old.execute("CREATE TABLE leftovers (x)")
    old.commit()
    old.close()
    store = Store(tmp_path)
    assert store.notices == []
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    store.put("a", "b", True)
    store.commit()
    store.close()


def test_state_dir_follows_systemd_then_xdg(tmp_path: Path):
    assert default_state_dir({"STATE_DIRECTORY": "/var/lib/tablekeeper"}) == Path(
        "/var/lib/tablekeeper"
    )
    assert default_state_dir({"XDG_STATE_HOME": "/s"}) == Path("/s/tablekeeper")


# -- write-behind ---------------------------------------------------------------------------
def _gated(store: Store) -> tuple[threading.Event, threading.Event, list[int]]:
    """An observer holding the writer thread inside each commit until ``release`` is set; one
    item in the list per commit."""
    inside, release = threading.Event(), threading.Event()
    seen: list[int] = []

    def hold(s: Store) -> None:
        seen.append(1)
        inside.set()
        release.wait(10)

    store.observers.append(hold)
    return inside, release, seen


def test_write_behind_returns_at_once_and_merges_what_waits(tmp_path: Path):
    store = Store(tmp_path, write_behind=True)
    inside, release, seen = _gated(store)
    store.put("timer", "left", 60)
    first = store.commit()
    assert inside.wait(5)  # the writer is busy with the first commit
    for left in range(59, 49, -1):  # ten sand-timer ticks while the card is slow
        store.put("timer", "left", left)
        store.commit()
    store.put("comix", "ballot", "sealed")
    last = store.commit()
    assert store.get("timer", "left") == 50 and store.durable < last  # read back before disk
    release.set()
    assert store.flush(5) and store.durable == last == first + 11
    assert len(seen) == 2  # the first commit, then the eleven waiting ones written as one
    store.close()
    again = Store(tmp_path)
    assert again.items("timer") == {"left": 50} and again.get("comix", "ballot") == "sealed"
    again.close()


def test_a_failed_write_behind_commit_is_reported_and_tried_again(tmp_path: Path):
    store = Store(tmp_path, write_behind=True)
    store.put("a", "kept", 1)
    store.commit()
    assert store.flush(5)
    store.db.execute("PRAGMA query_only = ON")  # the disk refuses writes (a read-only card)
    store.put("a", "refused", 2)
    refused = store.commit()
    assert store.flush(5) and store.durable < refused
    failures = store.take_failures()
    assert len(failures) == 1 and "readonly" in failures[0]
    assert store.take_failures() == []
    store.db.execute("PRAGMA query_only = OFF")
    store.put("a", "later", 3)
    later = store.commit()
    assert store.flush(5) and store.durable == later and store.take_failures() == []
    store.close()
    again = Store(tmp_path)
    assert again.items("a") == {"kept": 1, "refused": 2, "later": 3}
    again.close()


def test_close_flushes_the_writer(tmp_path: Path):
    store = Store(tmp_path, write_behind=True, fsync_delay=0.05)
    for n in range(5):
        store.put("a", "n", n)
        store.commit()
    store.close()
    again = Store(tmp_path)
    assert again.get("a", "n") == 4
    again.close()
