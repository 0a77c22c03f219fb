"""End Game Scoring: Balance, Flow and Genre sets, the tie-break and shared victory.

All three parts follow /work/shared/rulings.md (Mixtape section):
- Balance: the cube starts on the start square; every A card moves it left by its number, every
  B card right. Score = points printed on the square it ends on. A mixtape whose cube would leave
  the Equalizer cannot arise (such a card is discarded, never placed) and is refused.
- Flow: column by column; card i aligns with card i+1 when a flow point on the bottom of i meets
  one on the top of i+1 in the same position, and a Wild aligns with both neighbours. A card
  aligned with both neighbours scores 3, with one 1, with none 0; the first and last card of a
  column have a single neighbour (so they score at most 1).
- Genre sets: count per genre over both columns, Wild excluded, scored by the rulebook's table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.mixtape.deck import GENRES, Card, Deck
from games.mixtape.errors import IllegalMixtapeError

# The rulebook's table: cards in one genre → points (index = set size).
GENRE_SET_POINTS = (0, 0, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78)

FLOW_BOTH_NEIGHBOURS = 3
FLOW_ONE_NEIGHBOUR = 1


def genre_set_points(size: int) -> int:
    """Points for a set of `size` cards of one genre.

    The table stops at 12; it is the triangular numbers (n·(n+1)/2) from 2 on, so larger sets
    (possible only with a home-made deck) continue that pattern — an assumption, see README.
    """
    if size < 0:
        raise ValueError("a set size cannot be negative")
    if size < len(GENRE_SET_POINTS):
        return GENRE_SET_POINTS[size]
    return size * (size + 1) // 2


def aligns(upper: Card, lower: Card) -> bool:
    """Does `upper` flow into `lower` placed directly below it in the same column?"""
    if upper.is_wild or lower.is_wild:
        return True
    return bool(upper.bottom & lower.top)


def column_flow(cards: Sequence[Card]) -> list[int]:
    """Flow points of each card of one column, top to bottom."""
    links = [aligns(cards[i], cards[i + 1]) for i in range(len(cards) - 1)]
    points = []
    for index in range(len(cards)):
        above = index > 0 and links[index - 1]
        below = index < len(links) and links[index]
        count = int(above) + int(below)
        points.append(FLOW_BOTH_NEIGHBOURS if count == 2 else FLOW_ONE_NEIGHBOUR * count)
    return points


@dataclass(frozen=True)
class CardScore:
    id: str
    column: str
    flow_points: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "column": self.column, "flow_points": self.flow_points}


@dataclass(frozen=True)
class MixtapeScore:
    """One player area's end-game score. `position` counts squares from the start square."""

    balance_position: int
    balance_square: int
    balance_points: int
    flow: int
    genres: int
    cards: tuple[CardScore, ...]
    genre_sets: Mapping[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.balance_points + self.flow + self.genres

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "balance": {
                "position": self.balance_position,
                "points": self.balance_points,
                "square": self.balance_square,
            },
            "flow": self.flow,
            "genres": self.genres,
            "genre_sets": {
                genre: {"cards": count, "points": genre_set_points(count)}
                for genre, count in self.genre_sets.items()
            },
            "cards": [card.to_json() for card in self.cards],
        }


def cube_square(deck: Deck, a_cards: Sequence[Card], b_cards: Sequence[Card]) -> int:
    """The square the cube ends on (0-based; may be off the Equalizer)."""
    return deck.start - sum(c.balance for c in a_cards) + sum(c.balance for c in b_cards)


def score_cards(deck: Deck, a_cards: Sequence[Card], b_cards: Sequence[Card]) -> MixtapeScore:
    """Score a mixtape already known to be legal (the round engine's own areas)."""
    square = cube_square(deck, a_cards, b_cards)
    if not deck.on_equalizer(square):
        raise IllegalMixtapeError(_off_message(deck, square))
    cards: list[CardScore] = []
    flow = 0
    for column, column_cards in (("A", a_cards), ("B", b_cards)):
        for card, points in zip(column_cards, column_flow(column_cards), strict=True):
            cards.append(CardScore(card.id, column, points))
            flow += points
    counts = Counter(card.genre for card in (*a_cards, *b_cards) if not card.is_wild)
    genre_sets = {genre: counts[genre] for genre in GENRES if counts[genre]}
    genres = sum(genre_set_points(count) for count in genre_sets.values())
    return MixtapeScore(
        balance_position=deck.position_of(square),
        balance_square=square,
        balance_points=deck.squares[square],
        flow=flow,
        genres=genres,
        cards=tuple(cards),
        genre_sets=genre_sets,
    )


def score_mixtape(deck: Deck, a_ids: Sequence[str], b_ids: Sequence[str]) -> MixtapeScore:
    """Score a finished mixtape given as card ids, each column top to bottom.

    Refuses (IllegalMixtapeError / UnknownCardError) unknown ids, a card used twice, a card in
    the wrong column, and a mixtape that could not have been built without the cube leaving the
    Equalizer.
    """
    a_cards, b_cards = check_mixtape(deck, a_ids, b_ids)
    return score_cards(deck, a_cards, b_cards)


def check_mixtape(
    deck: Deck, a_ids: Sequence[str], b_ids: Sequence[str]
) -> tuple[list[Card], list[Card]]:
    """Validate a mixtape given as ids; returns its cards column by column."""
    a_cards = deck.cards_for(a_ids)
    b_cards = deck.cards_for(b_ids)
    seen: set[str] = set()
    for card in (*a_cards, *b_cards):
        if card.id in seen:
            raise IllegalMixtapeError(f"card {card.id} appears twice in the mixtape")
        seen.add(card.id)
    for column, cards in (("A", a_cards), ("B", b_cards)):
        for card in cards:
            if card.side != column:
                raise IllegalMixtapeError(
                    f"card {card.id} is a {card.side} card and cannot be in column Trk {column}"
                )
    square = cube_square(deck, a_cards, b_cards)
    if not deck.on_equalizer(square):
        raise IllegalMixtapeError(_off_message(deck, square))
    if not _placeable_in_some_order(deck, a_cards, b_cards):
        raise IllegalMixtapeError(
            "impossible mixtape: whatever order the cards went in, the Balance cube would have "
            "left the Equalizer on the way, so one of them would have been discarded"
        )
    return a_cards, b_cards


def _off_message(deck: Deck, square: int) -> str:
    position = deck.position_of(square)
    side = "left" if position < 0 else "right"
    reach = deck.start if position < 0 else len(deck.squares) - 1 - deck.start
    return (
        f"impossible mixtape: the Balance cube would end {abs(position)} squares {side} of the "
        f"start square, off the Equalizer (it reaches {reach} squares {side})"
    )


def _placeable_in_some_order(deck: Deck, a_cards: Sequence[Card], b_cards: Sequence[Card]) -> bool:
    """Is there an interleaving of the two columns (each kept top to bottom) that never pushes
    the cube off the Equalizer? The cube's square after i A cards and j B cards does not depend
    on the interleaving, so this is a reachability walk over the (i, j) grid."""
    left = [0]
    for card in a_cards:
        left.append(left[-1] + card.balance)
    right = [0]
    for card in b_cards:
        right.append(right[-1] + card.balance)
    reachable = [[False] * (len(b_cards) + 1) for _ in range(len(a_cards) + 1)]
    reachable[0][0] = True
    for i in range(len(a_cards) + 1):
        for j in range(len(b_cards) + 1):
            if (i, j) == (0, 0):
                continue
            if not deck.on_equalizer(deck.start - left[i] + right[j]):
                continue
            reachable[i][j] = (i > 0 and reachable[i - 1][j]) or (j > 0 and reachable[i][j - 1])
    return reachable[len(a_cards)][len(b_cards)]


def ranking_key(score: MixtapeScore | Mapping[str, Any]) -> tuple[int, int]:
    """What ranks mixtapes, higher first: the total, then (the rulebook's tie-break) the Balance
    score; equal keys share the place. Takes a score or its :meth:`MixtapeScore.to_json`."""
    if isinstance(score, MixtapeScore):
        return (score.total, score.balance_points)
    return (int(score["total"]), int(score["balance"]["points"]))


def winners(scores: Mapping[str, MixtapeScore]) -> list[str]:
    """Multiplayer winners: highest total; a draw goes to the higher Balance score; a draw on
    both is a shared victory (all of them are returned)."""
    if not scores:
        return []
    best = max(ranking_key(s) for s in scores.values())
    return [name for name, s in scores.items() if ranking_key(s) == best]
