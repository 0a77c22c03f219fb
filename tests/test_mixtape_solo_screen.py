"""The solo screen speaks in what is printed on the cards (genre · side · balance, never the
deck's ids) and says what each take does to both scores."""

from __future__ import annotations

import re

from display.screens.mixtape.common import card_label, in_words, placement_text
from display.screens.mixtape.solo import SoloScreen
from games.mixtape import FACE_DOWN, SoloGame, Tape, load_example_deck, place_best

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
