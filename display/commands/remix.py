"""`tablekeeper remix score ...` (the Marvel: Remix hand scorer) and `tablekeeper bench remix`.

``tablekeeper remix score CARD... [--loki-draw CARD] [--json]`` scores one final hand; cards are
ids (MR06) or names, forgiving of case, punctuation and small typos. ``--json`` prints
``{"total", "valid", "cards": [{"id", "name", "state", "base", "points", "tags", "lines"}],
"choices", "loki_owed", ...}``.

``tablekeeper remix score --batch FILE [--json]`` scores one hand per line (comma-separated cards;
an item ``loki-draw=CARD`` gives Loki's draw; blank lines and ``#`` comments are skipped) and
prints one result per line. Unknown or duplicate cards and impossible hands exit 2 with the
reason (in a batch: every line is still answered, with ``{"line": n, "error": ...}``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from display.cli import CliError


def register(commands: Any, benches: Any) -> None:
    remix = commands.add_parser("remix", help="Marvel: Remix tools (hand scorer)")
    actions = remix.add_subparsers(dest="remix_command", metavar="ACTION")
    actions.required = True
    score = actions.add_parser(
        "score",
        help="score a final hand: the best legal score over every choice, explained",
        description="Score a Marvel: Remix final hand. Cards by id (MR06) or name.",
    )
    score.add_argument("cards", nargs="*", metavar="CARD", help="card ids or names")
    score.add_argument("--loki-draw", metavar="CARD", help="the REMIX card drawn for Loki")
    score.add_argument("--batch", type=Path, metavar="FILE", help="one hand per line")
    score.add_argument("--json", action="store_true", help="print JSON")
    score.add_argument("--photo", type=Path, metavar="PHOTO", help="score the hand in a photo")
    score.add_argument("--gallery", type=Path, metavar="DIR", help="enrolled cards (with --photo)")
    score.set_defaults(func=run_score)

    bench = benches.add_parser(
        "remix", help="Remix scorer speed: random legal 7-card hands per second, worst cases"
    )
    bench.add_argument("--hands", type=int, default=2000, help="hands per run (2000)")
    bench.add_argument("--runs", type=int, default=5, help="runs; the median is quoted (5)")
    bench.add_argument("--seed", type=int, default=1, help="random seed (1)")
    bench.add_argument(
        "--verify",
        type=int,
        default=0,
        metavar="N",
        help="also check the pruned search against brute force on N random hands (half stuffed "
        "with tag texts, transforms and blanking cards)",
    )
    bench.set_defaults(func=run_bench)


def _score(cards: list[str], loki_draw: str | None) -> Any:
    from games.remix import RemixError, score_hand

    try:
        return score_hand(cards, loki_draw)
    except RemixError as error:
        raise CliError(str(error)) from error


def _parse_line(line: str) -> tuple[list[str], str | None]:
    cards: list[str] = []
    loki: str | None = None
    for item in line.split(","):
        item = item.strip()
        if not item:
            continue
        low = item.lower()
        if low.startswith(("loki-draw=", "loki-draw:", "loki_draw=", "loki_draw:")):
            loki = item.split("=", 1)[-1] if "=" in item else item.split(":", 1)[-1]
            loki = loki.strip()
        else:
            cards.append(item)
    return cards, loki


def run_score(args: argparse.Namespace) -> int:
    if args.photo is not None or args.gallery is not None:  # issue 7: display/flows/photo_cli.py
        from display.flows.photo_cli import remix_score_photo

        if args.photo is None or args.gallery is None or args.cards or args.batch:
            raise CliError("--photo PHOTO goes with --gallery DIR, without CARD... or --batch")
        return remix_score_photo(args.photo, args.gallery, args.loki_draw, args.json)
    if args.batch is not None:
        if args.cards or args.loki_draw:
            raise CliError("give either CARD... or --batch FILE, not both")
        return _run_batch(args.batch, args.json)
    if not args.cards:
        raise CliError("no cards given: tablekeeper remix score CARD... (ids like MR06 or names)")
    result = _score(args.cards, args.loki_draw)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.text())
    return 0


def _run_batch(path: Path, as_json: bool) -> int:
    from games.remix import RemixError, score_hand

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError as error:
        raise CliError(f"{path}: no such file") from error
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"{path}: cannot read: {error}") from error
    errors: list[str] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        cards, loki = _parse_line(line)
        try:
            result = score_hand(cards, loki)
        except RemixError as error:
            errors.append(f"line {number}: {error}")
            if as_json:
                print(json.dumps({"line": number, "error": str(error)}))
            else:
                print(f"line {number}: error: {error}")
            continue
        if as_json:
            print(json.dumps({"line": number, **result.to_json()}))
        else:
            owed = " (Loki's draw owed)" if result.loki_owed else ""
            validity = "valid" if result.valid else "not valid"
            print(f"line {number}: {result.total} ({validity}){owed}")
    if errors:
        raise CliError(f"{len(errors)} hand(s) in {path} could not be scored; first: {errors[0]}")
    return 0


def _pin_one_core() -> str:
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
        return f"pinned to CPU {cpus[-1]}"
    except (AttributeError, OSError):
        return "not pinned (single-threaded)"


def run_bench(args: argparse.Namespace) -> int:
    from games.remix import (
        brute_force_best,
        brute_force_worlds,
        default_catalogue,
        prepare,
        score_hand,
    )
    from games.remix.hands import WORST_CASES, random_legal_hand, random_stuffed_hand

    if args.hands < 1 or args.runs < 1:
        raise CliError("--hands and --runs must be at least 1")
    pinned = _pin_one_core()
    catalogue = default_catalogue()
    rng = random.Random(args.seed)
    score_hand(["MR06", "MR62"])  # load and compile the catalogue outside the timing
    rates: list[float] = []  # hands per CPU second (the one-core figure)
    wall_rates: list[float] = []  # hands per wall-clock second (inflated by other work)
    slowest = (0.0, [""])
    for _ in range(args.runs):
        hands = [random_legal_hand(rng, 7, catalogue) for _ in range(args.hands)]
        cpu = time.process_time
        started, wall_started = cpu(), time.perf_counter()
        for hand in hands:
            t0 = cpu()
            score_hand(hand)
            spent = cpu() - t0
            if spent > slowest[0]:
                slowest = (spent, [c.id for c in hand])
        rates.append(len(hands) / max(cpu() - started, 1e-9))
        wall_rates.append(len(hands) / (time.perf_counter() - wall_started))
    print(f"remix bench: {args.runs} runs x {args.hands} random legal 7-card hands, {pinned}")
    print(
        f"hands per second (CPU time, one core): median {statistics.median(rates):,.0f} "
        f"(runs: {', '.join(f'{r:,.0f}' for r in rates)}; target >= 5,000)"
    )
    print(f"hands per second (wall clock): median {statistics.median(wall_rates):,.0f}")
    slow_names = ", ".join(catalogue[c].name for c in slowest[1])
    print(f"slowest random hand: {slowest[0] * 1000:.2f} ms CPU  [{slow_names}]")
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
        print(f"worst case {label}: {spent * 1000:.1f} ms CPU (median of 5), total {total}")
    print(f"worst constructed case: {worst * 1000:.1f} ms CPU (target < 100 ms)")
    if args.verify:
        mismatches = checked = 0
        while checked < args.verify:
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
                mismatches += 1
                print(f"MISMATCH {[c.id for c in hand]}: pruned {fast}, brute force {slow}")
        print(f"verify: {checked} hands, {mismatches} pruned vs brute-force mismatches")
        if mismatches:
            return 1
    return 0
