"""`tablekeeper bench flows`: the photograph-to-score figures, measured on the real screens.

``tablekeeper bench flows [--hands 15] [--seed 7] [--skip-enrol]`` prints the button presses it
takes to enrol all 79 Remix cards and the median seconds from SHUTTER to the frame that shows
the score (Remix hands and mixtapes). What is measured, and how: ``display/flows/bench.py``.
"""

from __future__ import annotations

import argparse
from typing import Any

from display.cli import CliError


def register(commands: Any, benches: Any) -> None:
    bench = benches.add_parser(
        "flows",
        help="photo to score: presses to enrol all Remix cards, seconds from SHUTTER to score",
        description="Drive the enrolment and scoring screens in-process with generated photos "
        "and print the presses to enrol all 79 Remix cards and the median seconds from SHUTTER "
        "to the score on screen.",
    )
    bench.add_argument("--hands", type=int, default=15, help="Remix hands to time (15)")
    bench.add_argument("--seed", type=int, default=7, help="random seed (7)")
    bench.add_argument("--skip-enrol", action="store_true", help="only time shutter to score")
    bench.set_defaults(func=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    if args.hands < 1:
        raise CliError("--hands must be at least 1")
    from display.flows import bench

    if not args.skip_enrol:
        enrol = bench.enrol_all(args.seed)
        print(
            f"enrol all {enrol['cards']} Remix cards: {enrol['presses']} button presses "
            f"({enrol['batches']} photos of up to 12; {enrol['retakes']} retake(s) when a card "
            f"was not found; {enrol['presses_first_time_right']} when every photo is right "
            f"first time); {enrol['enrolled']} enrolled at the end"
        )
    timing = bench.shutter_to_score(args.hands, args.seed)
    for label, key in (("Remix 7-card hand", "remix"), ("6-card mixtape", "mixtape")):
        print(
            f"shutter to score on screen, {label}: median {timing[f'{key}_median_s']:.2f} s "
            f"wall, {timing[f'{key}_cpu_median_s']:.2f} s CPU (max {timing[f'{key}_max_s']:.2f} s, "
            f"{timing[f'{key}_count']} photos, {timing[f'{key}_read_without_help']} read with no "
            f"correction needed); while reading: {timing[f'{key}_frames_median']:.0f} frames "
            f"drawn (median), longest gap between two frames median "
            f"{timing[f'{key}_longest_frame_median_s'] * 1000:.0f} ms, worst "
            f"{timing[f'{key}_longest_frame_s'] * 1000:.0f} ms"
        )
    return 0
