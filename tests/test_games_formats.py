"""The formats games own (issue 12): saved states, the Co-Mix round file, the sand timer's saved
form, the Mixtape deck writer, the score text and the tie-break."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.comix import (
    Game,
    Phase,
    RoundFileError,
    SandTimer,
    SetupError,
    parse_round_file,
    result_json,
)
from games.mixtape import (
    MixtapeGame,
    SoloGame,
    SoloStep,
    Step,
    describe_score,
    dump_deck,
    load_example_deck,
    parse_deck,
    ranking_key,
    score_mixtape,
    winners,
)

OLD_STATES = json.loads(
    (Path(__file__).parent / "data" / "games_states_before_issue12.json").read_text()
)


def test_states_saved_before_the_reshape_load_and_save_back_unchanged() -> None:
    deck = load_example_deck()
    for kind in ("mixtape-solo", "mixtape-solo-at-table"):
        saved = OLD_STATES[kind]
        game = SoloGame.from_json(deck, saved)
        assert isinstance(game.phase, SoloStep)
        again = json.loads(json.dumps(game.to_json()))
        assert {k: again[k] for k in saved} == saved  # issue 13 added "hidden" and "taken"
        assert (again["hidden"], again["taken"]) == (False, [])
    multi = OLD_STATES["mixtape-multiplayer"]
    assert json.loads(json.dumps(MixtapeGame.from_json(deck, multi).to_json())) == multi
    comix = OLD_STATES["comix"]
    game = Game.from_json(comix)
    assert game.phase is Phase.SCRIPTING
    assert json.loads(json.dumps(game.to_json())) == comix


def test_phases_are_string_enums_whose_values_are_what_is_stored() -> None:
    assert [str(p) for p in Phase] == [
        "title", "scripting", "storytelling", "reviewing", "reveal", "over",
    ]  # fmt: skip
    assert [str(p) for p in Step] == ["split", "keep", "add", "over"]
    assert [str(p) for p in SoloStep] == [
        "draw", "you-choose", "turn-up", "otto-turn", "otto-extra", "you-place", "over",
    ]  # fmt: skip
    assert json.dumps({"phase": SoloStep.YOU_PLACE}) == '{"phase": "you-place"}'
    saved = {**OLD_STATES["mixtape-solo"], "phase": "dancing"}
    with pytest.raises(ValueError, match="unknown step"):
        SoloGame.from_json(load_example_deck(), saved)


def test_sand_timer_survives_a_save_and_a_new_clock() -> None:
    timer = SandTimer(90)
    timer.start(1000.0)
    saved = json.loads(json.dumps(timer.to_json(1030.0)))
    assert saved == {
        "duration": 90, "running": True, "remaining": 60.0, "finished": False, "paused": False,
    }  # fmt: skip
    again = SandTimer.from_json(saved, 5.0)  # the app clock restarted at an unrelated value
    assert again.running and again.remaining(15.0) == pytest.approx(50.0)
    timer.time_up()
    done = SandTimer.from_json(timer.to_json(2000.0), 0.0)
    assert done.finished and not done.running and done.remaining(1.0) == 0.0


ROUND = {
    "players": ["Ann", "Ben", "Cat", "Dan"],
    "ballots": {
        "Ann": {"Ann": ["neutral"], "Ben": ["original"], "Cat": ["exciting"], "Dan": ["neutral"]},
        "Ben": {"Ann": ["original"], "Ben": ["neutral"], "Cat": ["exciting"], "Dan": ["composed"]},
        "Cat": {"Ann": ["original"], "Ben": ["neutral"], "Cat": ["neutral"], "Dan": ["composed"]},
        "Dan": {"Ann": ["neutral"], "Ben": ["original"], "Cat": ["exciting"], "Dan": ["neutral"]},
    },
}


def test_round_file_parses_and_scores_to_the_contract_shape() -> None:
    round_file = parse_round_file(json.dumps(ROUND))
    assert round_file.setup.story_names == ["Ann", "Ben", "Cat", "Dan"]
    out = result_json(round_file.score())
    assert list(out) == ["points", "kept", "received", "keepers", "story_points"]
    # Original: Ann 2, Ben 2 (tied, both keep); Exciting: Cat 3; Composed: Dan 2.
    assert out["kept"]["Cat"]["exciting"] == 3 and out["keepers"]["original"] == ["Ann", "Ben"]
    # Cat: own story 3; her Original on Ann (kept, tied) and Composed on Dan (kept): 2 each.
    assert out["points"]["Cat"] == 3 + 2 + 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON (line 1: Expecting property name enclosed in double quotes)"),
        ("[1]", "expected a JSON object with players and ballots"),
        ('{"players": "Ann"}', "'players' must be a list of player names"),
        ('{"players": ["A", "B", "C"], "stories": [1]}', "'stories' must map each story"),
        ('{"players": ["A", "B", "C"]}', "'ballots' must map each player to their ballot"),
        ("[" * 100_000, "brackets nested too deeply"),
    ],
)
def test_round_file_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(RoundFileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_round_file(text)


def test_round_file_with_too_few_players_breaks_a_table_rule() -> None:
    with pytest.raises(SetupError) as error:
        parse_round_file('{"players": ["Ann"], "ballots": {}}')
    assert error.value.rule


def test_dump_deck_writes_a_deck_file_that_reads_back_as_the_same_deck() -> None:
    deck = load_example_deck()
    cards: dict[str, Any] = {card.id: card.to_json() for card in deck.cards}
    text = dump_deck(cards, deck.squares, deck.start, deck.name, comment="A copy.\nTwo lines.")
    assert text.startswith("# A copy.\n# Two lines.\nname = ")
    again = parse_deck(text)
    assert again.name == deck.name and again.squares == deck.squares
    assert sorted(again.cards, key=lambda c: c.id) == sorted(deck.cards, key=lambda c: c.id)


def test_dump_deck_matches_the_enrolment_file_byte_for_byte() -> None:
    """The text display/screens/enrol.py wrote before the writer moved into games."""
    cards = {"EX02": {"genre": "punk", "side": "B", "balance": 2, "top": ["left"],
                      "bottom": ["center", "right"], "players": 2}}  # fmt: skip
    text = dump_deck(cards, [0, 5, 10, 5, 0], 2, "Enrolled deck", comment="Written by us.")
    assert text == (
        "# Written by us.\n"
        'name = "Enrolled deck"\n\n[equalizer]\nsquares = [0, 5, 10, 5, 0]\nstart = 2\n\n'
        '[[cards]]\nid = "EX02"\ngenre = "punk"\nside = "B"\nbalance = 2\ntop = ["left"]\n'
        'bottom = ["center", "right"]\nplayers = 2\n'
    )


def test_one_tie_break_ranks_scores_and_their_json_alike() -> None:
    deck = load_example_deck()
    first = score_mixtape(deck, ["EX01"], [])
    assert ranking_key(first) == ranking_key(first.to_json()) == (first.total, first.balance_points)
    assert winners({"a": first, "b": first}) == ["a", "b"]


def test_the_score_text_lists_balance_flow_columns_genres_and_total() -> None:
    deck = load_example_deck()
    text = describe_score(deck, score_mixtape(deck, ["EX01"], []), "You")
    lines = text.splitlines()
    assert lines[0] == f"You (deck: {deck.name})"
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "Balance", "Flow", "Trk A", "Trk B", "Genres", "Total",
    ]  # fmt: skip
