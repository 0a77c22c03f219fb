"""`tablekeeper comix ...` (headless Co-Mix scoring) and `tablekeeper bench timer`.

``tablekeeper comix score FILE [--json]`` scores one round from a JSON file::

    {"players": ["Ann", "Ben", ...],
     "stories": {"S1": ["Ann", "Ben"], "S2": ["Cat"], ...},      # optional
     "ballots": {"Ann": {"S1": ["neutral"], "S2": ["original"], ...}, ...}}

Without ``stories`` each player is a story named after them. Output with ``--json``:
``{"points": {player: n}, "kept": {story: {kind: n}}}`` (plus ``received``, ``keepers`` and
``story_points``). A broken file or ballot exits 2 with the rule it breaks and the player.
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
    RoundResult,
    SetupError,
    Story,
    TableSetup,
    score_round,
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


def load_round(path: Path) -> tuple[TableSetup, dict[str, Any]]:
    """Read a round file into a checked table set-up and the raw ballots."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise CliError(f"{path}: no such file") from error
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"{path}: cannot read it ({error})") from error
    except json.JSONDecodeError as error:
        raise CliError(f"{path}: not valid JSON (line {error.lineno}: {error.msg})") from error
    except RecursionError:
        raise CliError(f"{path}: not a round file (brackets nested too deeply)") from None
    if not isinstance(data, dict):
        raise CliError(f"{path}: expected a JSON object with players and ballots")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise CliError(f"{path}: 'players' must be a list of player names")
    stories_data = data.get("stories")
    stories: list[Story] | None = None
    if stories_data is not None:
        if not isinstance(stories_data, dict) or not all(
            isinstance(m, list) and all(isinstance(n, str) for n in m)
            for m in stories_data.values()
        ):
            raise CliError(f"{path}: 'stories' must map each story to a list of player names")
        stories = [Story(name, tuple(members)) for name, members in stories_data.items()]
    elif isinstance(players, list) and all(isinstance(p, str) for p in players):
        stories = [Story(player, (player,)) for player in players]
    try:
        setup = TableSetup.create(players, stories)
    except SetupError as error:
        raise CliError(f"{path}: {error} (rule: {error.rule})") from error
    ballots = data.get("ballots")
    if not isinstance(ballots, dict):
        raise CliError(f"{path}: 'ballots' must map each player to their ballot")
    return setup, ballots


def score_file(path: Path) -> tuple[TableSetup, RoundResult]:
    setup, ballots = load_round(path)
    try:
        return setup, score_round(setup, ballots)
    except BallotError as error:
        raise CliError(f"{path}: {error} [rule: {error.rule}, player: {error.player}]") from error
    except MissingBallotError as error:
        raise CliError(f"{path}: {error} [rule: {error.rule}, player: {error.player}]") from error


def result_json(result: RoundResult) -> dict[str, Any]:
    return {
        "points": result.points,
        "kept": result.kept,
        "received": result.received,
        "keepers": result.keepers,
        "story_points": result.story_points,
    }


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
