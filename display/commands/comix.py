"""`tablekeeper comix ...` (headless Co-Mix scoring) and `tablekeeper bench timer`.

``tablekeeper comix score FILE [--json]`` scores one round from a JSON file; the file's schema
and the ``--json`` output are :mod:`games.comix.round_file`'s. A broken file or ballot exits 2
with the rule it breaks and the player.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

from display.cli import CliError
from games.comix import (
    SCORING_KINDS,
    BallotError,
    MissingBallotError,
    RoundFile,
    RoundFileError,
    RoundResult,
    SetupError,
    TableSetup,
    parse_round_file,
    result_json,
)


def register(commands: Any, benches: Any) -> None:
    comix = commands.add_parser("comix", help="Co-Mix tools (headless scoring)")
    actions = comix.add_subparsers(dest="comix_command", metavar="ACTION")
    actions.required = True
    score = actions.add_parser(
        "score", help="score one round of Co-Mix from a JSON file of players and ballots"
    )
    score.add_argument("file", type=Path, metavar="FILE")
    score.add_argument("--json", action="store_true", help="print the result as JSON")
    score.set_defaults(func=run_score)

    timer = benches.add_parser(
        "timer",
        help="Co-Mix sand timer accuracy: configured duration vs the moment time up is declared",
    )
    timer.add_argument(
        "--seconds", type=float, default=2.0, help="configured sand timer duration (default 2)"
    )
    timer.add_argument("--runs", type=int, default=10, help="number of runs (10)")
    timer.set_defaults(func=run_timer_bench)


def load_round(path: Path) -> RoundFile:
    """Read a round file into a checked table set-up and the raw ballots."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise CliError(f"{path}: no such file") from error
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"{path}: cannot read it ({error})") from error
    try:
        return parse_round_file(text)
    except RoundFileError as error:
        raise CliError(f"{path}: {error}") from error
    except SetupError as error:
        raise CliError(f"{path}: {error} (rule: {error.rule})") from error


def score_file(path: Path) -> tuple[TableSetup, RoundResult]:
    round_file = load_round(path)
    try:
        return round_file.setup, round_file.score()
    except BallotError as error:
        raise CliError(f"{path}: {error} [rule: {error.rule}, player: {error.player}]") from error
    except MissingBallotError as error:
        raise CliError(f"{path}: {error} [rule: {error.rule}, player: {error.player}]") from error


def run_score(args: argparse.Namespace) -> int:
    setup, result = score_file(args.file)
    if args.json:
        print(json.dumps(result_json(result), indent=2))
        return 0
    kinds = [str(kind) for kind in SCORING_KINDS]
    width = max(len(name) for name in [*setup.story_names, *setup.players, "story"]) + 2
    print("Consensus (tokens kept per story):")
    print("  " + "story".ljust(width) + "".join(k.ljust(10) for k in kinds) + "points")
    for story in setup.story_names:
        row = "".join(str(result.kept[story][k]).ljust(10) for k in kinds)
        print("  " + story.ljust(width) + row + str(result.story_points[story]))
    print("Points:")
    for player in setup.players:
        print(
            "  " + player.ljust(width) + f"{result.points[player]:>3}"
            f"  (own story {result.creator_points[player]}, "
            f"reviews {result.reviewer_points[player]})"
        )
    return 0


def run_timer_bench(args: argparse.Namespace) -> int:
    """Ten sand timers on the real clock, through the real app loop (mock pins, dummy video)."""
    if not 0 < args.seconds <= 600 or args.runs < 1:
        raise CliError("--seconds must be between 0 and 600 and --runs at least 1")
    errors = measure_time_up(args.seconds, args.runs)
    for run, late in enumerate(errors, start=1):
        print(f"run {run:2d}: time up declared {late * 1000:+7.1f} ms after {args.seconds:g} s")
    print(
        f"sand timer {args.seconds:g} s, {len(errors)} runs (positive = late): "
        f"median {statistics.median(errors) * 1000:+.1f} ms, "
        f"min {min(errors) * 1000:+.1f} ms, max {max(errors) * 1000:+.1f} ms"
    )
    return 0


def measure_time_up(seconds: float, runs: int) -> list[float]:
    """For each run: press SEAT 1 on a mock pin (the first story done flips the timer), run the
    appliance loop as ``tablekeeper run`` does (poll, update, render, frame pacing at the
    configured fps) and note on the real monotonic clock when the scripting screen declares time
    up. Returns (declared - pressed - seconds) per run. The press lands at a random point of a
    frame, as a real one does, so the figure includes the wait for the next frame's poll."""
    import os
    import random
    import tempfile
    import time
    import warnings

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from device import simulated
    from display.launch import LaunchError, RunOptions, build_app
    from display.screens.comix_common import NAMESPACE, SETTINGS_KEY, save_game
    from display.screens.comix_play import ScriptingScreen
    from games.comix import Game

    errors: list[float] = []
    with tempfile.TemporaryDirectory(prefix="tablekeeper-bench-timer-") as state:
        try:
            app = build_app(RunOptions(simulated=True, state_dir=Path(state)))
        except LaunchError as error:
            raise CliError(str(error)) from None
        try:
            app.store.put(NAMESPACE, SETTINGS_KEY, {"timer_seconds": seconds})
            pygame.display.init()
            with warnings.catch_warnings():  # "no fast renderer" under the dummy video driver
                warnings.simplefilter("ignore")
                app.surface = pygame.display.set_mode(app.size, pygame.SCALED)
            ticker = pygame.time.Clock()
            spread = random.Random(1)
            fps = app.config.screen.fps
            for _ in range(runs):
                game = Game.new(TableSetup.create(["Ann", "Ben", "Cat", "Dan"]))
                game.set_title("Bench")
                save_game(app, game)
                app.go_home()
                screen = ScriptingScreen(app, game)
                app.push(screen)
                app.update()
                app.render()
                ticker.tick(fps)
                simulated.press(app.hardware, "seat_1")
                pressed = time.monotonic()
                # A real press lands anywhere in a frame: wait like the loop's frame pacing would
                time.sleep(spread.uniform(0.0, 1.0 / fps))
                declared = None
                while declared is None:
                    for event in pygame.event.get():
                        app.handle_pygame_event(event)
                    app.update()
                    if app.top is screen and screen.game.round.scripting.timed_out:
                        declared = time.monotonic()
                    app.render()
                    pygame.display.flip()
                    ticker.tick(fps)
                    if time.monotonic() - pressed > seconds + 30:
                        raise CliError("the sand timer never declared time up")
                simulated.release(app.hardware, "seat_1")
                app.update()
                errors.append(declared - pressed - seconds)
        finally:
            app.close()
            pygame.display.quit()
    return errors
