"""The tag state of a hand while its tags are being settled, and the view the scorers read.

Per card (by position in the hand): its tags as a 13-count tuple (``None`` once blanked), its
power and whether it has turned over; per hand: the count of every tag. The rows hold the tags as
every card text counts them (rulings, Marvel: Remix): with Magneto in play a Tech tag counts for
nothing anywhere, and with Hack In each Tech tag also counts as an Intel tag. Scorers, conditions
and the named rules read only this object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from games.remix.catalogue import Card
from games.remix.names import HERO, INTEL, MUTANT, TAGS, TECH

NO_TAGS: tuple[int, ...] = (0,) * len(TAGS)
Row = tuple[int, ...]


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
# A scorer's rise: at most how much the scorer of the card at this position can gain when one
# more instance of this tag is added to any card in play (no card turning over). Every condition
# asks for "at least" so much, so a tag more never takes a bonus away.
Rise = Callable[["State", int, int], int]


def tag_counts(tags: tuple[str, ...]) -> Row:
    row = [0] * len(TAGS)
    for tag in tags:
        row[TAGS.index(tag)] += 1
    return tuple(row)


def counted(row: Row, magneto: bool, hack_in: bool) -> Row:
    """A card's tags as they count: Tech ignored under Magneto; each Tech also an Intel with
    Hack In (a Tech tag Magneto ignores is no Intel either)."""
    if not row[TECH] or not (magneto or hack_in):
        return row
    new = list(row)
    if magneto:
        new[TECH] = 0
    else:
        new[INTEL] += row[TECH]
    return tuple(new)


# per (printed tags, side's tags, magneto, hack_in): how turning over changes a card's tags (as
# they count), and the tags it changes with by how much
_CHANGES: dict[tuple[Row, Row, bool, bool], tuple[Row, list[tuple[int, int]]]] = {}


class State:
    """One way the hand's tags can stand (one branch of the owner's choices)."""

    __slots__ = (
        "hand",
        "alive",
        "tags",
        "powers",
        "counts",
        "types",
        "ids",
        "transformed",
        "doubled",
        "magneto",
        "hack_in",
        "loki_draw",
    )

    def __init__(
        self,
        hand: Sequence[HandCard],
        alive: tuple[int, ...],
        tags: list[Row | None],
        powers: list[int],
        counts: list[int],
        types: dict[str, int],
        ids: dict[str, int],
        magneto: bool = False,
        hack_in: bool = False,
    ) -> None:
        self.hand = hand
        self.alive = alive
        self.tags = tags
        self.powers = powers
        self.counts = counts
        self.types = types
        self.ids = ids
        self.transformed: tuple[bool, ...] = (False,) * len(hand)
        self.doubled: frozenset[tuple[int, int]] = frozenset()  # (hero, tag) counted twice
        self.magneto = magneto
        self.hack_in = hack_in
        self.loki_draw: Any = None

    def copy(self) -> State:
        other = State.__new__(State)
        other.hand = self.hand
        other.alive = self.alive
        other.tags = self.tags[:]
        other.powers = self.powers[:]
        other.counts = self.counts[:]
        other.types = self.types
        other.ids = self.ids
        other.transformed = self.transformed
        other.doubled = self.doubled
        other.magneto = self.magneto
        other.hack_in = self.hack_in
        other.loki_draw = self.loki_draw
        return other

    def add(self, pos: int, tag: int, n: int = 1) -> None:
        """Give the card at ``pos`` ``n`` more of ``tag`` (as it counts: see :func:`counted`)."""
        row = self.tags[pos]
        if row is None:
            return
        if tag == TECH and self.magneto:
            return  # an ignored Tech tag counts for nothing anywhere
        new = list(row)
        new[tag] += n
        self.counts[tag] += n
        if tag == TECH and self.hack_in:
            new[INTEL] += n
            self.counts[INTEL] += n
        self.tags[pos] = tuple(new)

    def has(self, pos: int, tag: int) -> bool:
        row = self.tags[pos]
        return row is not None and row[tag] > 0

    def is_mutant_hero(self, pos: int) -> bool:
        return self.hand[pos].type == HERO and self.has(pos, MUTANT)

    def double(self, hero: int, tag: int) -> bool:
        """Count one of a Mutant HERO's tags twice (Moira, Xavier Mansion): one more instance,
        however many texts say so. False when it does nothing (the HERO is blanked, has no Mutant
        or no such tag, or that tag is already counted twice)."""
        row = self.tags[hero]
        if (
            row is None
            or not row[tag]
            or not row[MUTANT]
            or self.hand[hero].type != HERO
            or (hero, tag) in self.doubled
        ):
            return False
        self.doubled = self.doubled | {(hero, tag)}
        self.add(hero, tag)
        return True

    def turn(self, pos: int, printed: Row, side: Row, power: int) -> None:
        """Turn a card over: the side's tags replace the printed ones, the tags it gained stay."""
        row = self.tags[pos]
        assert row is not None
        key = (printed, side, self.magneto, self.hack_in)
        change = _CHANGES.get(key)
        if change is None:  # (worked out once: cards turn over in the search's loops)
            before = counted(printed, self.magneto, self.hack_in)
            after = counted(side, self.magneto, self.hack_in)
            diff = [a - b for a, b in zip(after, before, strict=True)]
            change = _CHANGES[key] = (tuple(diff), [(t, d) for t, d in enumerate(diff) if d])
        new = tuple([r + d for r, d in zip(row, change[0], strict=True)])
        counts = self.counts
        for t, d in change[1]:
            counts[t] += d
        self.tags[pos] = new
        self.powers[pos] = power
        flags = list(self.transformed)
        flags[pos] = True
        self.transformed = tuple(flags)
