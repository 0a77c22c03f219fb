"""``tablekeeper bench NAME``: every benchmark, each printing its figures (never a timed test).

    tablekeeper bench ui        start-up to the first frame, the home screen's frame time,
                                frames during a commit storm (--presses N --fsync-ms MS)
    tablekeeper bench timer     the Co-Mix sand timer against the real clock
    tablekeeper bench remix     the Remix scorer: hands per second, worst cases
    tablekeeper bench mixtape   simulated Mixtape games, Otto's reasons
    tablekeeper bench vision    card recognition accuracy, lighting, profile (vision/bench/)
    tablekeeper bench flows     photo to score on the real screens, per step

Each bench is a function in ``display/checks/bench_*.py`` (or ``vision/bench.py``) returning a
report; this module parses the arguments, calls it and prints the report's lines.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from display.cli import CliError
from display.commands.mixtape import deck_option, load_deck_option


def register(commands: Any, benches: Any) -> None:
    for add in (_ui, _timer, _remix, _mixtape, _vision, _flows):  # the order of `bench --help`
        add(benches)


def _ui(benches: Any) -> None:
    bench = benches.add_parser(
        "ui",
        help="start-up time to first frame and home-screen frame time",
        description="Median start-up time of `tablekeeper run --sim` to its first frame "
        "(separate processes, SDL dummy driver) and the median frame time of the home screen.",
    )
    bench.add_argument("--starts", type=int, default=5, help="processes to start (default 5)")
    bench.add_argument("--frames", type=int, default=300, help="frames to time (default 300)")
    bench.add_argument(
        "--presses",
        type=int,
        default=0,
        metavar="N",
        help="also a commit storm: N knob turns, one a frame, each saved; frame times with the "
        "synchronous store vs the write-behind store (default 0: no storm)",
    )
    bench.add_argument(
        "--fsync-ms",
        type=float,
        default=0.0,
        metavar="MS",
        help="with --presses: add MS milliseconds to every commit, a slow SD card simulated "
        "(default 0: the disk as it is)",
    )
    bench.add_argument(
        "--disk-dir",
        type=Path,
        metavar="DIR",
        help="with --presses: keep the storm's state database under DIR, on the disk to "
        "measure (default: a temporary folder)",
    )
    bench.set_defaults(func=bench_ui)


def _timer(benches: Any) -> None:
    timer = benches.add_parser(
        "timer",
        help="Co-Mix sand timer accuracy: configured duration vs the moment time up is declared",
    )
    timer.add_argument(
        "--seconds", type=float, default=2.0, help="configured sand timer duration (default 2)"
    )
    timer.add_argument("--runs", type=int, default=10, help="number of runs (10)")
    timer.set_defaults(func=bench_timer)


def _remix(benches: Any) -> None:
    bench = benches.add_parser(
        "remix",
        help="Remix scorer speed: random legal 7-card hands per second, worst cases, a "
        "hill-climb for the slowest hands",
    )
    bench.add_argument("--hands", type=int, default=2000, help="hands per run (2000)")
    bench.add_argument("--runs", type=int, default=5, help="runs; the median is quoted (5)")
    bench.add_argument("--seed", type=int, default=1, help="random seed (1)")
    bench.add_argument(
        "--verify",
        type=int,
        default=0,
        metavar="N",
        help="also check the pruned search against brute force on N random 8-10 card hands "
        "stuffed with tag texts, transforms and blanking cards",
    )
    bench.add_argument(
        "--climb",
        type=int,
        default=40,
        metavar="STEPS",
        help="hill-climb STEPS swaps for each of 7, 8 and 10 cards towards the slowest hands and "
        "list the ten slowest (default 40; 0: no climb)",
    )
    bench.set_defaults(func=bench_remix)


def _mixtape(benches: Any) -> None:
    bench = benches.add_parser(
        "mixtape", help="Mixtape: time per simulated solo / multiplayer game and Otto's reasons"
    )
    deck_option(bench, required=False)
    bench.add_argument("--games", type=int, default=200, help="games per kind (200)")
    bench.set_defaults(func=bench_mixtape)


def _vision(benches: Any) -> None:
    bench = benches.add_parser(
        "vision",
        help="card recognition accuracy and speed: synthetic scenes and the real photos",
    )
    bench.add_argument(
        "--real",
        type=Path,
        metavar="DIR",
        help="real-photo dataset (gallery/, photos/, labels.csv)",
    )
    bench.add_argument(
        "--scenes",
        type=int,
        default=240,
        help="synthetic scenes (split over easy/medium/hard; default 240)",
    )
    bench.add_argument("--cards", type=int, default=7, help="cards per synthetic scene (7)")
    bench.add_argument("--seed", type=int, default=2026, help="random seed (2026)")
    bench.add_argument(
        "--threads", type=int, default=1, help="OpenCV threads (default 1: the one-core figure)"
    )
    bench.add_argument(
        "--gallery",
        type=Path,
        metavar="DIR",
        help="use this enrolled gallery instead of enrolling --real's gallery/",
    )
    bench.add_argument(
        "--held-out",
        type=float,
        default=0.0,
        metavar="FRACTION",
        help="with --real: also leave this fraction of the names out of a gallery and check "
        "that those real cards come back unknown in hard scenes (e.g. 0.25)",
    )
    bench.add_argument(
        "--held-out-scenes", type=int, default=60, help="hard scenes for --held-out (60)"
    )
    bench.add_argument(
        "--lighting",
        action="store_true",
        help="the lighting suite: real photos and generated scenes under other light",
    )
    bench.add_argument(
        "--light-set",
        choices=("benchmark", "tuning", "all"),
        default="benchmark",
        help="with --lighting: the benchmark's conditions, the ones tuned on, or both",
    )
    bench.add_argument(
        "--lighting-scenes", type=int, default=30, help="generated scenes for --lighting (30)"
    )
    bench.add_argument(
        "--profile",
        action="store_true",
        help="CPU time per photo and per step of the pipeline (with --families: of their photos)",
    )
    bench.add_argument(
        "--profile-scenes", type=int, default=30, help="generated photos for --profile (30)"
    )
    bench.add_argument(
        "--quick",
        action="store_true",
        help="a few scenes of every table (CI); exit 1 when any card is named wrongly",
    )
    _vision_families(bench)
    bench.add_argument("--json", type=Path, metavar="OUT.json", help="also write figures as JSON")
    bench.set_defaults(func=bench_vision)


def _vision_families(bench: Any) -> None:
    """``bench vision``'s options for the families of hands as players lay them."""
    bench.add_argument(
        "--families",
        metavar="LIST",
        help="hands as players lay them, comma-separated families of generated photos: "
        "fan,cloth,strangers,clutter,motion,small (or 'all': these six), tape (a Mixtape "
        "laid by the rulebook), inverted (a fan with one card upside down, as the Remix "
        "rules turn a transformed card) and moving (one card of a hand smeared, still "
        "moving as the photo is taken); cards from --real's scans when given; exit 1 when "
        "any card is named wrongly",
    )
    bench.add_argument(
        "--family-photos", type=int, default=10, metavar="N", help="photos per family (10)"
    )
    bench.add_argument(
        "--turn",
        type=int,
        choices=(0, 90, 180, 270),
        default=0,
        metavar="DEGREES",
        help="with --families: every photo turned 90, 180 or 270 degrees clockwise, the hands "
        "seen from another side of the table (0)",
    )
    bench.add_argument(
        "--markdown",
        action="store_true",
        help="with --families: also print the families' table as Markdown, headed by the "
        "command (docs/recognition-figures.md is this output)",
    )


def _flows(benches: Any) -> None:
    bench = benches.add_parser(
        "flows",
        help="photo to score: presses to enrol all Remix cards, seconds from SHUTTER to score",
        description="Drive the enrolment and scoring screens in-process with generated photos "
        "and print the presses to enrol all 79 Remix cards, the median seconds from SHUTTER "
        "to the score on screen, and per flow (Remix hand, Mixtape tape) the median time of "
        "each step: capture, save, decode, find, name, score, and the total.",
    )
    bench.add_argument("--hands", type=int, default=15, help="Remix hands to time (15)")
    bench.add_argument("--seed", type=int, default=7, help="random seed (7)")
    bench.add_argument("--skip-enrol", action="store_true", help="only time shutter to score")
    bench.set_defaults(func=bench_flows)


def _print(report: Any) -> int:
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def bench_ui(args: argparse.Namespace) -> int:
    if args.starts < 1 or args.frames < 10:
        raise CliError("--starts must be at least 1 and --frames at least 10")
    if args.presses < 0 or not 0 <= args.fsync_ms <= 10_000:
        raise CliError("--presses must be 0 or more and --fsync-ms between 0 and 10000")
    if (args.fsync_ms or args.disk_dir is not None) and not args.presses:
        raise CliError("--fsync-ms and --disk-dir need --presses N (the commit storm)")
    # start-up time: the benches load the appliance (pygame) only when one is run
    from display.checks import CheckError
    from display.checks.bench_ui import measure_ui

    try:
        return _print(
            measure_ui(args.starts, args.frames, args.presses, args.fsync_ms, args.disk_dir)
        )
    except CheckError as error:
        raise CliError(str(error)) from None


def bench_timer(args: argparse.Namespace) -> int:
    """Sand timers on the real clock, through the real app loop (mock pins, dummy video)."""
    if not 0 < args.seconds <= 600 or args.runs < 1:
        raise CliError("--seconds must be between 0 and 600 and --runs at least 1")
    # start-up time: the benches load the appliance (pygame) only when one is run
    from display.checks import CheckError
    from display.checks.bench_timer import measure_time_up

    try:
        return _print(measure_time_up(args.seconds, args.runs))
    except CheckError as error:
        raise CliError(str(error)) from None


def bench_remix(args: argparse.Namespace) -> int:
    if args.hands < 1 or args.runs < 1:
        raise CliError("--hands and --runs must be at least 1")
    if args.verify < 0 or args.climb < 0:
        raise CliError("--verify and --climb must be 0 or more")
    from display.checks.bench_remix import measure_remix  # start-up time: the bench's helpers

    return _print(measure_remix(args.hands, args.runs, args.seed, args.verify, args.climb))


def bench_mixtape(args: argparse.Namespace) -> int:
    deck = load_deck_option(args.deck)
    if args.games < 1:
        raise CliError("--games must be at least 1")
    from display.checks.bench_mixtape import measure_mixtape  # start-up time: the bench's helpers

    return _print(measure_mixtape(deck, args.games))


def bench_vision(args: argparse.Namespace) -> int:
    from vision.bench import BenchError, Modes, run_benchmark  # start-up time: OpenCV
    from vision.bench.families import FAMILIES, KNOWN_FAMILIES

    families: tuple[str, ...] = ()
    if args.families is not None:
        asked = [f.strip() for f in args.families.split(",") if f.strip()]
        if asked == ["all"]:
            asked = list(FAMILIES)
        unknown = [f for f in asked if f not in KNOWN_FAMILIES]
        if unknown or not asked:
            raise CliError(
                f"--families: unknown family {', '.join(unknown) or '(none given)'}; "
                f"choose from {','.join(KNOWN_FAMILIES)}"
            )
        if args.family_photos < 1:
            raise CliError("--family-photos must be at least 1")
        families = tuple(asked)
    if args.markdown and not families:
        raise CliError("--markdown goes with --families (the table it prints)")
    if args.turn and not families:
        raise CliError("--turn goes with --families (the photos it turns)")
    modes = Modes(
        lighting=args.lighting,
        light_set=args.light_set,
        lighting_scenes=args.lighting_scenes,
        profile=args.profile,
        profile_scenes=args.profile_scenes,
        quick=args.quick,
        families=families,
        family_photos=args.family_photos,
        turn=args.turn,
        markdown=args.markdown,
    )
    try:
        return run_benchmark(
            real=args.real,
            scenes=args.scenes,
            cards_per_scene=args.cards,
            seed=args.seed,
            threads=args.threads,
            gallery_dir=args.gallery,
            json_out=args.json,
            held_out=args.held_out,
            held_out_scenes=args.held_out_scenes,
            modes=modes,
        )
    except BenchError as error:
        raise CliError(str(error)) from error


def bench_flows(args: argparse.Namespace) -> int:
    if args.hands < 1:
        raise CliError("--hands must be at least 1")
    from display.checks.bench_flows import measure_flows  # start-up time: the appliance, OpenCV

    return _print(measure_flows(args.hands, args.seed, args.skip_enrol))
