"""The child process of the power-cut harness: a scripted ``tablekeeper run`` that logs every
commit.

Run as ``python -m display.checks.child TAP CLOCK_START -- run --sim --script ...``. The
arguments after ``--`` are those of ``tablekeeper run`` (parsed by the real command line); the
run is the same scripted run (:func:`display.launch.run_script`), watched through its observer
interface - the store's commit observers and the script runner's observer - and never patched.
After each committed transaction of the state store it appends one JSON line to TAP::

    {"commit": n, "step": i, "step_clock": t0, "clock": t, "wall": w, "state": {...}}

``commit`` counts commits from 1, ``step`` is the index (0-based) of the script step being
played (-1 before the first), ``step_clock`` the app clock when that step began, ``clock`` the app
clock at the commit, ``wall`` the wall clock (to measure a cut) and ``state`` what the database
now holds (``screens`` and ``data``). A line is written only after SQLite returned from COMMIT
(fsynced, ``synchronous=FULL``), so a commit that appears in TAP must survive a SIGKILL. Lines
``{"tick": t}`` record the app clock after each update, so the harness knows how far the app had
got when it was killed.

CLOCK_START sets where the fake app clock starts (a scripted run normally starts at 1000.0);
a resumed run starts on an unrelated value, as after a real reboot.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from display.cli import CliError, build_parser
from display.clock import FakeClock
from display.launch import LaunchError, RunOptions, run_script
from display.script import ScriptError, Step
from display.store import Store


class Tap:
    """The run's observer: one JSON line per commit and per clock tick (see the module doc)."""

    def __init__(self, path: str, clock: FakeClock) -> None:
        self.file = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 - lives with the process
        self.clock = clock
        self.commits = 0
        self.step = -1
        self.step_clock = 0.0
        self.last_tick: float | None = None

    def write(self, record: dict[str, Any]) -> None:
        self.file.write(json.dumps(record, sort_keys=True) + "\n")

    def committed(self, store: Store) -> None:
        self.commits += 1
        dump = store.dump()
        self.write(
            {
                "commit": self.commits,
                "step": self.step,
                "step_clock": self.step_clock,
                "clock": self.clock.now(),
                "wall": time.time(),
                "state": {"screens": dump["screens"], "data": dump["data"]},
            }
        )

    def step_started(self, index: int, step: Step) -> None:
        self.step = index
        self.step_clock = self.clock.now()

    def updated(self) -> None:
        now = self.clock.now()
        if now != self.last_tick:
            self.last_tick = now
            self.write({"tick": now})


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[2] != "--":
        print("usage: python -m display.checks.child TAP CLOCK_START -- ARGS...", file=sys.stderr)
        return 2
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    args = build_parser().parse_args(argv[3:])
    options = RunOptions.from_args(args)
    if options.script is None or not options.simulated:
        print("the power-cut child plays `run --sim --script FILE` only", file=sys.stderr)
        return 2
    clock = FakeClock(float(argv[1]))
    try:
        run_script(options, clock=clock, observer=Tap(argv[0], clock))
    except (CliError, LaunchError, ScriptError) as error:
        print(f"tablekeeper: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
