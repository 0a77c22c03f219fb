"""A fresh appliance has no dead ends: Remix and Mixtape say no card is enrolled before asking
for anything and offer "Enrol now"; enrolment says "Start"; what cannot apply yet is not
offered; the Co-Mix set-up keeps "Start the game" in sight. The tour is demo 15-first-day."""

from __future__ import annotations

from pathlib import Path

from flowkit import sim_app

from display.actions import Action
from display.screens.comix.setup import SetupScreen
from display.screens.enrol.mixtape import MixtapeEnrolScreen
from display.screens.enrol.remix import RemixEnrolScreen
from display.screens.mixtape.menu import MixtapeMenuScreen
from display.screens.remix.menu import RemixMenuScreen
from display.widgets.keyboard import KeyboardScreen


def labels(screen: object) -> list[str]:
    return [row[1] for row in screen.rows()]  # type: ignore[attr-defined]


def test_remix_offers_to_enrol_before_asking_a_name(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        menu = RemixMenuScreen(app)
        app.push(menu)
        assert labels(menu) == ["Score the table", "Start enrolment"]  # no "New table" yet
        assert menu.rows()[1][2] == "0 of 79"
        app.press(Action.OK)  # Score the table
        assert app.top.kind == "offer" and app.top.legend()[0][1] == "Enrol now"
        app.press(Action.BACK)  # back: nothing started, no name asked
        assert app.top is menu
        app.press(Action.OK)
        app.press(Action.OK)  # Enrol now
        enrol = app.top
        assert isinstance(enrol, RemixEnrolScreen)
        assert labels(enrol) == ["Start enrolment"]  # no re-enrol nor verify at 0 of 79
        app.render()


def test_mixtape_offers_to_enrol_instead_of_a_message_with_two_close_buttons(
    tmp_path: Path,
) -> None:
    with sim_app(tmp_path) as app:
        menu = MixtapeMenuScreen(app)
        app.push(menu)
        assert labels(menu) == ["Score mixtapes", "Solo game vs Otto", "Start enrolment"]
        for row in (0, 1):  # both games stay in sight, and both lead to enrolment
            menu.selected = row
            app.press(Action.OK)
            assert app.top.kind == "offer"
            assert [words for _, words in app.top.legend()] == ["Enrol now", "Back"]
            app.press(Action.OK)
            enrol = app.top
            assert isinstance(enrol, MixtapeEnrolScreen)
            assert labels(enrol) == ["Start enrolment", "Equalizer squares"]
            app.render()
            app.press(Action.BACK)
            assert app.top is menu


def test_the_comix_setup_keeps_start_in_sight(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        setup = SetupScreen(app)
        app.push(setup)
        surface = app.render()
        content_h = surface.get_height() - 52 - 64
        start = setup._rows[-1]
        assert start.height > 0 and start.bottom <= content_h  # drawn, inside the content
        app.press(Action.LEFT)  # one turn back from Players: Start
        assert SetupScreen.ROWS[setup.selected] == "start"
        app.render()
        assert setup._rows[-1] == start  # still the same place


def test_a_new_remix_table_offers_the_same_players_in_order(tmp_path: Path) -> None:
    with sim_app(tmp_path) as app:
        players = [{"name": n, "total": 9, "valid": True} for n in ("Cat", "Ann", "Ben")]
        app.store.put("remix", "table", {"players": players})
        menu = RemixMenuScreen(app)
        app.push(menu)
        menu.on_result("new", True)  # confirmed (the hold itself: tests/test_confirm.py)
        from display.screens.remix.table import RemixTableScreen

        table = RemixTableScreen(app)
        app.push(table)
        table.open("next")
        keyboard = app.top
        assert isinstance(keyboard, KeyboardScreen)
        assert keyboard.keys()[:3] == ["Cat", "Ann", "Ben"] and keyboard.cursor == 0
        app.press(Action.OK)  # one press: Cat is the first player again
        assert app.top.who == "Cat"  # type: ignore[attr-defined]


def test_nothing_enrolled_offers_no_export_and_a_finished_solo_game_says_so(
    tmp_path: Path,
) -> None:
    from display.screens.enrol.menu import EnrolMenuScreen
    from display.screens.mixtape.common import NAMESPACE, SOLO_KEY

    with sim_app(tmp_path) as app:
        enrol = EnrolMenuScreen(app)
        app.push(enrol)
        assert "Export to one file" not in labels(enrol)  # an export of nothing is no file
        assert "Import from the file" in labels(enrol)
        app.pop()
        app.store.put(NAMESPACE, SOLO_KEY, {"kind": "mixtape-solo", "phase": "over"})
        menu = MixtapeMenuScreen(app)
        notes = {label: note for _, label, note in menu.rows()}
        assert notes["Solo game vs Otto"] == "game over"  # not "in progress"


def test_six_long_names_never_run_over_the_names_label(tmp_path: Path) -> None:
    from display import ui

    with sim_app(tmp_path) as app:
        setup = SetupScreen(app)
        app.push(setup)
        setup.count = 6
        setup.set_names(["Annabel", "Benedict", "Catherine", "Dominic", "Evelyn", "Florence"])
        note = setup.value_text("names")
        assert note.startswith("Annabel, Benedict") and note.endswith("+3")
        room = app.size[0] - 2 * ui.MARGIN - 62 - 24  # the row less its marks
        assert ui.text_width("Names", ui.MEDIUM) + ui.text_width(note, ui.SMALL) < room
