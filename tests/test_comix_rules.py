"""Co-Mix rules: hand-worked rounds for 3, 4, 5, 7 and 10 players, plus set-up, titles,
scripting/Slow tokens, storytelling, ballot refusals and a whole game through the state machine.

Every example below was worked out by hand (the working is in the comments) before the engine
was run on it.
"""

from __future__ import annotations

import json

import pytest

from games.comix import (
    BallotError,
    Game,
    PhaseError,
    Scripting,
    SetupError,
    Story,
    TableSetup,
    default_stories,
    draw_title,
    rank,
    rulebook_titles,
    score_round,
    team_table,
    tellers,
    telling_order,
    validate_ballot,
)
from games.comix.game import OVER, REVEAL, REVIEWING, SCRIPTING, TITLE

O, E, C, N = "original", "exciting", "composed", "neutral"  # noqa: E741


def ballots_from_rows(stories: list[str], rows: dict[str, list[object]]) -> dict:
    """Rows of tokens in story order -> ``{player: {story: [tokens]}}``."""
    out = {}
    for player, row in rows.items():
        out[player] = {
            story: (list(cell) if isinstance(cell, tuple) else [cell])
            for story, cell in zip(stories, row, strict=True)
        }
    return out


# --- 3 players: two tokens on each other story ------------------------------------------------
# Ann: Ann[N]  Ben[O,E]  Cat[C,N]
# Ben: Ann[O,N] Ben[N]   Cat[E,C]
# Cat: Ann[E,C] Ben[O,N] Cat[N]
# received  Ann: O1 E1 C1 N2   Ben: O2 E1 N2   Cat: E1 C2 N2
# Original -> Ben keeps 2 (Ann's 1 discarded); Exciting 1/1/1 -> tie, all keep 1;
# Composed -> Cat keeps 2 (Ann's 1 discarded).   kept: Ann 1, Ben 3, Cat 3
# reviews: Ann O,E on Ben kept + C on Cat kept = 6; Ben E,C on Cat = 4; Cat E on Ann, O on Ben = 4
# points: Ann 1+6 = 7, Ben 3+4 = 7, Cat 3+4 = 7 (total 21 = 7 kept + 2 x 7 on others)
THREE = ["Ann", "Ben", "Cat"]
THREE_BALLOTS = ballots_from_rows(
    THREE,
    {"Ann": [N, (O, E), (C, N)], "Ben": [(O, N), N, (E, C)], "Cat": [(E, C), (O, N), N]},
)


def test_three_players_round() -> None:
    setup = TableSetup.create(THREE)
    result = score_round(setup, THREE_BALLOTS)
    assert result.kept == {
        "Ann": {O: 0, E: 1, C: 0},
        "Ben": {O: 2, E: 1, C: 0},
        "Cat": {O: 0, E: 1, C: 2},
    }
    assert result.keepers == {O: ["Ben"], E: ["Ann", "Ben", "Cat"], C: ["Cat"]}
    assert result.points == {"Ann": 7, "Ben": 7, "Cat": 7}
    assert result.reviewer_points == {"Ann": 6, "Ben": 4, "Cat": 4}


def test_three_player_tie_broken_by_slow_tokens_then_shared() -> None:
    points = {"Ann": 7, "Ben": 7, "Cat": 7}
    standings = rank(THREE, points, {"Ann": 1, "Ben": 0, "Cat": 0})
    assert [(s.place, s.player) for s in standings] == [(1, "Ben"), (1, "Cat"), (3, "Ann")]


def test_three_players_need_two_tokens_on_other_stories() -> None:
    setup = TableSetup.create(THREE)
    ballot = {"Ann": [N], "Ben": [O], "Cat": [E]}
    with pytest.raises(BallotError) as error:
        validate_ballot(setup, "Ann", ballot)
    assert error.value.rule == "two-per-story"
    assert "Ann" in str(error.value) and "two tokens on each of the other two" in str(error.value)


# --- 4 players ----------------------------------------------------------------------------------
# received  Ann: O2 E1 N1   Ben: O2 C1 N1   Cat: E2 N2   Dan: C2 N2
# Original tie Ann/Ben keep 2 each; Exciting Cat keeps 2; Composed Dan keeps 2.
# reviews: Ann 2+2, Ben 2+2+2, Cat 0+2+2, Dan 2+0 -> points 6, 8, 6, 4
FOUR = ["Ann", "Ben", "Cat", "Dan"]
FOUR_BALLOTS = ballots_from_rows(
    FOUR,
    {
        "Ann": [N, O, E, N],
        "Ben": [O, N, E, C],
        "Cat": [E, O, N, C],
        "Dan": [O, C, N, N],
    },
)


def test_four_players_round() -> None:
    result = score_round(TableSetup.create(FOUR), FOUR_BALLOTS)
    assert result.points == {"Ann": 6, "Ben": 8, "Cat": 6, "Dan": 4}
    assert result.kept["Ann"] == {O: 2, E: 0, C: 0}
    assert result.kept["Cat"] == {O: 0, E: 2, C: 0}
    assert result.kept["Dan"] == {O: 0, E: 0, C: 2}
    assert result.received["Ann"] == {O: 2, E: 1, C: 0, N: 1}


# --- 5 players ----------------------------------------------------------------------------------
# received  Ann: O2 E1 N2  Ben: O3 E1 N1  Cat: E2 C2 N1  Dan: C1 E1 N3  Eve: C2 N3
# Original Ben 3; Exciting Cat 2; Composed Cat and Eve tie at 2.  kept: 0, 3, 4, 0, 2
# reviews 4, 4, 4, 4, 2 -> points Ann 4, Ben 7, Cat 8, Dan 4, Eve 4
FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]
FIVE_BALLOTS = ballots_from_rows(
    FIVE,
    {
        "Ann": [N, O, E, C, N],
        "Ben": [O, N, E, N, C],
        "Cat": [N, O, N, E, C],
        "Dan": [E, O, C, N, N],
        "Eve": [O, E, C, N, N],
    },
)


def test_five_players_round() -> None:
    result = score_round(TableSetup.create(FIVE), FIVE_BALLOTS)
    assert result.story_points == {"Ann": 0, "Ben": 3, "Cat": 4, "Dan": 0, "Eve": 2}
    assert result.keepers == {O: ["Ben"], E: ["Cat"], C: ["Cat", "Eve"]}
    assert result.points == {"Ann": 4, "Ben": 7, "Cat": 8, "Dan": 4, "Eve": 4}


# --- 7 players: 3 teams and a solo player --------------------------------------------------------
# T1 Ann+Ben, T2 Cat+Dan, T3 Eve+Fay, G Gus (solo)
# received T1: O3 E1 C1 N2  T2: O3 E2 N2  T3: O1 E2 C2 N2  G: C3 E1 N3
# Original T1/T2 tie at 3; Exciting T2/T3 tie at 2; Composed G 3.  kept: T1 3, T2 5, T3 2, G 3
# reviews: Ann 6, Ben 2, Cat 0, Dan 6, Eve 2, Fay 6, Gus 4
# points: Ann 9, Ben 5, Cat 5, Dan 11, Eve 4, Fay 8, Gus 7 (49 = 3x2+5x2+2x2+3x1 + 2x13)
SEVEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
SEVEN_STORIES = [
    Story("T1", ("Ann", "Ben")),
    Story("T2", ("Cat", "Dan")),
    Story("T3", ("Eve", "Fay")),
    Story("G", ("Gus",)),
]
SEVEN_BALLOTS = ballots_from_rows(
    ["T1", "T2", "T3", "G"],
    {
        "Ann": [N, O, E, C],
        "Ben": [N, O, C, E],
        "Cat": [E, N, O, N],
        "Dan": [O, N, E, C],
        "Eve": [C, O, N, N],
        "Fay": [O, E, N, C],
        "Gus": [O, E, C, N],
    },
)


def test_seven_players_team_round() -> None:
    setup = TableSetup.create(SEVEN, SEVEN_STORIES)
    result = score_round(setup, SEVEN_BALLOTS)
    assert result.story_points == {"T1": 3, "T2": 5, "T3": 2, "G": 3}
    assert result.points == {
        "Ann": 9, "Ben": 5, "Cat": 5, "Dan": 11, "Eve": 4, "Fay": 8, "Gus": 7,
    }  # fmt: skip
    assert sum(result.points.values()) == 49


# --- 10 players: 5 teams ------------------------------------------------------------------------
# received T1: O4 E1 C1 N4  T2: O3 E3 C2 N2  T3: O2 E2 C2 N4  T4: O1 E3 C2 N4  T5: E1 C3 N6
# Original T1 4; Exciting T2/T4 tie at 3; Composed T5 3.  kept: 4, 3, 0, 3, 3
TEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
TEN_BALLOTS = ballots_from_rows(
    ["Ann & Ben", "Cat & Dan", "Eve & Fay", "Gus & Hal", "Ivy & Jon"],
    {
        "Ann": [N, O, E, C, N],
        "Ben": [N, E, O, N, C],
        "Cat": [O, N, C, E, N],
        "Dan": [E, N, N, O, C],
        "Eve": [O, C, N, N, E],
        "Fay": [C, O, N, E, N],
        "Gus": [N, O, E, N, C],
        "Hal": [O, E, C, N, N],
        "Ivy": [N, C, O, E, N],
        "Jon": [O, E, N, C, N],
    },
)
TEN_POINTS = {
    "Ann": 4, "Ben": 8, "Cat": 7, "Dan": 5, "Eve": 2,
    "Fay": 2, "Gus": 5, "Hal": 7, "Ivy": 5, "Jon": 7,
}  # fmt: skip


def test_ten_players_five_teams_round() -> None:
    setup = TableSetup.create(TEN)  # default teams: neighbours in seat order
    assert [s.members for s in setup.stories][0] == ("Ann", "Ben")
    result = score_round(setup, TEN_BALLOTS)
    assert result.story_points == {
        "Ann & Ben": 4, "Cat & Dan": 3, "Eve & Fay": 0, "Gus & Hal": 3, "Ivy & Jon": 3,
    }  # fmt: skip
    assert result.points == TEN_POINTS
    assert sum(result.points.values()) == 52  # 2 x 13 kept + 2 x 13 kept on others' stories


def test_ten_players_ranking_with_slow_tie_break_and_shared_places() -> None:
    slow = {p: 0 for p in TEN} | {"Cat": 1, "Dan": 1}  # the Cat & Dan team finished last
    standings = rank(TEN, TEN_POINTS, slow)
    assert [(s.place, s.player) for s in standings] == [
        (1, "Ben"), (2, "Hal"), (2, "Jon"), (4, "Cat"), (5, "Gus"), (5, "Ivy"), (7, "Dan"),
        (8, "Ann"), (9, "Eve"), (9, "Fay"),
    ]  # fmt: skip


# --- set-up ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "expected"),
    [(3, (0, 3)), (5, (0, 5)), (6, (3, 0)), (7, (3, 1)), (8, (4, 0)), (9, (4, 1)), (10, (5, 0))],
)
def test_team_table_matches_rulebook(players: int, expected: tuple[int, int]) -> None:
    assert team_table(players) == expected
    stories = default_stories([f"P{i}" for i in range(players)])
    assert len(stories) == expected[0] + expected[1]


@pytest.mark.parametrize("count", [2, 11])
def test_player_count_outside_three_to_ten_is_refused(count: int) -> None:
    with pytest.raises(SetupError, match="3 to 10 players"):
        TableSetup.create([f"P{i}" for i in range(count)])


def test_setup_refusals_name_the_rule() -> None:
    with pytest.raises(SetupError, match="Two players are called"):
        TableSetup.create(["Ann", "ann", "Ben"])
    with pytest.raises(SetupError, match="1 to 5 rounds") as error:
        TableSetup.create(FOUR, rounds=6)
    assert error.value.rule == "rounds"
    with pytest.raises(SetupError, match="6 or 9 panels"):
        TableSetup.create(FOUR, panels=8)
    with pytest.raises(SetupError, match="everybody plays alone"):
        TableSetup.create(
            FOUR, [Story("A", ("Ann", "Ben")), Story("C", ("Cat",)), Story("D", ("Dan",))]
        )
    with pytest.raises(SetupError, match="3 teams of two and 1 solo"):
        TableSetup.create(SEVEN, [Story(p, (p,)) for p in SEVEN])
    assert TableSetup.create(FOUR).rounds == 3 and TableSetup.create(FOUR).panels == 6


# --- titles ---------------------------------------------------------------------------------------
def test_rulebook_titles_are_packaged_and_draws_do_not_repeat() -> None:
    titles = rulebook_titles()
    assert len(titles) == 30 and "We Need a Hero" not in titles and "Two Destinies" in titles
    seen: list[str] = []
    for _ in range(len(titles)):
        seen.append(draw_title(7, seen))
    assert sorted(seen) == sorted(titles)
    assert draw_title(7, seen[:3]) == draw_title(7, seen[:3])  # same seed, same draw


# --- scripting and storytelling -------------------------------------------------------------------
def test_last_story_done_takes_slow_token_both_team_members() -> None:
    setup = TableSetup.create(SEVEN, SEVEN_STORIES)
    scripting = Scripting(setup.story_names)
    for story in ["G", "T1", "T3", "T2"]:
        scripting.declare_done(story)
    assert scripting.slow_stories() == ["T2"]
    assert scripting.slow_tokens(setup) == {p: int(p in ("Cat", "Dan")) for p in SEVEN}


def test_time_up_gives_slow_tokens_to_every_unfinished_story_only() -> None:
    setup = TableSetup.create(SEVEN, SEVEN_STORIES)
    scripting = Scripting(setup.story_names)
    scripting.declare_done("T2")
    scripting.declare_done("T1")
    scripting.undo_done("T1")  # pressed again within two seconds
    scripting.time_up()
    assert scripting.slow_stories() == ["T1", "T3", "G"]
    assert scripting.slow_tokens(setup) == {
        "Ann": 1, "Ben": 1, "Cat": 0, "Dan": 0, "Eve": 1, "Fay": 1, "Gus": 1,
    }  # fmt: skip


def test_storytelling_starts_with_first_done_then_clockwise() -> None:
    assert telling_order(["A", "B", "C", "D"], "C") == ["C", "D", "A", "B"]


def test_team_panel_split() -> None:
    team = Story("T", ("Ann", "Ben"))
    assert [(p.teller, p.first_panel, p.last_panel) for p in tellers(team, 6)] == [
        ("Ann", 1, 3), ("Ben", 4, 6),
    ]  # fmt: skip
    split = tellers(team, 9, "Ben", 5)
    assert [(p.teller, p.first_panel, p.last_panel) for p in split] == [
        ("Ben", 1, 5), ("Ann", 6, 9),
    ]  # fmt: skip
    with pytest.raises(ValueError, match="3 and 3"):
        tellers(team, 6, "Ann", 4)


# --- ballot refusals ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ballot", "rule"),
    [
        ({"Ann": [N], "Ben": [O], "Cat": [E]}, "every-story"),
        ({"Ann": [N], "Ben": [O], "Cat": [E], "Dan": [C], "Zed": [N]}, "known-story"),
        ({"Ann": [N], "Ben": [O], "Cat": ["gold"], "Dan": [C]}, "known-token"),
        ({"Ann": [N, O], "Ben": [E], "Cat": [C], "Dan": [N]}, "own-story"),
        ({"Ann": [N], "Ben": [O, E], "Cat": [C], "Dan": [N]}, "one-per-story"),
        ({"Ann": [N], "Ben": [O], "Cat": [O], "Dan": [C]}, "own-set"),
        ({"Ann": [N], "Ben": [N], "Cat": [N], "Dan": [C]}, "own-set"),
        ({"Ann": [O], "Ben": [E], "Cat": [C], "Dan": [E]}, "own-set"),
        ({"Ann": [O], "Ben": [E], "Cat": [C], "Dan": []}, "every-story"),
    ],
)
def test_wrong_ballots_are_refused_with_the_rule(ballot: dict, rule: str) -> None:
    with pytest.raises(BallotError) as error:
        validate_ballot(TableSetup.create(FOUR), "Ann", ballot)
    assert error.value.rule == rule
    assert str(error.value).startswith("Ann's ballot breaks the rule")


def test_ballot_without_neutral_is_refused() -> None:
    # Only with three stories can a ballot use no Neutral without reusing a token.
    setup = TableSetup.create(SEVEN[:6])  # 6 players: 3 team stories, 3 tokens each
    ballot = {"Ann & Ben": [O], "Cat & Dan": [E], "Eve & Fay": [C]}
    with pytest.raises(BallotError, match="at least one of your tokens must be Neutral"):
        validate_ballot(setup, "Ann", ballot)


# --- a whole game through the state machine, with snapshots ---------------------------------------
def test_three_round_game_with_snapshot_after_every_event() -> None:
    game = Game.new(TableSetup.create(FOUR), seed=3)
    assert game.phase == TITLE
    game.set_title("We Need a Hero")
    with pytest.raises(PhaseError):
        game.submit_ballot("Ann", FOUR_BALLOTS["Ann"])
    game.declare_done("Cat")
    game = Game.from_json(json.loads(json.dumps(game.to_json())))
    game.declare_done("Ann")
    game.time_up()  # Ben and Dan were still scripting
    assert game.phase == SCRIPTING
    game.start_storytelling()
    assert game.telling_order() == ["Cat", "Dan", "Ann", "Ben"]
    for _ in range(4):
        game.next_storyteller()
    assert game.phase == REVIEWING
    for player in FOUR:
        game.submit_ballot(player, FOUR_BALLOTS[player])
        game = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert game.phase == REVEAL
    assert game.totals() == {"Ann": 6, "Ben": 8, "Cat": 6, "Dan": 4}
    game.next_round()
    # rounds 2 and 3: the same reviews; Dan finishes last, then Ben finishes last
    for done in (["Ann", "Ben", "Cat", "Dan"], ["Dan", "Cat", "Ann", "Ben"]):
        game.set_title(game.propose_title())
        for story in done:
            game.declare_done(story)
        game.start_storytelling()
        for _ in range(4):
            game.next_storyteller()
        for player in FOUR:
            game.submit_ballot(player, FOUR_BALLOTS[player])
        game.next_round()
    assert game.phase == OVER
    assert game.totals() == {"Ann": 18, "Ben": 24, "Cat": 18, "Dan": 12}
    assert game.slow_totals() == {"Ann": 0, "Ben": 2, "Cat": 0, "Dan": 2}
    assert game.winners() == ["Ben"]
    titles = [r.title for r in game.rounds]
    assert titles[0] == "We Need a Hero" and len(set(titles)) == 3
    restored = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert restored.to_json() == game.to_json()


def test_corrupt_state_is_refused() -> None:
    with pytest.raises(ValueError, match="not a saved Co-Mix game"):
        Game.from_json({"game": "remix"})


def test_a_rematch_keeps_the_table_and_forgets_the_rounds() -> None:
    seven = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    stories = [Story("Ann & Cat", ("Ann", "Cat")), Story("Ben & Dan", ("Ben", "Dan")),
               Story("Eve & Fay", ("Eve", "Fay")), Story("Gus", ("Gus",))]  # fmt: skip
    game = Game.new(TableSetup.create(seven, stories, rounds=2, panels=9), seed=3)
    game.set_title("We Need a Hero")
    game.declare_done("Gus")
    again = game.rematch(seed=4)
    assert again.setup == game.setup  # players in their seats, chosen teams, rounds, board
    assert again.phase == TITLE and len(again.rounds) == 1 and again.round.title is None
    assert again.round.scripting.done_order == [] and again.seed == 4
    assert again.totals() == dict.fromkeys(seven, 0)
    assert game.round.scripting.done_order == ["Gus"]  # the finished game is untouched
