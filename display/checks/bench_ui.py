"""``tablekeeper bench ui``: start-up time of ``tablekeeper run --sim`` to its first frame
(separate processes, SDL dummy driver) and the frame time of the home screen."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from display.checks import CheckError
from display.launch import RunOptions, build_app


@dataclass
class UiReport:
    starts: list[float] = field(default_factory=list)  # seconds from spawn to the first frame
    frame_times: list[float] = field(default_factory=list)  # seconds per home-screen frame
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
        ]


def measure_ui(starts: int, frames: int) -> UiReport:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    report = UiReport()
    with tempfile.TemporaryDirectory(prefix="tablekeeper-bench-") as state:
        for _ in range(starts):
            report.starts.append(_first_frame(Path(state), env))
        report.frame_times = _home_frame_times(Path(state), frames, env)
    return report


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
