"""Persistent app state: one SQLite database in the state directory.

What is stored:

* ``screens`` - the screen stack, one row per screen: its ``kind`` and its JSON ``snapshot()``.
  The app rewrites it after every handled event and rebuilds the stack from it on start-up.
* ``data`` - a small JSON key/value store in namespaces, for game state that outlives a screen
  (``store.put("comix", "game", {...})``). Values must be JSON-able.

Writes join one open transaction that :meth:`Store.commit` ends; the app commits after every
event, so the stack and the game data of one event land together or not at all.

Observers: ``store.observers`` holds callables run after every COMMIT that wrote something, once
SQLite has returned from it (the data is then durable). Development harnesses use them to watch
the store (``display/checks/child.py`` logs every committed state for the power-cut check); the
appliance itself registers none.

Durability: WAL journal with ``synchronous=FULL``. In WAL mode NORMAL keeps the database
consistent but may lose the last few commits on power loss; FULL fsyncs the WAL on every commit,
so a button press that was acknowledged on screen survives pulling the plug. Commits happen only
on player actions (a few per minute), so the fsync cost is irrelevant.

Safety: a file that is not a SQLite database, fails ``quick_check``, or belongs to another
application (wrong ``application_id``) is *moved aside* (``state.db.corrupt-<time>`` /
``.foreign-<time>``, with its -wal/-shm files), never deleted, and the reason is kept in
:attr:`Store.notices` for the screen. A database from a newer Tablekeeper (higher schema version)
is refused with :class:`StoreError` and left untouched. Older schema versions are migrated.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

APPLICATION_ID = 0x54424B50  # "TBKP": marks the file as ours
SCHEMA_VERSION = 1
DB_NAME = "state.db"


class StoreError(Exception):
    """The state cannot be used (newer schema, unwritable directory)."""


def default_state_dir(environ: dict[str, str] | None = None) -> Path:
    """$STATE_DIRECTORY (systemd StateDirectory=), else $XDG_STATE_HOME/tablekeeper."""
    env = os.environ if environ is None else environ
    if env.get("STATE_DIRECTORY"):
        # systemd may pass several colon-separated directories; the first is ours.
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tablekeeper"


def _migrate_0_to_1(db: sqlite3.Connection) -> None:
    db.execute(
        "CREATE TABLE screens (position INTEGER PRIMARY KEY, kind TEXT NOT NULL, "
        "snapshot TEXT NOT NULL)"
    )
    db.execute(
        "CREATE TABLE data (namespace TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, "
        "PRIMARY KEY (namespace, key))"
    )


# MIGRATIONS[n] turns schema n into n + 1. Add new ones at the end and bump SCHEMA_VERSION.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_migrate_0_to_1]


class Store:
    """The state database. Open with ``Store(state_dir)``; see the module docstring."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = Path(state_dir)
        self.path = self.state_dir / DB_NAME
        self.notices: list[str] = []
        #: called with the store after each commit that wrote something (see module docstring)
        self.observers: list[Callable[[Store], None]] = []
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)  # ballots: private
        except OSError as error:
            raise StoreError(
                f"cannot create the state directory {self.state_dir}: {error}"
            ) from error
        self.db = self._open_checked()

    # -- opening ------------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None)  # we manage transactions
        # The file holds sealed ballots: only its owner (the service user) may read it. SQLite
        # gives the -wal and -shm files the same mode as the database.
        os.chmod(self.path, 0o600)
        db.execute("PRAGMA busy_timeout = 2000")
        return db

    def _open_checked(self) -> sqlite3.Connection:
        problem = None
        db = self._connect()
        try:
            problem = self._problem_with(db)
        except sqlite3.DatabaseError as error:
            problem = ("corrupt", f"it is not a readable database ({error})")
        if problem is not None:
            db.close()
            self._move_aside(*problem)
            db = self._connect()
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")  # see module docstring: power-cut safety
            self._migrate(db)
        except sqlite3.DatabaseError as error:
            db.close()
            raise StoreError(f"cannot use {self.path}: {error}") from error
        return db

    def _problem_with(self, db: sqlite3.Connection) -> tuple[str, str] | None:
        """None if the file is ours (or empty); else (label, reason) for moving it aside."""
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        if app_id == 0 and not tables:
            return None  # brand-new file
        if app_id != APPLICATION_ID:
            return ("foreign", "it belongs to another program")
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            return ("corrupt", f"it is damaged ({check})")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            db.close()
            raise StoreError(
                f"{self.path} was written by a newer Tablekeeper (state schema {version}; this "
                f"version knows up to {SCHEMA_VERSION}). Update Tablekeeper, or start it with "
                f"another --state-dir. The file was left untouched."
            )
        return None

    def _move_aside(self, label: str, reason: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{DB_NAME}.{label}-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{DB_NAME}.{label}-{stamp}-{n}")
        for suffix in ("", "-wal", "-shm"):
            companion = Path(str(self.path) + suffix)
            if companion.exists():
                companion.rename(Path(str(target) + suffix))
        self.notices.append(
            f"The saved state could not be used because {reason}. It was moved to "
            f"{target} and Tablekeeper started fresh."
        )

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            for step in range(version, SCHEMA_VERSION):
                MIGRATIONS[step](db)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # -- transactions -------------------------------------------------------------------------
    def _begin(self) -> None:
        if not self.db.in_transaction:
            self.db.execute("BEGIN")

    @property
    def dirty(self) -> bool:
        """True when writes are waiting for :meth:`commit`."""
        return self.db.in_transaction

    def commit(self) -> None:
        if self.db.in_transaction:
            self.db.execute("COMMIT")
            for observer in self.observers:
                observer(self)

    def close(self) -> None:
        try:
            self.commit()
        finally:
            self.db.close()

    # -- key/value data -----------------------------------------------------------------------
    def put(self, namespace: str, key: str, value: Any) -> None:
        """Store a JSON-able value (committed with the next app save)."""
        text = json.dumps(value, sort_keys=True)
        self._begin()
        self.db.execute(
            "INSERT INTO data (namespace, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
            (namespace, key, text),
        )

    def get(self, namespace: str, key: str, default: Any = None) -> Any:
        row = self.db.execute(
            "SELECT value FROM data WHERE namespace = ? AND key = ?", (namespace, key)
        ).fetchone()
        return default if row is None else json.loads(row[0])

    def delete(self, namespace: str, key: str) -> None:
        self._begin()
        self.db.execute("DELETE FROM data WHERE namespace = ? AND key = ?", (namespace, key))

    def items(self, namespace: str) -> dict[str, Any]:
        rows = self.db.execute(
            "SELECT key, value FROM data WHERE namespace = ? ORDER BY key", (namespace,)
        )
        return {key: json.loads(value) for key, value in rows}

    # -- the screen stack ---------------------------------------------------------------------
    def save_stack(self, stack: list[dict[str, Any]]) -> None:
        """``stack`` = [{"kind": ..., "snapshot": {...}}, ...], bottom first."""
        rows = [
            (i, entry["kind"], json.dumps(entry["snapshot"], sort_keys=True))
            for i, entry in enumerate(stack)
        ]
        self._begin()
        self.db.execute("DELETE FROM screens")
        self.db.executemany("INSERT INTO screens (position, kind, snapshot) VALUES (?, ?, ?)", rows)

    def load_stack(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT kind, snapshot FROM screens ORDER BY position")
        return [{"kind": kind, "snapshot": json.loads(snapshot)} for kind, snapshot in rows]

    def dump(self) -> dict[str, Any]:
        """Everything, as JSON-able data: {"schema_version", "screens", "data": {ns: {k: v}}}."""
        data: dict[str, dict[str, Any]] = {}
        for namespace, key, value in self.db.execute(
            "SELECT namespace, key, value FROM data ORDER BY namespace, key"
        ):
            data.setdefault(namespace, {})[key] = json.loads(value)
        return {"schema_version": SCHEMA_VERSION, "screens": self.load_stack(), "data": data}
