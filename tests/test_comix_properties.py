"""Property-based tests (hypothesis) for Co-Mix consensus scoring, ranking and game state.

Tables of 3 to 10 players with random seating into the rulebook's teams, random *valid* ballots
(drawn from each player's own five tokens, at least one Neutral, one token per story or two on
others' stories with three players).
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.comix import (
    SCORING_KINDS,
    BallotError,
    Game,
    Story,
    TableSetup,
    Token,
    ballot_slots,
    rank,
    score_round,
    team_table,
    validate_ballot,
)
from games.comix.scoring import winners

FIVE_TOKENS = [Token.ORIGINAL, Token.EXCITING, Token.COMPOSED, Token.NEUTRAL, Token.NEUTRAL]
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]


@st.composite
def tables(draw: st.DrawFn) -> TableSetup:
    count = draw(st.integers(3, 10))
    players = NAMES[:count]
    shuffled = draw(st.permutations(players))
    teams, solos = team_table(count)
    stories = [Story(f"S{i + 1}", (shuffled[2 * i], shuffled[2 * i + 1])) for i in range(teams)] + [
        Story(f"S{teams + i + 1}", (shuffled[2 * teams + i],)) for i in range(solos)
    ]
    return TableSetup.create(players, stories)


@st.composite
def ballot_for(draw: st.DrawFn, setup: TableSetup, player: str) -> dict[str, list[str]]:
    slots = ballot_slots(setup, player)
    tokens = list(draw(st.permutations(FIVE_TOKENS)))[: len(slots)]
    if Token.NEUTRAL not in tokens:
        tokens[-1] = Token.NEUTRAL
    ballot: dict[str, list[str]] = {}
    for (story, _), token in zip(slots, tokens, strict=True):
        ballot.setdefault(story, []).append(str(token))
    return ballot


@st.composite
def rounds(draw: st.DrawFn) -> tuple[TableSetup, dict[str, dict[str, list[str]]]]:
    setup = draw(tables())
    return setup, {p: draw(ballot_for(setup, p)) for p in setup.players}


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_points_are_non_negative_and_add_up(case) -> None:
    setup, ballots = case
    result = score_round(setup, ballots)
    assert all(points >= 0 for points in result.points.values())

    # Points add up to: every creator of a story scores each token kept on it (so a team's story
    # counts twice), plus 2 for each kept token its reviewer placed on a story not their own.
    kept_on_others = 0
    for player, ballot in ballots.items():
        own = setup.story_of(player).name
        for story, tokens in ballot.items():
            for token in tokens:
                if story != own and token != "neutral" and result.kept[story][token] > 0:
                    kept_on_others += 1
    creators = sum(sum(result.kept[s.name].values()) * len(s.members) for s in setup.stories)
    assert sum(result.points.values()) == creators + 2 * kept_on_others
    if all(not story.is_team for story in setup.stories):
        kept = sum(sum(kinds.values()) for kinds in result.kept.values())
        assert sum(result.points.values()) == kept + 2 * kept_on_others


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_consensus_keeps_exactly_the_most_of_each_kind(case) -> None:
    setup, ballots = case
    result = score_round(setup, ballots)
    for kind in SCORING_KINDS:
        received = {s: result.received[s][kind] for s in setup.story_names}
        most = max(received.values())
        for story in setup.story_names:
            expected = most if most > 0 and received[story] == most else 0
            assert result.kept[story][kind] == expected
        assert bool(result.keepers[kind]) == (most > 0)
    # every player placed their tokens: counts per kind over the table add up
    totals = Counter()
    for story in setup.story_names:
        totals.update(result.received[story])
    placed = Counter(t for b in ballots.values() for ts in b.values() for t in ts)
    assert totals == placed


@settings(max_examples=100, deadline=None)
@given(rounds(), st.randoms())
def test_score_does_not_depend_on_the_order_ballots_arrive(case, rnd) -> None:
    setup, ballots = case
    items = list(ballots.items())
    rnd.shuffle(items)
    assert score_round(setup, dict(items)) == score_round(setup, ballots)


@settings(max_examples=150, deadline=None)
@given(rounds(), st.data())
def test_ranking_is_a_permutation_with_consistent_places(case, data) -> None:
    setup, ballots = case
    points = score_round(setup, ballots).points
    slow = {p: data.draw(st.integers(0, 3)) for p in setup.players}
    standings = rank(setup.players, points, slow)
    assert sorted(s.player for s in standings) == sorted(setup.players)
    assert standings[0].place == 1
    for before, after in zip(standings, standings[1:], strict=False):
        assert (before.points, -before.slow) >= (after.points, -after.slow)
        tied = (before.points, before.slow) == (after.points, after.slow)
        assert (after.place == before.place) == tied
    best = max(points.values())
    fewest = min(slow[p] for p in setup.players if points[p] == best)
    assert set(winners(standings)) == {
        p for p in setup.players if points[p] == best and slow[p] == fewest
    }


@settings(max_examples=150, deadline=None)
@given(rounds(), st.data())
def test_a_broken_ballot_is_refused_naming_the_player(case, data) -> None:
    setup, ballots = case
    player = data.draw(st.sampled_from(setup.players))
    ballot = {s: list(ts) for s, ts in ballots[player].items()}
    breakage = data.draw(st.sampled_from(["drop", "extra", "no-neutral", "unknown"]))
    story = data.draw(st.sampled_from(setup.story_names))
    if breakage == "drop":
        ballot[story].pop()
    elif breakage == "extra":
        ballot[story].append("neutral")
    elif breakage == "no-neutral":
        ballot = {s: ["original" for _ in ts] for s, ts in ballot.items()}
    else:
        ballot["Nobody's story"] = ["neutral"]
    try:
        validate_ballot(setup, player, ballot)
    except BallotError as error:
        assert error.player == player and player in str(error)
    else:  # pragma: no cover - a refused ballot is the only acceptable outcome
        raise AssertionError(f"ballot accepted after {breakage}: {ballot}")


@settings(max_examples=40, deadline=None)
@given(tables(), st.data())
def test_a_whole_game_survives_a_snapshot_after_every_event(setup, data) -> None:
    rounds_count = data.draw(st.integers(1, 3))
    setup = TableSetup.create(
        setup.players, setup.stories, rounds_count, data.draw(st.sampled_from([6, 9]))
    )
    game = Game.new(setup, seed=data.draw(st.integers(0, 1000)))

    def saved(game: Game) -> Game:
        restored = Game.from_json(json.loads(json.dumps(game.to_json())))
        assert restored.to_json() == game.to_json()
        return restored

    expected_totals = {p: 0 for p in setup.players}
    for _ in range(rounds_count):
        game.set_title(game.propose_title())
        order = data.draw(st.permutations(setup.story_names))
        finished = data.draw(st.integers(1, len(order)))
        for story in order[:finished]:
            game.declare_done(story)
            game = saved(game)
        if finished < len(order):
            game.time_up()
        game = saved(game)
        game.start_storytelling()
        told = []
        while game.current_story:
            told.append(game.current_story)
            game.next_storyteller()
            game = saved(game)
        assert told[0] == order[0] and sorted(told) == sorted(setup.story_names)
        for player in setup.players:
            game.submit_ballot(player, data.draw(ballot_for(setup, player)))
            game = saved(game)
        assert game.round.result is not None
        for player, points in game.round.result.points.items():
            expected_totals[player] += points
        slow = game.round_slow(game.round)
        if finished == len(order):
            assert sum(slow.values()) == len(setup.story(order[-1]).members)
        else:
            assert {p for p, n in slow.items() if n} == {
                m for s in order[finished:] for m in setup.story(s).members
            }
        game.next_round()
        game = saved(game)
    assert game.phase == "over"
    assert game.totals() == expected_totals
    titles = [r.title for r in game.rounds]
    assert len(set(titles)) == len(titles)
