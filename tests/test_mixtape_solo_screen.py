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
    bottom = table.draw_columns(pygame.Surface((800, 480)), DECK, a, b, score, 100)
    assert bottom <= 480
    assert not any(ID.search(line) for line in drawn)
    for card_id in a + b:
        card = DECK.card(card_id)
        assert f"{GENRE_NAMES[card.genre]} {card.balance}" in drawn
    flows = [line for line in drawn if line.startswith("flow ")]
    assert sum(int(line.split()[1]) for line in flows) == score["flow"]
    parts = table.score_parts(score)
    assert parts.startswith(f"Balance {score['balance']['points']} (cube ")
    assert f"Flow {score['flow']}" in parts and f"Genres {score['genres']}" in parts
