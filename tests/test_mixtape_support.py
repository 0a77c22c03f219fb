"""Small hand-made Mixtape decks for the tests (no test functions here)."""

from __future__ import annotations

from typing import Any

from games.mixtape import Deck
from games.mixtape.deck import deck_from_mapping

# The schema's example Equalizer: 13 squares, start in the middle.
SQUARES = [0, 5, 10, 15, 20, 25, 30, 25, 20, 15, 10, 5, 0]
START = 6
_EDGE = {"l": "left", "c": "center", "r": "right"}


def card(
    card_id: str,
    genre: str,
    side: str,
    balance: int,
    top: str = "",
    bottom: str = "",
    players: int = 2,
) -> dict[str, Any]:
    """card("P1", "punk", "A", 3, top="c", bottom="lr"): flow points as letters l/c/r."""
    if genre == "wild":
        top = bottom = "lcr"
    return {
        "id": card_id,
        "genre": genre,
        "side": side,
        "balance": balance,
        "top": [_EDGE[x] for x in top],
        "bottom": [_EDGE[x] for x in bottom],
        "players": players,
    }


def make_deck(
    *cards: dict[str, Any], squares: list[int] | None = None, start: int | None = None
) -> Deck:
    squares = SQUARES if squares is None else squares
    return deck_from_mapping(
        {
            "name": "test deck",
            "equalizer": {"squares": squares, "start": START if start is None else start},
            "cards": list(cards),
        },
        source="test deck",
    )
