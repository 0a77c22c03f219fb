"""I Made You a Mixtape: deck files, end-game scoring, the round engine and Otto.

Pure rules (no I/O beyond reading a deck file). The pieces a caller needs:

    deck = load_deck("my-copy.toml")                   # or load_example_deck()
    dump_deck(cards, squares, start, name)             # a deck file's text (enrolment)
    score = score_mixtape(deck, ["EX01", "EX04"], ["EX02"])  # columns top to bottom
    score.to_json(); describe_score(deck, score)       # JSON, or the score in words
    ranking_key(score)                                 # total, then Balance (the tie-break)
    game = SoloGame.start(deck, seed=7)                # to_json() / SoloGame.from_json(deck, data)
    decision = otto_choose(deck, otto_tape, your_tape, ["EX05", "EX09", "EX11"], seed=3)
"""

from games.mixtape.deck import (
    FACE_DOWN,
    FLOW_POSITIONS,
    GENRE_NAMES,
    GENRES,
    WILD,
    Card,
    Deck,
    dump_deck,
    example_deck_path,
    load_deck,
    load_example_deck,
    parse_deck,
    parse_ids,
)
from games.mixtape.errors import (
    DeckError,
    IllegalMixtapeError,
    IllegalMoveError,
    MixtapeError,
    UnknownCardError,
)
from games.mixtape.game import MixtapeGame, Step, play_simple
from games.mixtape.otto import OttoDecision, otto_choose
from games.mixtape.scoring import (
    GENRE_SET_POINTS,
    MixtapeScore,
    aligns,
    column_flow,
    genre_set_points,
    ranking_key,
    score_mixtape,
    winners,
)
from games.mixtape.solo import SoloGame, SoloStep, next_step, play_solo, simple_choice
from games.mixtape.tape import Tape, best_order, place_best, points_gained
from games.mixtape.text import describe_score

__all__ = [
    "FACE_DOWN",
    "FLOW_POSITIONS",
    "GENRES",
    "GENRE_NAMES",
    "GENRE_SET_POINTS",
    "WILD",
    "Card",
    "Deck",
    "DeckError",
    "IllegalMixtapeError",
    "IllegalMoveError",
    "MixtapeError",
    "MixtapeGame",
    "MixtapeScore",
    "OttoDecision",
    "SoloGame",
    "SoloStep",
    "Step",
    "Tape",
    "UnknownCardError",
    "aligns",
    "best_order",
    "column_flow",
    "describe_score",
    "dump_deck",
    "example_deck_path",
    "genre_set_points",
    "load_deck",
    "load_example_deck",
    "next_step",
    "otto_choose",
    "parse_deck",
    "parse_ids",
    "place_best",
    "points_gained",
    "play_simple",
    "play_solo",
    "ranking_key",
    "score_mixtape",
    "simple_choice",
    "start_game",
    "winners",
]


def start_game(deck: Deck, players: int, seed: int | str = 0) -> MixtapeGame | SoloGame:
    """The round engine for 1–4 players: 1 is the solo game against Otto."""
    if players == 1:
        return SoloGame.start(deck, seed=seed)
    return MixtapeGame.start(deck, players, seed=seed)
