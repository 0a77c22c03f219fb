"""``tablekeeper bench timer``: how long after the configured duration the appliance declares
the Co-Mix sand timer's time up, on the real clock through the real app loop."""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from device import simulated
from display.app import App
from display.checks import CheckError
from display.launch import LaunchError, RunOptions, build_app
from display.screens.comix.common import NAMESPACE, SETTINGS_KEY, save_game
from display.screens.comix.timer import ScriptingScreen
from games.comix import Game, TableSetup


@dataclass
class TimerReport:
    seconds: float
    errors: list[float] = field(default_factory=list)  # declared - pressed - seconds, per run
    ok: bool = True

    def lines(self) -> list[str]:
        errors, seconds = self.errors, self.seconds
        lines = [
            f"run {run:2d}: time up declared {late * 1000:+7.1f} ms after {seconds:g} s"
            for run, late in enumerate(errors, start=1)
        ]
        lines.append(
            f"sand timer {seconds:g} s, {len(errors)} runs (positive = late): "
            f"median {statistics.median(errors) * 1000:+.1f} ms, "
            f"min {min(errors) * 1000:+.1f} ms, max {max(errors) * 1000:+.1f} ms"
        )
        return lines


def measure_time_up(seconds: float, runs: int) -> TimerReport:
    """For each run: press SEAT 1 on a mock pin (the first story done flips the timer), run the
    appliance loop as ``tablekeeper run`` does (poll, update, render, frame pacing at the
    configured fps) and note on the real monotonic clock when the scripting screen declares time
    up. Records (declared - pressed - seconds) per run. The press lands at a random point of a
    frame, as a real one does, so the figure includes the wait for the next frame's poll."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    report = TimerReport(seconds)
    with tempfile.TemporaryDirectory(prefix="tablekeeper-bench-timer-") as state:
        try:
            app = build_app(RunOptions(simulated=True, state_dir=Path(state)))
        except LaunchError as error:
            raise CheckError(str(error)) from None
        try:
            app.store.put(NAMESPACE, SETTINGS_KEY, {"timer_seconds": seconds})
            pygame.display.init()
            with warnings.catch_warnings():  # "no fast renderer" under the dummy video driver
                warnings.simplefilter("ignore")
                app.surface = pygame.display.set_mode(app.size, pygame.SCALED)
            spread = random.Random(1)
            for _ in range(runs):
                report.errors.append(_one_run(app, seconds, spread))
        finally:
            app.close()
            pygame.display.quit()
    return report


def _one_run(app: App, seconds: float, spread: random.Random) -> float:
    ticker = pygame.time.Clock()
    fps = app.config.screen.fps
    game = Game.new(TableSetup.create(["Ann", "Ben", "Cat", "Dan"]))
    game.set_title("Bench")
    save_game(app, game)
    app.go_home()
    screen = ScriptingScreen(app, game)
    app.push(screen)
    app.update()
    app.render()
    ticker.tick(fps)
    simulated.press(app.hardware, "seat_1")
    pressed = time.monotonic()
    # A real press lands anywhere in a frame: wait like the loop's frame pacing would
    time.sleep(spread.uniform(0.0, 1.0 / fps))
    declared = None
    while declared is None:
        for event in pygame.event.get():
            app.handle_pygame_event(event)
        app.update()
        if app.top is screen and screen.game.round.scripting.timed_out:
            declared = time.monotonic()
        app.render()
        pygame.display.flip()
        ticker.tick(fps)
        if time.monotonic() - pressed > seconds + 30:
            raise CheckError("the sand timer never declared time up")
    simulated.release(app.hardware, "seat_1")
    app.update()
    return declared - pressed - seconds
