"""``tablekeeper bench remix``: the Remix scorer's speed - random legal 7-card hands per CPU
second (one process pinned to one core), the slowest random hand, the constructed and reported
slow hands against their size's limit, a hill-climb for the slowest hands it can find - and, with
``verify``, the pruned search against brute force on hands stuffed with what makes scoring hard.

Limits (issue 38, this machine, CPU time): every 7-8 card hand within 100 ms, every 10-card hand
within 1 s, random 7-card hands at 8,000 or more per CPU second; the maximum is never missed."""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.remix import (
    Card,
    Catalogue,
    brute_force_best,
    brute_force_worlds,
    default_catalogue,
    prepare,
    score_hand,
)
from games.remix.hands import (
    CLIMBED_SLOW_HANDS,
    HARD_CARDS,
    REPORTED_SLOW_HANDS,
    WORST_CASES,
    is_legal,
    random_legal_hand,
    random_stuffed_hand,
)

RATE_TARGET = 8_000  # random legal 7-card hands per CPU second
BRUTE_FORCE_LIMIT = 50_000  # worlds; brute force is exponential, larger hands are skipped
CLIMB_SIZES = (7, 8, 10)
SLOWEST_SHOWN = 10
RESTART_AFTER = 25  # climb steps without a slower hand before starting from a fresh one


def limit_for(size: int) -> float:
    """The CPU seconds a hand of ``size`` cards may take."""
    return 0.1 if size <= 8 else 1.0


@dataclass
class RemixReport:
    text: list[str] = field(default_factory=list)
    mismatches: int = 0

    @property
    def ok(self) -> bool:
        return self.mismatches == 0

    def lines(self) -> list[str]:
        return list(self.text)


def pin_one_core() -> str:
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
        return f"pinned to CPU {cpus[-1]}"
    except (AttributeError, OSError):
        return "not pinned (single-threaded)"


def cpu_seconds(hand: Sequence[Card | str], runs: int) -> tuple[float, int]:
    """The median CPU time of scoring ``hand`` over ``runs`` runs, and its total."""
    times = []
    total = 0
    for _ in range(runs):
        started = time.process_time()
        total = score_hand(list(hand)).total
        times.append(time.process_time() - started)
    return statistics.median(times), total


def measure_remix(hands: int, runs: int, seed: int, verify: int = 0, climb: int = 0) -> RemixReport:
    report = RemixReport()
    pinned = pin_one_core()
    catalogue = default_catalogue()
    rng = random.Random(seed)
    score_hand(["MR06", "MR62"])  # load and compile the catalogue outside the timing
    rates: list[float] = []  # hands per CPU second (the one-core figure)
    wall_rates: list[float] = []  # hands per wall-clock second (inflated by other work)
    slowest = (0.0, [""])
    for _ in range(runs):
        dealt = [random_legal_hand(rng, 7, catalogue) for _ in range(hands)]
        cpu = time.process_time
        started, wall_started = cpu(), time.perf_counter()
        for hand in dealt:
            t0 = cpu()
            score_hand(hand)
            spent = cpu() - t0
            if spent > slowest[0]:
                slowest = (spent, [c.id for c in hand])
        rates.append(len(dealt) / max(cpu() - started, 1e-9))
        wall_rates.append(len(dealt) / (time.perf_counter() - wall_started))
    out = report.text
    out.append(f"remix bench: {runs} runs x {hands} random legal 7-card hands, {pinned}")
    out.append(
        f"hands per second (CPU time, one core): median {statistics.median(rates):,.0f} "
        f"(runs: {', '.join(f'{r:,.0f}' for r in rates)}; target >= {RATE_TARGET:,})"
    )
    out.append(f"hands per second (wall clock): median {statistics.median(wall_rates):,.0f}")
    slow_names = ", ".join(catalogue[c].name for c in slowest[1])
    out.append(f"slowest random hand: {slowest[0] * 1000:.2f} ms CPU  [{slow_names}]")
    _named_hands(report, 1 if runs == 1 else 3)
    if climb:
        _climb(report, random.Random(seed), climb, catalogue)
    if verify:
        _verify(report, rng, verify)
    return report


def _named_hands(report: RemixReport, runs: int) -> None:
    """The constructed worst cases and the hands reported slow, each against its limit (the
    median of ``runs``, five for hands of up to 8 cards when ``runs`` is more than one)."""
    worst: dict[bool, float] = {}
    for kind, named in (
        ("worst case", WORST_CASES),
        ("reported slow", REPORTED_SLOW_HANDS),
        ("climbed slow", CLIMBED_SLOW_HANDS),
    ):
        for label, ids in named.items():
            spent, total = cpu_seconds(ids, 5 if len(ids) <= 8 and runs > 1 else runs)
            small = len(ids) <= 8
            worst[small] = max(worst.get(small, 0.0), spent)
            over = "" if spent <= limit_for(len(ids)) else "  OVER THE LIMIT"
            report.text.append(
                f"{kind} {label}: {spent * 1000:.1f} ms CPU (median), total {total}{over}"
            )
    report.text.append(
        f"worst constructed or reported hand: 7-8 cards {worst.get(True, 0.0) * 1000:.1f} ms "
        f"(limit 100 ms), 10 cards {worst.get(False, 0.0) * 1000:.1f} ms (limit 1,000 ms)"
    )


def _mutate(rng: random.Random, hand: list[Card], catalogue: Catalogue) -> list[Card]:
    """One or two cards swapped for others, most often cards that make scoring hard."""
    while True:
        new = list(hand)
        for _ in range(rng.choice((1, 1, 2))):
            pool = HARD_CARDS if rng.random() < 0.8 else tuple(c.id for c in catalogue.cards)
            card = catalogue[rng.choice(pool)]
            if card not in new:
                new[rng.randrange(len(new))] = card
        if new != hand and is_legal(new):
            return new


def _climb(report: RemixReport, rng: random.Random, steps: int, catalogue: Catalogue) -> None:
    """A hill-climb per hand size over hands stuffed with tag texts, blanking texts and
    transforms: keep a swap that makes the hand no faster; restart from a fresh stuffed hand
    when it stalls. The slowest hands seen are timed again (median of 3) and listed."""
    seen: dict[tuple[str, ...], float] = {}

    def cost(hand: list[Card]) -> float:
        key = tuple(sorted(c.id for c in hand))
        if key not in seen:
            seen[key] = cpu_seconds(hand, 1)[0]
        return seen[key]

    for size in CLIMB_SIZES:
        hand = random_stuffed_hand(rng, size, catalogue)
        spent, stalled = cost(hand), 0
        for _ in range(steps):
            if stalled >= RESTART_AFTER:
                hand = random_stuffed_hand(rng, size, catalogue)
                spent, stalled = cost(hand), 0
            candidate = _mutate(rng, hand, catalogue)
            tried = cost(candidate)
            stalled = 0 if tried > spent else stalled + 1
            if tried >= spent:
                hand, spent = candidate, tried
    # the slowest seen overall and for each size, timed again: a single run is noisy
    ranked = sorted(seen, key=seen.__getitem__, reverse=True)
    again = set(ranked[: SLOWEST_SHOWN * 2])
    for size in CLIMB_SIZES:
        again |= set([ids for ids in ranked if len(ids) == size][:3])
    timed = sorted(((cpu_seconds(ids, 3), ids) for ids in again), reverse=True)
    report.text.append(
        f"hill-climb: {steps} steps for each of {', '.join(map(str, CLIMB_SIZES))} cards, "
        f"{len(seen)} distinct hands; the {SLOWEST_SHOWN} slowest (CPU, median of 3):"
    )
    for (spent, total), ids in timed[:SLOWEST_SHOWN]:
        report.text.append(_hand_line(spent, total, ids, catalogue))
    over = sum(spent > limit_for(len(ids)) for (spent, _), ids in timed)
    report.text.append(f"hill-climb slowest per size ({over} hands over their limit):")
    for size in CLIMB_SIZES:
        mine = [(found, ids) for found, ids in timed if len(ids) == size]
        if mine:
            (spent, total), ids = mine[0]
            report.text.append(_hand_line(spent, total, ids, catalogue))


def _hand_line(spent: float, total: int, ids: Sequence[str], catalogue: Catalogue) -> str:
    names = ", ".join(catalogue[c].name for c in ids)
    flag = "" if spent <= limit_for(len(ids)) else "  OVER THE LIMIT"
    return f"  {spent * 1000:7.1f} ms  {len(ids):>2} cards  total {total:>3}  [{names}]{flag}"


def _verify(report: RemixReport, rng: random.Random, count: int) -> None:
    """Pruned search against brute force on ``count`` hands of 8 to 10 cards stuffed with tag
    texts, transforms and blanking texts (hands over the brute-force limit are skipped and
    counted)."""
    catalogue = default_catalogue()
    checked = skipped = 0
    while checked < count:
        hand = random_stuffed_hand(rng, rng.randint(8, 10), catalogue)
        prepared = prepare(hand)
        if brute_force_worlds(prepared) > BRUTE_FORCE_LIMIT:
            skipped += 1
            continue
        checked += 1
        fast = score_hand(hand).total
        slow = brute_force_best(prepared)
        if fast != slow:
            report.mismatches += 1
            report.text.append(
                f"MISMATCH {[c.id for c in hand]}: pruned {fast}, brute force {slow}"
            )
    report.text.append(
        f"verify: {checked} stuffed 8-10 card hands, {report.mismatches} pruned vs brute-force "
        f"mismatches ({skipped} skipped: over {BRUTE_FORCE_LIMIT:,} brute-force worlds)"
    )
