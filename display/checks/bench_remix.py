"""``tablekeeper bench remix``: the Remix scorer's speed - random legal 7-card hands per CPU
second (one process pinned to one core), the slowest hands, the constructed worst cases - and,
with ``verify``, the pruned search against brute force."""

from __future__ import annotations

import os
import random
import statistics
import time
from dataclasses import dataclass, field

from games.remix import (
    brute_force_best,
    brute_force_worlds,
    default_catalogue,
    prepare,
    score_hand,
)
from games.remix.hands import WORST_CASES, random_legal_hand, random_stuffed_hand


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


def measure_remix(hands: int, runs: int, seed: int, verify: int = 0) -> RemixReport:
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
        f"(runs: {', '.join(f'{r:,.0f}' for r in rates)}; target >= 5,000)"
    )
    out.append(f"hands per second (wall clock): median {statistics.median(wall_rates):,.0f}")
    slow_names = ", ".join(catalogue[c].name for c in slowest[1])
    out.append(f"slowest random hand: {slowest[0] * 1000:.2f} ms CPU  [{slow_names}]")
    _worst_cases(report)
    if verify:
        _verify(report, rng, verify)
    return report


def _worst_cases(report: RemixReport) -> None:
    worst = 0.0
    for label, ids in WORST_CASES.items():
        times = []
        total = 0
        for _ in range(5):
            t0 = time.process_time()
            total = score_hand(list(ids)).total
            times.append(time.process_time() - t0)
        spent = statistics.median(times)
        worst = max(worst, spent)
        report.text.append(
            f"worst case {label}: {spent * 1000:.1f} ms CPU (median of 5), total {total}"
        )
    report.text.append(f"worst constructed case: {worst * 1000:.1f} ms CPU (target < 100 ms)")


def _verify(report: RemixReport, rng: random.Random, count: int) -> None:
    catalogue = default_catalogue()
    checked = 0
    while checked < count:
        size = rng.randint(3, 7)
        if checked % 2:  # half of them stuffed with tag texts, transforms and blanking
            hand = random_stuffed_hand(rng, size, catalogue)
        else:
            hand = random_legal_hand(rng, size, catalogue)
        prepared = prepare(hand)
        if brute_force_worlds(prepared) > 50_000:  # brute force is exponential
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
        f"verify: {checked} hands, {report.mismatches} pruned vs brute-force mismatches"
    )
