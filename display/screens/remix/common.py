"""Marvel: Remix at the table: photograph each player's final hand and score it. This module is
what the Remix screens share (the catalogue, the enrolment, card names to ids, scoring a hand);
the screens are ``menu``, ``table`` (the table, a hand, the ranking) and ``result``.

Flow: ``remix`` (menu) -> ``remix.table`` (the players scored so far) -> "Next player": a name
(on-screen keyboard, BACK keeps "Player N") -> ``remix.hand`` (SHUTTER: the photo with every
card's name and confidence; unknown/doubtful cards are settled from a pick list; the total shows
as soon as every card is named) -> ``remix.result`` (the breakdown per card, the choices made,
Loki's draw asked for) -> OK saves the player and returns to the table -> ``remix.ranking``.

Undo everywhere: BACK on the breakdown returns to the photo (retake with SHUTTER, or correct a
card); on the table, a player's row reopens their breakdown to retake or remove them.

State: the table lives in the store (namespace ``remix``, key ``table``): every scored player's
name, card ids, Loki's draw, total, validity, photo file and reading. Written after every event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from display.cards.enrolment import Enrolment, enrolled
from display.widgets.ranking import ranking as rank_players
from games.remix import default_catalogue, score_hand

if TYPE_CHECKING:
    from display.app import App
    from games.remix import Catalogue, HandResult

NAMESPACE = "remix"
GAME = "remix"


def catalogue() -> Catalogue:
    return default_catalogue()


def enrolment(app: App) -> Enrolment:
    return enrolled(app, GAME)


def ranking(players: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """(place, player) best first; equal totals share a place (the rulebook: ties share
    victory)."""
    return rank_players(players, lambda p: int(p["total"]))


def ids_for(names: list[str]) -> list[str]:
    """Catalogue ids for card names (exact names from the gallery or the pick list)."""
    cards = catalogue()
    return [cards.lookup(name).id for name in names]


def score_names(names: list[str], loki_draw: str | None = None) -> HandResult:
    return score_hand(ids_for(names), loki_draw)
