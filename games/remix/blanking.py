"""Blanking: the texts that blank cards act one at a time, in an order the owner chooses.

Selene, Juggernaut, Hidden Lair, Magneto, Taskmaster and the cards that blank themselves each
look at the hand as it stands when they act (the cards not yet blanked, their tags settled with
the owner's choices); a card blanked before its turn never acts.

Three ways to walk the blanking texts:

* :func:`replay` - fixed choices and a fixed script (explaining a result);
* :func:`every_outcome` - every order and target, exactly (brute force);
* :func:`explore` - every order and target for the search: a condition that reads tags the tag
  texts can change ("sensitive") is tried both ways, and the ending records what it assumed
  (the search later keeps only the choices that make those assumptions true).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from games.remix.model import Hand
from games.remix.state import State

# What a blanking text found when it acted: (it blanks itself, its "unless" spares everyone).
Test = tuple[bool, bool]
# An assumption of the search: at this mask, this blanking text found this.
Assumption = tuple[int, int, Test]


class BlankAct:
    """One thing a blanking text can do: the cards it blanks (a bit mask), the target it chose
    (for the script), why each one is blanked, and whether Selene subtracts the target's power.
    Never changed once made (a plain class: the search makes many)."""

    __slots__ = ("hit", "target", "reasons", "selene")

    def __init__(self, hit: int, target: int | None, reasons: dict[int, str], selene: bool):
        self.hit = hit
        self.target = target
        self.reasons = reasons
        self.selene = selene


@dataclass
class Outcome:
    """How the blanking went: which cards ended blanked, Selene's subtraction, and why."""

    blanked: int  # bit mask of hand positions
    selene: tuple[int, int] | None  # (Selene's position, the card she blanked)
    script: tuple[tuple[int, int | None], ...]
    reasons: dict[int, str] = field(default_factory=dict)
    assumed: frozenset[Assumption] = frozenset()

    def after(self, b: int, act: BlankAct) -> Outcome:
        selene = (b, act.target) if act.selene and act.target is not None else self.selene
        return Outcome(
            self.blanked | act.hit,
            selene,
            (*self.script, (b, act.target)),
            {**self.reasons, **act.reasons},
            self.assumed,
        )


def blank_test(hand: Hand, b: int, s: State) -> Test:
    card = hand.hand[b]
    blanks = card.self_blank is not None and card.self_blank.blanks_itself(s, b)
    other = card.blank_others
    spared = other is not None and other.unless is not None and other.unless.test(s, b)
    return (blanks, spared)


def possible_tests(hand: Hand, b: int) -> list[Test]:
    """Every result a blanking text's conditions can give (a sensitive one, in the search)."""
    card = hand.hand[b]
    blanks = [False, True] if card.self_blank is not None else [False]
    other = card.blank_others
    spared = [False, True] if other is not None and other.unless is not None else [False]
    return [(x, y) for x in blanks for y in spared]


def blank_acts(hand: Hand, b: int, s: State, test: Test) -> list[BlankAct]:
    """What the blanking text of the card at ``b`` can do, the hand standing as ``s`` and its
    conditions giving ``test``: one act per choice of target (a single "blanks nothing" act when
    it has none)."""
    card = hand.hand[b]
    blanks, spared = test
    if blanks:
        assert card.self_blank is not None
        return [BlankAct(1 << b, None, {b: card.self_blank.text}, False)]
    other = card.blank_others
    if other is None or spared:
        return [BlankAct(0, None, {}, False)]
    targets = [j for j in s.alive if j != b and hand.hand[j].type in other.types]
    if not targets:
        return [BlankAct(0, None, {}, False)]
    why = other.why
    if other.one:
        return [BlankAct(1 << t, t, {t: why}, other.subtract_power) for t in targets]
    hit = 0
    for t in targets:
        hit |= 1 << t
    return [BlankAct(hit, None, dict.fromkeys(targets, why), False)]


def replay(
    hand: Hand,
    options: dict[int, Any],
    order: Sequence[int] | None,
    script: Iterable[tuple[int, int | None]],
    views: dict[int, State] | None = None,
) -> Outcome:
    """Run the blanking texts in a fixed order with fixed targets (the rest follow in hand
    order, each taking its first target), each seeing the tags settled with these choices.
    ``views`` collects the settled states by the cards in play (to be reused by the caller)."""
    done = Outcome(0, None, ())
    if not hand.blankers:
        return done
    if views is None:
        views = {}
    acted: set[int] = set()
    steps = list(script)
    steps += [(b, None) for b in hand.blankers if b not in {s for s, _ in steps}]
    for b, wanted in steps:
        if b in acted or b not in hand.blankers:
            continue
        acted.add(b)
        if done.blanked >> b & 1:
            continue
        mask = hand.full & ~done.blanked
        s = views.get(mask)
        if s is None:
            s = views[mask] = hand.settle(mask, options, order)
        acts = blank_acts(hand, b, s, blank_test(hand, b, s))
        done = done.after(b, next((a for a in acts if a.target == wanted), acts[0]))
    return done


def every_outcome(
    hand: Hand, options: dict[int, Any], order: Sequence[int] | None
) -> list[Outcome]:
    """Every way the blanking can end for these choices, walking every order of the blanking
    texts and every target, each text seeing the exactly settled tags (brute force)."""
    if not hand.blankers:
        return [Outcome(0, None, ())]
    found: dict[tuple[int, Any], Outcome] = {}
    views: dict[int, State] = {}

    def view(blanked: int) -> State:
        if blanked not in views:
            views[blanked] = hand.settle(hand.full & ~blanked, options, order)
        return views[blanked]

    def walk(sequence: Sequence[int], done: Outcome) -> None:
        rest = [b for b in sequence if not done.blanked >> b & 1]
        if not rest:
            found.setdefault((done.blanked, done.selene), done)
            return
        b = rest[0]
        s = view(done.blanked)
        for act in blank_acts(hand, b, s, blank_test(hand, b, s)):
            walk(rest[1:], done.after(b, act))

    for sequence in permutations(hand.blankers):
        walk(sequence, Outcome(0, None, ()))
    return list(found.values())


def explore(hand: Hand, sensitive: set[int]) -> list[Outcome]:
    """Every way the blanking can end, over every order and target (states, not permutations).

    A blanking text in ``sensitive`` reads tags that the owner's tag choices can change: both
    results of its conditions are tried and the ending lists the assumption (``assumed``). The
    others see the printed tags (with the transforms that hold before any tag text)."""
    if not hand.blankers:
        return [Outcome(0, None, ())]
    if not sensitive:
        if len(hand.blankers) == 1:
            return _explore_one(hand, hand.blankers[0])
        return _explore_plain(hand)
    found: dict[tuple[int, Any, frozenset[Assumption]], Outcome] = {}
    seen: set[tuple[int, int, Any, frozenset[Assumption]]] = set()
    # What a blanking text finds and can do depends only on the cards left (the base state of
    # the mask) and, for a sensitive one, the result assumed: worked out once per mask.
    tests: dict[tuple[int, int], list[Test]] = {}
    acts_for: dict[tuple[int, int, Test], list[BlankAct]] = {}
    blankers = hand.blankers
    full = hand.full
    base_state = hand.base_state
    none: frozenset[Assumption] = frozenset()

    def walk(
        pending: int,
        blanked: int,
        selene: tuple[int, int] | None,
        script: tuple[tuple[int, int | None], ...],
        acts: tuple[BlankAct, ...],
        assumed: frozenset[Assumption],
    ) -> None:
        pending &= ~blanked
        key = (pending, blanked, selene, assumed)
        if key in seen:
            return
        seen.add(key)
        if not pending:
            end = (blanked, selene, assumed)
            if end not in found:  # the first way to an ending is the one kept
                found[end] = _ending(blanked, selene, script, acts, assumed)
            return
        mask = full & ~blanked
        for b in blankers:
            if not pending >> b & 1:
                continue
            results = tests.get((mask, b))
            if results is None:
                if b in sensitive:
                    results = possible_tests(hand, b)
                else:
                    results = [blank_test(hand, b, base_state(mask))]
                tests[(mask, b)] = results
            rest = pending & ~(1 << b)
            for test in results:
                here = assumed | {(mask, b, test)} if b in sensitive else assumed
                choices = acts_for.get((mask, b, test))
                if choices is None:
                    choices = acts_for[(mask, b, test)] = blank_acts(
                        hand, b, base_state(mask), test
                    )
                for act in choices:
                    target = act.target
                    walk(  # noqa: F821 (deleted only once the walk is done)
                        rest,
                        blanked | act.hit,
                        (b, target) if act.selene and target is not None else selene,
                        (*script, (b, target)),
                        (*acts, act),
                        here,
                    )

    start = 0
    for b in blankers:
        start |= 1 << b
    walk(start, 0, None, (), (), none)
    del walk  # it calls itself: a cycle only the garbage collector would free, every hand
    return _minimal(list(found.values()))


def _explore_plain(hand: Hand) -> list[Outcome]:
    """:func:`explore` with nothing sensitive (no assumptions): what a blanking text finds and
    can do depends only on the cards left, so its acts are worked out once per mask; the walk
    and the order of the endings are :func:`explore`'s (an ending is recorded where the step
    that reaches it is taken, rather than one call further down)."""
    found: dict[tuple[int, Any], Outcome] = {}
    seen: set[tuple[int, int, Any]] = set()
    acts_for: dict[int, list[BlankAct]] = {}  # by mask and blanking text (mask << 4 | text)
    blankers = hand.blankers
    full = hand.full
    base_state = hand.base_state

    def walk(
        pending: int,
        blanked: int,
        selene: tuple[int, int] | None,
        script: tuple[tuple[int, int | None], ...],
        acts: tuple[BlankAct, ...],
    ) -> None:
        """From a state with texts still ``pending`` (none of them blanked)."""
        key = (pending, blanked, selene)
        if key in seen:
            return
        seen.add(key)
        mask = full & ~blanked
        for b in blankers:
            if not pending >> b & 1:
                continue
            choices = acts_for.get(mask << 4 | b)
            if choices is None:
                s = base_state(mask)
                choices = acts_for[mask << 4 | b] = blank_acts(hand, b, s, blank_test(hand, b, s))
            rest = pending & ~(1 << b)
            for act in choices:
                target = act.target
                after = blanked | act.hit
                now = (b, target) if act.selene and target is not None else selene
                left = rest & ~after
                if left:
                    walk(left, after, now, (*script, (b, target)), (*acts, act))  # noqa: F821
                elif (after, now) not in found:  # the first way to an ending is the one kept
                    found[(after, now)] = _ending(after, now, (*script, (b, target)), (*acts, act))

    start = 0
    for b in blankers:
        start |= 1 << b
    walk(start, 0, None, (), ())
    del walk  # it calls itself: a cycle only the garbage collector would free, every hand
    return list(found.values())


def _ending(
    blanked: int,
    selene: tuple[int, int] | None,
    script: tuple[tuple[int, int | None], ...],
    acts: tuple[BlankAct, ...],
    assumed: frozenset[Assumption] = frozenset(),
) -> Outcome:
    """The outcome a walk reached by ``acts``: their reasons gathered only once it ends (a walk
    carries the acts, not a growing dict, through its branches)."""
    reasons: dict[int, str] = {}
    for act in acts:
        reasons.update(act.reasons)
    return Outcome(blanked, selene, script, reasons, assumed)


def _explore_one(hand: Hand, b: int) -> list[Outcome]:
    """The common case: one blanking text, seeing the printed tags, acts once."""
    s = hand.base_state(hand.full)
    ends: dict[tuple[int, Any], Outcome] = {}
    for act in blank_acts(hand, b, s, blank_test(hand, b, s)):
        target = act.target
        selene = (b, target) if act.selene and target is not None else None
        if (act.hit, selene) not in ends:  # as Outcome(0, None, ()).after(b, act), made once
            ends[(act.hit, selene)] = Outcome(act.hit, selene, ((b, target),), dict(act.reasons))
    return list(ends.values())


def _minimal(outcomes: list[Outcome]) -> list[Outcome]:
    """Drop an ending whose assumptions include another way to the same ending's (it can only
    be reached when that one can)."""
    kept: list[Outcome] = []
    for outcome in sorted(outcomes, key=lambda o: len(o.assumed)):
        if not any(
            (k.blanked, k.selene) == (outcome.blanked, outcome.selene)
            and k.assumed <= outcome.assumed
            for k in kept
        ):
            kept.append(outcome)
    return kept
