"""What can matter in a hand: the facts the search prunes with, worked out once per hand.

* ``possible[i]``: every tag card ``i`` can ever carry (printed, its other side, what the tag texts
  can give it, what Rogue can copy), a fixpoint;
* ``changeable``: the tags whose count on some card the tag texts (and the transforms they can
  trigger) can change; a blanking text whose condition reads one is *sensitive*: its result
  depends on the owner's tag choices;
* ``levels``: per tag, how much of it can matter to the score, to a transform or to a sensitive
  blanking condition: not at all, only whether the hand has it (Kang), which cards carry it
  (Mystique, Avoid Crossfire, "a HERO that has Agility"), or also how many instances there are;
* ``depends[p]``: the tag texts whose order relative to the text of card ``p`` can change the
  outcome (one reads what the other writes, directly or through a transform it can trigger).

Every fact errs on the side of "it can matter": a wrong "cannot" would lose the maximum; a wrong
"can" only costs time. The brute force (which uses none of this) checks it on random hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from games.remix.effects import CompiledCard
from games.remix.model import Hand
from games.remix.names import (
    HERO_OR_ALLY,
    INTEL,
    MUTANT,
    TAG_INDEX,
    TAGS,
    TECH,
    CardType,
    Level,
)
from games.remix.rules import HARMFUL, HEROES, IDLE, OTHERS, SELF, USEFUL
from games.remix.state import State

IGNORED, GLOBAL, PRESENCE, COUNTS = Level
MOST_TURNING = 4  # cards that can still turn over: settled conditions are checked on 2**n states
MANY = 9  # instances of a tag: more than any condition asks for
SETTLING_TEXTS = 3  # tag texts from which settled conditions are looked for
Feature = tuple[int, int]  # (card position, tag)


@dataclass
class Touch:
    """What a tag text (or a transform) can read and write."""

    reads: set[Feature] = field(default_factory=set)  # whether that card carries that tag
    counted: set[int] = field(default_factory=set)  # how many of that tag the hand has
    powers_read: set[int] = field(default_factory=set)
    writes: set[Feature] = field(default_factory=set)  # may give that card that tag
    recounts: set[int] = field(default_factory=set)  # may add instances of a tag a card has
    powers_written: set[int] = field(default_factory=set)

    def written_tags(self) -> set[int]:
        return {t for _, t in self.writes} | self.recounts

    def affects(self, other: Touch) -> bool:
        return bool(
            self.writes & other.reads
            or self.written_tags() & other.counted
            or self.powers_written & other.powers_read
        )


@dataclass
class Order:
    """What each tag text can read and write (through the transforms it can trigger), and
    the texts whose order relative to each one can change the outcome."""

    touch: dict[int, Touch]
    depends: dict[int, set[int]]
    triggers: dict[int, bool]  # whether the text can make a card turn over


class Analysis:
    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self._scopes: dict[tuple[int, str], list[int]] = {}
        self._orders: dict[frozenset[int], Order] = {}
        self.hack_in = any(c.hack_in for c in hand.hand)
        self._facts = [_facts(c) for c in hand.hand]  # each card's, looked up once
        self.possible = self._possible()
        self.changeable = self._changeable()
        self.sensitive = {b for b in hand.blankers if hand.hand[b].blank_reads & self.changeable}
        self.levels = self._levels()
        # what the search's merging of states keeps: the same without the settled cards' reads
        # (two states that differ only there end alike; the options offered do not change, so
        # the first way to the best stays the same)
        self.settled = self._settled()
        self.merge_levels = self._levels(self.settled) if self.settled else self.levels
        hand.steady = frozenset(self.settled)  # their rises are 0: the search's bounds tighten
        self.inert = {p for p in hand.texts if self._inert(p)}
        self.harmful = self._harmful()
        # the search's branch bounds (search.Tail), made when first needed and kept for every
        # search of this hand: what they work out per set of cards in play is the same
        self.bounds: Any = None
        # per number of texts still to act: how often bounding a branch cut it in the depth
        # first walks of this hand (search.Trial; the endings of one hand look alike)
        self.trials: dict[int, Any] = {}
        # The facts about the order of the tag texts (below) are worked out when first asked:
        # a search with one tag text never asks.

    @property
    def touch(self) -> dict[int, Touch]:
        return self.order().touch

    @property
    def depends(self) -> dict[int, set[int]]:
        return self.order().depends

    def order(self, dead: frozenset[int] = frozenset()) -> Order:
        """What each tag text reads and writes, and which depend on each other, when the
        transformers in ``dead`` can no longer turn (turned already, or blanked, in every view
        a search looks at): a text that could only have written through them writes less."""
        found = self._orders.get(dead)
        if found is None:
            texts = self.hand.texts
            touch = {p: self._touch(p) for p in texts}
            live = [x for x in self.hand.transformers if x not in dead]
            triggers, unsteady = self._close_over_transforms(touch, live)

            def dependent(p: int, q: int) -> bool:
                if touch[p].affects(touch[q]) or touch[q].affects(touch[p]):
                    return True
                return unsteady and triggers[p] and triggers[q]

            depends = {p: {q for q in texts if q != p and dependent(p, q)} for p in texts}
            found = self._orders[dead] = Order(touch, depends, triggers)
        return found

    def sinks_for(self, dead: frozenset[int] = frozenset()) -> set[int]:
        """The pickers whose writes no other text reads (see :meth:`order` for ``dead``):
        acting last changes nobody else's effect, so the search lets them act last (once they
        are pickers where it runs)."""
        touch = self.order(dead).touch
        return {
            p
            for p in self.unsteady_for
            if not any(
                q != p and q not in self.inert and touch[p].affects(touch[q])
                for q in self.hand.texts
            )
        }

    @cached_property
    def unsteady_for(self) -> dict[int, set[int]]:
        """A picker (Rogue, Moira, Xavier Mansion) loses nothing by acting later, unless a card
        it looks at can still turn over and lose a tag or power: those cards, per picker."""
        return {p: self._unsteady_for(p) for p in self.hand.texts if self._picks(p)}

    @cached_property
    def pickers(self) -> set[int]:
        return {p for p, cards in self.unsteady_for.items() if not cards}

    @cached_property
    def sinks(self) -> set[int]:
        return self.sinks_for()

    @cached_property
    def givers(self) -> set[int]:
        return {p for p in self.hand.texts if p not in self.inert and self._giver(p)}

    @cached_property
    def good(self) -> frozenset[int]:
        return self._good()

    @cached_property
    def leaders(self) -> set[int]:
        hand = self.hand.hand
        return {
            p
            for p in self.hand.texts
            if (rule := hand[p].tag_text) is not None
            and rule.looks_at
            and not (rule.copies_power or rule.doubles)
            and p not in self.inert
            and rule.gives <= self.good
        }

    # ------------------------------------------------------------------ tags
    def _targets(self, pos: int, scope: str) -> list[int]:
        found = self._scopes.get((pos, scope))
        if found is not None:
            return found
        hand = self.hand.hand
        if scope == SELF:
            found = [pos]
        elif scope == OTHERS:
            found = [j for j, c in enumerate(hand) if j != pos and c.type in HERO_OR_ALLY]
        else:
            found = [j for j, c in enumerate(hand) if j != pos and c.type == CardType.HERO]
        self._scopes[(pos, scope)] = found
        return found

    def _possible(self) -> list[set[int]]:
        hand = self.hand.hand
        possible = [set(facts.tags) for facts in self._facts]
        rules = [hand[p].tag_text for p in self.hand.texts]
        copier = any(r is not None and r.copies_power for r in rules)
        changed = True
        while changed:
            # the sets only grow: a change is a bigger size
            before = sum(map(len, possible)) if copier else 0
            for pos in self.hand.texts:
                c = hand[pos]
                rule = c.tag_text
                if rule is None:
                    possible[pos] |= {t for gain in c.gains for t in gain.tags}
                elif rule.copies_power:
                    for j in self._targets(pos, HEROES):
                        possible[pos] |= possible[j]
                elif not rule.doubles:
                    for scope in rule.gives_to:
                        for j in self._targets(pos, scope):
                            possible[j] |= rule.gives
            if self.hack_in:
                for p in possible:
                    if TECH in p:
                        p.add(INTEL)
            # only a copier (Rogue) reads what others may carry: without one, a pass is enough
            changed = copier and sum(map(len, possible)) != before
        return possible

    def _changeable(self) -> set[int]:
        hand = self.hand.hand
        tags: set[int] = set()
        for pos in self.hand.texts:
            c = hand[pos]
            rule = c.tag_text
            if rule is None:
                tags |= {t for gain in c.gains for t in gain.tags}
            elif rule.copies_power or rule.doubles:
                for j in self._targets(pos, HEROES):
                    tags |= self.possible[j]
            else:
                tags |= set(rule.gives)
        changed = True
        while changed:
            before = set(tags)
            if self.hack_in and TECH in tags:
                tags.add(INTEL)
            for x in self.hand.transformers:
                when = hand[x].transform
                assert when is not None
                if (when.reads | when.seen) & tags:
                    tags |= self.possible[x]
            changed = tags != before
        return tags

    def _levels(self, settled: frozenset[int] | set[int] = frozenset()) -> tuple[Level, ...]:
        hand = self.hand.hand
        levels: list[Level] = [IGNORED] * len(TAGS)
        for i, c in enumerate(hand):
            if i in settled:
                continue  # its points read tags, but no tag choice can change them
            for t, level in c.levels:
                levels[t] = max(levels[t], level)
            if c.transform is not None:
                for t in c.transform.reads:
                    levels[t] = COUNTS
                for t in c.transform.seen:
                    levels[t] = max(levels[t], PRESENCE)
        for b in self.sensitive:
            for t in hand[b].blank_reads:
                levels[t] = COUNTS
        if self.hack_in:
            levels[TECH] = max(levels[TECH], levels[INTEL])
        return tuple(levels)

    def _settled(self) -> set[int]:
        """The cards whose points read tags only through conditions (bonuses and penalties)
        that hold however the hand ends, or never hold. A condition asks for "at least" so
        much and the tag texts only add tags (only a card turning over takes some away), so
        one holds always when it holds on the fewest cards the hand can end with (every card a
        blanking text could blank gone), every card there that can still turn over turned or
        not; it never holds when it fails with every card in play carrying many of every tag
        it can ever carry. With a Magneto a blanking text could take away, the fewest cards
        count no Tech tag (he may be in play at the end)."""
        hand = self.hand
        if len(hand.texts) < SETTLING_TEXTS:
            return set()  # few texts: few states to merge, and settling would cost more
        cards = hand.hand
        candidates = [
            i
            for i, c in enumerate(cards)
            if c.tag_conditions
            and c.transform is None
            and all("bonus" in e or "penalty" in e or "per_type" in e for e in c.card.effects)
        ]
        if not candidates:
            return set()
        silencer = any(c.magneto for c in cards)  # Magneto may be in play: a Tech tag may not count
        blankable = 0
        for j, c in enumerate(cards):
            if c.self_blank is not None or any(
                b != j and (other := cards[b].blank_others) is not None and c.type in other.types
                for b in hand.blankers
            ):
                blankable |= 1 << j
        most = hand.base_state(hand.full).copy()
        for j in most.alive:
            most.tags[j] = tuple(MANY if t in self.possible[j] else 0 for t in range(len(TAGS)))
        most.counts = [sum(row[t] for row in most.tags if row) for t in range(len(TAGS))]
        settled = set()
        for i in candidates:
            mask = hand.full & ~blankable | 1 << i
            first = hand.base_state(mask)
            if silencer and not first.magneto:
                first = _silenced(first)
            turning = [
                x
                for x in hand.transformers
                if mask >> x & 1 and not first.transformed[x] and cards[x].side is not None
            ]
            if len(turning) > MOST_TURNING:
                continue
            ends = []
            for k in range(1 << len(turning)):
                end = first.copy()
                for bit, x in enumerate(turning):
                    side = cards[x].side
                    if k >> bit & 1 and side is not None:
                        end.turn(x, cards[x].printed, side, cards[x].side_power)
                ends.append(end)
            if all(
                all(cond.test(end, i) for end in ends) or not cond.test(most, i)
                for cond in cards[i].tag_conditions
            ):
                settled.add(i)
        return settled

    @property
    def idle(self) -> frozenset[int]:
        """The tags one more of never changes anything (Rogue copying one takes the power
        alone)."""
        return frozenset(t for t in range(len(TAGS)) if self.levels[t] <= GLOBAL)

    @property
    def merge_idle(self) -> frozenset[int]:
        """:attr:`idle` for the merging of states (:attr:`merge_levels`)."""
        return frozenset(t for t in range(len(TAGS)) if self.merge_levels[t] <= GLOBAL)

    def useful(self, s: State, pos: int, tag: int) -> int:
        """What one more ``tag`` on the card at ``pos`` can still do: USEFUL, IDLE (nothing) or
        HARMFUL (only lower the score)."""
        level = self.levels[tag]
        if tag in self.harmful:
            return HARMFUL
        if level == COUNTS:
            return USEFUL
        if level == PRESENCE:
            return IDLE if s.has(pos, tag) else USEFUL
        if level == GLOBAL:
            return IDLE if s.counts[tag] else USEFUL
        return IDLE

    def _inert(self, pos: int) -> bool:
        """A doubler with nothing worth doubling: no HERO that can be a Mutant can carry a tag
        whose count matters. It can be left out of the search (it doubles nothing)."""
        rule = self.hand.hand[pos].tag_text
        if rule is None or not rule.doubles:
            return False
        for h in self._targets(pos, HEROES):
            if MUTANT in self.possible[h] and any(
                self.levels[t] == COUNTS for t in self.possible[h]
            ):
                return False
        return True

    def _harmful(self) -> frozenset[int]:
        """The tags more of which can only lower the score: some effect counts them against
        the hand and nothing counts them for it (no bonus, no transform, no gain, no named
        rule, no blanking text). Giving one is never better than giving nothing."""
        hand = self.hand.hand
        down: set[int] = set()
        up: set[int] = set()
        for facts in self._facts:
            down |= facts.down
            up |= facts.up
        for b in self.sensitive:
            up |= hand[b].blank_reads
        if self.hack_in and INTEL in up:
            up.add(TECH)
        return frozenset(down - up)

    # ------------------------------------------------------------------ order
    def _always(self, pos: int, tag: int) -> bool:
        """The card carries this tag whatever happens (printed, and it never turns over)."""
        c = self.hand.hand[pos]
        return c.transform is None and c.printed[tag] > 0

    def _write(self, touch: Touch, pos: int, tags: set[int], recount: bool = False) -> None:
        """``pos`` may gain these tags (``recount``: only more instances of tags it has)."""
        for t in tags | ({INTEL} if self.hack_in and TECH in tags else set()):
            if recount or self._always(pos, t):
                touch.recounts.add(t)
            else:
                touch.writes.add((pos, t))

    def _touch(self, pos: int) -> Touch:
        """What the tag text of the card at ``pos`` reads and writes, as far as it can matter."""
        hand = self.hand.hand
        c = hand[pos]
        rule = c.tag_text
        touch = Touch()
        if rule is None:
            for gain in c.gains:
                self._write(touch, pos, set(gain.tags))
                touch.counted |= gain.cond.reads
                touch.reads |= {(j, t) for j in range(len(hand)) for t in gain.cond.seen}
            return touch
        heroes = self._targets(pos, HEROES)
        if rule.copies_power:
            touch.powers_read |= set(heroes)
            touch.powers_written.add(pos)
            for h in heroes:
                # every tag she may copy matters: one that changes nothing on her still lets
                # her take the power alone
                touch.reads |= {(h, t) for t in self.possible[h]}
                self._write(touch, pos, self.possible[h])
        elif rule.doubles:
            for h in heroes:
                counted = {t for t in self.possible[h] if self.levels[t] == COUNTS}
                touch.reads |= {(h, t) for t in counted | {MUTANT}}
                self._write(touch, h, self.possible[h], recount=True)
        else:
            for scope in rule.gives_to:
                for j in self._targets(pos, scope):
                    self._write(touch, j, set(rule.gives))
            if rule.looks_at and all(self.levels[t] == COUNTS for t in rule.looks_at):
                # X-Jet's "without Flight" changes the count only, never who has Flight after
                for j in self._targets(pos, rule.looks_on):
                    touch.reads |= {(j, t) for t in rule.looks_at}
        return touch

    def _transform_touch(self, x: int) -> Touch:
        hand = self.hand.hand
        c = hand[x]
        when = c.transform
        assert when is not None
        touch = Touch(counted=set(when.reads) | set(when.seen))
        self._write(touch, x, self.possible[x])
        touch.powers_written.add(x)
        return touch

    def _close_over_transforms(
        self, touches: dict[int, Touch], transformers: list[int]
    ) -> tuple[dict[int, bool], bool]:
        """A text that can trigger a transform also writes what the transform writes. Returns
        which texts can trigger one, and whether a transform can undo another's condition."""
        transforms = {x: self._transform_touch(x) for x in transformers}
        triggers: dict[int, bool] = {}
        for p, touch in touches.items():
            fired: set[int] = set()
            changed = True
            while changed:
                changed = False
                for x, tx in transforms.items():
                    if x not in fired and touch.written_tags() & tx.counted:
                        fired.add(x)
                        touch.writes |= tx.writes
                        touch.recounts |= tx.recounts
                        touch.powers_written |= tx.powers_written
                        changed = True
            triggers[p] = bool(fired)
        # A transform that takes a tag away (Hulk loses Bruce Banner's Tech) may undo another's
        # condition: then two texts that can both trigger transforms are kept in order.
        taken = set()
        for x in transformers:
            c = self.hand.hand[x]
            assert c.side is not None
            taken |= {t for t in range(len(TAGS)) if c.printed[t] > c.side[t]}
        if self.hack_in and TECH in taken:
            taken.add(INTEL)
        return triggers, any(taken & tx.counted for tx in transforms.values())

    def _picks(self, pos: int) -> bool:
        """A text that only picks among what is there (Rogue, Moira, Xavier Mansion)."""
        rule = self.hand.hand[pos].tag_text
        return pos not in self.inert and rule is not None and (rule.copies_power or rule.doubles)

    def _unsteady_for(self, pos: int) -> set[int]:
        """The transformers that could make a picker's earlier option disappear: turning over
        takes away a tag it looks for, or lowers a power it copies. With none, acting later it
        still has every option it had earlier, with the same effect."""
        touch = self.touch[pos]
        read_tags = {t for _, t in touch.reads}
        found = set()
        for x in self.hand.transformers:
            c = self.hand.hand[x]
            assert c.side is not None
            if any(c.printed[t] > c.side[t] for t in read_tags):
                found.add(x)  # turning over takes a tag it looks for away
            if x in touch.powers_read and c.side_power < c.power:
                found.add(x)  # turning over lowers a power it copies
        return found

    def _giver(self, pos: int) -> bool:
        """A text that reads nothing (Vision, Shuri, a gain whose condition no text changes): a
        picker just before it loses nothing by acting just after it instead."""
        c = self.hand.hand[pos]
        rule = c.tag_text
        if rule is not None:
            return not rule.looks_at and not rule.copies_power and not rule.doubles
        return not any((gain.cond.reads | gain.cond.seen) & self.changeable for gain in c.gains)

    def _good(self) -> frozenset[int]:
        """The tags more of which never lowers the score of the cards left: no text reads them
        with a negative sign, no sensitive blanking text reads them, and every transform or gain
        they can trigger only raises power and adds good tags. With all it gives good, X-Jet
        (which gives Flight only to cards without it) loses nothing by acting first."""
        hand = self.hand.hand
        bad: set[int] = set()
        for facts in self._facts:
            bad |= facts.down
        for b in self.sensitive:
            bad |= hand[b].blank_reads
        changed = True
        while changed:
            before = set(bad)
            if INTEL in bad:
                bad.add(TECH)  # with Hack In a Tech tag is also an Intel tag
            for x in self.hand.transformers:
                c = hand[x]
                assert c.side is not None and c.transform is not None
                added = {t for t in range(len(TAGS)) if c.side[t] > c.printed[t]}
                worse = c.side_power < c.power or any(
                    c.side[t] < c.printed[t] for t in range(len(TAGS))
                )
                if worse or added & bad:
                    bad |= c.transform.reads | c.transform.seen
            for c in hand:
                for gain in c.gains:
                    if set(gain.tags) & bad:
                        bad |= gain.cond.reads | gain.cond.seen
            changed = bad != before
        return frozenset(range(len(TAGS))) - bad


@dataclass(frozen=True)
class CardFacts:
    """What the analysis reads of one card, the same in every hand (worked out once)."""

    tags: frozenset[int]  # printed or on its other side
    down: frozenset[int]  # tags its effects count against the hand
    up: frozenset[int]  # tags its effects, rules, gains or transform count for it


_FACTS: dict[int, tuple[CompiledCard, CardFacts]] = {}


def _silenced(s: State) -> State:
    """``s`` as it would count with Magneto in play: no Tech tag counts, nor (Hack In) as an
    Intel tag; a card turning over later counts the same way."""
    silenced = s.copy()
    for j in s.alive:
        row = s.tags[j]
        if row is not None and row[TECH]:
            new = list(row)
            if s.hack_in:
                new[INTEL] -= row[TECH]
            new[TECH] = 0
            silenced.tags[j] = tuple(new)
    silenced.counts = [sum(r[t] for r in silenced.tags if r) for t in range(len(TAGS))]
    silenced.magneto = True
    return silenced


def _facts(c: CompiledCard) -> CardFacts:
    kept = _FACTS.get(id(c))
    if kept is not None and kept[0] is c:
        return kept[1]
    tags = {t for t in range(len(TAGS)) if c.printed[t] or (c.side is not None and c.side[t])}
    down: set[int] = set()
    up: set[int] = set()
    for effect in c.card.effects:
        down |= _signed_down(effect)
        up |= _signed_up(effect)
    for rule in c.rules:
        if rule.scorer is not None:  # a scoring rule (Avoid Crossfire, Kang): a reward
            up |= set(rule.reads) | set(rule.seen) | set(rule.anywhere)
    for gain in c.gains:
        up |= gain.cond.reads | gain.cond.seen
    if c.transform is not None:
        up |= c.transform.reads | c.transform.seen
    facts = CardFacts(frozenset(tags), frozenset(down), frozenset(up))
    _FACTS[id(c)] = (c, facts)
    return facts


def _signed_up(effect: Any) -> set[int]:
    """The tags a declared effect can give more points the more of them there are."""
    if "per_tag" in effect and effect["points"] > 0:
        return {TAG_INDEX[t] for t in effect["per_tag"]}
    if "per_pair" in effect and effect["points"] > 0:
        return {TAG_INDEX[t] for t in effect["per_pair"]}
    if "bonus" in effect and effect["bonus"] > 0:
        return _condition_tags(effect["when"])
    if "penalty" in effect and effect["penalty"] < 0:
        return _condition_tags(effect["unless"])
    return set()


def _condition_tags(cond: Any) -> set[int]:
    if isinstance(cond, dict):
        found = {TAG_INDEX[cond["tag"]]} if isinstance(cond.get("tag"), str) else set()
        for key in ("all", "any"):
            for part in cond.get(key, []):
                found |= _condition_tags(part)
        if cond.get("rule") == "three_cards_share_a_tag":
            found |= set(range(len(TAGS)))
        return found
    return set()


def _signed_down(effect: Any) -> set[int]:
    """The tags a declared effect gives fewer points the more of them there are."""
    if "per_tag" in effect and effect["points"] < 0:
        return {TAG_INDEX[t] for t in effect["per_tag"]}
    if "per_pair" in effect and effect["points"] < 0:
        return {TAG_INDEX[t] for t in effect["per_pair"]}
    if "bonus" in effect and effect["bonus"] < 0:
        return _condition_tags(effect["when"])
    if "penalty" in effect and effect["penalty"] > 0:
        return _condition_tags(effect["unless"])
    return set()
