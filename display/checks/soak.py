"""A night of play: hours of random but legal button presses and photos on the injected clock.

One simulated appliance (the real screens, mock pins, a camera fed from a pool of generated
photos: Remix hands, Mixtape columns, a solo set-up, a black frame, noise) is driven by a random
player who only presses what the screen's legend offers (plus the seat buttons and, on a screen
that takes text, a name), waits between presses like people do (a few seconds, sometimes
minutes, the sand timer running out...), now and then photographs the table, and once in a
while holds BACK to go home and picks another game. Every few simulated seconds a frame is
drawn, as the real loop does.

Checked: no exception (the app runs *strict*: a screen that raises stops the soak with the
traceback), no stuck screen (the saved state must keep changing: ``STUCK_PRESSES`` presses in a
row that change nothing fail the run), and the resident memory after the first simulated hour
(fonts, caches and the gallery loaded) against the end: growth must stay under ``MAX_GROWTH_MB``.
"""

from __future__ import annotations

import gc
import json
import os
import random
import shutil
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from device import simulated
from display.actions import SEAT_ACTIONS, Action
from display.app import App
from display.checks.scenarios import (
    FOUR,
    REMIX_HANDS,
    _enrol_solo_deck,
    _remix_names,
    ballot_presses,
    comix_setup,
    reveal_presses,
)
from display.checks.scenes import columns_scene, enrol_directly, scene, write
from display.clock import FakeClock
from display.launch import RunOptions, build_app
from display.screen import Screen
from display.screens.comix.menu import ComixMenuScreen
from display.screens.home import HOME_ENTRIES
from display.screens.remix.table import RemixTableScreen
from display.script import ScriptRunner, parse_script
from display.widgets.words import count

STUCK_PRESSES = 400
PAUSES = [0.3, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0]  # seconds between presses, plus longer ones
MAX_GROWTH_MB = 10.0
NAV_ACTIONS = (Action.LEFT, Action.RIGHT, Action.OK, Action.BACK, Action.SHUTTER)
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Zoë", "Al", "Mo"]


def rss_mb() -> float:
    """Resident memory of this process (Linux /proc), in MB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class SoakReport:
    simulated_hours: float = 0.0
    real_seconds: float = 0.0
    presses: int = 0
    photos: int = 0
    texts: int = 0
    comix_rounds: int = 0  # whole Co-Mix rounds played (set-up to reveal)
    frames: int = 0
    screens: Counter[str] = field(default_factory=Counter)
    memory: list[tuple[float, float]] = field(default_factory=list)  # (sim hours, RSS MB)
    problems: list[str] = field(default_factory=list)

    @property
    def growth_mb(self) -> float:
        """RSS at the end minus RSS after the first simulated hour (or the first sample)."""
        if len(self.memory) < 2:
            return 0.0
        warm = next((mb for hours, mb in self.memory if hours >= 1.0), self.memory[0][1])
        return self.memory[-1][1] - warm

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        kinds = ", ".join(f"{kind} {n}" for kind, n in self.screens.most_common())
        samples = " ".join(f"{h:.1f}h:{mb:.1f}" for h, mb in self.memory)
        return [
            f"soak: {self.simulated_hours:.2f} simulated hours in {self.real_seconds:.0f} s: "
            f"{self.presses} presses, {self.photos} photos, {self.texts} typed names, "
            f"{self.comix_rounds} whole Co-Mix rounds, {self.frames} frames drawn",
            f"screens seen (presses on each): {kinds}",
            f"memory (RSS MB by simulated hour): {samples}",
            f"memory growth after the first hour: {self.growth_mb:+.1f} MB "
            f"(limit {MAX_GROWTH_MB:.0f} MB)",
            *[f"FAILED {problem}" for problem in self.problems],
            "soak: " + ("OK" if not self.problems else count(len(self.problems), "problem")),
        ]


def photo_pool(folder: Path) -> list[Path]:
    """Generated photos the random player lays under the camera."""

    names = _remix_names()
    folder.mkdir(parents=True, exist_ok=True)
    photos = []
    for index, hand in enumerate(REMIX_HANDS.values()):
        photos.append(write(folder / f"remix-{index}.jpg", scene([names[i] for i in hand], index)))
    photos.append(write(folder / "mixtape.jpg", columns_scene(["EX01", "EX02"], ["EX03"], 5)))
    photos.append(write(folder / "solo-2.jpg", scene(["EX02", "EX03"], 61)))
    photos.append(write(folder / "solo-3.jpg", scene(["EX05", "EX06", "EX07"], 62)))
    photos.append(write(folder / "one-card.jpg", scene(["EX40"], 64)))
    photos.append(write(folder / "black.jpg", np.zeros((480, 640, 3), np.uint8)))
    noise = np.random.default_rng(3).integers(0, 255, (600, 800, 3)).astype(np.uint8)
    photos.append(write(folder / "noise.jpg", noise))
    return photos


def prepare_state(state: Path) -> None:
    """Both decks enrolled, as on a table that has been set up."""

    enrol_directly(state, "remix", _remix_names())
    _enrol_solo_deck(state)


def comix_episode(app: Any, rng: random.Random) -> list[str]:
    """Script lines for a whole Co-Mix round from the home screen: a new game for four, a
    random done order (the sand may run out), storytelling, four random legal ballots, the
    reveal."""

    lines = ["press left"] * int(app.top.snapshot().get("selected", 0)) + ["press ok"]
    menu = ComixMenuScreen(app)
    entries = [what for _, _, what in menu.entries()]
    lines += ["press right"] * entries.index("new") + ["press ok"]
    if "continue" in entries and entries[0] == "continue":  # a game in progress: end it
        lines += ["press right", "hold ok 2"]
    lines += comix_setup(FOUR, rounds=1)[2:]  # (home and menu already done)
    lines.append("press ok")  # the drawn title
    done = rng.sample(range(1, 5), rng.randint(1, 4))
    for seat in done:
        lines += [f"press seat{seat}", f"advance {rng.uniform(1, 25):.1f}"]
    if len(done) < 4:
        lines.append("advance 95")  # the sand runs out
    lines += ["press ok"] + ["press ok"] * len(FOUR)  # storytelling
    hand = ["original", "exciting", "composed", "neutral", "neutral"]
    for _reviewer in FOUR:
        tokens = rng.sample(hand, len(FOUR))  # four of the five: always a Neutral among them
        ballot = {story: [token] for story, token in zip(FOUR, tokens, strict=True)}
        lines += ballot_presses(FOUR, ballot)
    return lines + reveal_presses()


def warm_up(app: Any, photos: list[Path]) -> None:
    """Every photo of the pool read once on the real Remix hand screen before the night starts
    (the gallery, the recogniser and the photo surfaces reach their working size, as on an
    appliance after its first hands): memory measured after the first hour is then growth, not
    the moment the random player happened to lay its largest photo."""
    for photo in photos:
        app.push(RemixTableScreen(app))
        app.camera.queue_file(photo)
        app.press(Action.SHUTTER)
        app.release(Action.SHUTTER)
        app.render()
        app.go_home()
    app.save()


def legal_actions(screen: Any) -> list[Action]:
    """What the screen's legend offers, plus the seat buttons (always within reach)."""
    actions: list[Action] = []
    try:
        legend = screen.legend()
    except Exception:  # noqa: BLE001 - drawing code reports it; the player still has buttons
        legend = []
    for key, _ in legend:
        keys = key if isinstance(key, tuple) else (key,)
        actions += [k for k in keys if isinstance(k, Action)]
    return actions or [Action.OK, Action.BACK]


def run_soak(hours: float = 6.0, seed: int = 0, workdir: Path | None = None) -> SoakReport:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    report = SoakReport()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tk-soak-") as scratch:
        base = workdir or Path(scratch)
        state = base / "state"
        if state.exists():
            shutil.rmtree(state)
        prepare_state(state)
        photos = photo_pool(base / "photos")
        clock = FakeClock()
        app = build_app(RunOptions(simulated=True, state_dir=state), clock, strict=True)
        warm_up(app, photos)
        Soak(app, clock, random.Random(seed), report, photos).play(hours)
    if report.growth_mb >= MAX_GROWTH_MB:
        report.problems.append(f"memory grew by {report.growth_mb:.1f} MB")
    report.real_seconds = time.monotonic() - started
    return report


class Soak:
    """One simulated appliance and the random player at its table."""

    def __init__(
        self,
        app: App,
        clock: FakeClock,
        rng: random.Random,
        report: SoakReport,
        photos: list[Path],
    ) -> None:
        self.app, self.clock, self.rng, self.report, self.photos = app, clock, rng, report, photos
        self.runner = ScriptRunner(app, clock, None, None)
        self.begin = clock.now()
        self.next_frame = self.begin
        self.next_sample = self.begin
        self.next_home = self.begin + rng.uniform(180, 900)

    def hours(self) -> float:
        return (self.clock.now() - self.begin) / 3600

    def play(self, hours: float) -> None:
        """Play until ``hours`` of app clock have passed, a screen is stuck or one raises."""
        app, clock, report = self.app, self.clock, self.report
        end = self.begin + hours * 3600
        unchanged = 0
        last_state = ""
        try:
            while end - clock.now() > 1e-6:
                self.wait(end)
                if not self.act():
                    continue  # the button is not wired in this config (e.g. a sixth seat)
                now_state = json.dumps(app.stack_snapshot(), sort_keys=True, default=str)
                unchanged = unchanged + 1 if now_state == last_state else 0
                last_state = now_state
                if unchanged >= STUCK_PRESSES:
                    report.problems.append(
                        f"stuck on '{app.top.kind}': {STUCK_PRESSES} presses changed nothing"
                    )
                    break
            gc.collect()
            report.memory.append((self.hours(), rss_mb()))
        except Exception as error:
            report.problems.append(
                f"exception on '{app.top.kind}' after {self.hours():.2f} h: "
                f"{type(error).__name__}: {error}\n{traceback.format_exc()[-1500:]}"
            )
        finally:
            report.simulated_hours = self.hours()
            app.close()

    def wait(self, end: float) -> None:
        """A pause like a table's, drawing a frame every two seconds on the way."""
        clock, rng = self.clock, self.rng
        pause = rng.choice(PAUSES + [rng.uniform(0, 30), rng.uniform(30, 150)])
        target = min(end, clock.now() + pause)
        while target - clock.now() > 1e-6:
            step = min(target - clock.now(), max(0.1, self.next_frame - clock.now()))
            self.runner.advance(step)
            if clock.now() >= self.next_frame:
                self.app.render()
                self.report.frames += 1
                self.next_frame = clock.now() + 2.0
        if clock.now() >= self.next_sample:
            gc.collect()
            self.report.memory.append((self.hours(), rss_mb()))
            self.next_sample = clock.now() + 1800

    def act(self) -> bool:
        """One thing a player does: go home and pick a game, type a name, or press a button.
        False when the button chosen is not wired (nothing happened)."""
        screen = self.app.top
        self.report.screens[screen.kind] += 1
        if self.clock.now() >= self.next_home:
            self.go_home_and_play()
        elif screen.takes_text and self.rng.random() < 0.3:
            self.app.type_text(self.rng.choice(NAMES))
            self.app.update()
            self.report.texts += 1
        else:
            return self.press_something(screen)
        return True

    def go_home_and_play(self) -> None:
        rng, report = self.rng, self.report
        for _ in range(6):  # a held BACK leaves one screen or a stack of them (a timer: one)
            self.runner.run(_steps(["hold back 2"]))
            if self.app.top.kind == "home":
                break
        if rng.random() < 0.3:  # a whole Co-Mix round, as a table plays it
            lines = comix_episode(self.app, rng)
            report.comix_rounds += 1
        else:
            picks = rng.randrange(len(HOME_ENTRIES))
            lines = ["press right"] * picks + ["press ok"]
        for step in _steps(lines):  # a frame after each, as the loop would
            self.runner.run([step])
            self.app.render()
            report.frames += 1
        self.next_home = self.clock.now() + rng.uniform(180, 900)
        report.presses += 1 + sum(line.startswith("press") for line in lines)

    def press_something(self, screen: Screen) -> bool:
        rng = self.rng
        actions = legal_actions(screen)
        roll = rng.random()
        if roll < 0.1:
            actions = list(SEAT_ACTIONS)  # a seat button, whatever the screen
        elif roll < 0.2:
            actions = list(NAV_ACTIONS)  # any button within reach
        action = rng.choice(actions)
        if action is Action.SHUTTER:
            camera: Any = self.app.camera
            camera.queue_file(rng.choice(self.photos))
            self.report.photos += 1
        if not self._press(action.value.lower()):
            return False
        self.report.presses += 1
        return True

    def _press(self, name: str) -> bool:
        """Press and release a button through its mock pin; False if it is not wired."""
        app = self.app
        try:
            simulated.press(app.hardware, name)
        except KeyError:
            return False  # not wired in this config (e.g. a sixth seat)
        app.update()
        simulated.release(app.hardware, name)
        app.update()
        return True


def _steps(lines: list[str]) -> Any:
    return parse_script("\n".join(lines))
