"""One confirm pattern everywhere: the safe choice preselected, clearing only after a hold of OK
(a press, or the OK that opened the question, never clears), then 10 s to undo with BACK. Driven
on the real Remix and Mixtape menus and Settings of a simulated appliance."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
from flowkit import sim_app

from display.actions import Action
from display.screens.mixtape.common import NAMESPACE as MIXTAPE
from display.screens.mixtape.common import SOLO_KEY
from display.screens.mixtape.menu import MixtapeMenuScreen
from display.screens.remix.common import NAMESPACE as REMIX
from display.screens.remix.menu import RemixMenuScreen
from display.screens.settings import SettingsScreen
from display.widgets.confirm import UNDO_SECONDS

TABLE = {
    "players": [
        {"name": "Ann", "total": 40, "valid": True},
        {"name": "Ben", "total": 31, "valid": True},
    ]
}


def tick(app: Any, seconds: float) -> None:
    """Let ``seconds`` of app clock pass, updating as the loop does."""
    steps = round(seconds / 0.1)
    for _ in range(steps):
        app.clock.advance(0.1)
        app.update()


def hold(app: Any, action: Action, seconds: float) -> None:
    app.press(action)
    tick(app, seconds)
    app.release(action)


def choose(app: Any, label: str) -> None:
    """Move the top menu's selection onto the row called ``label`` and press OK."""
    labels = [row[1] for row in app.top.rows()]
    app.top.selected = labels.index(label)
    app.press(Action.OK)
    app.release(Action.OK)


def legend_words(app: Any) -> list[str]:
    return [words for _, words in app.top.legend()]


def test_a_press_keeps_the_scores_and_a_hold_clears_them_with_undo(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        app.store.put(REMIX, "table", TABLE)
        menu = RemixMenuScreen(app)
        app.push(menu)
        choose(app, "New table")
        assert app.top.kind == "confirm"
        assert app.top.choice == 0  # "Keep scores" preselected
        app.press(Action.OK)  # OK on the safe choice: back, nothing cleared
        assert app.top is menu and app.store.get(REMIX, "table") == TABLE
        choose(app, "New table")
        app.press(Action.RIGHT)  # onto "Clear scores"
        app.press(Action.OK)
        app.release(Action.OK)  # a press: nothing cleared, it says to hold
        assert app.top.kind == "confirm" and app.top.asked_to_hold
        assert app.store.get(REMIX, "table") == TABLE
        app.press(Action.OK)
        tick(app, 0.8)
        assert 0.4 < app.top.held_fraction() < 0.7  # the bar fills as OK is held
        app.render()
        tick(app, 0.8)
        app.release(Action.OK)
        assert app.top is menu and app.store.get(REMIX, "table")["players"] == []
        assert app.store.get(REMIX, "previous_table") == TABLE
        assert "Undo" in legend_words(app)
        app.render()
        tick(app, 3)
        app.press(Action.BACK)  # within 10 s: everything back, still on the menu
        assert app.top is menu
        assert app.store.get(REMIX, "table") == TABLE
        assert app.store.get(REMIX, "previous_table") is None
        assert "Home" in legend_words(app)


def test_the_ok_that_opened_the_question_never_confirms_it(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        app.store.put(REMIX, "table", TABLE)
        app.push(RemixMenuScreen(app))
        app.top.selected = 1  # "New table"
        app.press(Action.OK)  # held on: the question appears under the finger
        confirm = app.top
        confirm.choice = 1  # even on the destructive choice
        tick(app, 2.0)
        app.release(Action.OK)
        assert app.top is confirm and app.store.get(REMIX, "table") == TABLE
        assert confirm.held_fraction() == 0.0


def test_the_undo_goes_after_ten_seconds_and_survives_a_restart(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        app.store.put(MIXTAPE, "table", TABLE)
        app.store.put(MIXTAPE, SOLO_KEY, {"round": 3})
        menu = MixtapeMenuScreen(app)
        app.push(menu)
        labels = [row[1] for row in menu.rows()]
        assert "New table" in labels and "New solo game" in labels
        choose(app, "New solo game")
        app.press(Action.LEFT)
        hold(app, Action.OK, 1.6)
        assert app.top is menu and app.store.get(MIXTAPE, SOLO_KEY) is None
        assert "New solo game" not in [row[1] for row in menu.rows()]  # nothing left to clear
        assert app.store.get(MIXTAPE, "table") == TABLE  # the table's scores untouched
        app.save()
    with sim_app(tmp_path) as app:  # restarted within the 10 s: the undo is still offered
        app.start()
        assert app.top.kind == "mixtape" and app.top.undo_live()
        tick(app, UNDO_SECONDS)
        assert not app.top.undo_live()
        app.press(Action.BACK)  # now BACK leaves, the solo game stays ended
        assert app.top.kind == "home" and app.store.get(MIXTAPE, SOLO_KEY) is None


def test_settings_clears_saved_games_only_after_a_hold_and_can_undo(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        app.store.put(REMIX, "table", TABLE)
        app.store.put("comix", "game", {"phase": "title"})
        settings = SettingsScreen(app)
        app.push(settings)
        settings.selected = 3  # "Clear saved games"
        app.press(Action.OK)
        app.release(Action.OK)
        assert app.top.kind == "confirm"
        app.press(Action.OK)  # the same OK again: keeps everything (the safe choice)
        app.release(Action.OK)
        assert app.top is settings and app.store.get("comix", "game") is not None
        app.press(Action.OK)
        app.release(Action.OK)
        app.press(Action.RIGHT)
        hold(app, Action.OK, 1.6)
        assert app.top is settings
        assert app.store.get("comix", "game") is None and app.store.get(REMIX, "table") is None
        surface = app.render()
        assert isinstance(surface, pygame.Surface)
        assert legend_words(app)[-1].startswith("Undo")
        app.press(Action.BACK)
        assert app.store.get("comix", "game") == {"phase": "title"}
        assert app.store.get(REMIX, "table") == TABLE
        assert app.top is settings  # the undo does not leave


def test_rematch_on_the_ranking_asks_the_menu_new_table_question(tmp_path: Path) -> None:
    from display.screens.remix.table import RemixRankingScreen, RemixTableScreen
    from display.widgets.keyboard import KeyboardScreen

    with sim_app(tmp_path) as app:
        app.store.put(REMIX, "table", TABLE)
        menu = RemixMenuScreen(app)
        app.push(menu)
        app.push(RemixTableScreen(app))
        app.push(RemixRankingScreen(app))
        assert app.top.legend()[0] == (Action.OK, "Rematch")
        app.press(Action.OK)
        app.release(Action.OK)
        assert app.top.kind == "confirm" and app.screens[-2] is menu
        app.press(Action.RIGHT)
        hold(app, Action.OK, 1.6)
        assert app.top is menu and app.store.get(REMIX, "table")["players"] == []
        table = RemixTableScreen(app)  # (no cards enrolled here: the menu would offer that)
        app.push(table)
        table.open("next")  # the same players offered first, in order
        keyboard = app.top
        assert isinstance(keyboard, KeyboardScreen) and keyboard.keys()[:2] == ["Ann", "Ben"]


def test_by_touch_a_tap_chooses_and_a_finger_held_on_ok_clears(
    tmp_path: Path, monkeypatch: Any
) -> None:
    from test_touch import hold as finger_hold
    from test_touch import in_content, legend_key, start, tap

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    app, clock = start(tmp_path)
    try:
        app.store.put(REMIX, "table", TABLE)
        menu = RemixMenuScreen(app)
        app.push(menu)
        choose(app, "New table")
        confirm = app.top
        app.render()
        tap(app, in_content(app, confirm._buttons[1]))  # a tap cannot hold: it only chooses
        assert app.top is confirm and confirm.choice == 1
        assert app.store.get(REMIX, "table") == TABLE
        finger_hold(app, clock, legend_key(app, Action.OK), app.config.buttons.hold_time + 0.2)
        assert app.top is menu and app.store.get(REMIX, "table")["players"] == []
    finally:
        app.close()


def test_a_new_comix_game_over_one_in_progress_asks_and_can_be_undone(tmp_path: Path) -> None:
    from display.screens.comix.common import load_game, save_game
    from display.screens.comix.menu import ComixMenuScreen
    from games.comix import Game, TableSetup

    with sim_app(tmp_path) as app:
        game = Game.new(TableSetup.create(["Ann", "Ben", "Cat"]))
        game.set_title("We Need a Hero")
        save_game(app, game)
        menu = ComixMenuScreen(app)
        app.push(menu)
        choose(app, "New game")
        assert app.top.kind == "confirm" and "Round 1 of 3" in app.top.body
        app.press(Action.OK)  # Keep playing (preselected)
        assert app.top is menu and load_game(app) is not None
        choose(app, "New game")
        app.press(Action.RIGHT)
        hold(app, Action.OK, 1.6)
        assert app.top.kind == "comix.setup" and load_game(app) is None
        assert app.store.get("comix", "ended_game")["rounds"][0]["title"] == "We Need a Hero"
        app.press(Action.BACK)  # changed their mind in the set-up: back on the menu in time
        assert app.top is menu and "Undo" in legend_words(app)
        app.press(Action.BACK)
        restored = load_game(app)
        assert restored is not None and restored.round.title == "We Need a Hero"
        assert [row[1] for row in menu.rows()][0] == "Continue the game"
