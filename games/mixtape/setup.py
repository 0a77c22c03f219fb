"""Set-up shared by the multiplayer and the solo game (rulebook "Setup", steps E–H)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.mixtape.deck import Deck
from games.mixtape.errors import IllegalMoveError
from games.mixtape.tape import Tape

# "Finally, return a number of face-down cards from the Track deck to the box unseen."
SETUP_REMOVALS = {2: 4, 3: 0, 4: 2}
CARDS_PER_SPLIT = 3


def shuffled(ids: Sequence[str], rng: random.Random) -> list[str]:
    cards = list(ids)
    rng.shuffle(cards)
    return cards


def checked_order(deck: Deck, wanted: Sequence[str], given: Sequence[str], what: str) -> list[str]:
    """An explicit deck order (tests, or a table replaying a real shuffle) must hold exactly
    the cards that deck should hold."""
    deck.cards_for(given)
    if sorted(given) != sorted(wanted):
        missing = sorted(set(wanted) - set(given))
        extra = sorted(set(given) - set(wanted))
        raise IllegalMoveError(
            f"{what} order must hold exactly its {len(wanted)} cards "
            f"(missing {missing or 'none'}, not allowed {extra or 'none'})"
        )
    return list(given)


def draw_setup_card(deck: Deck, pile: list[str], rng: random.Random) -> str:
    """Step G: draw one card; a Wild is set aside and redrawn, then the Wild(s) are shuffled
    back into the deck. The pile's top is index 0."""
    set_aside: list[str] = []
    while pile:
        card_id = pile.pop(0)
        if not deck.card(card_id).is_wild:
            if set_aside:
                pile.extend(set_aside)
                rng.shuffle(pile)
            return card_id
        set_aside.append(card_id)
    raise IllegalMoveError(
        "the Track deck has too few non-Wild cards for every player's set-up card"
    )


def setup_tapes(deck: Deck, pile: list[str], count: int, rng: random.Random) -> list[Tape]:
    """Steps G–H for every player in seat order: draw a card (never Wild), place it."""
    tapes = []
    for _ in range(count):
        tape = Tape()
        tape.place(deck, draw_setup_card(deck, pile, rng))
        tapes.append(tape)
    return tapes
