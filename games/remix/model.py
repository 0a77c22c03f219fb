"""How one way of playing a hand scores: the rules' model, with every choice fixed.

Given the cards left after blanking, the owner's options and the order of the tag texts:

1. start from the printed tags as they count (Magneto, Hack In: see state.counted) and turn every
   card whose transform condition holds;
2. let each tag text act in the order (Vision, Shuri, Spider-Man's gain, Rogue, X-Jet, Moira,
   Xavier Mansion, unless the owner picks another), each seeing the tags as they are then; after
   each one, turn every card whose condition now holds (a turned card stays turned and keeps the
   tags it gained);
3. add base power and every bonus and penalty; a hand without a non-blanked HERO or ALLY and a
   non-blanked VILLAIN scores 0.

Loki's draw is not part of the model's value (rulings: every choice is settled before the draw);
:meth:`Hand.points` adds it only when asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.remix.catalogue import Card
from games.remix.effects import CompiledCard
from games.remix.names import ALLY, HERO, INTEL, LOKI, TAGS, TECH, TEXT_ORDER, VILLAIN
from games.remix.rules import Rule
from games.remix.state import Rise, Scorer, State

# the positions of the cards in a mask, by mask: the same for every hand (and every size)
_ALIVE: dict[int, tuple[int, ...]] = {}
_NONE: frozenset[int] = frozenset()


@dataclass
class Choices:
    """Everything the owner decides: an option per choice card (by hand position), the order of
    the tag texts (hand positions; None: the rulings' order) and the blanking script, a sequence
    of (blanking card position, its target position or None)."""

    options: dict[int, Any] = field(default_factory=dict)
    blanking: tuple[tuple[int, int | None], ...] = ()
    order: tuple[int, ...] | None = None


class Hand:
    """A hand of compiled cards and the model that scores it for fixed choices."""

    def __init__(
        self, cards: Sequence[Card], loki_draw: Card | None, compiled: dict[str, CompiledCard]
    ) -> None:
        self.cards = list(cards)
        self.hand: list[CompiledCard] = [compiled[c.id] for c in cards]
        self.n = len(self.hand)
        self.full = (1 << self.n) - 1
        self.loki_draw = loki_draw
        self.blankers: list[int] = []
        texts: list[int] = []
        self.transformers: list[int] = []
        # (position, condition, printed tags, side's tags, side's power) of each transformer;
        # after the first checkpoint only those whose condition reads tags can still turn (the
        # cards in play do not change while the tag texts act)
        self._turners: list[Any] = []
        self._tag_turners: list[Any] = []
        self.loki: int | None = None
        # the cards whose presence changes how tags count (Magneto, Hack In), as bit masks
        self._magneto_bits = self._hacker_bits = 0
        # the whole hand's tables for base_state (tags as printed: no Magneto, no Hack In)
        types: dict[str, int] = {}
        ids: dict[str, int] = {}
        counts = [0] * len(TAGS)
        rows = []
        powers = []
        for i, c in enumerate(self.hand):  # one pass: every hand is prepared once
            kind = c.type
            types[kind] = types.get(kind, 0) + 1
            ids[c.id] = i
            rows.append(c.printed)
            powers.append(c.power)
            for t, k in c.printed_pairs:
                counts[t] += k
            if c.plain:
                continue  # most cards: no text, no blanking, no transform, no counting rule
            if c.is_blanker:
                self.blankers.append(i)
            if c.has_text:
                texts.append(i)
            when = c.transform
            if when is not None:
                self.transformers.append(i)
                if c.side is not None:
                    turner = (i, when.test, c.printed, c.side, c.side_power)
                    self._turners.append(turner)
                    if when.reads or when.seen or when.typed:
                        self._tag_turners.append(turner)
            if c.magneto:
                self._magneto_bits |= 1 << i
            if c.hack_in:
                self._hacker_bits |= 1 << i
            if self.loki is None and c.id == LOKI:
                self.loki = i
        if len(texts) > 1:
            texts.sort(key=lambda i: (self.rank(i), i))
        self.texts = texts
        self.choosers: list[tuple[Rule[Any], int]] = []
        if texts:  # half the hands have none
            hand = self.hand
            self.choosers = [
                (rule, i) for i in texts if (rule := hand[i].tag_text) is not None and rule.choice
            ]
        self._base: dict[int, State] = {}
        self._whole: dict[tuple[bool, bool], Any] = {(False, False): (rows, types, ids, counts)}
        self._powers = powers
        # per set of cards in play: the points that do not depend on tags, and the scorers that do
        self._scoring: dict[tuple[int, ...], tuple[int, list[tuple[int, Scorer]]]] = {}
        # per set of cards in play: the rises of the scorers that read tags (None: one has none)
        self._rises: dict[tuple[int, ...], list[tuple[int, Rise]] | None] = {}
        # the cards whose points no tag choice can change (set by the search's analysis): a
        # tag more never raises them
        self.steady: frozenset[int] = _NONE

    def rank(self, pos: int) -> int:
        """A tag text's place in the rulings' order."""
        rule = self.hand[pos].tag_text
        return TEXT_ORDER.index(rule.name if rule is not None else "gains")

    # ------------------------------------------------------------------ settling the tags
    def base_state(self, mask: int) -> State:
        """The cards in ``mask`` with their printed tags as they count, turned where their
        condition holds before any tag text acts. Shared: copy it before changing it."""
        found = self._base.get(mask)
        if found is not None:
            return found
        hand = self.hand
        magneto = bool(mask & self._magneto_bits)
        hack_in = bool(mask & self._hacker_bits)
        whole = self._whole.get((magneto, hack_in))
        if whole is None:
            whole = self._whole[(magneto, hack_in)] = self._whole_hand(magneto, hack_in)
        rows, types, ids, counts = whole
        # the whole hand's tables, less the cards out of play (a few: blanked ones)
        tags: list[tuple[int, ...] | None] = list(rows)
        counts = counts[:]
        removed = self.full & ~mask
        if removed:
            way = 1 if magneto else 2 if hack_in else 0
            types = dict(types)
            ids = dict(ids)
            while removed:
                low = removed & -removed
                removed ^= low
                i = low.bit_length() - 1
                c = hand[i]
                left = types[c.type] - 1
                if left:
                    types[c.type] = left
                else:
                    del types[c.type]
                del ids[c.id]
                for t, k in c.counted_pairs[way]:
                    counts[t] -= k
                tags[i] = None
        alive = _ALIVE.get(mask)
        if alive is None:
            alive = _ALIVE[mask] = tuple(i for i in range(self.n) if mask >> i & 1)
        state = State(hand, alive, tags, list(self._powers), counts, types, ids, magneto, hack_in)
        if self.transformers:
            self.checkpoint(state, self._turners)
        self._base[mask] = state
        return state

    def _whole_hand(
        self, magneto: bool, hack_in: bool
    ) -> tuple[list[tuple[int, ...]], dict[str, int], dict[str, int], list[int]]:
        """Every card's tags as they count, and the hand's types, ids and tag counts, with
        Magneto and Hack In in play or not: what :meth:`base_state` takes cards out of (never
        changed: the states share the dicts)."""
        way = 1 if magneto else 2 if hack_in else 0
        rows = [c.counted_rows[way] for c in self.hand]
        types: dict[str, int] = {}
        ids: dict[str, int] = {}
        counts = [0] * len(TAGS)
        for i, c in enumerate(self.hand):
            types[c.type] = types.get(c.type, 0) + 1
            ids[c.id] = i
            for t, k in c.counted_pairs[way]:
                counts[t] += k
        return rows, types, ids, counts

    def checkpoint(self, s: State, turners: list[Any] | None = None) -> None:
        """Turn every card whose transform condition holds now (and again, while that turns
        more); a turned card stays turned. Without ``turners``: after a tag text (only the
        conditions that read tags can have changed since the first checkpoint)."""
        if turners is None:
            turners = self._tag_turners
        tags = s.tags
        while turners:
            transformed = s.transformed
            flips = [
                turner
                for turner in turners
                if not transformed[turner[0]]
                and tags[turner[0]] is not None
                and turner[1](s, turner[0])
            ]
            if not flips:
                return
            for i, _, printed, side, power in flips:
                s.turn(i, printed, side, power)

    def act(self, s: State, pos: int, option: Any) -> None:
        """The tag text of the card at ``pos`` acts (with ``option``), then transforms are
        checked."""
        c = self.hand[pos]
        if c.tag_text is not None:
            c.tag_text.apply(s, pos, option)
        else:
            for gain in c.gains:
                if gain.cond.test(s, pos):
                    for t in gain.tags:
                        s.add(pos, t)
        if self._tag_turners:  # without a card whose condition reads tags nothing can turn
            self.checkpoint(s)

    def sequence(self, mask: int, order: Sequence[int] | None) -> list[int]:
        """The tag texts of the cards in ``mask`` in the order they act: ``order`` first, the
        rest in the rulings' order."""
        alive = [i for i in self.texts if mask >> i & 1]
        if not order:
            return alive
        named = [i for i in order if i in alive]
        return named + [i for i in alive if i not in named]

    def option_for(self, pos: int, options: dict[int, Any]) -> Any:
        rule = self.hand[pos].tag_text
        if rule is None or not rule.choice:
            return None
        return options[pos] if pos in options else rule.default(self.hand, pos)

    def settle(
        self, mask: int, options: dict[int, Any], order: Sequence[int] | None = None
    ) -> State:
        """The settled tags of the cards in ``mask`` for these choices."""
        s = self.base_state(mask).copy()
        for pos in self.sequence(mask, order):
            self.act(s, pos, self.option_for(pos, options))
        return s

    # ------------------------------------------------------------------ scoring
    def valid(self, s: State) -> bool:
        types = s.types
        return bool(types.get(VILLAIN)) and bool(types.get(HERO) or types.get(ALLY))

    def points(self, s: State, with_draw: bool = False) -> int:
        """Base power plus every bonus and penalty of the cards left (Loki's draw only when
        ``with_draw``)."""
        if with_draw and self.loki_draw is not None:
            s.loki_draw = self.loki_draw
        alive = s.alive
        scoring = self._scoring.get(alive)
        if scoring is None:
            scoring = self._scoring[alive] = self._split_scorers(s)
        total, reading = scoring
        powers = s.powers
        for i in alive:
            total += powers[i]
        for i, scorer in reading:
            total += scorer(s, i, None)
        s.loki_draw = None
        return total

    def rise(self, s: State, tag: int) -> int | None:
        """At most how much the points of ``s`` can rise when one more ``tag`` is added to a
        card in play and no card turns over (None: a scorer cannot say)."""
        rises = self._rises.get(s.alive, ())
        if rises == ():
            rises = self._rises[s.alive] = self._collect_rises(s)
        if rises is None:
            return None
        total = 0
        for i, rise in rises:
            total += rise(s, i, tag)
        if tag == TECH and s.hack_in and not s.magneto:  # that Tech is an Intel tag too
            for i, rise in rises:
                total += rise(s, i, INTEL)
        return total

    def _collect_rises(self, s: State) -> list[tuple[int, Rise]] | None:
        found = []
        for i in s.alive:
            if i in self.steady:
                continue
            for rise in self.hand[i].rises:
                if rise is None:
                    return None
                found.append((i, rise))
        return found

    def _split_scorers(self, s: State) -> tuple[int, list[tuple[int, Scorer]]]:
        """For the cards in play in ``s``: the points of the scorers that read only which cards
        are in play (the same in every state with these cards), and the scorers that read tags."""
        fixed = 0
        reading = []
        hand = self.hand
        for i in s.alive:
            card = hand[i]
            for scorer in card.fixed_scorers:
                fixed += scorer(s, i, None)
            for scorer in card.tag_scorers:  # a loop, not a list built per card
                reading.append((i, scorer))
        return fixed, reading

    def selene_penalty(self, selene: tuple[int, int] | None, blanked: int) -> int:
        if selene is None or blanked >> selene[0] & 1:
            return 0  # a blanked Selene scores nothing, her subtraction included
        return self.hand[selene[1]].power

    def draw_cost(self, blanked: int, valid: bool) -> int:
        """What Loki's known draw takes off a hand that ended with ``blanked``: nothing when
        Loki is blanked or absent, the hand scores 0 anyway, or the draw is still owed."""
        if self.loki is None or self.loki_draw is None or blanked >> self.loki & 1 or not valid:
            return 0
        return self.loki_draw.base_power

    def draw_safe(self, blanked: int, valid: bool) -> bool:
        """The draw cannot lower this ending (the rulings' tie-break: a blanked Loki first)."""
        return self.loki is None or bool(blanked >> self.loki & 1) or not valid

    def universe(self) -> list[int]:
        """Every tag that can appear in this hand (for the brute-force option lists)."""
        tags: set[int] = set()
        for c in self.hand:
            tags |= {t for t in range(len(TAGS)) if c.printed[t] or (c.side and c.side[t])}
            rule = c.tag_text
            if rule is not None and not (rule.copies_power or rule.doubles):
                tags |= rule.gives  # Rogue, Moira and Xavier only pass on tags already there
            for gain in c.gains:
                tags |= set(gain.tags)
        if any(c.hack_in for c in self.hand):
            tags.add(TAGS.index("intel"))
        return sorted(tags)
