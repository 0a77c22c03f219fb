"""The owner's best choices: every option and every order of the tag texts that can matter, every
blanking order and target, pruned only where the outcome cannot change.

1. :func:`games.remix.blanking.explore` lists how the blanking can end. A blanking condition the
   tag choices can change ("sensitive") is tried both ways; the ending remembers the assumption.
2. For each set of cards left (and the views the sensitive blanking texts had), :func:`settle_all`
   walks the tag texts: each text with each of its useful options, depth first in the order
   layers would list them (a way found early cuts every branch that can at most tie it, in
   every group of texts; without a finish, layer by layer), merging the states that nothing
   still to come can tell apart (:class:`Projector`). The order of two texts
   is explored only when they depend on each other (analysis.depends, leaving out transformers
   already turned or blanked in every view: they never turn again); texts that do not are
   taken in the rulings' order. The last text's ways are only valued, never kept as nodes, and
   ways that can only differ by a power nothing reads (Rogue's copies of one tag) or by which
   interchangeable HERO carries an extra instance (a doubler's) are valued once; for Rogue or
   a doubler acting last, a way whose bound (:class:`Ceiling`, the most over every set of
   cards it could turn over) cannot beat the best found so far is skipped; with views the
   bound is taken in the view that scores and the best is what the :class:`Target` says (the
   best worth among the endings the views make true, or an ending searched before).
3. The best total wins; on a tie, the ending where Loki's draw cannot subtract (a blanked Loki),
   then a valid hand. The search never looks at the drawn card, so the choices are the same
   before and after the draw.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from games.remix.analysis import COUNTS, GLOBAL, IGNORED, MOST_TURNING, PRESENCE, Analysis
from games.remix.blanking import Outcome, blank_test, explore
from games.remix.model import Choices, Hand
from games.remix.names import HERO_OR_ALLY, INTEL, MUTANT, TAGS, TECH, CardType, Level
from games.remix.rules import IDLE, USEFUL, Useful
from games.remix.state import Rise, State, counted

if TYPE_CHECKING:
    from games.remix.effects import CompiledCondition

Path = tuple[tuple[int, Any], ...]
# the Tail's tags as bits: one per tag, and one more for "a tag nothing reads" (Rogue may copy
# it: she takes the power alone)
UNREAD = 1 << len(TAGS)
ALL_BITS = (UNREAD << 1) - 1
# the rises of the scorers that read tags: (card, rise) that rise with each tag, and (card,
# rise, the tags it reads as bits) that rise once
Scorers = tuple[list[tuple[int, Rise]], list[tuple[int, Rise, int]]]
# What a completed way of the tag texts is worth, and its signature: of the ways with the same
# signature only the first way to the best value is kept (the search's "best only").
Finish = Callable[[tuple[State, ...]], tuple[int, Any]]


class Projector:
    """A state's identity for merging, for the cards in one mask with some tag texts still to
    act: everything those texts and the score can still read, nothing else.

    Cards a text still to act writes to by name, or reads one by one (Rogue's HEROES, the
    doublers' Mutant HEROES), transformers while texts remain, and cards that read their own tags
    are *watched*: their tags (as much as matters) and power are kept. The other HEROES and ALLIES
    (and turned cards) are interchangeable: only how many of them carry each tag and their total
    power are kept, per type. Cards no text can reach never change and are left out."""

    def __init__(self, hand: Hand, analysis: Analysis, mask: int, remaining: frozenset[int]):
        cards = hand.hand
        alive = [i for i in range(hand.n) if mask >> i & 1]
        texts = [p for p in remaining if mask >> p & 1 and p not in analysis.inert]
        rules = [cards[p].tag_text for p in texts]
        copier = any(r is not None and r.copies_power for r in rules)
        doublers = [r for r in rules if r is not None and r.doubles]
        transformers = {i for i in alive if cards[i].transform is not None}
        watched = set(texts) | {i for i in alive if cards[i].own_reads}
        if texts:
            watched |= transformers
        if copier:
            watched |= {i for i in alive if cards[i].type == CardType.HERO}
        if doublers:
            watched |= {i for i in alive if MUTANT in analysis.possible[i]}
        self.watched = sorted(watched)
        loose = {i for i in alive if cards[i].type in HERO_OR_ALLY} | transformers
        kinds = sorted({cards[i].type for i in loose - watched})
        self.pools = [
            [i for i in sorted(loose - watched) if cards[i].type == kind] for kind in kinds
        ]
        levels = analysis.merge_levels
        # how many instances of each tag a watched card's key keeps (None: all of them)
        caps: list[int | None] = [
            None if lv == COUNTS else 1 if lv == PRESENCE else 0 for lv in levels
        ]
        if doublers and caps[MUTANT] == 0:
            caps[MUTANT] = 1
        self.caps = tuple(caps)
        self.exact = all(c is None for c in caps) and not copier
        self.coded = [t for t in range(len(TAGS)) if levels[t] >= PRESENCE]
        self.counted = [t for t in range(len(TAGS)) if levels[t] == COUNTS]
        self.present = [t for t in range(len(TAGS)) if levels[t] == GLOBAL]
        all_doublers = [p for p in hand.texts if (r := cards[p].tag_text) and r.doubles]
        self.doubled = bool(doublers) and len(all_doublers) >= 2
        # while Rogue is to act, whether a HERO carries a tag she could copy for the power alone
        self.idle = sorted(analysis.merge_idle) if copier else []
        self.flags = bool(texts and transformers)
        self._rows: dict[tuple[int, ...], Any] = {}
        self._codes: dict[tuple[int, ...], int] = {}

    def _row(self, row: tuple[int, ...]) -> Any:
        found = self._rows.get(row)
        if found is None:
            found = tuple(
                [r if c is None else min(r, c) for r, c in zip(row, self.caps, strict=True)]
            )
            if self.idle:
                found += (any(row[t] for t in self.idle),)
            self._rows[row] = found
        return found

    def _code(self, row: tuple[int, ...]) -> int:
        found = self._codes.get(row)
        if found is None:
            found = sum(1 << (4 * k) for k, t in enumerate(self.coded) if row[t])
            self._codes[row] = found
        return found

    def key(self, s: State) -> tuple[Any, ...]:
        rows = s.tags
        powers = s.powers
        if self.exact:
            kept = tuple([rows[i] for i in self.watched])
        else:
            kept = tuple([self._row(rows[i]) for i in self.watched])  # type: ignore[arg-type]
        pooled = []
        for pool in self.pools:
            code = power = 0
            for i in pool:
                code += self._code(rows[i])  # type: ignore[arg-type]
                power += powers[i]
            pooled.append((code, power))
        counts = s.counts
        return (
            kept,
            tuple([powers[i] for i in self.watched]),
            tuple(pooled),
            tuple([counts[t] for t in self.counted]),
            tuple([counts[t] > 0 for t in self.present]),
            s.transformed if self.flags else (),
            s.doubled if self.doubled else (),
        )


class Ceiling:
    """Bounds on what Rogue or a doubler acting last can reach from one state: the state's
    points, plus the power Rogue would take, plus how far the scorers can rise with each tag it
    adds (a doubler: up to ``limit`` tags, each a tag a Mutant HERO has). When what it adds can
    turn cards over, ``turned`` holds the state with each set of them turned (the end is one of
    those plus what it added, a turned card keeping what it gained): the points and each rise
    are the most over all of them - only for a way that adds a ``trigger`` tag (one a condition
    to turn reads): any other way turns nothing and is bounded in ``s`` alone (``plain``). A
    way that cannot beat the best found so far need not be tried."""

    def __init__(
        self,
        hand: Hand,
        s: State,
        pos: int,
        copies: bool,
        limit: int,
        turned: Sequence[State] = (),
        trigger: int = ALL_BITS,
    ) -> None:
        self.hand = hand
        self.s = s
        self.pos = pos
        self.copies = copies
        self.limit = limit
        self.turned = turned  # (the end where nothing turns is ``s``: ``plain`` bounds it)
        self._rises: dict[int, int | None] = {}
        self.trigger = trigger
        self.plain = Ceiling(hand, s, pos, copies, limit) if turned else None
        unturned = hand.points(s) if self.plain is None else self.plain.base
        self.base: int = max([unturned, *(hand.points(end) for end in turned)])
        self._heroes: tuple[list[int], set[int]] | None = None

    def rise(self, tag: int) -> int | None:
        if tag not in self._rises:
            if self.plain is None:
                rise = self.hand.rise(self.s, tag)
                most = None if rise is None else max(rise, 0)
            else:
                most = self.plain.rise(tag)  # the end where nothing turns
            for end in self.turned:
                if most is None:
                    break
                rise = self.hand.rise(end, tag)
                most = None if rise is None else max(most, rise)
            self._rises[tag] = most
        return self._rises[tag]

    def heroes(self) -> tuple[list[int], set[int]]:
        """The HEROES Rogue may copy (a doubler: whose tags it may double) and their tags."""
        if self._heroes is None:
            if self.plain is not None:
                self._heroes = self.plain.heroes()
            else:
                s, cards = self.s, self.hand.hand
                heroes = [
                    j
                    for j in s.alive
                    if cards[j].type == CardType.HERO
                    and (j != self.pos if self.copies else s.has(j, MUTANT))
                ]
                tags = {t for j in heroes for t, n in enumerate(s.tags[j] or ()) if n}
                self._heroes = (heroes, tags)
        return self._heroes

    def overall(self) -> int | None:
        """A bound on every option."""
        s = self.s
        heroes, tags = self.heroes()
        rises: dict[int, int] = {}
        for t in tags:
            rise = self.rise(t)
            if rise is None:
                return None
            rises[t] = rise
        gain = max(rises.values(), default=0)
        # with turned ends: a way turns a card only with a trigger tag (one of its doublings)
        plain = None if self.plain is None else self.plain.overall()
        if plain is not None:
            fired = [rise for t, rise in rises.items() if self.trigger >> t & 1]
            if not fired:
                return plain
            if not self.copies:
                return max(plain, self.base + max(fired) + (self.limit - 1) * gain)
            gain = max(fired)
        if not self.copies:
            return self.base + self.limit * gain
        power = max((s.powers[j] for j in heroes), default=0) - s.powers[self.pos]
        found = self.base + max(power, 0) + gain
        return found if plain is None else max(plain, found)

    def of(self, option: Any) -> int | None:
        """A bound on one option."""
        if self.plain is not None and not self.trigger & _option_bits(option, self.copies):
            return self.plain.of(option)  # it adds no tag that turns a card: none turns
        if not option:  # nothing copied or doubled
            return self.base
        if self.copies:
            gain = self.rise(option[1])
            if gain is None:
                return None
            return self.base + self.s.powers[option[0]] - self.s.powers[self.pos] + gain
        pairs = (option,) if isinstance(option[0], int) else option
        total = self.base
        for _, tag in pairs:
            gain = self.rise(tag)
            if gain is None:
                return None
            total += gain
        return total


def _option_bits(option: Any, copies: bool) -> int:
    """The tags Rogue's or a doubler's option adds (bits)."""
    if not option:
        return 0
    if copies:
        return 1 << option[1]
    pairs = (option,) if isinstance(option[0], int) else option
    return _bits_of(tag for _, tag in pairs)


class Flat(Ceiling):
    """The bounds of a text that does nothing in the view scored (its card is blanked there):
    every way keeps the state's points."""

    def __init__(self, hand: Hand, s: State) -> None:
        super().__init__(hand, s, -1, False, 0)

    def overall(self) -> int | None:
        return self.base

    def of(self, option: Any) -> int | None:
        return self.base


def _within(ceiling: Ceiling, options: list[Any], top: int) -> list[Any]:
    """The options whose bound is above ``top`` (or unknown)."""
    kept = []
    for option in options:
        bound = ceiling.of(option)
        if bound is None or max(bound, ceiling.base) > top:
            kept.append(option)
    return kept


class Tail:
    """Bounds on what every tag text still to act can add to a state's points, so that a whole
    branch that cannot beat a way found already need not be walked.

    Each text adds at most so many tag instances (Vision and Shuri two, X-Jet one per HERO or
    ALLY and a Range, Moira one, Xavier Mansion three, a gain its tags), each worth at most the
    largest rise of the tags it can give: a doubler only tags a Mutant HERO may carry by then.
    Rogue adds the power of a HERO she may copy, less her own, and one of its tags.

    A card can still turn over only when what the texts (and the cards turning with them) may
    add or take away is a tag its condition reads (:meth:`reach`). The end is the state with
    some set of those cards turned plus what the texts added (a turned card keeps what it
    gained): the bound is the most, over every such set, of its points plus what the texts can
    add there. A card that can turn only after Rogue copies a tag turns with one of the tags
    that can make it turn: in that set Rogue copies one of those (and its HERO's power as it
    was before it turned)."""

    def __init__(self, hand: Hand, levels: Sequence[Level]) -> None:
        self.hand = hand
        # the tags something can read: the others change no score, condition or doubler
        self.read = _bits_of(t for t, level in enumerate(levels) if level != IGNORED)
        self.read |= 1 << MUTANT
        self._bits: dict[tuple[int, ...], int] = {}
        self._reach: dict[Any, Reach] = {}
        self._plans: dict[Any, list[End] | None] = {}
        self._heroes: dict[tuple[int, ...], list[int]] = {}
        self._rises: dict[tuple[int, ...], Scorers | None] = {}
        # per text that gains tags (Spider-Man), per gain: its condition and the tags it reads
        self._gainers = {
            p: [(g.cond.test, _bits_of(g.cond.reads | g.cond.seen | g.cond.own)) for g in c.gains]
            for p in hand.texts
            if (c := hand.hand[p]).tag_text is None and c.gains
        }
        # per transformer and (magneto, hack_in): the tags its condition reads, its side's and
        # the tags it loses turning over, as the tags count (Hack In: a Tech tag is Intel too)
        self._sides: dict[tuple[int, bool, bool], tuple[int, int, int]] = {}
        # per transformer: the tags only the other cards' count of can turn it (bits)
        self._others: dict[int, int] = {}
        for x in hand.transformers:
            c = hand.hand[x]
            if c.transform is None or c.side is None:
                continue
            self._others[x] = _bits_of(c.transform.others)
            for magneto in (False, True):
                for hack_in in (False, True):
                    printed = counted(c.printed, magneto, hack_in)
                    side = counted(c.side, magneto, hack_in)
                    lost = _bits([a > b for a, b in zip(printed, side, strict=True)])
                    reads = _bits_of(c.transform.reads | c.transform.seen)
                    self._sides[(x, magneto, hack_in)] = (reads, _bits(side), lost)

    def _row_bits(self, row: tuple[int, ...]) -> int:
        """The tags a card carries that something reads (and :data:`UNREAD` for the others):
        states that differ only by tags nothing reads have the same ends."""
        found = self._bits.get(row)
        if found is None:
            found = _bits(row)
            if found & ~self.read:
                found = found & self.read | UNREAD
            self._bits[row] = found
        return found

    def reach(self, s: State, texts: frozenset[int], copies: int = ALL_BITS) -> Reach:
        """Per card in play, every tag it may carry once ``texts`` have acted from ``s``, and
        the cards that may turn over on the way (a fixpoint like the analysis's ``possible``,
        from this state and these texts only); Rogue copies only tags in ``copies``."""
        return self._reached(s, self._hero_rows(s), texts, copies)

    def _hero_rows(self, s: State) -> tuple[int, ...]:
        """The tags of the HEROES in play, as bits (all that :meth:`reach` reads of ``s``'s
        tags: only HEROES are copied, doubled or turn over)."""
        heroes = self._heroes.get(s.alive)
        if heroes is None:
            cards = self.hand.hand
            heroes = self._heroes[s.alive] = [j for j in s.alive if cards[j].type == CardType.HERO]
        tags = s.tags
        return tuple([self._row_bits(tags[h]) for h in heroes])  # type: ignore[arg-type]

    def _reached(
        self,
        s: State,
        rows: tuple[int, ...],
        texts: frozenset[int],
        copies: int,
        turnable: frozenset[int] | None = None,
    ) -> Reach:
        """:meth:`reach`; with ``turnable``, only those cards may turn over (an end where the
        others never turn: their sides add nothing there)."""
        key = (texts, s.alive, rows, s.transformed, copies, turnable)
        found = self._reach.get(key)
        if found is not None:
            return found
        tags = s.tags
        cards = self.hand.hand
        heroes = self._heroes[s.alive]
        reach = dict(zip(heroes, rows, strict=True))
        waiting = [
            x
            for x in self.hand.transformers
            if tags[x] is not None
            and not s.transformed[x]
            and cards[x].side is not None
            and (turnable is None or x in turnable)
        ]
        turning: list[int] = []
        added = lost = 0
        intel = s.hack_in and not s.magneto
        while True:
            before = (added, lost, len(turning), tuple(reach.values()))
            for p in texts:
                c = cards[p]
                rule = c.tag_text
                if rule is None:  # a text that gains tags: on its own card
                    got = _bits_of(t for gain in c.gains for t in gain.tags)
                    if p in reach:
                        reach[p] |= got
                elif rule.copies_power:
                    got = 0
                    for h in heroes:
                        if h != p:
                            got |= reach[h] & copies
                    reach[p] |= got
                elif rule.doubles:  # more instances of a Mutant HERO's tags
                    got = 0
                    for h in heroes:
                        if h != p and reach[h] >> MUTANT & 1:
                            got |= reach[h]
                else:
                    got = _bits_of(rule.gives)
                    for j in _scoped(s, p, rule.gives_to):
                        if j in reach:
                            reach[j] |= got
                added |= got
            if intel:
                added |= (added >> TECH & 1) << INTEL
                for j in heroes:
                    reach[j] |= (reach[j] >> TECH & 1) << INTEL
            for x in waiting:
                reads, side, loses = self._sides[(x, s.magneto, s.hack_in)]
                if x not in turning and reads & (added | lost):
                    turning.append(x)
                    if x in reach:
                        reach[x] |= side
                    added |= side
                    lost |= loses
            if (added, lost, len(turning), tuple(reach.values())) == before:
                break
        found = self._reach[key] = Reach(reach, turning, added, lost)
        return found

    def plan(self, s: State, texts: frozenset[int]) -> list[End] | None:
        """The ends a way from ``s`` can have (see the class; None: no bound), worked out once
        per set of texts and tags the cards carry (not how many)."""
        rows = self._hero_rows(s)
        key = (texts, s.alive, rows, s.transformed)
        if key in self._plans:
            return self._plans[key]
        cards = self.hand.hand
        found = self._reached(s, rows, texts, ALL_BITS)
        turning = found.turning
        plan: list[End] | None = None
        if len(turning) <= MOST_TURNING:
            copier = next((p for p in texts if (r := cards[p].tag_text) and r.copies_power), None)
            alone: list[int] = turning  # the cards that may turn over without Rogue's copy
            free = found.added  # the tags the texts may add without Rogue's copy
            triggers = 0  # the tags whose copy can turn more cards over than without her
            if copier is not None:
                without = self._reached(s, rows, texts - {copier}, ALL_BITS)
                alone, free = without.turning, without.added
                if turning:
                    triggers = self._triggers(s, texts, turning)
            bare: list[int] = turning  # the cards that may turn over without Rogue or a doubler
            pickers = {
                p for p in texts if (r := cards[p].tag_text) and (r.copies_power or r.doubles)
            }
            if turning and pickers:
                bare = self._reached(s, rows, texts - pickers, ALL_BITS).turning
                triggers = self._triggers(s, texts, turning)
            plan = []
            for k in range(1 << len(turning)):
                turned = [x for bit, x in enumerate(turning) if k >> bit & 1]
                after = [x for x in turned if x not in alone]  # turned only by what she copies
                copies = ALL_BITS
                only = frozenset(turned)  # the others never turn in this end
                reach = self._reached(s, rows, texts, copies, only).tags
                if after:
                    copies = 0
                    for t in range(len(TAGS)):  # only a tag a condition to turn reads can
                        if triggers >> t & 1 and set(turned) <= set(
                            self._reached(s, rows, texts, 1 << t).turning
                        ):
                            copies |= 1 << t
                    if not copies:
                        continue  # no copy of hers turns them all: no such end
                    reach = self._reached(s, rows, texts, copies, only).tags
                # the tags before the cards only Rogue or a doubler can turn have turned: all a
                # doubler whose doubling starts them turning can double
                early = only.intersection(bare)
                before = reach
                if early != only:
                    before = self._reached(s, rows, texts, copies, early).tags
                start = (before, early)
                end = self._end(s, texts, reach, start, turned, copier, copies, after, free)
                if end is None:
                    plan = None
                    break
                if not set(turned) <= set(bare):
                    end = end._replace(trigger=triggers)
                plan.append(end)
        self._plans[key] = plan
        return plan

    def _starts(self, s: State, needing: list[int], hero: int) -> int:
        """The tags a doubling on ``hero`` can start one of the cards of ``needing`` turning
        with: one its condition reads (not the card's own count where only the others'
        counts: one more on the card itself changes nothing), Tech when it is also Intel."""
        found = 0
        for x in needing:
            reads = self._sides[(x, s.magneto, s.hack_in)][0]
            found |= reads & ~self._others[x] if x == hero else reads
        if s.hack_in and not s.magneto and found >> INTEL & 1:
            found |= 1 << TECH
        return found

    def _triggers(self, s: State, texts: frozenset[int], turning: list[int]) -> int:
        """The tags a copy can start a card turning over with: one a condition to turn reads,
        Tech when it is also Intel, a Mutant tag that lets a doubler double her tags."""
        found = 0
        for x in turning:
            found |= self._sides[(x, s.magneto, s.hack_in)][0]
        if s.hack_in and not s.magneto and found >> INTEL & 1:
            found |= 1 << TECH
        if any((r := self.hand.hand[p].tag_text) and r.doubles for p in texts):
            found |= 1 << MUTANT
        return found

    def _end(
        self,
        s: State,
        texts: frozenset[int],
        reach: dict[int, int],
        start: tuple[dict[int, int], frozenset[int]],
        turned: list[int],
        copier: int | None,
        copies: int,
        after: list[int],
        free: int,
    ) -> End | None:
        adds = []
        doubles = []
        every = 0  # every tag a text may add
        # the tags before the cards only Rogue or a doubler can turn have turned (and the
        # cards turned here that may have turned by then)
        before, early = start
        needing = [x for x in turned if x not in early]  # only Rogue or a doubler turns them
        for p in texts:
            rule = self.hand.hand[p].tag_text
            if rule is not None and rule.doubles:  # one more of a tag, per Mutant HERO
                others = [h for h in s.alive if h != p and s.hand[h].type == CardType.HERO]
                heroes_tags = [_tags_in(reach[h]) for h in others if reach[h] >> MUTANT & 1]
                firsts = [
                    (_tags_in(before[h]), self._starts(s, needing, h))
                    for h in others
                    if before[h] >> MUTANT & 1
                ]
                doubles.append((getattr(rule, "LIMIT", 1), heroes_tags, firsts))
                for tags in heroes_tags:
                    every |= _bits_of(tags)
            elif p != copier:
                found = self.adds(s, p)
                if found is None:
                    return None
                distinct = rule is not None and rule.name == "vision_tags"
                adds.append((found[0], _tags_in(found[1]), distinct))
                every |= found[1]
        heroes: list[Copied] = []
        if copier is not None:
            cards = self.hand.hand
            for h in s.alive:
                if h != copier and cards[h].type == CardType.HERO and reach[h] & copies:
                    tags = _tags_in(reach[h] & copies)
                    first = _tags_in(before[h] & copies)
                    unturned = h in turned and h not in early  # when her copy starts a turn
                    heroes.append(Copied(h, tags, h in after, first, unturned))
                    every |= reach[h] & copies
            if after and not heroes:
                return None
        if s.hack_in and not s.magneto:
            every |= (every >> TECH & 1) << INTEL  # a Tech tag added is an Intel tag too
        return End(turned, adds, doubles, copier, heroes, bool(after), _tags_in(every), free)

    def bound(self, s: State, remaining: frozenset[int]) -> int | None:
        """At most the points any way from ``s`` can end with (None: no bound)."""
        texts = frozenset(p for p in remaining if s.tags[p] is not None)
        plan = self.plan(s, self.acting(s, texts))
        if plan is None:
            return None
        scorers = self._scorers(s.alive)
        if scorers is None:
            return None
        cards = self.hand.hand
        best = None
        for end in plan:
            state = s
            if end.turned:
                state = s.copy()
                for x in end.turned:
                    c = cards[x]
                    assert c.side is not None
                    state.turn(x, c.printed, c.side, c.side_power)
            value = self.end_bound(s, state, end, scorers)
            if best is None or value > best:
                best = value
        return best

    def acting(self, s: State, texts: frozenset[int]) -> frozenset[int]:
        """``texts`` less the texts that gain tags (Spider-Man) whose every condition fails in
        ``s`` and reads only tags that no other text still to act (nor a card turning over)
        can change: acting, they add nothing, so the ways from ``s`` are the ways without
        them."""
        if not self._gainers:
            return texts
        idle = []
        for p in texts:
            gains = self._gainers.get(p)
            if gains is None or any(test(s, p) for test, _ in gains):
                continue
            found = self._reached(s, self._hero_rows(s), texts - {p}, ALL_BITS)
            changing = found.added | found.lost
            if changing & UNREAD:  # a tag nothing else reads: any of those
                changing |= ALL_BITS & ~self.read
            if not any(reads & changing for _, reads in gains):
                idle.append(p)
        return texts.difference(idle) if idle else texts

    def _scorers(self, alive: tuple[int, ...]) -> Scorers | None:
        """The rises of the scorers of the cards in ``alive`` that read tags, split into those
        that rise with every tag added and the conditions that rise once at most, with the tags
        they read (None: one has no rise). The cards whose points no tag choice changes
        (``steady``) are left out."""
        if alive not in self._rises:
            cards = self.hand.hand
            linear: list[tuple[int, Rise]] = []
            once: list[tuple[int, Rise, int]] = []
            found: Scorers | None = (linear, once)
            for i in alive:
                if i in self.hand.steady:
                    continue
                conditions = iter(cards[i].tag_conditions)  # one per condition's rise, in order
                for rise, single in zip(cards[i].rises, cards[i].once, strict=True):
                    if rise is None:
                        found = None
                    elif single:
                        cond = next(conditions)
                        once.append((i, rise, _bits_of(cond.reads | cond.seen)))
                    else:
                        linear.append((i, rise))
            self._rises[alive] = found
        return self._rises[alive]

    def end_bound(self, s: State, state: State, end: End, scorers: Scorers) -> int:
        """At most the points of a way from ``s`` that ends as ``state`` (``s`` with the cards
        of ``end`` turned) plus what the texts added: per tag added, what the scorers that
        rise with each tag gain; each condition not yet met, its gain once, if a tag it reads
        can be added; when only Rogue's copy can add one, only with the tag she copies."""
        linear, once = scorers
        intel = state.hack_in and not state.magneto
        rises: dict[int, int] = {}

        def lin(t: int) -> int:
            rise = rises.get(t)
            if rise is None:
                rise = 0
                for i, scorer in linear:
                    rise += scorer(state, i, t)
                if intel and t == TECH:  # that Tech is an Intel tag too
                    for i, scorer in linear:
                        rise += scorer(state, i, INTEL)
                rises[t] = rise
            return rise

        total = self.hand.points(state)
        for n, tags, distinct in end.adds:
            if distinct:  # n different tags: each of the n that rise most, once
                total += sum(sorted([lin(t) for t in tags], reverse=True)[:n])
            else:
                total += n * max([lin(t) for t in tags], default=0)
        doubled = [
            _doubling(n, heroes, lin, first, end.trigger) for n, heroes, first in end.doubles
        ]
        total += sum(full for full, _ in doubled)
        hers = []  # the conditions only her copy can meet
        for i, scorer, reads in once:
            if end.copier is not None and not reads & end.free:
                hers.append((i, scorer))
            else:
                total += max([scorer(state, i, t) for t in end.every], default=0)
        # a card turns here only with what Rogue or a doubler adds: one of them spends its copy
        # or a doubling on a tag that can turn it (the most over which one does)
        spent = [trig - full for full, trig in doubled if trig is not None]
        if end.copier is None:
            return total + max(spent, default=0) if end.trigger else total
        copied = None if end.must else 0  # she may copy nothing, unless a card turns only so
        triggering = None  # her best copy of a tag that can turn a card
        own = s.powers[end.copier]

        def worth(power: int, t: int) -> int:  # her copy of this power and tag
            value = power - own + lin(t)
            for i, scorer in hers:
                gain = scorer(state, i, t)
                if intel and t == TECH:
                    gain = max(gain, scorer(state, i, INTEL))
                value += gain
            return value

        for hero in end.heroes:
            h = hero.hero
            power = s.powers[h] if hero.unturned else max(s.powers[h], state.powers[h])
            for t in hero.tags or (None,):  # (a HERO with only tags nothing reads: the power)
                value = power - own if t is None else worth(power, t)
                if copied is None or value > copied:
                    copied = value
            # her copy starting a turn: from the HERO as it was before the cards only Rogue or
            # a doubler can turn have turned
            power = s.powers[h] if hero.first_unturned else max(s.powers[h], state.powers[h])
            for t in hero.first:
                if end.trigger >> t & 1:
                    value = worth(power, t)
                    if triggering is None or value > triggering:
                        triggering = value
        assert copied is not None  # (a plan's end where she must copy has a HERO to copy)
        if not end.trigger:
            return total + copied
        if triggering is not None:
            spent.append(triggering - copied)
        return total + copied + max(spent, default=0)

    def adds(self, s: State, pos: int) -> tuple[int, int] | None:
        """At most how many tag instances the text at ``pos`` adds from ``s``, and which tags
        (bits; None: a text this bound does not know). Not Rogue nor a doubler: see
        :meth:`_end`."""
        card = self.hand.hand[pos]
        rule = card.tag_text
        if rule is None:
            return sum(len(g.tags) for g in card.gains), _bits_of(
                t for g in card.gains for t in g.tags
            )
        if rule.name in ("vision_tags", "shuri_grants"):
            return 2, _bits_of(rule.gives)
        if rule.name == "xjet":
            return 1 + sum(1 for j in s.alive if s.hand[j].hero_or_ally), _bits_of(rule.gives)
        return None


def _doubling(
    n: int,
    heroes: list[tuple[int, ...]],
    lin: Callable[[int], int],
    first: list[tuple[tuple[int, ...], int]],
    trigger: int,
) -> tuple[int, int | None]:
    """At most what a doubler adds (each HERO once: the ``n`` HEROES whose tag rises most),
    and at most that when it is the first to start a card that only Rogue or a doubler can
    turn turning (None: it has no ``trigger`` tag to double). Then it acts before those cards
    turn: it doubles the tags the HEROES had before, one of them a tag that starts the turn
    (``first``: per HERO, its tags then and the tags whose doubling on it can start one; where
    it has none of those, one of the ``trigger`` tags)."""
    bests = [max([lin(t) for t in tags], default=0) for tags in heroes]
    full = sum(sorted(bests, reverse=True)[:n])
    bests = [max([lin(t) for t in tags], default=0) for tags, _ in first]
    spent = None
    for starting in (True, False):
        for k, (tags, starts) in enumerate(first):
            rises = [lin(t) for t in tags if (starts if starting else trigger) >> t & 1]
            if rises:
                others = sorted(bests[:k] + bests[k + 1 :], reverse=True)
                value = max(rises) + sum(others[: n - 1])
                spent = value if spent is None else max(spent, value)
        if spent is not None:
            break
    return full, spent


class End(NamedTuple):
    """One set of cards that may have turned at the end, and what the texts can add there."""

    turned: list[int]
    # per giving text: at most how many tags, which, and whether they are different tags
    adds: list[tuple[int, tuple[int, ...], bool]]
    # per doubler: how many HEROES it doubles a tag of at most, each Mutant HERO's tags, and
    # (_doubling) their tags before the cards only Rogue or a doubler can turn have turned,
    # with the tags whose doubling can start one turning
    doubles: list[tuple[int, list[tuple[int, ...]], list[tuple[tuple[int, ...], int]]]]
    copier: int | None  # Rogue, still to act
    heroes: list[Copied]  # whom she may copy
    must: bool  # she must copy (a card turns only so)
    every: tuple[int, ...]  # every tag a text may add
    free: int  # the tags the texts may add without Rogue's copy (bits)
    # a card turned here turns only with what Rogue or a doubler adds: one of them spends its
    # copy or a doubling on one of these tags (bits; 0: nothing needs them)
    trigger: int = 0


class Copied(NamedTuple):
    """A HERO Rogue may copy in an end."""

    hero: int
    tags: tuple[int, ...]  # the tags she may copy
    unturned: bool  # she copies its power from before it turned (it turns only so)
    # where her copy is the first that starts a card turning (the cards only Rogue or a
    # doubler can turn have not turned yet): the tags it may have then, and whether its power
    # is still the one from before it turns
    first: tuple[int, ...]
    first_unturned: bool


class Reach(NamedTuple):
    """What :meth:`Tail.reach` found (tags as bits)."""

    tags: dict[int, int]  # per card in play: every tag it may carry at the end
    turning: list[int]  # the cards that may turn over
    added: int  # every tag the texts (and the cards turning over) may add
    lost: int  # every tag the cards turning over may lose


def _bits(row: Iterable[Any]) -> int:
    """The tags a row carries (a count or a flag per tag), as bits."""
    found = 0
    for t, n in enumerate(row):
        if n:
            found |= 1 << t
    return found


def _tags_in(bits: int) -> tuple[int, ...]:
    return tuple(t for t in range(len(TAGS)) if bits >> t & 1)


def _bits_of(tags: Iterable[int]) -> int:
    found = 0
    for t in tags:
        found |= 1 << t
    return found


def _scoped(s: State, pos: int, scopes: Sequence[str]) -> list[int]:
    """The cards in play a text at ``pos`` gives to: its own card ("self"), the other HEROES
    and ALLIES ("others"), the other HEROES ("heroes")."""
    found = []
    for j in s.alive:
        card = s.hand[j]
        for scope in scopes:
            if j == pos:
                hit = scope == "self"
            elif scope == "others":
                hit = card.hero_or_ally
            else:
                hit = scope == "heroes" and card.type == CardType.HERO
            if hit:
                found.append(j)
                break
    return found


class Target:
    """What a way of the tag texts must beat to matter when there are views: its value reads the
    first view only, the views decide which endings hold (``worth``: the way's best key value
    over the endings its signature makes true, None when it makes none true; never more than
    its value minus ``slack``). ``floor`` is the best worth found so far (or what a better
    ending already gives): a way whose bound minus ``slack`` is no more cannot matter, as one
    found earlier is worth as much (on equal keys the first way wins). ``needs``: per ending,
    the blanking tests it assumes (view, blanking card, result); none when every way holds."""

    def __init__(
        self,
        worth: Callable[[int, Any], int | None],
        slack: int,
        floor: int | None,
        needs: Sequence[Sequence[tuple[int, int, Any]]] = (),
    ):
        self.worth = worth
        self.slack = slack
        self.floor = floor
        self.needs = needs

    def top(self) -> int | None:
        """A way's value must be above this to matter (None: every way may matter)."""
        return None if self.floor is None else self.floor + self.slack

    def record(self, value: int, signature: Any) -> None:
        worth = self.worth(value, signature)
        if worth is not None and (self.floor is None or worth > self.floor):
            self.floor = worth


@dataclass
class Trial:
    """Bounding on one layer (or depth) of the search: it stops where it seldom cuts."""

    bounded: int = 0
    cut: int = 0
    on: bool = True


@dataclass
class Node:
    """One way the tag texts can have acted: a state per mask (the cards left at the end first,
    then the views the sensitive blanking texts had) and the (text, option) steps taken."""

    states: tuple[State, ...]
    path: Path
    value: int | None = None  # what the finish found it worth (the ways that were finished)


def usefulness(hand: Hand, analysis: Analysis, remaining: frozenset[int]) -> Useful:
    """The analysis's usefulness, and while Rogue is still to act (in ``remaining``): a first
    tag on a HERO she may copy that changes nothing else (it lets her take that HERO's power
    alone)."""
    copiers = [p for p in remaining if (r := hand.hand[p].tag_text) and r.copies_power]
    if not copiers:
        return analysis.useful
    idle = analysis.idle
    cards = hand.hand

    def useful(s: State, pos: int, tag: int) -> int:
        worth = analysis.useful(s, pos, tag)
        hero = cards[pos].type == CardType.HERO
        if worth != IDLE or tag not in idle or not hero or pos in copiers:
            return worth
        row = s.tags[pos]  # a first idle tag lets Rogue take this HERO's power alone
        return USEFUL if row is not None and not any(row[t] for t in idle) else IDLE

    return useful


class Settler:
    """Walks the tag texts of a hand for a list of masks at once (see :func:`settle_all`)."""

    PROBE_AFTER = 256  # a layer this large: find a way greedily and bound the branches by it
    TRIAL, WORTH = 128, 8  # after this many branches bounded on a layer, go on only if one in
    # WORTH is cut (the next layer tries again)
    GROWN = 1024  # a layer's next past PROBE_AFTER states and on course for this many (as
    # many per branch of the layer as so far): find a way greedily, bound the rest of the layer
    BOUND_FROM = 24  # the states in a layer from which its branches are bounded
    TURNED_FROM = 3  # tag texts from which the last one is bounded when it can turn cards
    CLIMB = 2  # the greedy ways a probe may try: this many times the number of texts squared
    ROOT_FROM = 3  # tag texts from which a search is bounded before it starts
    MERGE_FROM = 3  # tag texts from which the states the texts leave are merged (Projector)
    DEPTH_FIRST = True  # with a finish, the groups walked depth first (False: layer by layer)

    def __init__(
        self,
        hand: Hand,
        analysis: Analysis,
        masks: Sequence[int],
        finish: Finish | None = None,
        score: Callable[[State], int] | None = None,
        target: Target | None = None,
        value_only: bool = False,
        enough: Callable[[Any], bool] | None = None,
    ) -> None:
        self.hand = hand
        self.value_only = value_only  # only the best value is asked for, not the first way
        self.enough = enough  # a signature that makes the first way with it the one wanted
        self.analysis = analysis
        self.masks = list(masks)
        self.finish = finish
        self.score = score  # with one mask and nothing to test: what ``finish`` values a state
        self.target = target  # with views: what a way must beat (its value reads states[0])
        # a branch whose :class:`Tail` bound (in the first view: the value reads it) cannot beat
        # the target, or with one mask is below a way found greedily once the layers grow
        # (:meth:`probe`), is not walked
        self.tail: Tail | None = None
        if len(self.masks) == 1 or target is not None:
            if analysis.bounds is None:
                analysis.bounds = Tail(hand, analysis.levels)
            self.tail = analysis.bounds
        self.lower: int | None = None
        self.lower_way: Node | None = None  # a greedy way worth ``lower``
        self.stopped = False  # the way ``enough`` asks for is found: nothing more is walked
        self.lower_worth: int | None = None  # with blanking tests: a greedy way's worth
        self.probed = False
        self._projectors: dict[frozenset[int], list[Projector]] = {}
        self._useful: dict[frozenset[int], Useful] = {}
        union = 0
        for m in self.masks:
            union |= m
        self.texts = [p for p in hand.texts if union >> p & 1 and p not in analysis.inert]
        self.rank = {p: k for k, p in enumerate(self.texts)}
        # pickers here: a transformer that could undo an option is already turned (it stays
        # turned) or blanked in every view (with one text there is no order to pick)
        bases = [hand.base_state(m) for m in self.masks]
        self.pickers: set[int] = set()
        if len(self.texts) > 1:
            self.pickers = {
                p
                for p, cards in analysis.unsteady_for.items()
                if all(s.tags[x] is None or s.transformed[x] for s in bases for x in cards)
            }
        # transformers turned (they stay turned) or blanked in every view no longer turn: what
        # a text could only have written through them no longer orders it
        self.dead = frozenset(
            x
            for x in hand.transformers
            if all(s.tags[x] is None or s.transformed[x] for s in bases)
        )
        self.sinks = self.pickers & analysis.sinks_for(self.dead) if self.pickers else set()
        self.copiers = {
            p for p in self.texts if (r := hand.hand[p].tag_text) is not None and r.copies_power
        }
        self.doublers = {
            p for p in self.texts if (r := hand.hand[p].tag_text) is not None and r.doubles
        }

    def key(self, states: tuple[State, ...], remaining: frozenset[int]) -> Any:
        if len(self.texts) < self.MERGE_FROM:
            return states  # a few ways: merging them costs more than finishing the same twice
        projectors = self._projectors.get(remaining)
        if projectors is None:
            projectors = [Projector(self.hand, self.analysis, m, remaining) for m in self.masks]
            self._projectors[remaining] = projectors
        return tuple(proj.key(s) for proj, s in zip(projectors, states, strict=True))

    def useful(self, remaining: frozenset[int]) -> Useful:
        return usefulness(self.hand, self.analysis, remaining)

    def options(self, node: Node, pos: int, remaining: frozenset[int]) -> list[Any]:
        rule = self.hand.hand[pos].tag_text
        if rule is None or not rule.choice:
            return [None]
        useful = self._useful.get(remaining)
        if useful is None:
            useful = self._useful[remaining] = self.useful(remaining)
        found: dict[Any, None] = {}  # in the order first offered (options are hashable)
        for s in node.states:
            if s.tags[pos] is not None:
                found.update(dict.fromkeys(rule.options(s, pos, useful)))
        return list(found)

    def strongest(self, states: tuple[State, ...], pos: int, options: list[Any]) -> list[Any]:
        """Rogue's options when she is the last text: of the options that copy the same tag in
        the same views (with one view: or a tag that changes nothing) only the first from the
        strongest HERO. Nothing after her reads her power (the blanking tests do not), so those
        ways differ only by that power and the weaker can never be the first to the best value."""
        s = states[0]
        useful = None
        if len(states) == 1:
            useful = self._useful.get(frozenset((pos,)))
            if useful is None:
                useful = self._useful[frozenset((pos,))] = self.useful(frozenset((pos,)))
        powers = s.powers
        best: dict[Any, tuple[int, Any]] = {}
        groups: dict[int, Any] = {}  # per tag: itself, or "idle" when it changes nothing
        many = len(states) > 1
        for option in options:
            if option is None:
                continue
            hero, tag = option
            group = groups.get(tag)
            if group is None:
                idle = useful is not None and useful(s, pos, tag) == IDLE
                group = groups[tag] = "idle" if idle else tag
            if many:  # where the copy happens (Rogue and the HERO there, with the tag)
                takes = tuple(v.tags[pos] is not None and _carries(v, hero, tag) for v in states)
                power = powers[hero] if takes[0] else 0  # the value reads the first view only
                group = (group, takes)
            else:  # the options come from this very state: each one copies
                power = powers[hero]
            kept = best.get(group)
            if kept is None or power > kept[0]:
                best[group] = (power, option)
        chosen = {option for _, option in best.values()}
        return [option for option in options if option is None or option in chosen]

    def distinct_doubles(self, states: tuple[State, ...], options: list[Any]) -> list[Any]:
        """A doubler's options when it is the last text: the first of those that double the
        same tags in the same views. One more instance of a tag a HERO already has changes only
        how many the hand has, unless that HERO reads its own count of the tag or can still
        turn over (its side would keep the extra tag): such a HERO is told apart."""
        cards = self.hand.hand

        def doubled(pair: tuple[int, int]) -> tuple[int, int, tuple[bool, ...]]:
            hero, tag = pair
            own = cards[hero].own_row
            told = tag in own or (states[0].hack_in and tag == TECH and INTEL in own)
            turns = cards[hero].transform is not None
            if told or (turns and not all(view.transformed[hero] for view in states)):
                return (tag, hero, ())
            return (tag, -1, tuple(_doubles(view, hero, tag) for view in states))

        seen: set[Any] = set()
        kept = []
        for option in options:
            pairs = () if not option else (option,) if isinstance(option[0], int) else option
            signature = tuple(sorted(doubled(pair) for pair in pairs))
            if signature not in seen:
                seen.add(signature)
                kept.append(option)
        return kept

    def acted(self, states: tuple[State, ...], pos: int, option: Any) -> tuple[State, ...]:
        """The states after the text at ``pos`` acted with ``option`` (copies)."""
        if len(states) == 1:  # the common case, and the search's innermost loop
            s = states[0]
            if s.tags[pos] is None:
                return states
            s = s.copy()
            self.hand.act(s, pos, option)
            return (s,)
        after = []
        for s in states:
            if s.tags[pos] is None:
                after.append(s)  # the card is blanked in this view: its text does nothing
                continue
            s2 = s.copy()
            self.hand.act(s2, pos, option)
            after.append(s2)
        return tuple(after)

    def step(self, node: Node, pos: int, option: Any) -> Node:
        return Node(self.acted(node.states, pos, option), (*node.path, (pos, option)))

    def finish_all(
        self,
        node: Node,
        pos: int,
        remaining: frozenset[int],
        finish: Finish,
        best: dict[Any, tuple[int, int, Node]],
        found: int,
    ) -> int:
        """The last text acts with each option: per signature, keep the first way to its best
        value (``best``: value, when it was found, the way); returns the ways counted so far. A
        way whose bound (:class:`Ceiling`, on the first view: the value reads it) is no more than
        ``top`` cannot beat (or come before) the best found so far and is not tried: ``top`` is
        the best value with one view and nothing to test, else what the :class:`Target` says."""
        s = node.states[0]
        simple = self.score is not None and len(node.states) == 1 and s.tags[pos] is not None
        target, ceiling, top = self.target, None, None
        if simple:  # with a best way found, a node or a way may be hopeless
            top = self.value_top(best)
            if top is not None:  # here also the best value the loop below keeps
                ceiling = self.ceiling(s, pos)
        elif target is not None:
            top = self.target_top(target)
            if top is not None:
                ceiling = self.view_ceiling(s, pos)
        if ceiling is not None and top is not None:
            bound = ceiling.overall()
            if bound is not None and bound <= top:
                return found  # none of its ways can beat (or come before) the best
        options = self.options(node, pos, remaining)
        if pos in self.copiers:
            options = self.strongest(node.states, pos, options)
        elif pos in self.doublers:
            if ceiling is not None and top is not None:  # the doublings of one kind share a
                options = _within(ceiling, options, top)  # bound: drop them before comparing
            options = self.distinct_doubles(node.states, options)
        if not simple:
            for option in options:
                if ceiling is not None and top is not None:
                    bound = ceiling.of(option)
                    # an option that does nothing in the first view leaves its points
                    if bound is not None and max(bound, ceiling.base) <= top:
                        found += 1
                        continue
                states = self.acted(node.states, pos, option)
                value, signature = finish(states)
                kept = best.get(signature)
                if kept is None or value > kept[0]:
                    way = Node(states, (*node.path, (pos, option)), value)
                    best[signature] = (value, found, way)
                if target is not None:
                    target.record(value, signature)
                    if top is None and target.floor is not None:
                        ceiling = self.view_ceiling(s, pos)  # from now on ways may be hopeless
                    top = self.target_top(target)
                found += 1
                self.stopped = self.enough is not None and self.enough(signature)
                if self.stopped:  # the way asked for: none after it can come first
                    return found
            return found
        # one view and nothing to test (the search's innermost loop): the value is the points
        score, act = self.score, self.hand.act
        assert score is not None
        for option in options:
            if ceiling is not None and top is not None:
                bound = ceiling.of(option)
                if bound is not None and bound <= top:
                    found += 1  # it cannot beat (or come before) the best found so far
                    continue
            after = s.copy()
            act(after, pos, option)
            value = score(after)
            if top is None or value > top:
                if top is None:  # the first way found: from now on ways may be hopeless
                    ceiling = self.ceiling(s, pos)
                top = value
                best[()] = (value, found, Node((after,), (*node.path, (pos, option)), value))
            found += 1
        return found

    def value_top(self, best: dict[Any, tuple[int, int, Node]]) -> int | None:
        """With one view and nothing to test, what a way's value must be above to matter: the
        best value found so far (before one, what the target says), and once greedy ways are
        found, their value less one (below it, a way is not the best way)."""
        target = self.target
        top = best[()][0] if () in best else None if target is None else target.top()
        if self.lower is not None:
            top = self.lower - 1 if top is None else max(top, self.lower - 1)
        return top

    def target_top(self, target: Target) -> int | None:
        """What a way's value must be above to matter: what the target says, and once greedy
        ways are found, their worth plus the slack less one (a way's worth is at most its
        value less the slack: below a greedy way's worth, it is not the best way)."""
        top = target.top()
        if self.lower_worth is not None:
            below = self.lower_worth + target.slack - 1
            top = below if top is None else max(top, below)
        return top

    def view_ceiling(self, s: State, pos: int) -> Ceiling | None:
        """:meth:`ceiling` in the first of several views (the one the value reads): a text
        blanked there does nothing there, so every way keeps the points of ``s``."""
        return self.ceiling(s, pos) if s.tags[pos] is not None else Flat(self.hand, s)

    def ceiling(self, s: State, pos: int) -> Ceiling | None:
        """For Rogue or a doubler acting last from ``s``, bounds on what its ways can reach
        (see :class:`Ceiling`); None for other texts, or when what it adds could turn a card
        over."""
        if pos not in self.copiers and pos not in self.doublers:
            return None
        # the cards that can still turn over here: not turned yet (a turned card stays turned)
        cards = self.hand.transformers
        dead = frozenset(x for x in cards if s.tags[x] is None or s.transformed[x])
        turned: list[State] = []
        trigger = 0  # the tags a condition to turn reads
        if self.analysis.order(dead).triggers[pos]:
            turning = [x for x in cards if x not in dead and self.hand.hand[x].side is not None]
            if len(turning) > MOST_TURNING or len(self.texts) < self.TURNED_FROM:
                return None  # (a short search: valuing its few ways costs less)
            for x in turning:
                when = self.hand.hand[x].transform
                trigger |= ALL_BITS if when is None else _bits_of(when.reads | when.seen)
            if s.hack_in and not s.magneto and trigger >> INTEL & 1:
                trigger |= 1 << TECH  # a Tech tag is an Intel tag too
            for k in range(1, 1 << len(turning)):
                end = s.copy()
                for bit, x in enumerate(turning):
                    c = self.hand.hand[x]
                    if k >> bit & 1 and c.side is not None:
                        end.turn(x, c.printed, c.side, c.side_power)
                turned.append(end)
        rule = self.hand.hand[pos].tag_text
        limit = getattr(rule, "LIMIT", 1)
        return Ceiling(self.hand, s, pos, pos in self.copiers, limit, turned, trigger)

    def probe(self) -> None:
        """Ways found greedily (each text in turn taking the option that scores most at once,
        the order of the texts climbed from the rulings' order: :meth:`climb`): the best way
        scores at least as much (:attr:`lower`). Only where the value is the points and the
        best way is all that is kept. With blanking tests (and a :class:`Target`, in one view or
        several), the greedy ways' best worth (:attr:`lower_worth`): the points alone may miss
        what a test assumes (Vibranium Shield kept only if Shuri grants Agility), so greedy ways
        also prefer, at each text, an option that already makes an ending true (then the most
        worth), each climbed from the rulings' order or Rogue last."""
        self.probed = True
        if self.tail is None or self.finish is None:
            return
        points = self.hand.points

        def first(states: tuple[State, ...]) -> int:
            return points(states[0])

        if self.score is not None:
            ways: dict[int, Node] = {}  # a greedy way per value found

            def points_of(order: list[int]) -> int:
                way = self.greedy(first, order)
                found = points(way.states[0])
                ways.setdefault(found, way)
                return found

            self.lower = self.climb(points_of)
            if self.lower is not None:
                way = ways[self.lower]
                self.lower_way = Node(way.states, way.path, self.lower)
            return
        target, finish = self.target, self.finish
        if target is None:
            return

        def worth(states: tuple[State, ...]) -> int | None:
            return target.worth(*finish(states))

        def holding(states: tuple[State, ...]) -> tuple[bool, int]:
            found = worth(states)
            return (True, found) if found is not None else (False, points(states[0]))

        # Rogue copies best after the others have turned cards over (Jean Grey to Phoenix)
        last = [p for p in self.texts if p not in self.copiers] + [
            p for p in self.texts if p in self.copiers
        ]

        found = []
        for rank in (first, holding):

            def value(
                order: list[int], rank: Callable[[tuple[State, ...]], Any] = rank
            ) -> int | None:
                return worth(self.greedy(rank, order).states)

            found.append(self.climb(value, last))
        self.lower_worth = max((w for w in found if w is not None), default=None)

    def climb(
        self, value: Callable[[list[int]], int | None], also: list[int] | None = None
    ) -> int | None:
        """The most a greedy way is worth (None: none is worth anything) over some orders of
        the texts: from the rulings' order (or ``also``, when worth more), moving one text to
        another place while that finds more (every order is one the owner may pick, so the
        best way is worth at least as much). At most ``CLIMB`` times the number of texts
        squared greedy ways."""
        order = list(self.texts)
        best = value(order)
        tried = {tuple(order)}
        if also is not None and tuple(also) not in tried:
            tried.add(tuple(also))
            other = value(also)
            if other is not None and (best is None or other > best):
                best, order = other, list(also)
        budget = self.CLIMB * len(order) ** 2
        improved = True
        while improved and budget > 0:
            improved = False
            moves = [(i, j) for i in range(len(order)) for j in range(len(order)) if i != j]
            for i, j in moves:
                moved = order[:i] + order[i + 1 :]
                moved.insert(j, order[i])
                if tuple(moved) in tried:
                    continue
                tried.add(tuple(moved))
                budget -= 1
                found = value(moved)
                if found is not None and (best is None or found > best):
                    best, order, improved = found, moved, True
                    break
                if budget <= 0:
                    break
        return best

    def greedy(self, rank: Callable[[tuple[State, ...]], Any], order: list[int]) -> Node:
        """Each text in ``order`` taking the option whose states ``rank`` most (on a tie, the
        first offered): a way of the texts, so the best way is worth at least as much."""
        node = Node(tuple(self.hand.base_state(m) for m in self.masks), ())
        for k, p in enumerate(order):
            remaining = frozenset(order[k:])
            steps = [self.step(node, p, option) for option in self.options(node, p, remaining)]
            node = max(steps, key=lambda step: rank(step.states))
        return node

    def hopeless(
        self, node: Node, remaining: frozenset[int], trial: Trial, best: int | None = None
    ) -> bool:
        """Whether no way through ``node`` can matter: its :class:`Tail` bound (on the first
        view: the value reads it) is no more than what the target says or than ``best`` (the
        best value of the ways finished so far, with one view and nothing to test), or below
        the greedy way (on equal values the way found first wins, and the greedy one may come
        late). ``trial`` counts the branches bounded and cut on this layer (or depth)."""
        if self.tail is None or not trial.on or not remaining:
            return False
        if len(remaining) == 1 and self.finish is not None:
            (last,) = remaining
            if last in self.copiers or last in self.doublers:
                return False  # its ways are bounded one by one, for less (:class:`Ceiling`)
        top = None if self.target is None else self.target.top()
        if best is not None and (top is None or best > top):
            top = best
        if top is None and self.lower is None and self.lower_worth is None:
            return False
        if trial.bounded >= self.TRIAL and trial.cut * self.WORTH < trial.bounded:
            trial.on = False  # it seldom cuts on this layer: bounding costs more than it saves
            return False
        trial.bounded += 1
        bound = self.tail.bound(node.states[0], remaining)
        if bound is None:
            return False
        if (top is not None and bound <= top) or (self.lower is not None and bound < self.lower):
            trial.cut += 1
            return True
        # every way's worth is at most its value less the slack (Target), below the greedy
        # way's worth; on equal worths the way found first wins, so ties are walked
        if self.lower_worth is not None and self.target is not None:
            if bound - self.target.slack < self.lower_worth:
                trial.cut += 1
                return True
        return False

    def unreachable(self, node: Node, remaining: frozenset[int]) -> bool:
        """Whether no way through ``node`` can make an ending of the target true: each assumes
        a blanking text's condition holds in a view (a card "blanked unless" it is kept, or
        Selene's "unless" spares them all) that does not hold there yet and cannot come to: it
        reads only which HEROES carry which tags, and holds with none of the tags the HEROES
        may still gain (:meth:`Tail.reach`, once the texts still to act have acted)."""
        target = self.target
        if target is None or not target.needs or self.tail is None:
            return False
        found: dict[tuple[int, int, Any], bool] = {}
        for needs in target.needs:
            for need in needs:
                if need not in found:
                    found[need] = self.may_meet(node, remaining, *need)
                if not found[need]:
                    break
            else:
                return False  # this ending may hold
        return True

    def may_meet(self, node: Node, remaining: frozenset[int], mask: int, b: int, test: Any) -> bool:
        """Whether the blanking text at ``b`` may still give ``test`` in the view ``mask``
        (False only when it asks for a condition that cannot come to hold)."""
        s = node.states[self.masks.index(mask)]
        card = self.hand.hand[b]
        blanks, spared = test
        asked = []  # the conditions the test asks to hold
        if not blanks and card.self_blank is not None and card.self_blank.unless:
            asked.append(card.self_blank.cond)
        if spared and card.blank_others is not None and card.blank_others.unless is not None:
            asked.append(card.blank_others.unless)
        return all(self._may_hold(s, remaining, cond, b) for cond in asked)

    def _may_hold(
        self, s: State, remaining: frozenset[int], cond: CompiledCondition, b: int
    ) -> bool:
        tail = self.tail
        assert tail is not None
        if s.tags[b] is None or not cond.heroes_only or cond.test(s, b):
            return True
        if _bits_of(cond.reads | cond.seen) & ~tail.read:
            return True  # a tag the bound's reach does not follow
        texts = frozenset(p for p in remaining if s.tags[p] is not None)
        end = s.copy()  # every HERO with every tag it may carry at the end
        for h, bits in tail.reach(s, texts).tags.items():
            for t in _tags_in(bits):
                if not end.has(h, t):
                    end.add(h, t)
        for p in texts:  # (a text that gains tags gains them on its own card)
            for gain in self.hand.hand[p].gains:
                for t in gain.tags:
                    end.add(p, t)
        return cond.test(end, b)

    def components(self) -> list[list[int]]:
        """The texts in groups whose order can matter within, not between (rulings' order);
        the sinks (analysis.sinks) last, one by one."""
        if len(self.texts) < 2:
            return [[p] for p in self.texts]
        sinks = [p for p in self.texts if p in self.sinks]
        rest = [p for p in self.texts if p not in self.sinks]
        group = {p: {p} for p in rest}
        for p in rest:
            for q in self.analysis.order(self.dead).depends[p]:
                if q in group and group[q] is not group[p]:
                    merged = group[p] | group[q]
                    for r in merged:
                        group[r] = merged
        found: list[list[int]] = []
        for p in rest:
            members = sorted(group[p], key=self.rank.__getitem__)
            if members not in found:
                found.append(members)
        found.sort(key=len)  # the one-text groups first: they branch least
        return found + [[p] for p in sinks]

    def run(self) -> list[Node]:
        start = Node(tuple(self.hand.base_state(m) for m in self.masks), ())
        root = frozenset(self.texts)
        if len(self.texts) >= self.ROOT_FROM and self.hopeless(start, root, Trial()):
            return []  # no way at all can beat what the target says (one bound, not a search)
        frontier = [start]
        components = self.components()
        if self.finish is not None and self.DEPTH_FIRST and components:
            # every group depth first, one after the other: a way finished early bounds the
            # branches of the earlier groups too
            return self.depth_first(frontier, components)
        for k, component in enumerate(components):
            later = frozenset(p for group in components[k + 1 :] for p in group)
            frontier = self.orders(frontier, component, later)
        return frontier

    def constraints(self, texts: list[int]) -> tuple[dict[int, int], dict[int, int]]:
        """For the texts of one group (as bit masks over ``texts``): the texts that may not come
        right after each one (``barred``) and the texts each one waits for (``waits``)."""
        bit = {p: 1 << k for k, p in enumerate(texts)}
        barred = {p: 0 for p in texts}
        waits = {p: 0 for p in texts}
        if len(texts) < 2:
            return barred, waits
        a = self.analysis
        depends = a.order(self.dead).depends
        for p in texts:
            for q in texts:
                if self.rank[q] < self.rank[p] and q not in depends[p]:
                    barred[p] |= bit[q]  # swapping them changes nothing
                elif p in self.pickers and q in a.givers:
                    barred[p] |= bit[q]  # the picker would lose nothing by acting after it
                if q in a.leaders and p in depends[q]:
                    waits[p] |= bit[q]  # a leader loses nothing by acting before them
        if all(p in a.leaders or p in a.givers or p in self.pickers for p in texts):
            # nothing else in between: every giver can be moved before every picker (each
            # swap of neighbours loses nothing), so the pickers wait for the givers
            for p in texts:
                if p in self.pickers:
                    for q in texts:
                        if q in a.givers:
                            waits[p] |= bit[q]
        return barred, waits

    def chained(self, groups: list[list[int]]) -> tuple[list[int], dict[int, int], dict[int, int]]:
        """The texts of ``groups`` one group after the other, with their constraints as bits
        over that list (:meth:`constraints`, per group): each text also waits for every text
        of the groups before its own."""
        texts: list[int] = []
        barred: dict[int, int] = {}
        waits: dict[int, int] = {}
        for group in groups:
            before = (1 << len(texts)) - 1  # every text of the earlier groups
            group_barred, group_waits = self.constraints(group)
            for p in group:
                barred[p] = group_barred[p] << len(texts)
                waits[p] = group_waits[p] << len(texts) | before
            texts += group
        return texts, barred, waits

    def orders(self, frontier: list[Node], texts: list[int], later: frozenset[int]) -> list[Node]:
        """Every useful option of each text, in every order of ``texts`` that can matter: after
        a text, one earlier in the rulings' order comes only if the two depend on each other
        (swapping neighbours that do not changes nothing), a picker never right before a giver,
        a leader before what depends on it. When nothing follows and there is one mask, only
        the best way is kept."""
        barred, waits = self.constraints(texts)
        bit = {p: 1 << k for k, p in enumerate(texts)}
        full = (1 << len(texts)) - 1
        finish = self.finish if not later else None
        # with ``finish``: per signature, the first way to its best value (and when it was found)
        best: dict[Any, tuple[int, int, Node]] = {}
        found = 0
        left = {0: later | frozenset(texts)}  # the texts still to act, by the done bits
        # the frontier is already merged under this projection (what is left is the same)
        layer: dict[Any, tuple[Node, int, int | None]] = {
            (0, None, k): (node, 0, None) for k, node in enumerate(frontier)
        }
        for step in range(len(texts)):
            nxt: dict[Any, tuple[Node, int, int | None]] = {}
            trial = Trial()  # a new layer: another trial
            final = finish is not None and step == len(texts) - 1  # (its ways bound themselves)
            if len(layer) > self.PROBE_AFTER and not self.probed and not final:
                self.probe()
            bounding = len(layer) >= self.BOUND_FROM  # a few states: bounding costs more
            # the best value of the ways finished so far (one view and nothing to test): a way
            # no better is never kept
            finished = best[()][0] if self.score is not None and () in best else None
            for k, (node, done, last) in enumerate(layer.values()):
                if self.stopped:
                    break  # the way ``enough`` asks for is found
                grown = len(nxt) > self.PROBE_AFTER and len(nxt) * len(layer) > self.GROWN * k
                if grown and not self.probed and not final:
                    self.probe()  # the next layer grows this large: bound the rest of this one
                if bounding and self.hopeless(node, left[done], trial, finished):
                    continue  # no way through it can beat (or come before) one found already
                for p in texts:
                    if not _may_act(p, done, last, bit, barred, waits):
                        continue
                    after = done | bit[p]
                    mark = p if barred[p] & ~after else None  # it still bars a text to come
                    if after not in left:
                        left[after] = later | frozenset(q for q in texts if not after & bit[q])
                    if finish is not None and after == full:  # the last text: no node per way
                        found = self.finish_all(node, p, left[done], finish, best, found)
                        if self.score is not None and () in best:
                            finished = best[()][0]
                        continue
                    for option in self.options(node, p, left[done]):
                        child = self.step(node, p, option)
                        key = (after, mark, self.key(child.states, left[after]))
                        if key not in nxt:
                            nxt[key] = (child, after, mark)
            layer = nxt
        if finish is not None:
            return [node for _, _, node in sorted(best.values(), key=lambda kept: kept[1])]
        merged: dict[Any, Node] = {}
        for node, _, _ in layer.values():
            merged.setdefault(self.key(node.states, later), node)
        return list(merged.values())

    def depth_first(self, frontier: list[Node], groups: list[list[int]]) -> list[Node]:
        """:meth:`orders` for every group of texts, one after the other (:meth:`chained`),
        walked depth first in the order the layers list the same ways (the frontier, then each
        text, then its options; a state met again at the same depth is merged into the first,
        as on a layer or where a group's layers end), so each signature keeps the same first
        way to its best value. A way finished early bounds every branch after it, in the
        earlier groups too: one that can at most tie it cannot come before it
        (:meth:`hopeless`). With ``value_only`` a greedy way (:meth:`probe`) is kept as found
        first: only the best value is asked for, and branches that can at most tie it are cut
        too."""
        texts, barred, waits = self.chained(groups)
        finish = self.finish
        assert finish is not None
        bit = {p: 1 << k for k, p in enumerate(texts)}
        full = (1 << len(texts)) - 1
        best: dict[Any, tuple[int, int, Node]] = {}  # per signature: as in :meth:`orders`
        left = {0: frozenset(texts)}  # the texts still to act, by the done bits
        seen: list[set[Any]] = [set() for _ in texts]  # the states met, per depth
        trials = self.analysis.trials  # per number of texts still to act, for the hand
        counts = [0, len(frontier)]  # the ways counted (when one was found), the states met
        early = self.value_only or self.target is not None
        if early and len(groups[-1]) >= self.ROOT_FROM and not self.probed:
            self.probe()  # a greedy way bounds every branch from the start
            self._keep_greedy(best)

        recurse: list[Callable[[Node, int, int | None, int], None]] = []  # (walk itself)

        def walk(node: Node, done: int, last: int | None, depth: int) -> None:
            if counts[1] >= self.BOUND_FROM:  # a few states: bounding costs more
                finished = best[()][0] if self.score is not None and () in best else None
                remaining = left[done]
                if self.unreachable(node, remaining):
                    return  # no way through it makes an ending true: none can matter
                trial = trials.get(len(remaining))
                if trial is None:
                    trial = trials[len(remaining)] = Trial()
                if self.hopeless(node, remaining, trial, finished):
                    return  # no way through it can beat (or come before) one found already
            for p in texts:
                if not _may_act(p, done, last, bit, barred, waits):
                    continue
                after = done | bit[p]
                if after == full:  # the last text: no node per way
                    counts[0] = self.finish_all(node, p, left[done], finish, best, counts[0])
                    if self.stopped:
                        return
                    continue
                mark = p if barred[p] & ~after else None  # it still bars a text to come
                if after not in left:
                    left[after] = frozenset(q for q in texts if not after & bit[q])
                for option in self.options(node, p, left[done]):
                    child = self.step(node, p, option)
                    key = (after, mark, self.key(child.states, left[after]))
                    if key in seen[depth]:
                        continue
                    seen[depth].add(key)
                    counts[1] += 1
                    # this many states met: a greedy way bounds the branches still to walk
                    if counts[1] > self.PROBE_AFTER and not self.probed:
                        self.probe()
                        self._keep_greedy(best)
                    recurse[0](child, after, mark, depth + 1)
                    if self.stopped:
                        return

        recurse.append(walk)
        for node in frontier:
            walk(node, 0, None, 0)
            if self.stopped:
                break
        recurse.clear()  # walk reaches itself through it: no cycle left for the collector
        return [node for _, _, node in sorted(best.values(), key=lambda kept: kept[1])]

    def _keep_greedy(self, best: dict[Any, tuple[int, int, Node]]) -> None:
        """With ``value_only``: the greedy way as the best found so far when it is worth more
        (and beats what the target says)."""
        way, lower = self.lower_way, self.lower
        if not self.value_only or way is None or lower is None or self.score is None:
            return
        top = None if self.target is None else self.target.top()
        if (top is None or lower > top) and (() not in best or best[()][0] < lower):
            best[()] = (lower, -1, way)


def _may_act(
    p: int,
    done: int,
    last: int | None,
    bit: dict[int, int],
    barred: dict[int, int],
    waits: dict[int, int],
) -> bool:
    """Whether the text at ``p`` may act next in a group (:meth:`Settler.constraints`): it has
    not acted (``done``: the group's texts that have, as bits), may come right after ``last``
    (the text that acted last, when it still bars some) and waits for none still to act."""
    own = bit[p]
    if done & own or (last is not None and barred[last] & own):
        return False
    return not waits[p] & ~done


def _carries(s: State, hero: int, tag: int) -> bool:
    """Whether Rogue can copy this HERO's tag in this view (it is there, with the tag)."""
    row = s.tags[hero]
    return row is not None and row[tag] > 0


def _doubles(s: State, hero: int, tag: int) -> bool:
    """Whether doubling this HERO's tag does something in this view (State.double)."""
    row = s.tags[hero]
    return (
        row is not None
        and row[tag] > 0
        and row[MUTANT] > 0
        and s.hand[hero].type == CardType.HERO
        and (hero, tag) not in s.doubled
    )


def settle_all(
    hand: Hand,
    analysis: Analysis,
    masks: Sequence[int],
    finish: Finish | None = None,
    score: Callable[[State], int] | None = None,
    target: Target | None = None,
    value_only: bool = False,
    enough: Callable[[Any], bool] | None = None,
) -> list[Node]:
    """Every distinct way the tag texts can leave the cards of ``masks[0]`` (and, at the same
    time with the same choices, the views ``masks[1:]``), with a way to get there; with
    ``finish``, only the first way to the best value for each signature it gives (with
    ``target``, of the ways that can still matter). With ``value_only`` (and ``score``) a way
    to the best value, not necessarily the first; with ``enough``, the walk stops at the first
    way whose signature it accepts."""
    settler = Settler(hand, analysis, masks, finish, score, target, value_only, enough)
    return settler.run()


@dataclass
class Best:
    key: tuple[int, bool, bool]
    path: Path
    outcome: Outcome
    valid: bool
    index: int  # the ending's place in the order :func:`explore` found them (ties: the first)
    state: State  # the cards left at the end, their tags as this way leaves them (shared)


@dataclass
class Ending:
    """The endings of the blanking that leave the same cards: their search, once it is due."""

    index: int
    blanked: int
    group: list[Outcome]
    mask: int
    valid: bool
    views: list[int]  # the masks the sensitive blanking texts looked at (not ``mask``)
    nodes: list[Node] | None = None  # every way worth scoring, once searched
    bound: tuple[int, bool, bool] = (0, False, False)  # no key of this ending is higher
    best: Best | None = None  # without views: its best, found as soon as it was searched
    exact: bool = True  # False: ``bound`` is a cheap one, its best value not searched yet

    @property
    def assumes(self) -> bool:
        return any(o.assumed for o in self.group)


def search(
    hand: Hand, analysis: Analysis | None = None
) -> tuple[Choices, int, Outcome, bool, State]:
    """The owner's best choices, their value before Loki's draw, how the blanking ended,
    whether the hand is valid and the state the search found them in (shared: copy it before
    changing it).

    Branch and bound over the endings of the blanking: each ending's optimistic key (its best
    value with nothing assumed about what the sensitive blanking texts saw) comes from the cheap
    one-view search, which need only beat the endings without views searched before it (an
    ending with no way to beat them is dropped); the endings are then searched in full most
    promising first, and one whose bound cannot beat the best found so far is never searched.
    On equal keys the first ending in :func:`explore`'s order wins, as it would without the
    bound."""
    endings: dict[int, list[Outcome]] = {}
    for outcome in explore(hand, analysis.sensitive if analysis else set()):
        endings.setdefault(outcome.blanked, []).append(outcome)
    plans: list[Ending] = []
    known: Best | None = None  # the best of the endings already searched in full
    for index, (blanked, group) in enumerate(endings.items()):
        mask = hand.full & ~blanked
        valid = hand.valid(hand.base_state(mask))
        views = sorted({m for o in group for m, _, _ in o.assumed} - {mask})
        plan = Ending(index, blanked, group, mask, valid, views)
        texts = any(mask >> p & 1 for p in hand.texts)
        if analysis is None or not (views or valid and texts):
            s = hand.base_state(mask)  # nothing to choose: its one way, valued once
            optimistic = hand.points(s) if valid else 0
            plan.nodes = [Node((s,), (), optimistic)]
        elif views and not valid:
            optimistic = 0  # every way of a hand that scores nothing is worth 0: no search
        elif views and (cheap := _root_bound(hand, analysis, mask)) is not None:
            optimistic, plan.exact = cheap, False  # searched for its best value when due
        else:
            # one view: the search itself is as cheap as a bound; more: bound it first
            tests = [] if views else _tests(group)
            score = hand.points if valid and not tests else None
            finish = _finisher(hand, [mask], tests, valid)
            # only ways that can beat the endings searched so far are worth finding (and with
            # blanking tests, the best worth found so far)
            wanted = valid and (known is not None or bool(tests))
            target = _target(hand, plan, tests, known) if wanted else None
            # with views only the best value is asked for (a bound), not the first way to it
            single = settle_all(hand, analysis, [mask], finish, score, target, bool(views))
            if not single:
                continue  # no way of this ending can beat (or come before) the best known
            if not views:
                plan.nodes = single
            optimistic = max(_value(hand, n, valid) for n in single)
        if valid:
            optimistic -= min(hand.selene_penalty(o.selene, blanked) for o in group)
        plan.bound = (optimistic, hand.draw_safe(blanked, valid), valid)
        plans.append(plan)
        if not views:
            found = plan.best = _best_of(hand, analysis, plan)
            if found is not None and (
                known is None or (found.key, -found.index) > (known.key, -known.index)
            ):
                known = found
    best = known
    queue = [(_rank(plan), plan) for plan in plans]  # the most promising first
    heapq.heapify(queue)
    while queue:
        _, plan = heapq.heappop(queue)
        if best is not None and (plan.bound, -plan.index) < (best.key, -best.index):
            continue  # this ending cannot beat (or come before) the best found so far
        if not plan.exact:  # its best value (one view), then back in line with that bound
            if _sharpen(hand, analysis, plan, best):
                heapq.heappush(queue, (_rank(plan), plan))
            continue
        found = plan.best if not plan.views else _best_of(hand, analysis, plan, best)
        if found is not None and (
            best is None or (found.key, -found.index) > (best.key, -best.index)
        ):
            best = found
    assert best is not None
    options = {pos: option for pos, option in best.path if hand.hand[pos].tag_text is not None}
    order = tuple(pos for pos, _ in best.path)
    choices = Choices(options, best.outcome.script, order)
    return choices, best.key[0], best.outcome, best.valid, best.state


def _rank(plan: Ending) -> tuple[int, int, int, int]:
    """Orders the endings most promising first (a heap pops the least): by bound, then the
    first found."""
    optimistic, safe, valid = plan.bound
    return (-optimistic, -int(safe), -int(valid), plan.index)


def _root_bound(hand: Hand, analysis: Analysis, mask: int) -> int | None:
    """A cheap bound on the points of every way of the cards of ``mask`` (:class:`Tail`, from
    the printed tags), where three or more tag texts make its search long (None otherwise)."""
    texts = frozenset(p for p in hand.texts if mask >> p & 1 and p not in analysis.inert)
    if len(texts) < Settler.ROOT_FROM:
        return None
    if analysis.bounds is None:
        analysis.bounds = Tail(hand, analysis.levels)
    tail: Tail = analysis.bounds
    return tail.bound(hand.base_state(mask), texts)


def _sharpen(hand: Hand, analysis: Analysis | None, plan: Ending, rival: Best | None) -> bool:
    """An ending with views bounded cheaply so far: its best value in one view, searched only
    for ways that beat ``rival`` (the best found so far), becomes its bound. False when no way
    beats it (the ending cannot matter)."""
    assert analysis is not None  # (only an ending with tag texts to search is bounded so)
    finish = _finisher(hand, [plan.mask], [], plan.valid)
    target = _target(hand, plan, [], rival) if rival is not None else None
    single = settle_all(hand, analysis, [plan.mask], finish, hand.points, target, True)
    if not single:
        return False
    optimistic = max(_value(hand, n, plan.valid) for n in single)
    optimistic -= min(hand.selene_penalty(o.selene, plan.blanked) for o in plan.group)
    plan.bound = (optimistic, *plan.bound[1:])
    plan.exact = True
    return True


def _value(hand: Hand, node: Node, valid: bool) -> int:
    """A way's points (0 in a hand that scores nothing), as its finish found them."""
    if node.value is not None:
        return node.value
    return hand.points(node.states[0]) if valid else 0


def _tests(group: list[Outcome]) -> list[tuple[int, int]]:
    """The (view, blanking card) pairs whose test the endings of ``group`` assume."""
    return sorted({(m, b) for o in group for m, b, _ in o.assumed})


def _finisher(hand: Hand, masks: list[int], tests: list[tuple[int, int]], valid: bool) -> Finish:
    """What a completed way is worth (its points, 0 in a hand that scores nothing) and what
    the sensitive blanking texts found in their views (``tests``: (mask, blanking card))."""
    where = [masks.index(mask) for mask, _ in tests]
    if not tests:  # the common case, and the search's innermost loop: nothing to test
        points = hand.points
        if valid:
            return lambda states: (points(states[0]), ())
        return lambda states: (0, ())

    def finish(states: tuple[State, ...]) -> tuple[int, Any]:
        value = hand.points(states[0]) if valid else 0
        return value, tuple(
            blank_test(hand, b, states[k]) for k, (_, b) in zip(where, tests, strict=True)
        )

    return finish


def _best_of(
    hand: Hand, analysis: Analysis | None, plan: Ending, rival: Best | None = None
) -> Best | None:
    """The ending's best key and a way to it (the first such way), or None when no way makes
    its assumptions true or none beats ``rival`` (the best of the endings searched before)."""
    masks = [plan.mask, *plan.views]
    if plan.nodes is None:
        assert analysis is not None
        tests = _tests(plan.group)
        finish = _finisher(hand, masks, tests, plan.valid)
        target = _target(hand, plan, tests, rival) if plan.valid else None
        # a hand that scores nothing: every way is worth 0, so the first way that makes an
        # ending true is the one kept (the walk stops there)
        enough = None if plan.valid else _holding(plan.group, tests)
        plan.nodes = settle_all(hand, analysis, masks, finish, target=target, enough=enough)
    best: Best | None = None
    for node in plan.nodes:
        value = _value(hand, node, plan.valid)
        found: dict[tuple[int, int], Any] = {}
        for outcome in plan.group:
            if not _holds(hand, node, masks, outcome, found):
                continue
            penalty = hand.selene_penalty(outcome.selene, plan.blanked) if plan.valid else 0
            key = (value - penalty, hand.draw_safe(plan.blanked, plan.valid), plan.valid)
            if best is None or key > best.key:
                best = Best(key, node.path, outcome, plan.valid, plan.index, node.states[0])
    return best


def _holding(group: list[Outcome], tests: list[tuple[int, int]]) -> Callable[[Any], bool]:
    """Whether a way's signature (what the blanking ``tests`` found) makes an ending of
    ``group`` true."""
    where = {test: k for k, test in enumerate(tests)}

    def holds(signature: Any) -> bool:
        return any(
            all(signature[where[(m, b)]] == test for m, b, test in outcome.assumed)
            for outcome in group
        )

    return holds


def _target(hand: Hand, plan: Ending, tests: list[tuple[int, int]], rival: Best | None) -> Target:
    """What a way of a valid ending must beat: its worth is its value less the least Selene
    subtraction of the endings its blanking tests (``tests``) make true; a way no better than
    the rival (on equal keys: when the rival's ending comes first or is preferred) cannot
    matter. Without tests every ending of the group counts (for a bound: nothing assumed)."""
    where = {test: k for k, test in enumerate(tests)}
    penalties = [hand.selene_penalty(o.selene, plan.blanked) for o in plan.group]
    least: dict[Any, int | None] = {}

    def worth(value: int, signature: Any) -> int | None:
        if not tests:  # nothing tested (or, for a bound, nothing assumed): every ending holds
            return value - min(penalties)
        if signature not in least:
            holding = [
                penalty
                for outcome, penalty in zip(plan.group, penalties, strict=True)
                if all(signature[where[(m, b)]] == test for m, b, test in outcome.assumed)
            ]
            least[signature] = min(holding) if holding else None
        penalty = least[signature]
        return None if penalty is None else value - penalty

    floor = None
    if rival is not None:
        rest = (hand.draw_safe(plan.blanked, plan.valid), plan.valid, -plan.index)
        floor = rival.key[0] - 1 if rest > (*rival.key[1:], -rival.index) else rival.key[0]
    needs = [sorted(o.assumed) for o in plan.group] if tests else []
    return Target(worth, min(penalties), floor, needs)


def _holds(
    hand: Hand, node: Node, masks: list[int], outcome: Outcome, found: dict[tuple[int, int], Any]
) -> bool:
    """Whether this node's views make the ending's assumptions true."""
    for mask, b, test in outcome.assumed:
        if (mask, b) not in found:
            found[(mask, b)] = blank_test(hand, b, node.states[masks.index(mask)])
        if found[(mask, b)] != test:
            return False
    return True
