"""A child appliance for the power-cut check of write-behind: it presses OK on the hardware test
screen again and again and prints ``acknowledged N`` the moment the N-th press's beep sounds.

Run as ``python -m display.checks.acknowledged STATE_DIR FSYNC_MS``. The app is the real one
(``build_app``, not strict, so its store writes behind on a thread, each commit slowed by
FSYNC_MS to widen the window a slow SD card has); only the presses are simulated, through the
mock pins. The parent SIGKILLs it right after reading a line: the press it names was
acknowledged, so it must be in the state directory on the next start. Right after each line the
child presses again, so the kill lands while the next commit is on its way to the disk.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from device import simulated
from display.launch import RunOptions, build_app
from display.screen import SCREENS

BEEP_WAIT = 10.0  # seconds: a commit slower than this is a hang, not a slow card


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m display.checks.acknowledged STATE_DIR FSYNC_MS", file=sys.stderr)
        return 2
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    options = RunOptions(
        simulated=True,
        state_dir=Path(argv[0]),
        write_behind=True,
        fsync_delay=float(argv[1]) / 1000,
    )
    app = build_app(options)
    app.push(SCREENS["hardware_test"](app))
    app.save()
    app.store.flush()
    presses = 0
    while True:
        app.hardware.silence()
        simulated.press(app.hardware, "ok")
        app.update()
        simulated.release(app.hardware, "ok")
        app.update()
        presses += 1
        deadline = time.monotonic() + BEEP_WAIT
        while not app.hardware.buzzing:  # the beep waits for the press's commit
            if time.monotonic() > deadline:
                print(f"press {presses} was never acknowledged", file=sys.stderr)
                return 1
            time.sleep(0.001)
            app.update()
        print(f"acknowledged {presses}", flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
