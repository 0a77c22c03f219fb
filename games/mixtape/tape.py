"""A player's area during a game: the two columns, where the cube stands, and discards.

Placement follows "About Balance": a card goes at the bottom of its own column (A cards in Trk A,
B cards in Trk B) and moves the cube at once; a card that would push the cube off the Equalizer is
not placed but discarded to the box.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from games.mixtape.deck import Deck
from games.mixtape.errors import IllegalMixtapeError
from games.mixtape.scoring import MixtapeScore, check_mixtape, score_cards


@dataclass
class Tape:
    a: list[str] = field(default_factory=list)
    b: list[str] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)

    def column(self, side: str) -> list[str]:
        return self.a if side == "A" else self.b

    def square(self, deck: Deck) -> int:
        return (
            deck.start
            - sum(deck.card(i).balance for i in self.a)
            + sum(deck.card(i).balance for i in self.b)
        )

    def would_fit(self, deck: Deck, card_id: str) -> bool:
        card = deck.card(card_id)
        move = -card.balance if card.side == "A" else card.balance
        return deck.on_equalizer(self.square(deck) + move)

    def place(self, deck: Deck, card_id: str) -> bool:
        """Add one card at the bottom of its column; False if it was discarded instead."""
        if self.would_fit(deck, card_id):
            self.column(deck.card(card_id).side).append(card_id)
            return True
        self.discarded.append(card_id)
        return False

    def place_all(self, deck: Deck, order: Iterable[str]) -> list[str]:
        """Place cards in this order; returns the ids that had to be discarded."""
        return [card_id for card_id in order if not self.place(deck, card_id)]

    def copy(self) -> Tape:
        return Tape(list(self.a), list(self.b), list(self.discarded))

    def card_ids(self) -> list[str]:
        return [*self.a, *self.b]

    def score(self, deck: Deck) -> MixtapeScore:
        return score_cards(deck, deck.cards_for(self.a), deck.cards_for(self.b))

    def to_json(self) -> dict[str, Any]:
        return {"a": list(self.a), "b": list(self.b), "discarded": list(self.discarded)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], deck: Deck) -> Tape:
        try:
            tape = cls(list(data["a"]), list(data["b"]), list(data.get("discarded", [])))
        except (KeyError, TypeError) as error:
            raise IllegalMixtapeError(f"mixtape in saved state is malformed: {error}") from None
        check_mixtape(deck, tape.a, tape.b)
        deck.cards_for(tape.discarded)
        return tape


def best_order(
    deck: Deck, tape: Tape, card_ids: Sequence[str], must_keep: Sequence[str] = ()
) -> list[str]:
    """The placement order (rulings): one that keeps every card that can be kept (a card that
    would push the cube off the Equalizer goes to the box), the cards in ``must_keep`` before any
    other; among those, the best Flow; then the better total; then the order the cards were given
    in."""
    best: list[str] = list(card_ids)
    best_key: tuple[int, int, int, int] | None = None
    seen: set[tuple[str, ...]] = set()
    for order in permutations(card_ids):
        if order in seen:
            continue
        seen.add(order)
        trial = tape.copy()
        dropped = trial.place_all(deck, order)
        score = trial.score(deck)
        key = (-len(set(dropped) & set(must_keep)), -len(dropped), score.flow, score.total)
        if best_key is None or key > best_key:
            best, best_key = list(order), key
    return best


def place_best(
    deck: Deck, tape: Tape, card_ids: Sequence[str], must_keep: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """Place cards in the :func:`best_order`; returns (order used, discarded ids)."""
    order = best_order(deck, tape, card_ids, must_keep)
    return order, tape.place_all(deck, order)


def points_gained(deck: Deck, tape: Tape, card_ids: Sequence[str]) -> int:
    """What placing ``card_ids`` (in the best order) adds to the mixtape's total; ``tape`` is
    left as it was. What a player weighs when choosing cards."""
    if not card_ids:
        return 0
    trial = tape.copy()
    place_best(deck, trial, card_ids)
    return trial.score(deck).total - tape.score(deck).total
