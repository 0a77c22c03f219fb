"""The state database under power cuts: torn WAL writes read back as the last whole commit; the
durability settings are the ones the README explains; a database from a newer Tablekeeper is
refused on the command line (exit 2, one line) and left byte for byte as it was."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from display.checks.torn import torn_write_cases
from display.cli import main
from display.store import DB_NAME, SCHEMA_VERSION, Store


def test_torn_wal_writes_read_back_as_the_last_whole_commit() -> None:
    report = torn_write_cases(150, commits=30, seed=1)
    assert report.failures == []
    assert report.cases == 150 and set(report.by_kind) == {"cut", "garbage", "zeroed"}


def test_the_store_runs_wal_with_full_sync(tmp_path: Path) -> None:
    store = Store(tmp_path)
    try:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    finally:
        store.close()


def _script(tmp_path: Path) -> Path:
    script = tmp_path / "script.txt"
    script.write_text("press right\n")
    return script


def test_newer_state_is_refused_by_the_cli_and_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    Store(state).close()
    db = sqlite3.connect(state / DB_NAME)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = hashlib.sha256((state / DB_NAME).read_bytes()).hexdigest()
    code = main(["run", "--sim", "--script", str(_script(tmp_path)), "--state-dir", str(state)])
    err = capsys.readouterr().err
    assert code == 2 and "newer Tablekeeper" in err and len(err.strip().splitlines()) == 1
    assert hashlib.sha256((state / DB_NAME).read_bytes()).hexdigest() == before


def test_older_state_is_migrated_and_runs(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    db = sqlite3.connect(state / DB_NAME)  # schema 0: an empty file of ours, from before tables
    db.execute("PRAGMA application_id = 1413630800")
    db.execute("CREATE TABLE leftovers (x)")
    db.commit()
    db.close()
    dump = tmp_path / "dump.json"
    code = main(
        ["run", "--sim", "--script", str(_script(tmp_path)), "--state-dir", str(state),
         "--dump-state", str(dump)]
    )  # fmt: skip
    assert code == 0 and f'"schema_version": {SCHEMA_VERSION}' in dump.read_text()
