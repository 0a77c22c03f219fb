"""The child process of the power-cut harness: ``tablekeeper run`` with a tap on every commit.

Run as ``python -m display.robustness.child TAP CLOCK_START -- run --sim --script ...``. It runs
the real ``tablekeeper`` command line (:func:`display.cli.main`) and only *observes* it: after
each committed transaction of the state store it appends one JSON line to TAP::

    {"commit": n, "step": i, "step_clock": t0, "clock": t, "wall": w, "state": {...}}

``commit`` counts commits from 1, ``step`` is the index (0-based) of the script step being
played (-1 before the first), ``step_clock`` the app clock when that step began, ``clock`` the app
clock at the commit, ``wall`` the wall clock (to measure a cut) and ``state`` what the database
now holds (``screens`` and ``data``). A line
is written only after SQLite returned from COMMIT (fsynced, ``synchronous=FULL``), so a commit
that appears in TAP must survive a SIGKILL. Lines ``{"tick": t}`` record the app clock after each
update, so the harness knows how far the app had got when it was killed.

CLOCK_START sets where the fake app clock starts (the scripted runner always starts at 1000.0);
a resumed run starts on an unrelated value, as after a real reboot.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from typing import Any


class Tap:
    def __init__(self, path: str) -> None:
        self.file = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - lives with the process
        self.commits = 0
        self.step = -1
        self.step_clock = 0.0
        self.clock: Any = None
        self.last_tick: float | None = None

    def now(self) -> float:
        return float(self.clock.now()) if self.clock is not None else 0.0

    def write(self, record: dict[str, Any]) -> None:
        self.file.write(json.dumps(record, sort_keys=True) + "\n")


def install(tap: Tap, clock_start: float) -> None:
    """Patch the store, the runner and the fake clock so that they report to ``tap``."""
    import display.app
    import display.launch
    import display.script
    import display.store

    original_commit = display.store.Store.commit

    def commit(self: display.store.Store) -> None:
        pending = self.db.in_transaction
        original_commit(self)
        if pending:
            tap.commits += 1
            dump = self.dump()
            tap.write(
                {
                    "commit": tap.commits,
                    "step": tap.step,
                    "step_clock": tap.step_clock,
                    "clock": tap.now(),
                    "wall": time.time(),
                    "state": {"screens": dump["screens"], "data": dump["data"]},
                }
            )

    display.store.Store.commit = commit  # type: ignore[method-assign]

    class StartedClock(display.app.FakeClock):
        def __init__(self, start: float = clock_start) -> None:
            super().__init__(start)
            tap.clock = self

    display.launch.FakeClock = StartedClock  # type: ignore[misc]

    original_update = display.app.App.update

    def update(self: display.app.App) -> None:
        original_update(self)
        now = tap.now()
        if now != tap.last_tick:
            tap.last_tick = now
            tap.write({"tick": now})

    display.app.App.update = update  # type: ignore[method-assign]

    original_run = display.script.ScriptRunner.run

    def run(self: display.script.ScriptRunner, steps: list[Any]) -> None:
        def tracked() -> Iterator[Any]:
            for index, step in enumerate(steps):
                tap.step = index
                tap.step_clock = tap.now()
                yield step

        original_run(self, tracked())  # type: ignore[arg-type]

    display.script.ScriptRunner.run = run  # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[2] != "--":
        print(
            "usage: python -m display.robustness.child TAP CLOCK_START -- ARGS...", file=sys.stderr
        )
        return 2
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    tap = Tap(argv[0])
    install(tap, float(argv[1]))
    from display.cli import main as cli_main

    return cli_main(argv[3:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
