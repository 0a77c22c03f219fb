"""``tablekeeper bench ui``: start-up time of ``tablekeeper run --sim`` to its first frame
(separate processes, SDL dummy driver) and the frame time of the home screen.

With ``--presses N``, also a commit storm: the knob turned once a frame, N times, on the hardware
test screen (every turn is saved and beeps), at the configured frame rate, first with the
synchronous store (the commit's fsync inside the frame, as before write-behind) and then with
the appliance's write-behind store (display/store.py). ``--fsync-ms`` slows every commit down
to simulate a slow SD card on a fast disk; ``--disk-dir`` puts the state database on the disk to
measure (an SD card on a Pi). Printed per store: frame time median and worst, commits written,
and the time from a turn to its commit being on the disk (when its beep sounds), to a frame.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from device import simulated
from display.app import App
from display.checks import CheckError
from display.launch import RunOptions, build_app
from display.screen import SCREENS
from display.store import Store


@dataclass
class StormReport:
    """Frames during a commit storm with one kind of store."""

    store: str  # "synchronous" or "write-behind"
    frame_times: list[float] = field(default_factory=list)  # seconds: update + draw + flip
    commits_handed: int = 0  # commits the app made (one per turn)
    commits_written: int = 0  # transactions that reached the disk
    to_disk: list[float] = field(default_factory=list)  # seconds from a turn to its commit

    def line(self) -> str:
        ms = [t * 1000 for t in self.frame_times]
        disk = [t * 1000 for t in self.to_disk]
        return (
            f"  {self.store:<12} frame median {statistics.median(ms):6.2f} ms, worst "
            f"{max(ms):7.2f} ms; {self.commits_written} commits written for "
            f"{self.commits_handed} turns; turn to disk (beep) median "
            f"{statistics.median(disk):6.1f} ms, worst {max(disk):6.1f} ms"
        )


@dataclass
class UiReport:
    starts: list[float] = field(default_factory=list)  # seconds from spawn to the first frame
    frame_times: list[float] = field(default_factory=list)  # seconds per home-screen frame
    storms: list[StormReport] = field(default_factory=list)
    storm_setup: str = ""
    ok: bool = True

    def lines(self) -> list[str]:
        starts, ms = self.starts, [t * 1000 for t in self.frame_times]
        return [
            f"start-up to first frame (tablekeeper run --sim, {len(starts)} runs): "
            f"median {statistics.median(starts) * 1000:.0f} ms "
            f"(min {min(starts) * 1000:.0f}, max {max(starts) * 1000:.0f})",
            f"home screen frame time ({len(ms)} frames: update + draw + flip, 800x480): "
            f"median {statistics.median(ms):.2f} ms, 95th percentile "
            f"{sorted(ms)[int(len(ms) * 0.95) - 1]:.2f} ms",
            *([self.storm_setup] if self.storms else []),
            *(storm.line() for storm in self.storms),
        ]


def measure_ui(
    starts: int,
    frames: int,
    presses: int = 0,
    fsync_ms: float = 0.0,
    disk_dir: Path | None = None,
) -> UiReport:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    report = UiReport()
    with tempfile.TemporaryDirectory(prefix="tablekeeper-bench-") as state:
        for _ in range(starts):
            report.starts.append(_first_frame(Path(state), env))
        report.frame_times = _home_frame_times(Path(state), frames, env)
    if presses:
        if disk_dir is not None:
            try:
                disk_dir.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise CheckError(f"--disk-dir {disk_dir}: {error}") from None
        with tempfile.TemporaryDirectory(prefix="tablekeeper-storm-", dir=disk_dir) as disk:
            where = "a temporary folder" if disk_dir is None else str(disk_dir)
            report.storm_setup = (
                f"commit storm ({presses} knob turns, one a frame, hardware test screen; state "
                f"on {where}; {fsync_ms:g} ms added to every commit):"
            )
            for write_behind in (False, True):
                report.storms.append(_storm(Path(disk), presses, fsync_ms, write_behind))
    return report


def _storm(disk: Path, presses: int, fsync_ms: float, write_behind: bool) -> StormReport:
    name = "write-behind" if write_behind else "synchronous"
    report = StormReport(name)
    options = RunOptions(
        simulated=True,
        state_dir=disk / name,
        write_behind=write_behind,
        fsync_delay=fsync_ms / 1000,
    )
    app = build_app(options)
    written: list[int] = []
    try:
        app.push(SCREENS["hardware_test"](app))
        app.save()
        app.store.flush()
        app.store.observers.append(lambda store: written.append(1))
        pygame.display.init()
        app.surface = pygame.display.set_mode(app.size)
        _frame(app)  # warm-up (fonts, first blit): not part of the storm
        frame = 1 / app.config.screen.fps
        turned: dict[int, float] = {}  # commit number -> when its turn was made
        next_frame = time.perf_counter()
        for _ in range(presses):
            began = time.perf_counter()
            simulated.press(app.hardware, "right")
            simulated.release(app.hardware, "right")
            _frame(app)
            turned[app.store.committed] = began
            _note_durable(app.store, turned, report)
            report.frame_times.append(time.perf_counter() - began)
            next_frame += frame
            time.sleep(max(0.0, next_frame - time.perf_counter()))
        if not app.store.flush(60):
            raise CheckError(f"the {name} store did not write its commits within a minute")
        _note_durable(app.store, turned, report)  # the last turns' commits
        if turned:
            raise CheckError(f"the {name} store could not write: {app.store.take_failures()}")
        report.commits_handed = presses
        report.commits_written = len(written)
    finally:
        app.close()
        pygame.display.quit()
    return report


def _frame(app: App) -> None:
    for event in pygame.event.get():
        app.handle_pygame_event(event)
    app.update()
    app.render()
    pygame.display.flip()


def _note_durable(store: Store, turned: dict[int, Any], report: StormReport) -> None:
    now = time.perf_counter()
    for number in [n for n in turned if n <= store.durable]:
        report.to_disk.append(now - turned.pop(number))


def _first_frame(state: Path, env: dict[str, str]) -> float:
    command = [sys.executable, "-m", "display", "run", "--sim", "--state-dir", str(state)]
    command += ["--exit-after-frames", "1", "--report-first-frame"]
    spawned = time.time()
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise CheckError(f"`tablekeeper run --sim` failed: {result.stderr.strip()[-300:]}")
    line = next(x for x in result.stdout.splitlines() if x.startswith("first-frame"))
    return float(line.split()[2]) - spawned


def _home_frame_times(state_dir: Path, frames: int, env: dict[str, str]) -> list[float]:
    os.environ.update({k: env[k] for k in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER")})
    app = build_app(RunOptions(simulated=True, state_dir=state_dir / "frames"))
    try:
        app.go_home()
        pygame.display.init()
        app.surface = pygame.display.set_mode(app.size)  # dummy driver: nothing to scale
        times = []
        for _ in range(frames):
            began = time.perf_counter()
            for event in pygame.event.get():
                app.handle_pygame_event(event)
            app.update()
            app.render()
            pygame.display.flip()
            times.append(time.perf_counter() - began)
        return times
    finally:
        app.close()
        pygame.display.quit()
