"""Touch on the real app: finger events (all SDL gives without a desktop) tap legend keys, menu
rows, timer tiles and keyboard keys as a press would; a finger held on a legend key holds that
button; a desktop's mouse copy of a touch is not counted twice."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import Any

import pygame
import pytest

from device import simulated
from display import ui
from display.actions import Action
from display.app import App
from display.clock import FakeClock
from display.launch import RunOptions, build_app
from display.screens.comix.common import NAMESPACE, TIMER_KEY, save_game
from display.screens.comix.menu import ComixMenuScreen
from display.screens.comix.timer import ScriptingScreen
from display.widgets.keyboard import KEYS, KeyboardScreen
from games.comix import Game, TableSetup

FINGER_IDS = count(1)


pytestmark = pytest.mark.usefixtures("isolated_app")


def start(tmp_path: Path, config: str | None = None) -> tuple[App, FakeClock]:
    path = None
    if config is not None:
        path = tmp_path / "tablekeeper.toml"
        path.write_text(config, encoding="utf-8")
    clock = FakeClock(1000.0)
    options = RunOptions(simulated=True, state_dir=tmp_path / "state", config=path)
    return build_app(options, clock, True), clock


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    app, _ = start(tmp_path)
    yield app
    app.close()


def finger(app: App, kind: int, x: float, y: float, finger_id: int) -> pygame.event.Event:
    """A finger event at the canvas point (x, y), normalised over the window as SDL sends it."""
    window_x, window_y = app.panel.to_window(x, y)
    width, height = app.panel.size
    return pygame.event.Event(
        kind,
        touch_id=1,
        finger_id=finger_id,
        x=window_x / width,
        y=window_y / height,
        dx=0.0,
        dy=0.0,
        pressure=1.0,
    )


def touch(app: App, point: tuple[int, int]) -> int:
    """Put a finger down on the centre of canvas pixel ``point``; returns the finger's id."""
    finger_id = next(FINGER_IDS)
    app.render()  # the legend's and the screen's tap targets are those of the last frame
    app.handle_pygame_event(
        finger(app, pygame.FINGERDOWN, point[0] + 0.5, point[1] + 0.5, finger_id)
    )
    return finger_id


def lift(app: App, finger_id: int, point: tuple[int, int]) -> None:
    app.handle_pygame_event(finger(app, pygame.FINGERUP, point[0] + 0.5, point[1] + 0.5, finger_id))
    app.update()


def tap(app: App, point: tuple[int, int]) -> None:
    lift(app, touch(app, point), point)


def legend_key(app: App, action: Action) -> tuple[int, int]:
    app.render()
    return next(area for area, actions in app._legend_targets if action in actions).center


def in_content(app: App, rect: pygame.Rect) -> tuple[int, int]:
    """A screen's content rect (as it hands out for taps) in canvas pixels: its centre."""
    return rect.move(0, ui.HEADER_H if app.top.chrome else 0).center


def press(app: App, name: str) -> None:
    simulated.press(app.hardware, name)
    app.update()
    simulated.release(app.hardware, name)
    app.update()


def timer_over_menu(app: App) -> ScriptingScreen:
    game = Game.new(TableSetup.create(["Ann", "Ben", "Cat", "Dan"]))
    game.set_title("The Craziest Day of My Life")
    save_game(app, game)
    app.push(ComixMenuScreen(app))
    screen = ScriptingScreen(app, game)
    app.push(screen)
    return screen


# -- taps -------------------------------------------------------------------------------------
def test_a_finger_on_a_legend_key_presses_that_button(app: App):
    """Home's legend OK opens the highlighted entry, as the OK button does."""
    assert app.top.kind == "home"
    tap(app, legend_key(app, Action.OK))
    assert app.top.kind == "comix"


def test_a_finger_on_a_menu_row_and_on_a_timer_tile_do_what_a_press_does(app: App):
    home = app.top
    app.render()
    second_row = home._rows[1]  # type: ignore[attr-defined]
    tap(app, in_content(app, second_row))
    assert home.selected == 1 and app.top is home  # type: ignore[attr-defined]  # first tap selects
    tap(app, in_content(app, second_row))
    assert app.top.kind == "mixtape"  # the second opens it, as OK would

    screen = timer_over_menu(app)
    app.render()
    tap(app, in_content(app, screen._tiles[1]))
    assert screen.scripting.done_order == ["Ben"]  # as SEAT 2 declares Ben done
    assert screen.timer.running


def test_a_finger_on_a_keyboard_key_types_it(app: App):
    keyboard = KeyboardScreen(app, "Seat 1 name")
    app.push(keyboard)
    app.render()
    for letter in "Zo":
        tap(app, in_content(app, keyboard._keys[KEYS.index(letter.upper())]))
    assert keyboard.text == "Zo"


def test_a_desktops_mouse_copy_of_a_touch_is_not_counted_again(app: App):
    screen = timer_over_menu(app)
    app.render()
    point = in_content(app, screen._tiles[0])
    touched: dict[str, Any] = {"button": 1, "pos": point, "touch": True}
    app.handle_pygame_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, **touched))
    app.handle_pygame_event(pygame.event.Event(pygame.MOUSEBUTTONUP, **touched))
    assert screen.scripting.done_order == []  # the copy alone does nothing...
    finger_id = touch(app, point)
    app.handle_pygame_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, **touched))
    app.handle_pygame_event(pygame.event.Event(pygame.MOUSEBUTTONUP, **touched))
    lift(app, finger_id, point)
    assert screen.scripting.done_order == ["Ann"]  # ...and with the finger it is one tap,
    # where a second toggle would have taken Ann's declaration back
    mouse: dict[str, Any] = {"button": 1, "pos": in_content(app, screen._tiles[1]), "touch": False}
    app.handle_pygame_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, **mouse))
    assert screen.scripting.done_order == ["Ann", "Ben"]  # a real mouse click still counts


# -- holds ------------------------------------------------------------------------------------
def hold(app: App, clock: FakeClock, point: tuple[int, int], seconds: float) -> None:
    finger_id = touch(app, point)
    for _ in range(round(seconds * 10)):
        clock.advance(0.1)
        app.update()
        app.render()  # the legend changes under the finger ("Keep holding..."): still held
    lift(app, finger_id, point)


def test_a_finger_held_on_back_leaves_the_timer_and_a_short_touch_does_not(tmp_path: Path):
    app, clock = start(tmp_path)
    try:
        screen = timer_over_menu(app)
        press(app, "seat_1")  # the sand runs
        back = legend_key(app, Action.BACK)
        hold(app, clock, back, 0.5)
        assert app.top is screen  # too short: the legend says to keep holding
        assert any("Keep holding" in label for _, label in screen.legend())
        hold(app, clock, back, app.config.buttons.hold_time + 0.2)
        assert app.top.kind == "comix"  # the Co-Mix menu
        assert app.store.get(NAMESPACE, TIMER_KEY)["paused"]  # the sand waits there
        assert app._pressed == {}  # the lifted finger let go of BACK
    finally:
        app.close()


def test_a_lifted_finger_lets_go_so_no_hold_fires_later(tmp_path: Path):
    app, clock = start(tmp_path)
    try:
        screen = timer_over_menu(app)
        back = legend_key(app, Action.BACK)
        tap(app, back)
        for _ in range(30):
            clock.advance(0.1)
            app.update()
        assert app.top is screen
    finally:
        app.close()


def test_another_finger_lifting_does_not_let_go_of_a_held_key(app: App):
    app.push(ComixMenuScreen(app))
    back = legend_key(app, Action.BACK)
    first = touch(app, back)
    assert set(app._pressed) == {Action.BACK}
    second = touch(app, (5, 200))  # a tap beside the menu
    lift(app, second, (5, 200))
    assert set(app._pressed) == {Action.BACK}
    lift(app, first, back)
    assert app._pressed == {}


def test_finger_motion_is_not_a_tap(app: App):
    screen = timer_over_menu(app)
    app.render()
    x, y = in_content(app, screen._tiles[0])
    event = finger(app, pygame.FINGERMOTION, x + 0.5, y + 0.5, 7)
    app.handle_pygame_event(event)
    assert screen.scripting.done_order == []
