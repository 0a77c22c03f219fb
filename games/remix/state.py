"""The tag state of a hand while its tags are being settled, and the view the scorers read.

Per card (by position in the hand): its tags as a 13-count tuple (``None`` once blanked) and its
base power; per hand: the count of every tag. Scorers and conditions read only this object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from games.remix.catalogue import Card
from games.remix.names import TAGS

NO_TAGS: tuple[int, ...] = (0,) * len(TAGS)


class HandCard(Protocol):
    """What the tag state, the conditions and the named rules read of a card in the hand (the
    compiled card of :mod:`games.remix.effects` is one)."""

    @property
    def card(self) -> Card: ...
    @property
    def id(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def own_reads(self) -> set[int]: ...
    @property
    def hero_or_ally(self) -> bool: ...


# A condition: does it hold for the card at this position? A scorer: the points of the card at
# this position (``lines`` is None during the search, a list to explain into otherwise).
Cond = Callable[["State", int], bool]
Scorer = Callable[["State", int, "list[str] | None"], int]


def tag_counts(tags: tuple[str, ...]) -> tuple[int, ...]:
    row = [0] * len(TAGS)
    for tag in tags:
        row[TAGS.index(tag)] += 1
    return tuple(row)


class State:
    """One way the hand's tags can be settled (one branch of the owner's choices)."""

    __slots__ = (
        "hand",
        "alive",
        "tags",
        "powers",
        "counts",
        "types",
        "ids",
        "transformed",
        "budget",
        "loki_draw",
    )

    def __init__(
        self,
        hand: Sequence[HandCard],
        alive: tuple[int, ...],
        tags: list[tuple[int, ...] | None],
        powers: list[int],
        counts: list[int],
        types: dict[str, int],
        ids: dict[str, int],
        transformed: tuple[bool, ...],
    ) -> None:
        self.hand = hand
        self.alive = alive
        self.tags = tags
        self.powers = powers
        self.counts = counts
        self.types = types
        self.ids = ids
        self.transformed = transformed
        self.budget = 0
        self.loki_draw: Any = None

    def copy(self) -> State:
        other = State.__new__(State)
        other.hand = self.hand
        other.alive = self.alive
        other.tags = list(self.tags)
        other.powers = list(self.powers)
        other.counts = list(self.counts)
        other.types = self.types
        other.ids = self.ids
        other.transformed = self.transformed
        other.budget = self.budget
        other.loki_draw = self.loki_draw
        return other

    def key(self) -> tuple[Any, ...]:
        return (tuple(self.tags), tuple(self.powers), tuple(self.counts), self.budget)

    def add(self, pos: int, tag: int, relevant: tuple[int, ...] | None, n: int = 1) -> None:
        """Give the card at ``pos`` ``n`` more of ``tag``.

        During the search (``relevant`` given) a tag no card reads is not tracked, and a tag whose
        number does not matter (only which cards carry it) is recorded once per card.
        """
        row = self.tags[pos]
        if row is None:
            return
        if relevant is not None:
            matter = relevant[tag]
            if matter == 0:  # nobody reads it
                return
            if matter == 1:  # only whether the hand has it: not tied to a card
                if not self.counts[tag]:
                    self.counts[tag] = 1
                return
            if matter == 2 and row[tag]:  # which cards carry it, not how many
                return
        new = list(row)
        new[tag] += n
        self.tags[pos] = tuple(new)
        self.counts[tag] += n

    def has(self, pos: int, tag: int) -> bool:
        row = self.tags[pos]
        return row is not None and row[tag] > 0
