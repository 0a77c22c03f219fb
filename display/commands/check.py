"""``tablekeeper check ...``: the long robustness runs (power cuts, torn writes, bad input, the
soak). Each prints its figures and exits 1 if anything failed. Short versions of the same
harnesses run in the test suite (tests/test_powercut*.py, test_fuzz*.py, test_soak*.py...).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from display.cli import CliError

GAMES = ("comix", "remix", "mixtape")
FAULT_GROUPS = ("full", "lock", "second", "readonly", "symlinks", "images", "parsers")
FUZZ_FAMILIES = ("ballot-json", "deck-toml", "card-names", "config-toml", "gallery", "image")
# share of --cases per family (images are a fixed list of the cases plus mutants)
FUZZ_SHARES = {"ballot-json": 0.3, "deck-toml": 0.2, "card-names": 0.3, "config-toml": 0.08,
               "gallery": 0.1, "image": 0.02}  # fmt: skip


def register(commands: Any, benches: Any) -> None:
    check = commands.add_parser(
        "check",
        help="robustness runs: power cuts, torn writes, bad input, a night of play",
        description="Long robustness runs. Each prints its figures; exit 1 if anything failed.",
    )
    checks = check.add_subparsers(dest="check", metavar="CHECK")
    checks.required = True

    powercut = checks.add_parser(
        "powercut",
        help="SIGKILL scripted games at random moments and check the resumed state",
        description="Play scripted games in a child `tablekeeper run --sim --script` process, "
        "SIGKILL it at random moments, start it again on the same state directory and check "
        "that the state on disk is a committed one, that the resumed game equals the game "
        "before the cut and that it ends exactly as an uncut run.",
    )
    powercut.add_argument("--points", type=int, default=120, help="kill points (default 120)")
    powercut.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    powercut.add_argument(
        "--games",
        default=",".join(GAMES),
        help=f"comma-separated games among {', '.join(GAMES)} (default: all that exist)",
    )
    powercut.add_argument("--rounds", type=int, default=2, help="Co-Mix rounds (default 2)")
    powercut.add_argument("--keep", type=Path, metavar="DIR", help="keep the runs in DIR")
    powercut.add_argument("--verbose", action="store_true", help="one line per kill point")
    powercut.set_defaults(func=powercut_command)

    torn = checks.add_parser(
        "torn",
        help="tear the state database's WAL at random bytes and read it back",
        description="Write a game commit by commit, then open copies whose WAL was cut short, "
        "ended in garbage or in zeros at random offsets (a power cut mid-write): each must read "
        "back as exactly the last whole commit.",
    )
    torn.add_argument("--cases", type=int, default=1000, help="torn copies (default 1000)")
    torn.add_argument("--commits", type=int, default=40, help="commits written (default 40)")
    torn.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    torn.set_defaults(func=torn_command)

    fuzz = checks.add_parser(
        "fuzz",
        help="feed every kind of bad input to the commands and the appliance",
        description="Mutated ballot JSON, deck TOML, card names, config TOML, gallery files and "
        "images through the real command line: each must be accepted or refused with exit 2 and "
        "one clear line - never a traceback - and a saved game must survive it.",
    )
    fuzz.add_argument("--cases", type=int, default=2000, help="about this many (default 2000)")
    fuzz.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    fuzz.add_argument(
        "--only", help=f"comma-separated families (default all): {', '.join(FUZZ_FAMILIES)}"
    )
    fuzz.add_argument("--verbose", action="store_true", help="one line per case")
    fuzz.set_defaults(func=fuzz_command)

    secrecy = checks.add_parser(
        "secrecy",
        help="the Co-Mix ballot box shows nothing of a ballot to the table",
        description="Play a Co-Mix round twice with different ballots and compare, pixel for "
        "pixel, every screen the table can see before the reveal: each pass screen, each "
        "idle-blanked ballot and the screen after the last seal. Exit 1 on any difference.",
    )
    secrecy.add_argument("--keep", type=Path, metavar="DIR", help="keep the screenshots in DIR")
    secrecy.set_defaults(func=secrecy_command)

    _register_faults(checks)

    soak = checks.add_parser(
        "soak",
        help="hours of random legal presses and photos on the injected clock",
        description="A night of play on the simulated appliance: random presses of what each "
        "screen offers, names, photos from a pool of generated tables, pauses like a table's, "
        "frames drawn as the loop does. Fails on an exception, a stuck screen or memory growth "
        "of 10 MB or more after the first simulated hour.",
    )
    soak.add_argument("--hours", type=float, default=6.0, help="simulated hours (default 6)")
    soak.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    soak.set_defaults(func=soak_command)

    presses = checks.add_parser(
        "presses",
        help="how many presses correcting a Remix card takes",
        description="Drive the real Remix hand and pick screens by injected presses and count "
        "them: naming an unread card as each of the 79 cards (with the letter row and with the "
        "list alone), and naming the cards the recogniser misread in generated photos (the "
        "right name among the look-alikes, or not). Exit 1 if a card ends up misnamed.",
    )
    presses.set_defaults(func=presses_command)


def powercut_command(args: argparse.Namespace) -> int:
    # start-up time: the checks load the appliance (pygame, OpenCV) only when one is run
    from display.checks.powercut import HarnessError, KillResult, run_powercuts
    from display.checks.scenarios import available_scenarios

    if args.points < 1:
        raise CliError("--points must be at least 1")
    if args.rounds < 1 or args.rounds > 5:
        raise CliError("--rounds must be between 1 and 5")
    wanted = [name.strip() for name in args.games.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in GAMES]
    if unknown:
        raise CliError(f"unknown game {unknown[0]!r} (games: {', '.join(GAMES)})")
    scenarios, missing = available_scenarios(wanted, rounds=args.rounds)
    for name, why in missing.items():
        print(f"{name}: skipped - {why}")
    if not scenarios:
        raise CliError("none of the chosen games has a scripted flow on the appliance yet")

    def progress(result: KillResult) -> None:
        if args.verbose or result.problems:
            status = "ok" if not result.problems else "FAILED: " + "; ".join(result.problems)
            print(
                f"{result.scenario} cut after commit {result.acknowledged} "
                f"(state on disk = commit {result.found}, {result.phase}): {status}",
                flush=True,
            )

    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    try:
        report = run_powercuts(scenarios, args.points, args.seed, args.keep, progress)
    except HarnessError as error:
        raise CliError(str(error)) from None
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def torn_command(args: argparse.Namespace) -> int:
    from display.checks.torn import torn_write_cases  # start-up time: see powercut_command

    if args.cases < 1 or args.commits < 1:
        raise CliError("--cases and --commits must be at least 1")
    report = torn_write_cases(args.cases, args.commits, args.seed)
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def fuzz_command(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.checks.fuzz import Outcome, run_fuzz  # start-up time: see powercut_command

    if args.cases < 10:
        raise CliError("--cases must be at least 10")
    families = list(FUZZ_FAMILIES)
    if args.only:
        families = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = [name for name in families if name not in FUZZ_FAMILIES]
        if unknown:
            raise CliError(f"unknown family {unknown[0]!r} (families: {', '.join(FUZZ_FAMILIES)})")
    total_share = sum(FUZZ_SHARES[f] for f in families)
    counts = {f: max(1, round(args.cases * FUZZ_SHARES[f] / total_share)) for f in families}

    def progress(outcome: Outcome) -> None:
        if args.verbose or outcome.problem:
            status = outcome.problem or f"exit {outcome.code}"
            print(f"{outcome.case.family} [{outcome.case.label}]: {status}", flush=True)

    report = run_fuzz(counts, args.seed, progress=progress)
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def _register_faults(checks: Any) -> None:
    faults = checks.add_parser(
        "faults",
        help="a full, locked or read-only card, planted links, image and parser bombs",
        description="Replay the unlucky owner's and the attacker's cases through the real "
        "command line: the card full to the last byte (a tmpfs), the database locked, a second "
        "appliance, a read-only bind mount, planted links, three image bombs (peak memory "
        "measured) and parser bombs. One line per case: what happened, held or not. Mounting "
        "needs root; without it those cases are skipped.",
    )
    faults.add_argument(
        "--only", help="comma-separated groups (default all): " + ", ".join(FAULT_GROUPS)
    )
    faults.set_defaults(func=faults_command)


def faults_command(args: argparse.Namespace) -> int:
    from display.checks.faults import run_faults  # start-up time: see powercut_command

    only = None
    if args.only:
        only = {group.strip() for group in args.only.split(",") if group.strip()}
        unknown = sorted(only - set(FAULT_GROUPS))
        if unknown:
            raise CliError(
                f"unknown {'group' if len(unknown) == 1 else 'groups'} {', '.join(unknown)}; "
                f"known: {', '.join(FAULT_GROUPS)}"
            )
    report = run_faults(only)
    for line in report.lines():
        print(line, flush=True)
    return 0 if report.ok else 1


def secrecy_command(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.checks.secrecy import run_secrecy_check  # start-up time: see powercut_command

    report = run_secrecy_check(args.keep)
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def soak_command(args: argparse.Namespace) -> int:
    from display.checks.soak import run_soak  # start-up time: see powercut_command

    if not 0 < args.hours <= 48:
        raise CliError("--hours must be more than 0 and at most 48")
    report = run_soak(args.hours, args.seed)
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def presses_command(args: argparse.Namespace) -> int:
    from display.checks.presses import count_presses  # start-up time: see powercut_command

    report = count_presses()
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1
