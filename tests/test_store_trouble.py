"""The state store when the card is in trouble (issue 35): only a real corruption verdict moves
the file aside; a locked, unreadable or planted file is refused with one line and left as it
was; a second process on one state folder is refused naming the first; the appliance waits and
tries again instead of starting fresh; a writer that stops answering is shown and bounded."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pygame
import pytest

from display import launch
from display import store as store_module
from display.cli import main
from display.launch import RunOptions, StateUnavailableError, build_app, open_store
from display.store import DB_NAME, Store, StoreError, StoreUnavailable

ROOT = Path(__file__).resolve().parents[1]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _a_game(state: Path) -> Path:
    store = Store(state)
    store.put("comix", "game", {"round": 3})
    store.commit()
    store.close()
    return state / DB_NAME


def _nothing_moved_aside(state: Path) -> bool:
    return not any(".corrupt-" in p.name or ".foreign-" in p.name for p in state.iterdir())


def _script(tmp_path: Path) -> Path:
    script = tmp_path / "script.txt"
    script.write_text("press right\n")
    return script


def test_a_locked_database_is_refused_not_moved_aside(tmp_path: Path) -> None:
    db_path = _a_game(tmp_path)
    before = _digest(db_path)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreUnavailable, match="locked"):
            Store(tmp_path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _nothing_moved_aside(tmp_path) and _digest(db_path) == before
    again = Store(tmp_path)  # once the other program lets go, the game is there
    assert again.get("comix", "game") == {"round": 3} and again.notices == []
    again.close()


def test_a_symlinked_state_file_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    target = tmp_path / "passwd-copy"
    target.write_text("root:x:0:0:root:/root:/bin/bash\n")
    target.chmod(0o644)
    state = tmp_path / "state"
    state.mkdir()
    (state / DB_NAME).symlink_to(target)
    with pytest.raises(StoreError, match="symbolic link"):
        Store(state)
    assert (target.stat().st_mode & 0o777) == 0o644
    assert target.read_text().startswith("root:x")
    dangling = tmp_path / "state2"
    dangling.mkdir()
    (dangling / DB_NAME).symlink_to(tmp_path / "created-by-nobody")
    with pytest.raises(StoreError, match="symbolic link"):
        Store(dangling)
    assert not (tmp_path / "created-by-nobody").exists()


@pytest.mark.parametrize("companion", ["", "-wal"])
def test_a_fifo_or_a_directory_is_refused(tmp_path: Path, companion: str) -> None:
    db_path = _a_game(tmp_path)
    odd = Path(str(db_path) + companion)
    if companion:
        odd.unlink(missing_ok=True)
        os.mkfifo(odd)
    else:
        odd.unlink()
        odd.mkdir()
    with pytest.raises(StoreError, match="not a regular file"):
        Store(tmp_path)
    assert _nothing_moved_aside(tmp_path)


def test_the_cli_refuses_in_one_line_and_leaves_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    (state / "x").mkdir(parents=True)
    (state / DB_NAME).symlink_to(state / "x")
    code = main(["run", "--sim", "--script", str(_script(tmp_path)), "--state-dir", str(state)])
    err = capsys.readouterr().err
    assert code == 2 and "symbolic link" in err and len(err.strip().splitlines()) == 1
    assert (state / DB_NAME).is_symlink()


def test_a_second_process_on_one_state_folder_is_refused_naming_the_first(
    tmp_path: Path,
) -> None:
    _a_game(tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from display.store import Store; s = Store(sys.argv[1]); "
            "print('open', flush=True); time.sleep(30)",
            str(tmp_path),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with pytest.raises(StoreUnavailable, match=f"process {holder.pid}"):
            Store(tmp_path)
    finally:
        holder.kill()
        holder.wait()
    Store(tmp_path).close()  # the lock went with the process


def test_the_appliance_waits_for_its_state_and_never_starts_fresh(tmp_path: Path) -> None:
    db_path = _a_game(tmp_path)
    aside = tmp_path / "kept"
    db_path.rename(aside)
    db_path.mkdir()  # the state cannot be opened: not a regular file
    reasons: list[str] = []

    def wait(reason: str) -> bool:
        reasons.append(reason)
        db_path.rmdir()  # the owner puts it right while the message shows
        aside.rename(db_path)
        return True

    store = open_store(RunOptions(state_dir=tmp_path), write_behind=False, wait=wait)
    assert len(reasons) == 1 and "not a regular file" in reasons[0]
    assert store.get("comix", "game") == {"round": 3}
    store.close()
    db_path.unlink()
    db_path.mkdir()
    with pytest.raises(StateUnavailableError):  # the person gave up (closed the window)
        open_store(RunOptions(state_dir=tmp_path), write_behind=False, wait=lambda r: False)


# -- a writer that stops answering ---------------------------------------------------------------
def _stall(store: Store) -> tuple[threading.Event, threading.Event]:
    inside, release = threading.Event(), threading.Event()

    def hold(s: Store) -> None:
        inside.set()
        release.wait(30)

    store.observers.append(hold)
    return inside, release


def test_a_stalled_writer_is_shown_and_close_is_bounded(tmp_path: Path) -> None:
    store = Store(tmp_path, write_behind=True)
    inside, release = _stall(store)
    store.put("a", "n", 1)
    store.commit()
    assert inside.wait(5)
    store.put("a", "n", 2)
    store.commit()
    assert store.saving_trouble(stalled_after=60) is None  # a slow card is not yet trouble
    time.sleep(0.1)
    trouble = store.saving_trouble(stalled_after=0.05)
    assert trouble is not None and trouble.startswith("Not saving") and "2 changes wait" in trouble
    started = time.monotonic()
    with pytest.raises(StoreError, match="not saved: commits 1-2"):
        store.close(timeout=0.3)
    assert time.monotonic() - started < 2
    release.set()


def test_a_failed_write_is_a_lasting_banner_until_a_write_succeeds(tmp_path: Path) -> None:
    store = Store(tmp_path, write_behind=True)
    store.db.execute("PRAGMA query_only = ON")  # the card refuses writes
    store.put("a", "n", 1)
    store.commit()
    assert store.flush(5)
    trouble = store.saving_trouble()
    assert trouble is not None and trouble.startswith("Cannot save") and "read-only" in trouble
    time.sleep(0.05)
    assert store.saving_trouble() == trouble  # lasting, not a toast
    store.db.execute("PRAGMA query_only = OFF")
    store.put("a", "n", 2)
    store.commit()
    assert store.flush(5) and store.saving_trouble() is None
    assert len(store.take_failures()) == 1
    store.close()


def test_the_app_draws_the_not_saving_banner(tmp_path: Path) -> None:
    app = build_app(RunOptions(simulated=True, state_dir=tmp_path, write_behind=True))
    try:
        app.render()
        clean = pygame.Surface.copy(app.surface)
        app.store.db.execute("PRAGMA query_only = ON")
        app.store.put("a", "n", 1)
        app.save()
        assert app.store.flush(5)
        app.update()
        app.render()
        top = [app.surface.get_at((x, 40))[:3] for x in range(0, app.surface.get_width(), 4)]
        before = [clean.get_at((x, 40))[:3] for x in range(0, clean.get_width(), 4)]
        assert top != before  # the banner covers the header
        app.store.db.execute("PRAGMA query_only = OFF")
    finally:
        app.close()


def test_the_app_stops_within_the_bound_and_says_what_was_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(store_module, "CLOSE_TIMEOUT", 0.3)
    app = build_app(RunOptions(simulated=True, state_dir=tmp_path, write_behind=True))
    inside, release = _stall(app.store)
    try:
        app.store.put("a", "n", 1)
        app.save()
        assert inside.wait(5)
        app.store.put("a", "n", 2)
        started = time.monotonic()
        app.close()  # SIGTERM's path: must end well inside systemd's TimeoutStopSec
        assert time.monotonic() - started < 3
        assert "tablekeeper: not saved: commits" in capsys.readouterr().err
    finally:
        release.set()


def test_the_wait_screen_shows_the_reason_and_feeds_the_watchdog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(launch, "STORE_RETRY_SECONDS", 0.3)
    pings: list[str] = []

    class Recorder:
        def ready(self, status: str = "") -> bool:
            pings.append("READY")
            return True

        def status(self, text: str) -> bool:
            pings.append(text)
            return True

        def watchdog(self, now: float) -> bool:
            pings.append("WATCHDOG")
            return True

    wait = launch.StateWait(RunOptions(simulated=True, state_dir=tmp_path), Recorder())  # type: ignore[arg-type]
    try:
        assert wait("the card is full (database or disk is full)") is True
        assert pings[0] == "READY" and "the card is full" in pings[1]
        assert pings.count("WATCHDOG") >= 2
        assert wait.window is not None and wait.window.get_at((5, 5))[:3] == (12, 12, 16)
        wait.stopped = True  # SIGTERM or the window closed
        assert wait("still full") is False
    finally:
        pygame.display.quit()
