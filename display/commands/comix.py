"""`tablekeeper comix ...` (headless Co-Mix scoring) and `tablekeeper bench timer`.

``tablekeeper comix score FILE [--json]`` scores one round from a JSON file; the file's schema
and the ``--json`` output are :mod:`games.comix.round_file`'s. A broken file or ballot exits 2
with the rule it breaks and the player.
"""

from __future__ import annotations

import argparse
import json
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
