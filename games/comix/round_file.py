"""The Co-Mix round file (what ``tablekeeper comix score FILE`` reads) and its result JSON.

A round file is one JSON object::

    {"players": ["Ann", "Ben", ...],
     "stories": {"S1": ["Ann", "Ben"], "S2": ["Cat"], ...},      # optional
     "ballots": {"Ann": {"S1": ["neutral"], "S2": ["original"], ...}, ...}}

Without ``stories`` each player is a story named after them. The result JSON is
``{"points": {player: n}, "kept": {story: {kind: n}}}`` plus ``received``, ``keepers`` and
``story_points``. Both shapes are a contract: names and shapes stay, fields may be added.

Reading the file is the caller's job (this package does no I/O); the text is parsed here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from games.comix.scoring import RoundResult, score_round
from games.comix.table import Story, TableSetup


class RoundFileError(ValueError):
    """The text is not a round file; the message says what is wrong (the caller adds where)."""


@dataclass(frozen=True)
class RoundFile:
    """A parsed round file: the checked table set-up and the ballots as written (unchecked)."""

    setup: TableSetup
    ballots: dict[str, Any]

    def score(self) -> RoundResult:
        """Score the round; raises BallotError / MissingBallotError naming the rule and player."""
        return score_round(self.setup, self.ballots)


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when a key repeats: the JSON reader would keep the last copy,
    so a second ballot for one player would silently replace the first."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKeyError(key)
        result[key] = value
    return result


def parse_round_file(text: str) -> RoundFile:
    """Parse a round file's text. Raises RoundFileError for a malformed file and SetupError
    (with its ``rule``) for players and stories the table rules refuse."""
    try:
        data = json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as error:
        raise RoundFileError(f"not valid JSON (line {error.lineno}: {error.msg})") from error
    except RecursionError:
        raise RoundFileError("not a round file (brackets nested too deeply)") from None
    except _DuplicateKeyError as error:
        raise RoundFileError(
            f"the key {error.key!r} appears twice in one object (which one is meant?)"
        ) from None
    except ValueError:  # Python's guard against huge integers (sys.get_int_max_str_digits)
        raise RoundFileError("a number is far too long (thousands of digits)") from None
    if not isinstance(data, dict):
        raise RoundFileError("expected a JSON object with players and ballots")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RoundFileError("'players' must be a list of player names")
    stories_data = data.get("stories")
    if stories_data is not None:
        if not isinstance(stories_data, dict) or not all(
            isinstance(m, list) and all(isinstance(n, str) for n in m)
            for m in stories_data.values()
        ):
            raise RoundFileError("'stories' must map each story to a list of player names")
        stories = [Story(name, tuple(members)) for name, members in stories_data.items()]
    else:
        stories = [Story(player, (player,)) for player in players]
    setup = TableSetup.create(players, stories)
    ballots = data.get("ballots")
    if not isinstance(ballots, dict):
        raise RoundFileError("'ballots' must map each player to their ballot")
    return RoundFile(setup, ballots)


def result_json(result: RoundResult) -> dict[str, Any]:
    """The result JSON of ``tablekeeper comix score --json`` (the contract's field order)."""
    return {
        "points": result.points,
        "kept": result.kept,
        "received": result.received,
        "keepers": result.keepers,
        "story_points": result.story_points,
    }
