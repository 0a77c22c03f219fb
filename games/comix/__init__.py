"""Co-Mix rules: table set-up, titles, scripting and Slow tokens, the sand timer, storytelling,
the review ballot, consensus scoring, the final ranking and the round file. Pure Python; no I/O
beyond the packaged title list.

Typical use::

    setup = TableSetup.create(["Ann", "Ben", "Cat", "Dan"])
    game = Game.new(setup)                       # one method per table event
    game.to_json() / Game.from_json(data)        # the saved state (plain JSON)
    parse_round_file(text).score()               # a headless round (tablekeeper comix score)
    SandTimer(90).start(now)                     # the 90-second sand timer, clock given
"""

from games.comix.ballot import (
    RULES,
    SCORING_KINDS,
    TOKEN_SET,
    BallotError,
    Token,
    ballot_slots,
    tokens_per_story,
    validate_ballot,
)
from games.comix.game import Game, Phase, PhaseError, Round
from games.comix.round_file import RoundFile, RoundFileError, parse_round_file, result_json
from games.comix.scoring import MissingBallotError, RoundResult, Standing, rank, score_round
from games.comix.scripting import Scripting, ScriptingError
from games.comix.storytelling import Part, tellers, telling_order
from games.comix.table import SetupError, Story, TableSetup, default_stories, team_table
from games.comix.timer import SandTimer
from games.comix.titles import TitleError, draw_title, rulebook_titles, typed_title

__all__ = [
    "RULES",
    "SCORING_KINDS",
    "TOKEN_SET",
    "BallotError",
    "Game",
    "MissingBallotError",
    "Part",
    "Phase",
    "PhaseError",
    "Round",
    "RoundFile",
    "RoundFileError",
    "RoundResult",
    "SandTimer",
    "Scripting",
    "ScriptingError",
    "SetupError",
    "Standing",
    "Story",
    "TableSetup",
    "Token",
    "TitleError",
    "ballot_slots",
    "default_stories",
    "draw_title",
    "parse_round_file",
    "rank",
    "result_json",
    "rulebook_titles",
    "score_round",
    "team_table",
    "tellers",
    "telling_order",
    "tokens_per_story",
    "typed_title",
    "validate_ballot",
]
