"""Knob steps and button presses to type names on the real on-screen keyboard
(``python -m display.checks.presses_keyboard``).

A simulated appliance (fake clock) is driven like a player with the knob: each knob detent is a
LEFT or RIGHT, each push an OK. The player heads for the next key the short way round and
watches the cursor: *slow* turns one detent every 0.3 s all the way; *fast* spins (a detent
every 0.05 s) while more than 3 keys away, then slows down to land. Printed:

1. a 3-letter name typed from an empty field, then DONE (the median over ten names);
2. a recent name picked (one of the last table's players, when the keyboard offers them);
3. a 4-player Co-Mix table set up from the Co-Mix menu to round 1 (New game, four names,
   Start): with four new names, and with the four names of the last game.

Only the knob and OK are counted: a name is finished by holding OK (one press), SHUTTER (also
Done) is not used. Before this keyboard (commit 82e66da) the same script printed: a 3-letter
name 32.5 steps + 4 presses (median, slow or fast alike: DONE was reached by turning), a recent
name 31 (typed), a 4-player table 141 (142 with last game's names).
"""

from __future__ import annotations

import inspect
import os
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from display.actions import Action

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Gus", "Ivy", "Max", "Sam", "Zoe"]
SLOW_GAP, FAST_GAP = 0.3, 0.05  # seconds between two detents
NEAR = 3  # keys from the target where a fast turner slows down
FOUR = ["Ann", "Ben", "Cat", "Dan"]
RECENT_KEY = ("names", "recent")


@dataclass
class Count:
    steps: int = 0  # knob detents
    presses: int = 0  # OK pushes

    def __str__(self) -> str:
        return f"{self.steps} knob steps + {self.presses} presses = {self.steps + self.presses}"


@contextmanager
def appliance() -> Iterator[Any]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    # local: pygame loads only now, after the dummy drivers are chosen above
    from display.clock import FakeClock
    from display.launch import RunOptions, build_app

    with tempfile.TemporaryDirectory(prefix="tk-presses-") as state:
        app = build_app(RunOptions(simulated=True, state_dir=Path(state)), FakeClock(), strict=True)
        app.start()
        try:
            yield app
        finally:
            app.close()


class Player:
    """Turns the knob and pushes OK on ``app``, counting."""

    def __init__(self, app: Any, fast: bool) -> None:
        self.app = app
        self.fast = fast
        self.count = Count()

    def press(self, action: Any, gap: float = SLOW_GAP) -> None:
        self.app.clock.advance(gap)
        self.app.update()
        self.app.press(action)
        self.app.release(action)
        if action in (Action.LEFT, Action.RIGHT):
            self.count.steps += 1
        else:
            self.count.presses += 1

    def ok(self) -> None:
        self.press(Action.OK)

    def hold_ok(self) -> None:
        """Hold OK for the hold time (one press, however long)."""
        self.app.clock.advance(SLOW_GAP)
        self.app.update()
        self.app.press(Action.OK)
        for _ in range(int(self.app.config.buttons.hold_time / 0.1) + 2):
            self.app.clock.advance(0.1)
            self.app.update()
        self.app.release(Action.OK)
        self.count.presses += 1

    def turn_to(self, index_of: Any, target: int, size: int) -> None:
        """Turn until ``index_of()`` is ``target`` on a wheel of ``size`` positions."""
        for _ in range(500):
            here = index_of()
            if here == target:
                return
            right = (target - here) % size
            left = (here - target) % size
            action = Action.RIGHT if right <= left else Action.LEFT
            gap = FAST_GAP if self.fast and min(left, right) > NEAR else SLOW_GAP
            self.press(action, gap)
        raise RuntimeError("the cursor never reached its target")

    def on_key(self, label: str) -> None:
        keyboard = self.app.top
        labels = keyboard_keys(keyboard)
        self.turn_to(lambda: keyboard.cursor, labels.index(label), len(labels))
        self.ok()

    def type_name(self, name: str) -> None:
        """On the keyboard: pick ``name`` if it is offered whole, else type it and DONE."""
        keyboard = self.app.top
        if name in keyboard_keys(keyboard):
            self.on_key(name)
            return
        for character in name:
            labels = keyboard_keys(keyboard)
            if name in labels:  # offered once its first letters are typed
                self.on_key(name)
                return
            self.on_key(character.upper() if character != " " else "SPACE")
        self.hold_ok()  # Done, wherever the cursor is

    def choose_row(self, screen: Any, row: int, rows: int) -> None:
        self.turn_to(lambda: screen.selected, row, rows)
        self.ok()


def keyboard_keys(keyboard: Any) -> list[str]:
    keys = getattr(keyboard, "keys", None)
    if callable(keys):
        return list(keys())
    from display.widgets.keyboard import KEYS  # local: pygame loads inside appliance() only

    return list(KEYS)


def open_keyboard(app: Any) -> Any:
    from display.widgets.keyboard import KeyboardScreen  # local: pygame, inside appliance() only

    keyboard = KeyboardScreen(app, "Name", limit=16, **name_options(KeyboardScreen))
    app.push(keyboard)
    return keyboard


def name_options(cls: Any) -> dict[str, Any]:
    """Ask for a name keyboard (recent names offered) where the keyboard knows of names."""
    return {"names": True} if "names" in inspect.signature(cls).parameters else {}


def type_one(name: str, fast: bool, recent: list[str] | None = None) -> Count:
    with appliance() as app:
        if recent:
            app.store.put(*RECENT_KEY, recent)
        open_keyboard(app)
        player = Player(app, fast)
        player.type_name(name)
        if app.top.kind == "keyboard":
            raise RuntimeError("the keyboard did not close")
        return player.count


def comix_table(fast: bool, names: list[str], last_game: bool) -> Count:
    """From the Co-Mix menu to round 1's title, for four players called ``names``."""
    # local: the screens load pygame, inside appliance() only (after the dummy drivers)
    from display.screens.comix.common import load_game, save_game
    from display.screens.comix.menu import ComixMenuScreen
    from display.screens.comix.setup import SetupScreen
    from games.comix import Game, TableSetup

    with appliance() as app:
        if last_game:  # the same four played last time (their names typed then)
            save_game(app, Game.new(TableSetup.create(names)))
            app.store.put(*RECENT_KEY, list(names))
        menu = ComixMenuScreen(app)
        app.push(menu)
        player = Player(app, fast)
        labels = [label for label, _, _ in menu.entries()]
        player.choose_row(menu, labels.index("New game"), len(labels))
        setup = app.top
        player.choose_row(setup, SetupScreen.ROWS.index("names"), len(SetupScreen.ROWS))
        names_screen = app.top
        for seat, name in enumerate(names):
            player.choose_row(names_screen, seat, len(names) + 1)
            player.type_name(name)
        player.choose_row(names_screen, len(names), len(names) + 1)  # Done
        player.choose_row(setup, SetupScreen.ROWS.index("start"), len(SetupScreen.ROWS))
        game = load_game(app)
        if game is None or list(game.setup.players) != names or app.top.kind != "comix.title":
            raise RuntimeError("the table was not set up")
        return player.count


def report() -> list[str]:
    lines = []
    for fast in (False, True):
        pace = "fast" if fast else "slow"
        typed = [type_one(name, fast) for name in NAMES]
        steps = statistics.median(c.steps for c in typed)
        presses = statistics.median(c.presses for c in typed)
        worst = max(typed, key=lambda c: c.steps + c.presses)
        lines.append(
            f"3-letter name, {pace} turns: median {steps:g} knob steps + {presses:g} presses "
            f"(worst {worst.steps + worst.presses}; {', '.join(NAMES)})"
        )
        picked = type_one("Cat", fast, recent=["Dan", "Cat", "Ben", "Ann"])
        lines.append(f"recent name (Cat, 2nd of 4 recent), {pace} turns: {picked}")
        lines.append(f"4-player table, new names, {pace} turns: {comix_table(fast, FOUR, False)}")
        lines.append(
            f"4-player table, last game's names, {pace} turns: {comix_table(fast, FOUR, True)}"
        )
    return lines


def main() -> int:
    for line in report():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
