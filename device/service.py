"""The appliance as a systemd service: how it last stopped, shown on the next start.

Two witnesses write into the state directory when the appliance dies, and the next start shows
what they saw (once):

* ``last-exit`` - written by the unit's ``ExecStopPost=`` from systemd's ``$SERVICE_RESULT``,
  ``$EXIT_CODE`` and ``$EXIT_STATUS`` whenever the service stopped other than cleanly. It sees
  what the app cannot: a watchdog kill, SIGKILL, running out of memory.
* ``last-crash.json`` - written by the app itself (:func:`record_crash`) for an exception that
  ends the run: its type, message and where.

:func:`take_last_failure` reads both into one :class:`LastFailure` and moves the files aside
(``*.seen``), so a failure is shown on the next start and not on every one after. Nothing here
imports pygame or knows about screens: the display decides how to show :meth:`LastFailure.sentence`.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

LAST_EXIT = "last-exit"
LAST_CRASH = "last-crash.json"

# systemd's $SERVICE_RESULT values (systemd.exec(5)), in words.
RESULTS = {
    "exit-code": "it exited with an error",
    "signal": "it was killed by a signal",
    "core-dump": "it crashed (core dump)",
    "watchdog": "its screen loop hung and the watchdog restarted it",
    "timeout": "it did not start or stop in time",
    "oom-kill": "it ran out of memory",
    "resources": "systemd could not give it what it needs (user, folders)",
    "start-limit-hit": "it failed too often in a row",
    "protocol": "it broke the start-up protocol with systemd",
}


@dataclass(frozen=True)
class LastFailure:
    """How the appliance last stopped unexpectedly; any field may be missing."""

    when: float | None = None  # seconds since the epoch
    result: str | None = None  # systemd's SERVICE_RESULT, e.g. "watchdog"
    exit_code: str | None = None  # systemd's EXIT_CODE: exited | killed | dumped
    exit_status: str | None = None  # a number, or a signal name such as KILL
    exception: str | None = None  # "RuntimeError: the bar broke"
    where: str | None = None  # "display/app.py line 88, in update"

    def sentence(self) -> str:
        when = (
            time.strftime(" at %H:%M on %d %b", time.localtime(self.when))
            if self.when is not None
            else ""
        )
        why = RESULTS.get(self.result or "", "")
        if not why and self.exit_status not in (None, ""):
            why = f"it stopped with status {self.exit_status}"
        text = f"The appliance stopped unexpectedly{when}" + (f": {why}." if why else ".")
        if self.exception:
            text += f" Last error: {self.exception}" + (f" ({self.where})." if self.where else ".")
        return text + " It was restarted; saved games are kept."


def _read_key_values(path: Path) -> dict[str, str]:
    values = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values[key.strip()] = value.strip()
    return values


def read_last_failure(state_dir: Path) -> LastFailure | None:
    """What ``last-exit`` and ``last-crash.json`` in ``state_dir`` say, or None if neither is
    there (or both are unreadable: a damaged note is not worth a crash)."""
    exit_path, crash_path = state_dir / LAST_EXIT, state_dir / LAST_CRASH
    try:
        exited = _read_key_values(exit_path) if exit_path.is_file() else None
        crash = json.loads(crash_path.read_text(encoding="utf-8")) if crash_path.is_file() else None
    except (OSError, ValueError):
        return None
    if not isinstance(crash, dict):
        crash = None
    if exited is None and crash is None:
        return None
    exited = exited or {}
    crash = crash or {}
    when: float | None = None
    if exited.get("when", "").isdigit():
        when = float(exited["when"])
    elif isinstance(crash.get("when"), int | float):
        when = float(crash["when"])
    return LastFailure(
        when=when,
        result=exited.get("result") or None,
        exit_code=exited.get("code") or None,
        exit_status=exited.get("status") or None,
        exception=str(crash.get("exception") or "") or None,
        where=str(crash.get("where") or "") or None,
    )


def take_last_failure(state_dir: Path) -> LastFailure | None:
    """:func:`read_last_failure`, then move the notes aside so it is shown only once."""
    failure = read_last_failure(state_dir)
    for name in (LAST_EXIT, LAST_CRASH):
        path = state_dir / name
        try:
            if path.exists():
                os.replace(path, path.with_name(name + ".seen"))
        except OSError:
            pass  # a read-only state directory: shown again next time, no harm
    return failure


def record_crash(
    state_dir: Path,
    error: BaseException,
    tb: TracebackType | None = None,
    now: Callable[[], float] = time.time,
) -> Path:
    """Write ``last-crash.json`` for ``error`` (atomically: a half-written note is worse than
    none) and return its path."""
    frames = traceback.extract_tb(tb if tb is not None else error.__traceback__)
    where = None
    if frames:
        last = frames[-1]
        where = f"{_short_path(last.filename)} line {last.lineno}, in {last.name}"
    note = {"when": now(), "exception": f"{type(error).__name__}: {error}", "where": where}
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / LAST_CRASH
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(note) + "\n", encoding="utf-8")
    os.replace(temporary, path)
    return path


def _short_path(filename: str) -> str:
    """``.../site-packages/display/app.py`` -> ``display/app.py``."""
    parts = Path(filename).parts
    for index in range(len(parts) - 1, -1, -1):
        if parts[index] in ("display", "device", "games", "vision"):
            return "/".join(parts[index:])
    return Path(filename).name
