"""Co-Mix rules: table set-up, titles, scripting and Slow tokens, storytelling, the review ballot,
consensus scoring and the final ranking. Pure Python; no I/O beyond the packaged title list."""

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
from games.comix.game import Game, PhaseError, Round
from games.comix.scoring import MissingBallotError, RoundResult, Standing, rank, score_round
from games.comix.scripting import Scripting, ScriptingError
from games.comix.storytelling import Part, tellers, telling_order
from games.comix.table import SetupError, Story, TableSetup, default_stories, team_table
from games.comix.titles import TitleError, draw_title, rulebook_titles, typed_title

__all__ = [
    "RULES",
    "SCORING_KINDS",
    "TOKEN_SET",
    "BallotError",
    "Game",
    "MissingBallotError",
    "Part",
    "PhaseError",
    "Round",
    "RoundResult",
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
    "rank",
    "rulebook_titles",
    "score_round",
    "team_table",
    "tellers",
    "telling_order",
    "tokens_per_story",
    "typed_title",
    "validate_ballot",
]
