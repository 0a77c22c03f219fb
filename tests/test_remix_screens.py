"""The Remix screens a player reads at the table, driven by injected events with every drawn
word recorded (``ui.text`` patched): the breakdown as a table (card | base | bonuses and
penalties | points) with reasons wrapped, choices said as decisions, "so far" and a badge before
Loki's draw, an invalid hand framed as a problem; a hand of other than 7 cards said before a total;
correcting a card (its picture, real look-alikes, the letter row, the legend); no internal id on
any screen of the Remix and enrolment tours; nothing under ``ui.SMALL``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flowkit import Drawn, TextRecorder, sim_app

from display import ui
from display.actions import Action
from games.remix import score_hand


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> TextRecorder:
    return TextRecorder(monkeypatch)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    with sim_app(tmp_path / "state") as running:
        yield running


ANN = ["MR02", "MR06", "MR13", "MR30", "MR41", "MR63", "MR77"]  # Rogue and Moira choose
CAT = ["MR05", "MR10", "MR20", "MR62", "MR70", "MR75", "MR31"]  # Loki: a draw is owed
NO_VILLAIN = ["MR01", "MR02", "MR03", "MR04", "MR06", "MR07", "MR08"]


def result_screen(app: Any, cards: list[str]) -> Any:
    from display.screens.remix.result import RemixResultScreen

    screen = RemixResultScreen(app, {"name": "Ann", "cards": cards})
    app.push(screen)
    return screen


def scroll_through(app: Any, recorder: TextRecorder) -> list[Drawn]:
    """Every word the breakdown shows, turning the knob to its end."""
    seen = recorder.frame(app)
    for _ in range(40):
        app.press(Action.RIGHT)
        seen += recorder.frame(app)
    return seen


def test_breakdown_is_a_table_with_reasons_wrapped_not_cut(
    app: Any, recorder: TextRecorder
) -> None:
    screen = result_screen(app, ANN)
    result = score_hand(ANN)
    first = recorder.words(app)
    for heading in ("card", "base", "bonuses and penalties", "points"):
        assert heading in first.split("\n")
    seen = scroll_through(app, recorder)
    words = [d.content for d in seen]
    assert not any(w.endswith("...") for w in words)  # wrapped, never cut
    lines = screen.table(800 - 2 * ui.MARGIN)
    # every card's name (wrapped words), base and points are in its block's cells
    for card in result.cards:
        block_words = " ".join(c[1] for cells in lines for c in cells)
        assert all(part in block_words for part in card.name.split())
        assert str(card.points) in words and str(card.base) in words
    for card in result.cards:
        for reason in card.lines:
            assert reason.split()[-1] in " ".join(words)  # the reason's last word is shown
    decisions = [w for w in words if w.startswith("You chose:")]
    assert len({d for d in decisions}) >= len(result.choices) >= 1
    assert "Choice:" not in " ".join(words)


def test_before_lokis_draw_the_total_is_so_far_with_a_badge(
    app: Any, recorder: TextRecorder
) -> None:
    result_screen(app, CAT)
    drawn = recorder.frame(app)
    words = [d.content for d in drawn]
    assert "points so far" in words
    badge = next(d for d in drawn if d.content == "Loki's draw needed")
    assert badge.colour == ui.ACCENT
    app.press(Action.OK)  # name the draw from the list
    assert app.top.kind == "flow.pick"
    app.type_text("Hulk Operations")
    app.press(Action.OK)
    words = recorder.words(app).split("\n")
    assert "points" in words and "points so far" not in words
    assert "Loki's draw needed" not in words


def test_an_invalid_hand_is_a_problem_not_green(app: Any, recorder: TextRecorder) -> None:
    result_screen(app, NO_VILLAIN)
    drawn = scroll_through(app, recorder)
    assert not any(d.colour == ui.GOOD for d in drawn)
    badge = next(d for d in drawn if d.content.startswith("Not valid"))
    assert badge.colour == ui.BAD
    assert str(score_hand(NO_VILLAIN).points_before_validity) in badge.content


def test_breakdown_words_are_at_least_small(app: Any, recorder: TextRecorder) -> None:
    for cards in (ANN, CAT, NO_VILLAIN):
        screen = result_screen(app, cards)
        drawn = scroll_through(app, recorder)
        small = [d.content for d in drawn if d.size < ui.SMALL and d.content]
        assert not small
        assert screen.scroll >= screen.last_scroll > 0  # the knob reached the end
        app.pop()


BOX = [[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]]


def hand_screen(app: Any, names: list[str], corners: Any = None) -> Any:
    """The Remix hand screen on a saved blank photo read as ``names`` (None: unknown)."""
    import numpy as np

    from display.cards.photos import save_photo
    from display.cards.reading import ReadCard, Reading
    from display.screens.remix.table import RemixHandScreen

    screen = RemixHandScreen(app, "Dee")
    screen.photo = save_photo(app, np.full((480, 800, 3), 60, np.uint8), "test")
    cards = []
    for i, name in enumerate(names):
        box = corners[i] if corners else [[x + 110 * i, y] for x, y in BOX]
        cards.append(ReadCard(name, 0.95 if name else 0.0, box, [], "" if name else "no match"))
    screen.reading = Reading(cards, 0.4, (800, 480))
    screen.selected = len(cards) + 1
    app.push(screen)
    return screen


SIX = ["Angel", "Beast", "Loki", "Selene", "Hawkeye", "Falcon"]


def test_a_hand_of_six_says_so_before_any_total(app: Any, recorder: TextRecorder) -> None:
    screen = hand_screen(app, SIX)
    app.render()  # the photo is loaded (inline in tests)
    words = recorder.words(app)
    assert "6 of 7 cards found" in words
    assert "retake or add one" in words
    assert screen.score_value() is None  # no total yet
    assert str(score_hand(SIX).total) not in words.split("\n")
    app.press(Action.LEFT)  # on "+ Add a card"
    app.press(Action.OK)
    app.type_text("Mystique")
    app.press(Action.OK)
    words = recorder.words(app)
    assert "cards found" not in words
    assert screen.score_value() == score_hand([*SIX, "Mystique"]).total


def test_a_hand_of_eight_says_remove_one(app: Any, recorder: TextRecorder) -> None:
    screen = hand_screen(app, [*SIX, "Mystique", "Storm"])
    app.render()
    words = recorder.words(app)
    assert "8 cards found, a hand holds 7" in words
    assert screen.score_tone() == ui.ACCENT


# -- correcting a card: its picture, real look-alikes first, the letter row, the legend -------


def unread_card(app: Any, candidates: list[tuple[str, float]]) -> Any:
    """A one-card hand whose card the camera could not read, on a photo where that card is a
    blue rectangle; OK opens the pick list. Returns the hand screen."""
    import numpy as np

    from display.cards.photos import save_photo
    from display.cards.reading import ReadCard, Reading
    from display.screens.remix.table import RemixHandScreen

    photo = np.full((480, 800, 3), 60, np.uint8)
    photo[100:270, 300:420] = (200, 40, 30)  # BGR: the card, blue
    screen = RemixHandScreen(app, "Dee")
    screen.photo = save_photo(app, photo, "test")
    corners = [[300.0, 100.0], [420.0, 100.0], [420.0, 270.0], [300.0, 270.0]]
    screen.reading = Reading([ReadCard(None, 0.0, corners, candidates, "no match")])
    screen.selected = 0
    app.push(screen)
    app.press(Action.OK)
    assert app.top.kind == "flow.pick"
    return screen


def test_the_pick_list_shows_the_cards_picture(app: Any) -> None:
    unread_card(app, [])
    app.render()
    picture = app.top.crop.surface((190, 300))
    assert picture is not None
    red, green, blue = (int(c) for c in picture.get_at(picture.get_rect().center)[:3])
    assert blue > 150 and red < 80  # the card's own part of the photo, not the table
    assert picture.get_height() > 150  # big enough to tell the card at a glance


def test_only_real_lookalikes_come_first(app: Any, recorder: TextRecorder) -> None:
    unread_card(app, [("Shuri", 0.84), ("Storm", 0.02), ("Ultron", 0.0), ("Toad", 0.004)])
    pick = app.top
    assert [v for v, _, _ in pick.options[: pick.lookalikes]] == ["Shuri", "Storm"]
    assert pick.options[pick.lookalikes][1] == "Abomination"  # then everyone, A to Z
    assert not pick.on_letters  # the look-alikes are in hand: OK takes the first
    words = recorder.words(app).split("\n")
    assert "like 84%" in words and "like 2%" in words
    app.press(Action.RIGHT)
    app.press(Action.OK)
    assert app.top.kind == "remix.hand" and app.top.cards[0].name == "Storm"


def test_the_letter_row_jumps_the_list(app: Any, recorder: TextRecorder) -> None:
    hand = unread_card(app, [])
    pick = app.top
    assert pick.on_letters  # nothing looks alike: the letters come first
    letters = [name for name, _ in pick.groups]
    assert letters[0] == "A" and letters[-1] == "Other" and "S" in letters
    for _ in range(letters.index("S")):
        app.press(Action.RIGHT)
    assert pick.options[pick.selected][1] == "Sauron"  # the first name under S
    drawn = recorder.frame(app)
    s_cell = next(d for d in drawn if d.content == "S")
    assert s_cell.colour == ui.ACCENT_TEXT  # the chosen letter, on the accent bar
    app.press(Action.OK)  # into the names
    app.press(Action.RIGHT)
    app.press(Action.RIGHT)
    chosen = pick.options[pick.selected][0]
    app.press(Action.BACK)  # back to the letters, still on S
    assert pick.on_letters and pick.groups[pick.group()][0] == "S"
    app.press(Action.OK)
    for _ in range(2):
        app.press(Action.RIGHT)
    app.press(Action.OK)
    assert app.top is hand and hand.cards[0].name == chosen
    assert hand.cards[0].settled


def test_the_legend_names_every_key_the_pick_list_uses(app: Any) -> None:
    unread_card(app, [("Shuri", 0.84)])
    pick = app.top
    for on_letters in (False, True):
        pick.on_letters = on_letters
        legend = pick.legend()
        named: set[Action] = set()
        for key, meaning in legend:
            named |= set(key) if isinstance(key, tuple) else {key}
            assert meaning
        assert named == {Action.LEFT, Action.RIGHT, Action.OK, Action.BACK}
        before = pick.snapshot()
        for unused in set(Action) - named:
            app.press(unused)
            assert app.top is pick and pick.snapshot() == before  # it does nothing


def test_a_correction_survives_a_restart_with_its_picture(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with sim_app(state) as first:
        unread_card(first, [("Shuri", 0.84)])
        first.press(Action.BACK)  # to the letters
        first.press(Action.RIGHT)
        first.save()
    with sim_app(state) as again:
        pick = again.top
        assert pick.kind == "flow.pick" and pick.on_letters and pick.lookalikes == 1
        again.render()
        assert pick.crop is not None and pick.crop.surface((190, 300)) is not None
        again.press(Action.OK)
        again.press(Action.OK)
        assert again.top.kind == "remix.hand" and again.top.cards[0].name == "Abomination"


def test_the_letter_row_saves_presses(app: Any) -> None:
    import numpy as np

    from display.cards.photos import save_photo
    from display.cards.reading import ReadCard
    from display.checks.presses import fix_card, letter_row

    photo = save_photo(app, np.zeros((48, 80, 3), np.uint8), "test")
    corners = [[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]]
    counts: dict[bool, list[int]] = {True: [], False: []}
    for on in (True, False):
        with letter_row(on):
            for target in ("Abomination", "Magneto", "Thor Odinson", "Xavier Mansion"):
                presses, named = fix_card(app, ReadCard(None, 0.0, corners), photo, target)
                assert named == target
                counts[on].append(presses)
    assert max(counts[True]) <= 19
    assert sum(counts[True]) < sum(counts[False])


# -- no internal ids on a player's screen ----------------------------------------------------

ID_PATTERN = re.compile(r"\b[A-Z]{1,2}\d\d\b")  # MR33, EX05, T01


def test_no_player_screen_of_the_remix_flow_shows_an_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from display.checks.scenes import enrol_directly, scene
    from display.screens.enrol.remix import RemixEnrolScreen
    from display.screens.remix.table import RemixTableScreen
    from games.remix import default_catalogue

    names = {card.id: card.name for card in default_catalogue()}
    state = tmp_path / "state"
    enrol_directly(state, "remix", {k: n for k, n in names.items() if k != "MR44"})
    recorder = TextRecorder(monkeypatch)
    seen: list[Drawn] = []
    with sim_app(state) as app:

        def step(*actions: Action | str) -> None:
            for action in actions:
                if isinstance(action, Action):
                    app.press(action)
                else:
                    app.type_text(action)
                seen.extend(recorder.frame(app))

        app.push(RemixEnrolScreen(app))
        step(Action.OK)  # the batch: the one card not enrolled
        app.camera.queue_image(scene([names["MR44"]], 5, size=(1640, 1232)))
        step(Action.SHUTTER, Action.BACK, Action.BACK)  # its photo, numbered; discard; back
        step(Action.RIGHT, Action.OK, Action.RIGHT, Action.OK, Action.BACK)  # the re-enrol list
        step(Action.BACK)  # the letters cancel the list
        assert app.top.kind == "enrol.remix"
        app.push(RemixTableScreen(app))
        step(Action.OK, "Bob", Action.OK)
        bob = ["MR01", "MR09", "MR22", "MR35", "MR44", "MR66", "MR70"]  # MR44 unread; Loki
        app.camera.queue_image(scene([names[k] for k in bob], 32))
        step(Action.SHUTTER, Action.OK)  # the photo, then the unread card's pick list
        assert app.top.kind == "flow.pick"
        step(Action.RIGHT, names["MR44"], Action.OK)
        assert app.top.kind == "remix.hand" and app.top.ready()
        step(Action.OK)  # score: the breakdown, Loki's draw owed
        assert app.top.kind == "remix.result" and app.top.result().loki_owed
        step(*[Action.RIGHT] * 12)
        step(Action.OK, Action.RIGHT, Action.OK, Action.OK)  # Loki's draw from the list
        assert app.top.kind == "remix.result" and not app.top.result().loki_owed
        step(Action.OK, Action.RIGHT, Action.OK)  # saved; the ranking
        assert app.top.kind == "remix.ranking"
    words = [d.content for d in seen]
    shown_ids = sorted({w for w in words if ID_PATTERN.search(w)})
    assert not shown_ids
    assert names["MR44"] in " ".join(words) and "Bob" in " ".join(words)  # it saw the screens
    small = sorted({d.content for d in seen if d.size < ui.SMALL and d.content})
    assert not small


@pytest.mark.parametrize("tour", ["30-remix-enrol-and-score", "31-mixtape-enrol-and-score"])
def test_the_demo_tours_of_enrolment_and_scoring_show_no_id(
    tour: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every frame of the tours (enrolment batches, the Mixtape attributes, re-enrol lists,
    photos, pick lists, scores): names, or genre · side · balance for Mixtape cards."""
    from display.commands.app import DEMO_DIR, demo_preparations
    from display.launch import RunOptions, run_script

    recorder = TextRecorder(monkeypatch)
    script = DEMO_DIR / f"{tour}.txt"
    for name in demo_preparations(script):
        from display.checks.scenes import prepare_demo

        prepare_demo(name, tmp_path / "state")
    options = RunOptions(
        simulated=True, script=script, screenshots=tmp_path / "shots", state_dir=tmp_path / "state"
    )
    assert run_script(options)
    words = [d.content for d in recorder.drawn]
    assert len(words) > 100  # it saw the tour
    assert not sorted({w for w in words if ID_PATTERN.search(w)})
    if tour.startswith("31"):
        assert any(" · A · " in w or " · B · " in w for w in words)


def test_the_breakdowns_legend_fits_every_key_it_needs(app: Any, recorder: TextRecorder) -> None:
    from display.screens.remix.result import RemixResultScreen

    for cards, replaces, wanted in (
        (CAT, None, {Action.OK, Action.SHUTTER, Action.BACK}),  # Loki's draw owed
        (ANN, 0, {Action.OK, Action.BACK, Action.SEAT_1}),  # a saved player: Remove
        (ANN, None, {Action.OK, Action.BACK, Action.LEFT, Action.RIGHT}),
    ):
        screen = RemixResultScreen(app, {"name": "Ann", "cards": cards}, replaces)
        app.push(screen)
        legend = screen.legend()
        keys: set[Action] = set()
        for key, _ in legend:
            keys |= set(key) if isinstance(key, tuple) else {key}
        assert wanted <= keys
        assert ui.legend_width(legend) <= app.size[0]  # nothing dropped off the bar
        words = recorder.words(app)
        if Action.LEFT not in keys:
            assert "more below: turn" in words  # the knob is said on the table instead
        app.pop()


def landed(app: Any, names: list[str]) -> Any:
    """The Remix hand screen as a photo read as ``names`` lands on it (the real path a
    SHUTTER's reading takes back to the screen)."""
    import numpy as np

    from display.cards.capture import PhotoRead
    from display.cards.photos import save_photo
    from display.cards.reading import ReadCard, Reading
    from display.screens.remix.table import RemixHandScreen

    screen = RemixHandScreen(app, "Dee")
    app.push(screen)
    photo = save_photo(app, np.full((480, 800, 3), 60, np.uint8), "test")
    cards = [
        ReadCard(name, 0.95, [[x + 110 * i, y] for x, y in BOX], [], "")
        for i, name in enumerate(names)
    ]
    screen.use_reading(PhotoRead(reading=Reading(cards, 0.4, (800, 480)), photo=photo))
    return screen


def test_a_short_hand_is_not_scored_by_two_hasty_oks(app: Any, recorder: TextRecorder) -> None:
    screen = landed(app, ["Angel"])  # "1 of 7 cards found"
    assert screen.selected == len(screen.cards)  # on "+ add a missed card", not on scoring
    app.press(Action.OK)
    assert app.top.kind == "flow.pick"  # OK asks which card the camera missed
    app.press(Action.BACK)
    app.release(Action.BACK)  # a press, not a hold (which goes home)
    assert app.top is screen
    app.press(Action.RIGHT)  # to "Score this hand" on purpose
    app.press(Action.OK)
    assert app.top.kind == "confirm"  # the count must be confirmed...
    app.press(Action.OK)  # ...a second OK keeps the cards
    app.release(Action.OK)
    assert app.top is screen
    app.press(Action.OK)
    app.release(Action.OK)
    app.press(Action.RIGHT)  # "Score 1 card", held: the one card scored as it is
    app.press(Action.OK)
    for _ in range(20):
        app.clock.advance(0.1)
        app.update()
    app.release(Action.OK)
    assert app.top.kind == "remix.result"
    too_many = landed(app, [*SIX, "Mystique", "Storm"])
    assert too_many.selected == 0  # on the first card: OK there offers "Not a card"


def test_a_weak_lookalike_is_offered_but_not_under_the_cursor(
    app: Any, recorder: TextRecorder
) -> None:
    hand = unread_card(app, [("Black Widow", 0.44), ("Storm", 0.02)])
    pick = app.top
    assert pick.on_letters and pick.options[pick.selected][1] == "Abomination"  # letter "A"
    assert "Like" in recorder.words(app).split("\n")  # still offered, in "Like"
    app.press(Action.OK)
    app.press(Action.OK)  # two hasty OKs: the first name under A, not the weak look-alike
    assert hand.cards[0].name == "Abomination"
    hand = unread_card(app, [("Black Widow", 0.44)])
    app.press(Action.LEFT)  # one step left of A: the look-alikes
    assert "like 44%" in recorder.words(app).split("\n")
    app.press(Action.OK)
    app.press(Action.OK)
    assert hand.cards[0].name == "Black Widow"


def test_the_breakdown_pages_by_whole_rows(app: Any, recorder: TextRecorder) -> None:
    """Each knob step shows a page whose first line is a row's first line (a card's name and
    points, or a decision): never the half of a card's reasons at the top."""
    screen = result_screen(app, ANN)
    app.render()
    starts = screen.row_starts()
    pages = [screen.scroll]
    for _ in range(12):
        app.press(Action.RIGHT)
        app.render()
        pages.append(screen.scroll)
    assert all(page in starts for page in pages)
    assert pages[-1] >= screen.last_scroll > 0  # to the end...
    shown = pages[0]
    for page in sorted(set(pages))[1:]:
        assert page - shown <= screen.visible  # ...with no line skipped between pages
        shown = page
    for _ in range(12):
        app.press(Action.LEFT)
        app.render()
        assert screen.scroll in starts
    assert screen.scroll == 0


def test_a_letter_chosen_shows_its_names_from_the_top(app: Any, recorder: TextRecorder) -> None:
    unread_card(app, [])
    pick = app.top
    letters = [name for name, _ in pick.groups]
    for _ in range(letters.index("S")):
        app.press(Action.RIGHT)
    app.press(Action.OK)  # into the names under S
    labels = [label for _, label, _ in pick.options]
    drawn = [d.content for d in recorder.frame(app) if d.content.strip("> ") in labels]
    assert drawn[0].strip("> ") == "Sauron"  # no names of R above it
    assert all(name.strip("> ")[:1] in "STU" for name in drawn)
