"""The pieces of the photograph-to-score flows on their own: ranking with shared places, readings
surviving JSON, the pick list's typed and letter jumps, enrolment export/import and its refusals,
the Mixtape deck file written from enrolment."""

from __future__ import annotations

import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flowkit import shots_dir, sim_app

from display.cards.enrolment import (
    Enrolment,
    EnrolmentError,
    export_all,
    import_all,
)
from display.cards.mixtape_deck import write_deck_file
from display.cards.reading import DOUBTFUL, OK, UNKNOWN, ReadCard, Reading
from display.screens.remix.common import ranking
from display.widgets.photo_review import card_options
from display.widgets.pick import best_match
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
    from display.screens.enrol.attributes import AttributesScreen

    with sim_app(tmp_path) as app:
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


def test_a_doubtful_card_is_confirmed_before_scoring(tmp_path: Path) -> None:
    from display.actions import Action
    from display.cards.photos import save_photo
    from display.screens.remix.table import RemixHandScreen
    from games.remix import score_hand

    hand = ["Angel", "Beast", "Loki", "Selene", "Hawkeye", "Falcon", "Mystique"]
    with sim_app(tmp_path) as app:
        screen = RemixHandScreen(app, "Dee")
        screen.photo = save_photo(app, np.zeros((120, 160, 3), np.uint8), "test")
        box = [[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]]
        cards = [ReadCard(name, 0.95, box) for name in hand]
        cards[3] = ReadCard("Selene", 0.55, box, [("Sentinels", 0.3)])
        screen.reading = Reading(cards, 0.4, (160, 120))
        screen.selected = 3
        app.push(screen)
        assert not screen.ready() and "1 card to settle" in screen.score_text()
        app.press(Action.OK)  # the pick list, the recogniser's name first
        assert app.top.kind == "flow.pick"
        assert app.top.options[0][0] == "Selene" and app.top.options[1][0] == "Sentinels"
        app.press(Action.OK)  # confirm it
        assert app.top is screen and screen.ready()
        assert screen.cards[3].settled and not screen.cards[3].corrected
        assert screen.score_value() == score_hand(hand).total
        app.render()


HAND = ["MR05", "MR10", "MR20", "MR62", "MR70", "MR75", "MR31"]


def blocked_reading(app: Any, state: Path) -> tuple[Any, threading.Event]:
    """A Remix hand screen whose SHUTTER reading (on the background worker, as on the Pi) waits
    for the returned event before it reads the photo."""
    from display.actions import Action
    from display.checks.scenes import enrol_directly, scene
    from display.screens.remix.table import RemixHandScreen
    from games.remix import default_catalogue

    names = {card.id: card.name for card in default_catalogue()}
    enrol_directly(state, "remix", {i: names[i] for i in HAND})
    gate = threading.Event()
    screen = RemixHandScreen(app, "Ann")
    gallery = screen.gallery
    screen.gallery = lambda: gate.wait(20) and gallery()  # type: ignore[method-assign]
    app.push(screen)
    app.jobs_inline = False
    app.camera.queue_image(scene([names[i] for i in HAND], 31))
    app.press(Action.SHUTTER)
    return screen, gate


def saved_top(app: Any) -> dict[str, Any]:
    snapshot: dict[str, Any] = app.store.load_stack()[-1]["snapshot"]
    return snapshot


def test_reading_runs_off_the_ui_thread_and_is_saved_when_it_lands(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with sim_app(state) as app:
        screen, gate = blocked_reading(app, state)
        try:
            assert screen.busy == "Reading the cards…"
            frames = app.frames
            for _ in range(5):  # the loop keeps going while the worker reads
                app.update()
                app.render()
            assert app.frames == frames + 5 and screen.busy
            assert [label for _, label in screen.legend()] == ["Cancel"]
            assert saved_top(app)["busy"] and saved_top(app)["reading"] is None
            shots = shots_dir(tmp_path, "busy")
            shots.mkdir(parents=True, exist_ok=True)
            app.screenshot(shots / "01-reading-the-cards.png")
        finally:
            gate.set()
        deadline = time.monotonic() + 30
        while screen.busy and time.monotonic() < deadline:
            app.update()
            time.sleep(0.01)
        assert not screen.busy and screen.ready() and len(screen.cards) == 7
        saved = saved_top(app)  # saved as soon as it landed, before any button
        assert "busy" not in saved and len(saved["reading"]["cards"]) == 7
        assert saved["photo"] == screen.photo
        app.screenshot(shots / "02-landed.png")


def test_a_reading_cut_short_by_back_or_a_restart_asks_again(tmp_path: Path) -> None:
    from display.actions import Action
    from display.screens.remix.table import RemixHandScreen

    state = tmp_path / "state"
    with sim_app(state) as app:
        screen, gate = blocked_reading(app, state)
        job = screen._job
        interrupted = saved_top(app)  # what a power cut now would leave
        app.press(Action.BACK)  # cancels the reading; the screen stays
        assert app.top is screen and not screen.busy
        gate.set()
        assert job is not None
        job.result(timeout=30)
        app.update()
        assert screen.reading is None  # the cancelled reading was dropped
        restored = RemixHandScreen.restore(app, interrupted)
        assert "restarted" in restored.error  # type: ignore[attr-defined]


def test_a_reopened_photo_is_read_back_off_the_ui_thread(tmp_path: Path) -> None:
    from display.cards.photos import save_photo
    from display.screens.remix.table import RemixHandScreen

    with sim_app(tmp_path) as app:
        screen = RemixHandScreen(app, "Dee")
        screen.photo = save_photo(app, np.full((960, 1280, 3), 90, np.uint8), "test")
        app.push(screen)
        app.jobs_inline = False
        gate = threading.Event()
        app.run_job(lambda: gate.wait(20))  # the worker is busy with something else
        try:
            app.render()
            assert screen.pane.loading  # the frame is drawn, with a note, not the photo
        finally:
            gate.set()
        deadline = time.monotonic() + 30
        while screen.pane.loading and time.monotonic() < deadline:
            time.sleep(0.01)
            app.render()
        assert not screen.pane.loading and screen.pane.gone is None
        assert screen.pane.view(screen.photo, (100, 100)) is not None
        screen.photo = "no-such-photo.jpg"
        app.jobs_inline = True
        app.render()
        assert screen.pane.gone == "no-such-photo.jpg"


def test_a_saved_photo_cut_short_is_gone_not_half_grey(tmp_path: Path) -> None:
    """A photo file torn by a power cut is treated as gone (the screen asks for a new photo)
    instead of being read back as a mostly grey picture."""
    from display.cards.photos import load_photo, photo_dir, save_photo

    with sim_app(tmp_path / "state") as app:
        picture = np.random.default_rng(3).integers(0, 255, (240, 320, 3), np.uint8)
        whole = save_photo(app, picture, "table")
        torn = save_photo(app, picture, "torn")
        path = photo_dir(app) / torn
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
        loaded = load_photo(app, whole)
        assert loaded is not None and loaded.shape == picture.shape
        assert load_photo(app, torn) is None
