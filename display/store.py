"""Persistent app state: one SQLite database in the state directory.

What is stored:

* ``screens`` - the screen stack, one row per screen: its ``kind`` and its JSON ``snapshot()``.
  The app rewrites it after every handled event and rebuilds the stack from it on start-up.
* ``data`` - a small JSON key/value store in namespaces, for game state that outlives a screen
  (``store.put("comix", "game", {...})``). Values must be JSON-able.

Writes (``put``, ``delete``, ``save_stack``) take effect at once for every read of this process
(the store keeps the whole state in memory; it is small) and gather into one *batch* that
:meth:`Store.commit` hands to the disk; the app commits after every event, so the stack and the
game data of one event land together or not at all. ``commit()`` returns the batch's number;
:attr:`Store.durable` is the number of the last batch that reached the disk.

Two ways to write a batch:

* synchronous (the default; scripted runs and tests): ``commit()`` writes and fsyncs before it
  returns, so ``durable`` equals its number at once and a failure raises ``sqlite3.Error``.
* write-behind (``Store(dir, write_behind=True)``, the appliance): a writer thread owns the
  commits, so an fsync on a slow SD card never stalls a frame. ``commit()`` hands the batch over
  and returns; batches handed over while the writer is busy are merged, so a burst (the sand
  timer saving every second, a fast knob spin) costs one commit, and only the latest state is
  written. A failed commit is kept and merged into the next one; its message waits in
  :meth:`Store.take_failures` for the app to show. :meth:`Store.flush` waits for the writer;
  :meth:`Store.close` flushes. The app sounds a press's beep only once ``durable`` has reached
  the press's batch (``App._handle_and_save``): an acknowledged press is on the disk.

Either way, every state on the disk is one the app had after some whole event.

Observers: ``store.observers`` holds callables run after every COMMIT that wrote something, once
SQLite has returned from it (the data is then durable); under write-behind they run on the
writer thread, before ``durable`` moves on. Development harnesses use them to watch the store
(``display/checks/child.py`` logs every committed state for the power-cut check, in a
synchronous scripted run); the appliance itself registers none.

Durability: WAL journal with ``synchronous=FULL``. In WAL mode NORMAL keeps the database
consistent but may lose the last few commits on power loss; FULL fsyncs the WAL on every commit,
so a button press that was acknowledged survives pulling the plug. ``fsync_delay`` (seconds)
adds a pause to every commit, to measure a slow SD card on a fast disk (``bench ui --fsync-ms``).

Safety: only SQLite's own verdict that the file is damaged (``SQLITE_CORRUPT``,
``SQLITE_NOTADB``, a failing ``quick_check``) or that it belongs to another application (wrong
``application_id``) moves it *aside* (``state.db.corrupt-<time>`` / ``.foreign-<time>``, with
its -wal/-shm files), never deleted, with the reason kept in :attr:`Store.notices` for the
screen. Anything else - a locked file, a full, read-only or failing card, a file that cannot be
opened, a chmod or rename refused - is :class:`StoreUnavailable`: one sentence, and the file is
left exactly as it was (the appliance shows the sentence and tries again,
``display.launch.open_store``). A ``state.db`` (or -wal/-shm) that is a symbolic link or not a
regular file is refused: it is opened with ``O_NOFOLLOW`` and made private with ``fchmod`` on
the open descriptor, so no file outside the state folder is ever touched. ``state.lock`` (an
fcntl lock, gone with the process however it ends) keeps a second appliance off the folder and
names the process holding it. A database from a newer Tablekeeper (higher schema version) is
refused with :class:`StoreError` and left untouched. Older schema versions are migrated.

A writer that stops answering: :meth:`Store.saving_trouble` gives the lasting banner's sentence
(a failed write, or the disk behind the app for more than :data:`STALLED_AFTER` s), and
:meth:`Store.close` waits at most :data:`CLOSE_TIMEOUT` s, then says which commits were not
saved.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import sqlite3
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from display.widgets.words import count

APPLICATION_ID = 0x54424B50  # "TBKP": marks the file as ours
SCHEMA_VERSION = 1
DB_NAME = "state.db"
LOCK_NAME = "state.lock"  # held (fcntl) by the process using the folder
#: free space below which a failure to open the state is put down to a full card
FULL_BELOW_BYTES = 64 * 1024
#: seconds a write-behind commit may wait for the card before the screen says "Not saving"
STALLED_AFTER = 4.0
#: seconds Store.close() waits for the writer (the unit's TimeoutStopSec must be longer)
CLOSE_TIMEOUT = 5.0


class StoreError(Exception):
    """The state cannot be used (newer schema, a full, locked or read-only card, a planted
    link...). The files were left untouched; the message is one sentence for the owner."""


class StoreUnavailable(StoreError):
    """The state cannot be opened *now* (the card is full, read-only or locked, another
    Tablekeeper holds the folder): the appliance shows the message and tries again."""


#: SQLite's primary result codes that mean "this file is not a sound database of ours": only
#: these move a file aside. Every other failure (locked, full, read-only, cannot open, I/O error,
#: permission) is the card's or the system's trouble, and the file is left where it is.
_CORRUPTION_CODES = frozenset({"SQLITE_NOTADB", "SQLITE_CORRUPT"})

#: A plain-words reason for SQLite's other primary result codes.
_SQLITE_REASONS = {
    "SQLITE_FULL": "the card is full",
    "SQLITE_BUSY": "the state file is locked by another program",
    "SQLITE_LOCKED": "the state file is locked by another program",
    "SQLITE_READONLY": "the card or the state file is read-only",
    "SQLITE_CANTOPEN": "the state file cannot be opened",
    "SQLITE_IOERR": "the card could not be read or written (I/O error)",
    "SQLITE_PERM": "permission denied",
    "SQLITE_AUTH": "permission denied",
}

_OS_REASONS = {
    errno.ENOSPC: "the card is full",
    errno.EDQUOT: "the card is full (quota)",
    errno.EROFS: "the card is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EIO: "the card could not be read or written (I/O error)",
}


#: SQLite's primary result codes by number (an extended code's low byte is its primary code).
_PRIMARY_CODES = {
    3: "SQLITE_PERM",
    5: "SQLITE_BUSY",
    6: "SQLITE_LOCKED",
    8: "SQLITE_READONLY",
    10: "SQLITE_IOERR",
    11: "SQLITE_CORRUPT",
    13: "SQLITE_FULL",
    14: "SQLITE_CANTOPEN",
    23: "SQLITE_AUTH",
    26: "SQLITE_NOTADB",
}


def _primary_code(error: sqlite3.Error) -> str:
    """SQLITE_BUSY for SQLITE_BUSY_SNAPSHOT and so on ("" when SQLite gave no code)."""
    code = getattr(error, "sqlite_errorcode", None)
    return "" if code is None else _PRIMARY_CODES.get(code & 0xFF, "")


def is_corruption(error: sqlite3.Error) -> bool:
    """True when SQLite's verdict is that the file is damaged or not a database at all."""
    return _primary_code(error) in _CORRUPTION_CODES


def trouble_reason(error: BaseException) -> str:
    """Plain words for a failure to open or write the state (full, read-only, locked...)."""
    if isinstance(error, sqlite3.Error):
        reason = _SQLITE_REASONS.get(_primary_code(error))
        return f"{reason} ({error})" if reason else str(error)
    if isinstance(error, OSError):
        reason = _OS_REASONS.get(error.errno or 0)
        detail = error.strerror or str(error)
        return f"{reason} ({detail})" if reason and reason != detail else detail
    return str(error)


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


@dataclass
class Batch:
    """The writes of one or more commits, written to the disk in one transaction."""

    number: int  # the last commit gathered in it
    values: dict[tuple[str, str], str | None] = field(default_factory=dict)  # None: deleted
    stack: list[tuple[str, str]] | None = None  # (kind, snapshot JSON), bottom first

    def then(self, later: Batch) -> Batch:
        """This batch followed by ``later``: what the disk holds after writing both."""
        return Batch(
            later.number,
            {**self.values, **later.values},
            later.stack if later.stack is not None else self.stack,
        )


class Store:
    """The state database. Open with ``Store(state_dir)``; see the module docstring."""

    def __init__(
        self, state_dir: Path, *, write_behind: bool = False, fsync_delay: float = 0.0
    ) -> None:
        self.state_dir = Path(state_dir)
        self.path = self.state_dir / DB_NAME
        self.notices: list[str] = []
        #: called with the store after each commit that wrote something (see module docstring)
        self.observers: list[Callable[[Store], None]] = []
        self.fsync_delay = fsync_delay
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)  # ballots: private
        except OSError as error:
            raise StoreUnavailable(
                f"cannot create the state directory {self.state_dir}: {trouble_reason(error)}"
            ) from error
        self._lock_fd: int | None = self._take_folder_lock()
        try:
            self.db = self._open_checked()
            self._values: dict[tuple[str, str], str] = {
                (namespace, key): value
                for namespace, key, value in self.db.execute(
                    "SELECT namespace, key, value FROM data"
                )
            }
            self._stack: list[tuple[str, str]] = list(
                self.db.execute("SELECT kind, snapshot FROM screens ORDER BY position")
            )
        except sqlite3.Error as error:
            self._release_folder_lock()
            raise self._refusal(error) from error
        except BaseException:
            self._release_folder_lock()
            raise
        self._batch = Batch(0)  # writes since the last commit()
        self._dirty = False
        self._committed = 0  # the number of the last commit() that wrote something
        self._writer = _Writer(self._write) if write_behind else None

    # -- opening ------------------------------------------------------------------------------
    def _refusal(self, error: BaseException) -> StoreUnavailable:
        reason = trouble_reason(error)
        if self._card_full() and "full" not in reason:
            # SQLite reports a full card while it sets up its shared memory as an I/O error
            reason = f"the card is full ({error})"
        return StoreUnavailable(
            f"cannot use the saved state {self.path}: {reason}; nothing was changed in it"
        )

    def _card_full(self) -> bool:
        try:
            return shutil.disk_usage(self.state_dir).free < FULL_BELOW_BYTES
        except OSError:
            return False

    def _take_folder_lock(self) -> int:
        """Hold ``state.lock`` (an fcntl lock: released when this process ends, however it
        ends), so a second appliance on the same folder is refused, naming the holder."""
        lock_path = self.state_dir / LOCK_NAME
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise StoreError(f"{lock_path} is a symbolic link; refusing to use it") from None
            raise StoreUnavailable(
                f"cannot lock the state folder {self.state_dir}: {trouble_reason(error)}"
            ) from error
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise StoreError(f"{lock_path} is not a regular file; refusing to use it")
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                if error.errno not in (errno.EACCES, errno.EAGAIN):
                    raise StoreUnavailable(
                        f"cannot lock the state folder {self.state_dir}: {trouble_reason(error)}"
                    ) from error
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
                raise StoreUnavailable(
                    f"another Tablekeeper (process {holder}) is using the state folder "
                    f"{self.state_dir}; stop it first (or give this one another --state-dir)"
                ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _release_folder_lock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _check_regular(self) -> None:
        """Refuse a state file (or its -wal/-shm companion) that is a symbolic link or not a
        regular file: a link would make the service chmod or write whatever it points at, a
        FIFO would hang or fail every read."""
        for suffix in ("", "-wal", "-shm"):
            companion = Path(str(self.path) + suffix)
            try:
                mode = companion.lstat().st_mode
            except FileNotFoundError:
                continue
            except OSError as error:
                raise self._refusal(error) from error
            if stat.S_ISLNK(mode):
                raise StoreError(
                    f"{companion} is a symbolic link; refusing to use it (nothing was changed)"
                )
            if not stat.S_ISREG(mode):
                raise StoreError(
                    f"{companion} is not a regular file; refusing to use it (nothing was changed)"
                )

    def _connect(self) -> sqlite3.Connection:
        self._check_regular()
        # Opened (or created) here without following links, and made private through the open
        # descriptor: the file holds sealed ballots, only its owner (the service user) may read
        # it; SQLite gives the -wal and -shm files the same mode. The descriptor is closed
        # before SQLite takes any lock (closing a descriptor drops the process's fcntl locks).
        try:
            fd = os.open(
                self.path,
                os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                0o600,
            )
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise StoreError(f"{self.path} is a symbolic link; refusing to use it") from None
            raise self._refusal(error) from error
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise StoreError(f"{self.path} is not a regular file; refusing to use it")
            if stat.S_IMODE(info.st_mode) != 0o600:
                os.fchmod(fd, 0o600)
        except OSError as error:
            raise self._refusal(error) from error
        finally:
            os.close(fd)
        # we manage transactions; under write-behind the writer thread uses the connection
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA busy_timeout = 2000")
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _open_checked(self) -> sqlite3.Connection:
        """The database, checked; a file SQLite calls damaged or not a database, or one of
        another program, is moved aside. Any other failure is a :class:`StoreUnavailable`
        refusal with the file left where it was."""
        db = self._connect()
        try:
            problem = self._problem_with(db)
        except sqlite3.DatabaseError as error:
            if not is_corruption(error):
                db.close()
                raise self._refusal(error) from error
            problem = ("corrupt", f"it is not a readable database ({error})")
        except BaseException:
            db.close()
            raise
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
            raise self._refusal(error) from error
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
        while os.path.lexists(target):
            n += 1
            target = self.path.with_name(f"{DB_NAME}.{label}-{stamp}-{n}")
        try:
            for suffix in ("", "-wal", "-shm"):
                companion = Path(str(self.path) + suffix)
                if os.path.lexists(companion):
                    companion.rename(Path(str(target) + suffix))
        except OSError as error:
            raise StoreUnavailable(
                f"the saved state {self.path} is unusable ({reason}) and could not be moved "
                f"aside: {trouble_reason(error)}"
            ) from error
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

    # -- committing ---------------------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        """True when writes are waiting for :meth:`commit`."""
        return self._dirty

    @property
    def write_behind(self) -> bool:
        return self._writer is not None

    @property
    def committed(self) -> int:
        """The number of the last :meth:`commit` that wrote something (on the disk or not)."""
        return self._committed

    @property
    def durable(self) -> int:
        """The number of the last commit that reached the disk (see the module docstring)."""
        return self._writer.durable if self._writer is not None else self._committed

    def commit(self) -> int:
        """Hand the writes since the last commit to the disk; returns the commit's number
        (the previous one when nothing was written). Synchronous: written and fsynced when it
        returns (raises ``sqlite3.Error``). Write-behind: written by the writer thread."""
        if not self._dirty:
            return self._committed
        self._committed += 1
        batch = Batch(self._committed, self._batch.values, self._batch.stack)
        self._batch = Batch(self._committed)
        self._dirty = False
        if self._writer is not None:
            self._writer.hand_over(batch)
            return batch.number
        try:
            self._write(batch)
        except BaseException:
            # still waiting for the disk: the next commit tries again with its own writes
            self._batch = batch.then(self._batch)
            self._dirty = True
            self._committed -= 1
            raise
        return batch.number

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every commit handed over is on the disk (or failed); False on timeout."""
        return self._writer.flush(timeout) if self._writer is not None else True

    def take_failures(self) -> list[str]:
        """Messages of write-behind commits that failed since the last call (each commit's
        writes are kept and tried again with the next commit)."""
        return self._writer.take_failures() if self._writer is not None else []

    def _write(self, batch: Batch) -> None:
        db = self.db
        db.execute("BEGIN")
        try:
            for (namespace, key), value in batch.values.items():
                if value is None:
                    db.execute("DELETE FROM data WHERE namespace = ? AND key = ?", (namespace, key))
                else:
                    db.execute(
                        "INSERT INTO data (namespace, key, value) VALUES (?, ?, ?) "
                        "ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
                        (namespace, key, value),
                    )
            if batch.stack is not None:
                db.execute("DELETE FROM screens")
                db.executemany(
                    "INSERT INTO screens (position, kind, snapshot) VALUES (?, ?, ?)",
                    [(i, kind, snapshot) for i, (kind, snapshot) in enumerate(batch.stack)],
                )
            if self.fsync_delay > 0:
                time.sleep(self.fsync_delay)  # a slow SD card, simulated (bench ui --fsync-ms)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        for observer in self.observers:
            observer(self)

    def saving_trouble(self, stalled_after: float = STALLED_AFTER) -> str | None:
        """Why the latest state is not on the disk, for a lasting banner: a failed write (the
        card full or read-only), or a writer that has not finished for ``stalled_after``
        seconds (a card that stopped answering); None while saving keeps up."""
        if self._writer is None:
            return None  # synchronous: a failure is raised to the caller at once
        if self.durable >= self._committed and not self._dirty:
            return None
        failure = self._writer.last_failure
        if failure is not None:
            reason = trouble_reason(failure)
            if self._card_full() and "full" not in reason:
                reason = f"the card is full ({failure})"
            return (
                f"Cannot save: {reason}. Nothing has been lost yet; free space on the card or "
                f"change it"
            )
        lag = self._writer.lag(time.monotonic())
        if lag > stalled_after:
            return (
                f"Not saving: the card has not answered for {lag:.0f} s. Do not switch off: "
                f"{count(self._committed - self.durable, 'change')} wait"
            )
        return None

    def close(self, timeout: float | None = None) -> None:
        """Write what is left and close. Under write-behind the writer gets ``timeout`` seconds
        (default :data:`CLOSE_TIMEOUT`: systemd's stop timeout must not run out on a card that
        stopped answering); then :class:`StoreError` says which commits were not saved. A failed
        last write raises ``sqlite3.OperationalError``."""
        finished = True
        timeout = CLOSE_TIMEOUT if timeout is None else timeout
        try:
            if self._writer is not None:
                self.commit()
                finished = self._writer.close(timeout)
                if not finished:
                    durable = self._writer.durable
                    raise StoreError(
                        f"not saved: commits {durable + 1}-{self._committed} (the changes since "
                        f"commit {durable}) were still waiting for the card after {timeout:g} s"
                    )
                failures = self._writer.take_failures()
                if failures:
                    raise sqlite3.OperationalError(failures[-1])
            else:
                self.commit()
        finally:
            if finished:  # a stalled writer still uses the connection: the exit ends both
                self.db.close()
            self._release_folder_lock()

    # -- key/value data -----------------------------------------------------------------------
    def _change(self, namespace: str, key: str, value: str | None) -> None:
        if value is None:
            self._values.pop((namespace, key), None)
        else:
            self._values[(namespace, key)] = value
        self._batch.values[(namespace, key)] = value
        self._dirty = True

    def put(self, namespace: str, key: str, value: Any) -> None:
        """Store a JSON-able value (committed with the next app save)."""
        self._change(namespace, key, json.dumps(value, sort_keys=True))

    def get(self, namespace: str, key: str, default: Any = None) -> Any:
        text = self._values.get((namespace, key))
        return default if text is None else json.loads(text)

    def delete(self, namespace: str, key: str) -> None:
        self._change(namespace, key, None)

    def items(self, namespace: str) -> dict[str, Any]:
        return {
            key: json.loads(self._values[(space, key)])
            for space, key in sorted(self._values)
            if space == namespace
        }

    # -- the screen stack ---------------------------------------------------------------------
    def save_stack(self, stack: list[dict[str, Any]]) -> None:
        """``stack`` = [{"kind": ..., "snapshot": {...}}, ...], bottom first."""
        rows = [(entry["kind"], json.dumps(entry["snapshot"], sort_keys=True)) for entry in stack]
        self._stack = rows
        self._batch.stack = rows
        self._dirty = True

    def load_stack(self) -> list[dict[str, Any]]:
        return [{"kind": kind, "snapshot": json.loads(snapshot)} for kind, snapshot in self._stack]

    def dump(self) -> dict[str, Any]:
        """Everything, as JSON-able data: {"schema_version", "screens", "data": {ns: {k: v}}}."""
        data: dict[str, dict[str, Any]] = {}
        for namespace, key in sorted(self._values):
            data.setdefault(namespace, {})[key] = json.loads(self._values[(namespace, key)])
        return {"schema_version": SCHEMA_VERSION, "screens": self.load_stack(), "data": data}


class _Writer:
    """The write-behind thread: writes the latest batch handed over, merging those that arrive
    while it is busy (see the module docstring)."""

    def __init__(self, write: Callable[[Batch], None]) -> None:
        self._write = write
        self._changed = threading.Condition()
        self._waiting: Batch | None = None  # handed over, not yet being written
        self._failed: Batch | None = None  # failed; written again with the next batch
        self._busy = False
        self._closing = False
        self._failures: list[str] = []
        #: the last write's error while it has not been written since (None: writing works)
        self.last_failure: Exception | None = None
        #: monotonic time since when a batch handed over has been waiting for the disk
        self._pending_since: float | None = None
        self.durable = 0
        self._thread = threading.Thread(target=self._run, name="tablekeeper-store", daemon=True)
        self._thread.start()

    def hand_over(self, batch: Batch) -> None:
        with self._changed:
            self._waiting = batch if self._waiting is None else self._waiting.then(batch)
            if self._pending_since is None:
                self._pending_since = time.monotonic()
            self._changed.notify_all()

    def lag(self, now: float) -> float:
        """Seconds the oldest batch not yet on the disk has been waiting (0: none waits)."""
        with self._changed:
            return 0.0 if self._pending_since is None else now - self._pending_since

    def flush(self, timeout: float | None = None) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self._waiting is None and not self._busy, timeout)

    def take_failures(self) -> list[str]:
        with self._changed:
            failures, self._failures = self._failures, []
        return failures

    def close(self, timeout: float | None = None) -> bool:
        """Write what is waiting and stop; False when the thread is still busy after
        ``timeout`` seconds (it is a daemon thread: the process can still exit)."""
        with self._changed:
            self._closing = True
            if self._failed is not None and self._waiting is None:
                self._waiting, self._failed = self._failed, None  # one last try
            self._changed.notify_all()
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._waiting is not None or self._closing)
                if self._waiting is None:
                    return  # closing, and everything is written
                batch = self._waiting
                if self._failed is not None:
                    batch = self._failed.then(batch)
                    self._failed = None
                self._waiting = None
                self._busy = True
            try:
                self._write(batch)
            except Exception as error:  # a full or read-only disk: kept, shown by the app
                with self._changed:
                    self._failed = batch
                    self._failures.append(str(error))
                    self.last_failure = error
            finally:
                with self._changed:
                    if self._failed is not batch:
                        self.durable = batch.number
                        self.last_failure = None
                        self._pending_since = None if self._waiting is None else time.monotonic()
                    self._busy = False
                    self._changed.notify_all()
