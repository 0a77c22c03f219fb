"""The one keyboard, made fast: recent names as one-press keys, a letter wheel that jumps
further when the knob is turned fast. Driven on the real keyboard, names and table screens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flowkit import sim_app

from display.actions import Action
from display.screens.comix.setup import NamesScreen
from display.widgets.keyboard import KEYS, KeyboardScreen, recent_names, remember_names
from display.widgets.name_letters import next_letters


class Asker:
    """Records what the keyboard answered."""

    def __init__(self) -> None:
        self.answers: list[Any] = []


def detents(app: Any, action: Action, count: int, gap: float) -> None:
    for _ in range(count):
        app.clock.advance(gap)
        app.update()
        app.press(action)
        app.release(action)


def test_a_fast_turn_jumps_further_and_a_slow_one_steps_key_by_key(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        keyboard = KeyboardScreen(app, "Name")
        app.push(keyboard)
        assert keyboard.keys()[keyboard.cursor] == "A"  # no recent names: the wheel starts on A
        detents(app, Action.RIGHT, 4, gap=0.4)
        assert keyboard.keys()[keyboard.cursor] == "E"  # slow: one key a detent
        detents(app, Action.RIGHT, 4, gap=0.05)
        assert keyboard.keys()[keyboard.cursor] == "R"  # fast: 2 + 3 + 4 + 4 keys
        detents(app, Action.LEFT, 1, gap=0.05)
        assert keyboard.keys()[keyboard.cursor] == "Q"  # turning back starts with one key
        detents(app, Action.LEFT, 3, gap=0.0)  # same instant (a script): one key each
        assert keyboard.keys()[keyboard.cursor] == "N"
        detents(app, Action.RIGHT, 30, gap=0.4)
        assert keyboard.keys()[keyboard.cursor] == "M"  # round the whole wheel (31 keys) less 1


def test_recent_names_are_offered_first_and_picked_with_one_press(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        remember_names(app, ["Ann", "Ben", "Cat"])
        remember_names(app, ["Dan"])
        assert recent_names(app) == ["Dan", "Ann", "Ben", "Cat"]
        keyboard = KeyboardScreen(app, "Name", names=True, exclude=["Ann"])
        app.push(keyboard)
        assert keyboard.keys()[:3] == ["Dan", "Ben", "Cat"]  # Ann is taken at this table
        assert keyboard.keys()[keyboard.cursor] == "Dan" and keyboard.legend()[1][1] == "Pick"
        app.render()
        app.press(Action.RIGHT)
        app.press(Action.OK)  # one press: Ben
        assert app.top is not keyboard and recent_names(app)[0] == "Ben"


def test_typed_letters_narrow_the_names_offered_and_a_new_name_is_remembered(
    tmp_path: Path,
) -> None:
    with sim_app(tmp_path) as app:
        remember_names(app, ["Bea", "Cat", "Ben"])
        keyboard = KeyboardScreen(app, "Name", names=True)
        app.push(keyboard)
        keyboard.at = "B"
        app.press(Action.OK)
        assert keyboard.text == "B" and keyboard.keys()[:2] == ["Bea", "Ben"]
        # the cursor on the likeliest next letter of a name, the names just before it
        assert keyboard.keys()[keyboard.cursor] == keyboard.likeliest() == "E"
        keyboard.at = "O"
        app.press(Action.OK)
        assert keyboard.offered() == []  # "Bo": no recent name starts so
        keyboard.at = "B"
        app.press(Action.OK)
        app.press(Action.SHUTTER)
        assert recent_names(app) == ["Bob", "Bea", "Cat", "Ben"]


def test_a_plain_keyboard_offers_no_names_and_starts_on_done_over_text(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        remember_names(app, ["Ann"])
        keyboard = KeyboardScreen(app, "Name of this table", "Friday club")
        app.push(keyboard)
        assert keyboard.keys() == KEYS and keyboard.keys()[keyboard.cursor] == "DONE"
        app.press(Action.OK)
        assert recent_names(app) == ["Ann"]  # a table's name is not a player's


def test_the_names_screen_offers_last_game_seat_by_seat(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        remember_names(app, ["Ann", "Ben", "Cat", "Dan"])  # the last table, seat order
        names = NamesScreen(app, count=4)
        app.push(names)
        for seat, name in enumerate(["Ann", "Ben", "Cat", "Dan"]):
            app.press(Action.OK)  # the keyboard for this seat
            keyboard = app.top
            assert isinstance(keyboard, KeyboardScreen)
            assert keyboard.keys()[keyboard.cursor] == name, seat
            app.press(Action.OK)
        assert names.names[:4] == ["Ann", "Ben", "Cat", "Dan"] and names.selected == 4


def test_a_keyboard_saved_by_an_older_version_comes_back_on_its_key(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        old = {"prompt": "Name", "text": "An", "limit": 16, "cursor": 13}
        keyboard = KeyboardScreen.restore(app, old)
        assert isinstance(keyboard, KeyboardScreen)
        assert keyboard.keys()[keyboard.cursor] == "N" and keyboard.text == "An"
        again = KeyboardScreen.restore(app, keyboard.snapshot())
        assert isinstance(again, KeyboardScreen) and again.at == "N"


def test_holding_ok_finishes_without_the_letter_its_press_typed(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        names = NamesScreen(app, count=3)
        app.push(names)
        app.press(Action.OK)
        keyboard = app.top
        assert isinstance(keyboard, KeyboardScreen)
        keyboard.handle_text("Ann")
        keyboard.at = "Q"
        app.press(Action.OK)  # held: the Q it types is taken back, and the name is done
        for _ in range(16):
            app.clock.advance(0.1)
            app.update()
        app.release(Action.OK)
        assert app.top is names and names.names[0] == "Ann" and recent_names(app) == ["Ann"]
        app.press(Action.OK)
        app.press(Action.OK)  # a press types, as ever (the likeliest first letter of a name)
        assert isinstance(app.top, KeyboardScreen) and app.top.text == next_letters("", 1)[0]


def test_a_new_three_letter_name_by_knob_takes_at_most_12_presses(tmp_path: Path) -> None:
    """The likely next letters come first: after each letter the cursor is on the likeliest
    one, the others either side; the grid is unchanged for taps and typing."""
    from display.checks.presses_keyboard import NAMES, type_one

    counts = sorted(c.steps + c.presses for c in (type_one(name, fast=False) for name in NAMES))
    assert counts[len(counts) // 2] <= 12  # the median, slow turns (detents + OK + hold)
    with sim_app(tmp_path) as app:
        keyboard = KeyboardScreen(app, "Name", names=True)
        app.push(keyboard)
        keyboard.handle_text("Z")  # typed text: unchanged, the cursor on DONE
        assert keyboard.text == "Z" and keyboard.keys()[keyboard.cursor] == "DONE"
        assert keyboard.keys()[-len(KEYS) :] == KEYS  # the grid, as ever
