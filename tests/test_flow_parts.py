"""The pieces of the photograph-to-score flows on their own: ranking with shared places, readings
surviving JSON, the pick list's typed and letter jumps, enrolment export/import and its refusals,
the Mixtape deck file written from enrolment."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

from display.flows.enrolment import (
    Enrolment,
    EnrolmentError,
    export_all,
    import_all,
)
from display.flows.reading import DOUBTFUL, OK, UNKNOWN, ReadCard, Reading
from display.flows.widgets import best_match, card_options
from display.screens.enrol import write_deck_file
from display.screens.remix import ranking
from games.mixtape import load_deck


def test_ranking_shares_places_on_equal_totals() -> None:
    players = [
        {"name": "Ann", "total": 40},
        {"name": "Bob", "total": 55},
        {"name": "Cat", "total": 55},
        {"name": "Dan", "total": 12},
    ]
    placed = [(place, p["name"]) for place, p in ranking(players)]
    assert placed == [(1, "Bob"), (1, "Cat"), (3, "Ann"), (4, "Dan")]


def test_reading_status_and_json_round_trip() -> None:
    corners = [[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]]
    sure = ReadCard("Angel", 0.97, corners)
    doubtful = ReadCard("Beast", 0.6, corners, [("Black Cat", 0.2)])
    unknown = ReadCard(None, 0.0, corners, [], "not in gallery")
    assert [c.status for c in (sure, doubtful, unknown)] == [OK, DOUBTFUL, UNKNOWN]
    doubtful.settle("Black Cat")
    assert doubtful.status == OK and doubtful.corrected and doubtful.read_as == "Beast"
    reading = Reading([sure, doubtful, unknown], 0.5, (640, 480))
    again = Reading.from_json(reading.to_json())
    assert again.to_json() == reading.to_json()
    assert again.unresolved == [2]
    assert again.cards[1].center == (5.0, 7.0)


def test_pick_options_closest_first_without_cards_already_read() -> None:
    card = ReadCard("Beast", 0.6, [], [("Black Cat", 0.3), ("Angel", 0.01)])
    options, _ = card_options(card, ["Angel", "Beast", "Black Cat", "Cyclops"], {"Angel"}, True)
    values = [value for value, _, _ in options]
    assert values[:2] == ["Beast", "Black Cat"]
    assert "Angel" not in values  # already in the hand: every card exists once
    assert values[-1] == "__remove__"
    assert best_match("cyc", ["Angel", "Beast", "Cyclops"]) == 2
    assert best_match("krakoa", ["Krakoa, the Living Island", "Kraven"]) == 0


def test_export_import_round_trip_and_refusals(tmp_path: Path) -> None:
    source = tmp_path / "a"
    face = np.full((468, 336, 3), 200, np.uint8)
    face[100:300, 50:250] = (20, 90, 200)
    Enrolment(source, "remix").add("MR01", "Angel", face, "test")
    path, count = export_all(source)
    assert path.name == "tablekeeper-enrolment.zip" and count >= 3
    target = tmp_path / "b"
    Enrolment(target, "remix").add("MR02", "Beast", face, "old")
    assert import_all(target, path) == {"remix": 1}
    assert Enrolment(target, "remix").name_of("MR01") == "Angel"
    assert Enrolment(target, "remix").name_of("MR02") is None
    assert (target / "enrolment.before-import" / "remix" / "manifest.json").exists()

    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    with pytest.raises(EnrolmentError, match="damaged"):
        import_all(target, bad)
    foreign = tmp_path / "foreign.zip"
    with zipfile.ZipFile(foreign, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(EnrolmentError, match="not a Tablekeeper enrolment file"):
        import_all(target, foreign)
    with pytest.raises(EnrolmentError, match="nothing is enrolled"):
        export_all(tmp_path / "empty")


def test_damaged_manifest_is_a_message(tmp_path: Path) -> None:
    folder = tmp_path / "enrolment" / "remix"
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text("{not json")
    with pytest.raises(EnrolmentError, match="cannot be read"):
        Enrolment(tmp_path, "remix")


def test_mixtape_deck_file_from_enrolment(tmp_path: Path) -> None:
    done = Enrolment(tmp_path, "mixtape")
    attributes = {
        "genre": "rock",
        "side": "A",
        "balance": 2,
        "top": ["left"],
        "bottom": ["center", "right"],
        "players": 3,
    }
    done.set_extra("cards", {"T01": attributes, "T02": {**attributes, "genre": "wild"}})
    problem = write_deck_file(done)
    assert "Wild" in problem  # a Wild card needs every flow point: named, file still written
    assert done.deck_path.exists()
    done.set_extra(
        "cards",
        {
            "T01": attributes,
            "T02": {
                **attributes,
                "genre": "wild",
                "top": ["left", "center", "right"],
                "bottom": ["left", "center", "right"],
            },
        },
    )
    done.set_extra("equalizer", {"squares": [0, 5, 10, 5, 0], "start": 2})
    assert write_deck_file(done) == ""
    deck = load_deck(done.deck_path)
    assert deck.squares == (0, 5, 10, 5, 0) and deck.start == 2
    assert deck.card("T01").players == 3 and sorted(deck.card("T01").bottom) == ["center", "right"]


def test_attributes_by_touch(tmp_path: Path) -> None:
    from display import ui
    from display.app import FakeClock
    from display.launch import RunOptions, build_app
    from display.screens.enrol import AttributesScreen

    app = build_app(RunOptions(simulated=True, state_dir=tmp_path), clock=FakeClock(), strict=True)
    try:
        screen = AttributesScreen(app, ["T01"])
        app.push(screen)
        app.render()
        balance_row_y = ui.HEADER_H + 50 + 2 * 46 + 20
        app.tap(400, balance_row_y)  # select "Balance"
        assert screen.field == 2 and screen.values["balance"] == 1
        app.tap(app.size[0] - 40, balance_row_y)  # right half: one more
        app.tap(app.size[0] - 40, balance_row_y)
        app.tap(300, balance_row_y)  # left half: one less
        assert screen.values["balance"] == 2
    finally:
        app.close()


def test_a_doubtful_card_is_confirmed_before_scoring(tmp_path: Path) -> None:
    from display.actions import Action
    from display.app import FakeClock
    from display.flows.photos import save_photo
    from display.launch import RunOptions, build_app
    from display.screens.remix import RemixHandScreen
    from games.remix import score_hand

    hand = ["Angel", "Beast", "Loki", "Selene", "Hawkeye", "Falcon", "Mystique"]
    app = build_app(RunOptions(simulated=True, state_dir=tmp_path), clock=FakeClock(), strict=True)
    try:
        screen = RemixHandScreen(app, "Dee")
        screen.photo = save_photo(app, np.zeros((120, 160, 3), np.uint8), "test")
        box = [[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]]
        cards = [ReadCard(name, 0.95, box) for name in hand]
        cards[3] = ReadCard("Selene", 0.55, box, [("Sentinels", 0.3)])
        screen.reading = Reading(cards, 0.4, (160, 120))
        screen.selected = 3
        app.push(screen)
        assert not screen.ready() and "1 card(s) to settle" in screen.score_text()
        app.press(Action.OK)  # the pick list, the recogniser's name first
        assert app.top.kind == "flow.pick"
        assert app.top.options[0][0] == "Selene" and app.top.options[1][0] == "Sentinels"
        app.press(Action.OK)  # confirm it
        assert app.top is screen and screen.ready()
        assert screen.cards[3].settled and not screen.cards[3].corrected
        assert screen.score_value() == score_hand(hand).total
        app.render()
    finally:
        app.close()
