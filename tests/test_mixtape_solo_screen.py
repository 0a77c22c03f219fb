"""The solo screen speaks in what is printed on the cards (genre · side · balance, never the
deck's ids) and says what each take does to both scores."""

from __future__ import annotations

import re

import pytest

from display.screens.mixtape.common import card_label, in_words, placement_text
from display.screens.mixtape.solo import SoloScreen
from games.mixtape import (
    FACE_DOWN,
    GENRE_NAMES,
    SoloGame,
    Tape,
    load_example_deck,
    place_best,
    score_mixtape,
)

DECK = load_example_deck()
ID = re.compile(r"\bEX\d+\b")


def gained(tape: Tape, cards: list[str]) -> int:
    trial = tape.copy()
    place_best(DECK, trial, cards)
    return trial.score(DECK).total - tape.score(DECK).total


def your_turn() -> SoloGame:
    game = SoloGame.at_table(DECK, "EX02", "EX03", seed=1)
    game.draw(["EX05", "EX06"])  # the third card stays face down
    return game


def test_cards_are_named_as_printed() -> None:
    card = DECK.card("EX01")
    assert card_label(DECK, "EX01") == f"Pop · {card.side} · {card.balance}"
    assert card_label(DECK, FACE_DOWN) == "the face-down card"
    said = in_words(DECK, "EX09 alone brings Otto closest to perfect Balance; EX10 and EX1 too")
    assert said.endswith(f"{card_label(DECK, 'EX10')} and EX1 too")  # EX1 is no card: kept
    assert said.startswith(card_label(DECK, "EX09"))
    placed = placement_text(DECK, ["EX05", "EX06"], ["EX06"])
    assert (
        placed
        == f"{card_label(DECK, 'EX05')}; {card_label(DECK, 'EX06')} to the box (off the Equalizer)"
    )


def test_each_take_says_what_it_does_to_both_scores() -> None:
    game = your_turn()
    up = game.face_up()
    notes = {
        SoloScreen.option_label(up, option): SoloScreen.option_note(game, option)
        for option in game.your_options()
    }
    assert list(notes) == ["Take 1", "Take 2", "Take ?", "Take 1 + ?", "Take 2 + ?"]
    first, second = up
    assert notes["Take 1"] == (
        f"you {gained(game.you, [first]):+d} · Otto {gained(game.otto, [second]):+d} +?"
    )
    assert notes["Take ?"] == f"you +? · Otto {gained(game.otto, [first, second]):+d}"
    assert notes["Take 2 + ?"] == (
        f"you {gained(game.you, [second]):+d} +? · Otto {gained(game.otto, [first]):+d}"
    )
    assert not any(ID.search(text) for text in [*notes, *notes.values()])


def test_otto_gives_his_reason_in_words() -> None:
    game = SoloGame.at_table(DECK, "EX02", "EX03", seed=1)
    game.draw(["EX05", "EX06"])
    game.you_choose(["EX05"])
    game.turn_up("EX07")
    game.draw(["EX04", "EX08", "EX10"])
    decision = game.otto_turn()
    reason = SoloScreen.otto_reason(game, decision)
    assert not ID.search(reason)
    assert reason.endswith(".") and "Otto takes" in reason
    for card_id in decision.otto_takes:
        assert card_label(DECK, card_id) in reason


def test_the_score_screen_names_cards_as_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mixtape score shows each card's genre and balance in its column and the flow it
    earned, never the deck's ids; the parts of the total in words."""
    import pygame

    from display import ui
    from display.screens.mixtape import table

    a, b = ["EX01", "EX03", "EX05"], ["EX02", "EX04", "EX06"]
    score = score_mixtape(DECK, a, b).to_json()
    drawn: list[str] = []
    real_text = ui.text

    def record(surface: pygame.Surface, content: str, *args: object, **kwargs: object) -> object:
        drawn.append(content)
        return real_text(surface, content, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ui, "text", record)
    pygame.font.init()
    assert table.draw_columns(pygame.Surface((800, 480)), DECK, a, b, score, 100) == (3, 3)
    assert not any(ID.search(line) for line in drawn)
    for card_id in a + b:
        card = DECK.card(card_id)
        assert f"{GENRE_NAMES[card.genre]} {card.balance}" in drawn
    flows = [line for line in drawn if line.startswith("flow ")]
    assert sum(int(line.split()[1]) for line in flows) == score["flow"]
    parts = table.score_parts(score)
    assert parts.startswith(f"Balance {score['balance']['points']} (cube ")
    assert f"Flow {score['flow']}" in parts and f"Genres {score['genres']}" in parts


def test_a_whole_games_mixtape_score_scrolls_and_keeps_its_words_whole(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table mixtape of twelve cards a column in all six genres: the score's parts are drawn
    whole (three lines, the columns under them), the knob scrolls the columns by whole rows
    until every card has been shown, and nothing is drawn below the screen's content area."""
    import random

    import pygame

    from display import ui
    from display.actions import Action
    from display.screens.mixtape import table
    from display.screens.mixtape.common import chip_label
    from tests.flowkit import sim_app

    rng = random.Random(1)
    sides = {side: [c.id for c in DECK.cards if c.side == side] for side in "AB"}
    for _ in range(200):  # a legal 12 + 12 mixtape with a set in every genre
        a, b = rng.sample(sides["A"], 12), rng.sample(sides["B"], 12)
        score = score_mixtape(DECK, a, b).to_json()
        if len(score["genre_sets"]) == 6:
            break
    assert len(score["genre_sets"]) == 6
    monkeypatch.setattr(table, "load_table_deck", lambda app: DECK)
    with sim_app(tmp_path / "state") as app:
        screen = table.MixtapeResultScreen(app, {"name": "Ann", "a": a, "b": b, "score": score})
        app.push(screen)
        drawn: list[tuple[str, pygame.Rect, int]] = []
        real_text = ui.text

        def spy(surface, content, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            rect = real_text(surface, content, *args, **kwargs)
            drawn.append((content, rect, surface.get_height()))
            return rect

        monkeypatch.setattr(ui, "text", spy)
        app.render()
        content = [text for text, _, height in drawn if height < 400]
        words = content[1 : content.index("Trk A")]  # after the total, before the columns
        assert " ".join(words) == f"points: {table.score_parts(score)}"
        assert "Scroll" in [label for _, label in screen.legend()]
        assert screen.rows_shown < 12
        chips: list[str] = []
        for _ in range(12):
            drawn.clear()
            app.render()
            for text, rect, height in drawn:
                if height < 400:
                    assert rect.bottom <= height, text
                    chips.append(text)
            app.top.handle(Action.RIGHT)
        assert screen.first_row == 12 - screen.rows_shown
        for card_id in a + b:
            assert chip_label(DECK, card_id) in chips
        assert f"rows {13 - screen.rows_shown}-12 of 12" in chips


def test_game_over_shows_whole_mixtapes_and_readable_scores(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole solo game (columns of up to 12 cards): at game over every card of both
    mixtapes is shown - the knob scrolls by whole rows - and nothing is drawn over either
    score."""
    import os

    import pygame

    from display import ui
    from display.screens.mixtape import solo
    from display.screens.mixtape.common import NAMESPACE, SOLO_KEY, chip_label
    from games.mixtape.solo import OTTO, YOU, play_solo
    from tests.flowkit import sim_app

    game = play_solo(SoloGame.start(DECK, seed=4))
    assert max(len(c) for t in (game.you, game.otto) for c in (t.a, t.b)) == 12
    monkeypatch.setattr(solo, "load_table_deck", lambda app: DECK)
    with sim_app(tmp_path / "state") as app:
        app.store.put(NAMESPACE, SOLO_KEY, game.to_json())
        screen = SoloScreen(app)
        app.push(screen)
        seen: list[tuple[str, pygame.Rect]] = []  # on the content area
        real_text = ui.text

        def spy(surface, content, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            rect = real_text(surface, content, *args, **kwargs)
            if surface.get_height() < 400:  # not the header or the legend (the whole frame)
                seen.append((content, rect))
            return rect

        monkeypatch.setattr(ui, "text", spy)
        chips: list[str] = []
        for _ in range(12):  # the knob, row by row, to the end
            seen.clear()
            frame = app.render()
            chips += [t for t, _ in seen]
            scores = [r for t, r in seen if t.endswith(" pts")]
            assert len(scores) == 2  # both scores drawn, nothing over them
            for text, rect in seen:
                if not text.endswith(" pts"):
                    assert not any(rect.colliderect(score) for score in scores), text
            screen.handle(solo.Action.RIGHT)
        if os.environ.get("FLOW_SHOTS"):
            pygame.image.save(frame, os.path.join(os.environ["FLOW_SHOTS"], "solo-over-end.png"))
        for who in (game.you, game.otto):
            for card_id in (*who.a, *who.b):
                assert chip_label(DECK, card_id) in chips
        totals = game.scores()
        assert (
            f"You  {totals[YOU].total} pts" in chips and f"Otto  {totals[OTTO].total} pts" in chips
        )
