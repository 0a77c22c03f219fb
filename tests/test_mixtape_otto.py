"""Otto's preference, worked by hand: Balance → Genre → Flow, the tie rules, and the solo game.

Equalizer: the schema's 13 squares (start 6). Positions are squares from the start square.
"""

from __future__ import annotations

from test_mixtape_support import card, make_deck

from games.mixtape import SoloGame, Tape, otto_choose
from games.mixtape.solo import OTTO, OTTO_TURN, YOU, YOU_CHOOSE, YOU_PLACE

DECK = make_deck(
    # Otto's and your mixtape cards
    card("oB3", "rock", "B", 3, top="c", bottom="c"),
    card("oPopA", "pop", "A", 1, top="c", bottom="c"),
    card("oRockB", "rock", "B", 1, top="c", bottom="l"),
    card("oPunkA", "punk", "A", 1, top="c", bottom="c"),
    card("oPunkB", "punk", "B", 1, top="c", bottom="c"),
    card("yR1", "rnb", "B", 1, top="c", bottom="c"),
    card("yR2", "rnb", "B", 1, top="c", bottom="c"),
    # drawn cards
    card("popA3", "pop", "A", 3),
    card("popA2", "pop", "A", 2),
    card("punkA2", "punk", "A", 2),
    card("altA1", "alternative", "A", 1),
    card("rockA1", "rock", "A", 1),
    card("hipA2", "hiphop", "A", 2),
    card("rnbA3", "rnb", "A", 3),
    card("punkB2", "punk", "B", 2),
    card("rockB1", "rock", "B", 1),
    card("wildA1", "wild", "A", 1),
    card("xA2", "punk", "A", 2, top="c", bottom="r"),  # flows under oPopA
    card("yA2", "alternative", "A", 2, top="r", bottom="c"),  # flows only under xA2
    card("zB1", "rnb", "B", 1, top="l", bottom="l"),  # flows under oRockB
    card("zB1off", "rnb", "B", 1, top="r", bottom="l"),  # flows under nothing
    card("yA2off", "alternative", "A", 2, top="l", bottom="c"),  # flows under nothing
    card("hipB1", "hiphop", "B", 1, top="l", bottom="l"),  # flows under oRockB
    card("fA1", "punk", "A", 1, top="c", bottom="l"),  # flows under oPopA, not under fA3
    card("fA3", "hiphop", "A", 3, top="c", bottom="l"),  # flows under oPopA, not under fA1
    card("altBr", "alternative", "B", 1, top="r", bottom="r"),  # flows under nothing here
    card("punkB1c", "punk", "B", 1, top="c", bottom="c"),  # flows under oPunkB
)
YOU_EMPTY = Tape()


def test_balance_one_card_closest_takes_that_card_and_the_extra() -> None:
    otto = Tape(b=["oB3"])  # +3
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["popA3", "altA1", "rockB1"])
    # popA3 alone → 0; altA1 → 2; rockB1 → 4; popA3+altA1 → 1; popA3+rockB1 → 1; altA1+rockB1 → 3
    assert decision.otto_takes == ("popA3",)
    assert decision.you_get == ("altA1", "rockB1")
    assert decision.decided_by == "balance" and decision.extra_card


def test_balance_two_cards_closest_takes_both() -> None:
    otto = Tape(b=["oB3"])
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["popA2", "altA1", "punkB2"])
    # popA2 → 1; altA1 → 2; punkB2 → 5; popA2+altA1 → 0; popA2+punkB2 → 3; altA1+punkB2 → 4
    assert decision.otto_takes == ("popA2", "altA1")
    assert decision.decided_by == "balance" and not decision.extra_card


def test_balance_one_card_and_two_cards_tied_takes_the_two() -> None:
    otto = Tape(b=["oB3"])
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["popA2", "altA1", "popA3"])
    # popA3 → 0 and popA2+altA1 → 0 tie: "Otto will choose the two cards"
    assert decision.otto_takes == ("popA2", "altA1")
    assert decision.decided_by == "balance"


def test_balance_tie_between_two_pairs_moves_past_balance_for_good() -> None:
    otto = Tape(b=["oB3"])  # largest genre set: rock 1
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["rockA1", "popA2", "punkA2"])
    # rockA1+popA2 → 0 and rockA1+punkA2 → 0: same-size tie → Genre, which looks at all six
    # options again: rockA1 alone makes rock 2, the largest set, so Otto takes just that card
    # (even though it leaves him 2 from perfect Balance).
    assert decision.otto_takes == ("rockA1",)
    assert decision.decided_by == "genre" and decision.extra_card
    assert decision.steps[0].startswith("balance: tie at 0")


def test_no_option_moves_closer_goes_to_genre() -> None:
    otto = Tape(a=["oPunkA"], b=["oPunkB"])  # on perfect Balance; punk 2 is his largest set
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["punkA2", "punkB2", "rockA1"])
    assert decision.steps[0].startswith("balance: no option moves Otto closer")
    # punkA2 → punk 3, punkB2 → punk 3, both → punk 4 (largest): the two cards
    assert decision.otto_takes == ("punkA2", "punkB2")
    assert decision.decided_by == "genre"


def test_genre_one_card_adds_to_the_largest_set() -> None:
    otto = Tape(a=["oPunkA"], b=["oPunkB"])
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["punkA2", "rockA1", "hipA2"])
    assert decision.otto_takes == ("punkA2",)
    assert decision.decided_by == "genre" and decision.extra_card


def test_genre_two_cards_creating_a_new_largest_set() -> None:
    otto = Tape(a=["oPopA"], b=["oRockB"])  # pop 1, rock 1
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["punkA2", "punkB2", "wildA1"])
    # The two Punk cards create a set of 2, bigger than any he has; a Wild never counts.
    assert decision.otto_takes == ("punkA2", "punkB2")
    assert decision.decided_by == "genre"


def test_genre_tie_then_flow_one_card_in_flow() -> None:
    otto = Tape(a=["oPopA"], b=["oRockB"])  # A column ends bottom center; B ends bottom left
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["xA2", "zB1off", "yA2off"])
    # No balance gain (Otto is on the start square), no genre matches pop/rock, and three
    # different new genres (pairs make sets of 1): Flow. Only xA2 meets the card above it.
    assert decision.otto_takes == ("xA2",)
    assert decision.decided_by == "flow" and decision.extra_card


def test_flow_two_cards_in_flow_are_taken_together() -> None:
    otto = Tape(a=["oPopA"], b=["oRockB"])
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["xA2", "zB1", "yA2off"])
    assert decision.otto_takes == ("xA2", "zB1")
    assert decision.decided_by == "flow"


def test_flow_none_in_flow_is_a_seeded_random_pair_that_is_shown() -> None:
    otto = Tape(a=["oPopA"], b=["oRockB"])
    drawn = ["yA2off", "zB1off", "hipA2"]  # hipA2 has no top flow points
    picks = set()
    for seed in range(30):
        decision = otto_choose(DECK, otto, YOU_EMPTY, drawn, seed=seed)
        assert decision.decided_by == "random"
        assert len(decision.otto_takes) == 2
        assert decision.otto_takes in decision.random_among
        assert decision.to_json()["random"]["seed"] == str(seed)
        again = otto_choose(DECK, otto, YOU_EMPTY, drawn, seed=seed)
        assert again.otto_takes == decision.otto_takes
        picks.add(decision.otto_takes)
    assert len(picks) == 3  # every pair is possible


def test_flow_all_three_in_flow_is_random_too() -> None:
    otto = Tape(a=["oPopA"], b=["oRockB"])
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["xA2", "zB1", "hipB1"], seed=4)
    assert decision.decided_by == "random"
    assert set(decision.random_among) == {("xA2", "zB1"), ("xA2", "hipB1"), ("zB1", "hipB1")}


def test_remaining_tie_goes_to_the_option_worse_for_you() -> None:
    otto = Tape(a=["oPopA"], b=["oRockB"])
    you = Tape(b=["yR1", "yR2"])  # +2 → 20 points, flow 2, R&B 2 → 3: total 25
    decision = otto_choose(DECK, otto, you, ["xA2", "yA2", "zB1"])
    # Flow: xA2 and zB1 are each in Flow; pairs xA2+yA2 (yA2 under xA2) and xA2+zB1 are both
    # wholly in Flow: the rulebook stops there. Left yA2 you'd reach 0 → 30 + 2 + 3 = 35;
    # left zB1 you'd be at +3 → 15 + 2 + R&B 3 (6) = 23. Otto leaves you zB1.
    assert decision.decided_by == "worse-for-you"
    assert decision.otto_takes == ("xA2", "yA2")
    assert decision.you_get == ("zB1",)
    assert "Otto xA2+yA2 → you at best 23" in decision.steps[-1]
    assert "Otto xA2+zB1 → you at best 35" in decision.steps[-1]


def test_genre_three_way_tie_goes_to_flow_which_may_take_a_single_card() -> None:
    otto = Tape(a=["oPunkA"], b=["oPunkB"])  # punk 2 is his largest set
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["punkA2", "punkB2", "punkB1c"])
    # Every pair makes punk 4: a tie of three pairs → Flow, which no longer cares about genre.
    # Only punkB1c meets the card above it (the other two have no top flow points).
    assert decision.steps[1].startswith("genre: tie between")
    assert decision.otto_takes == ("punkB1c",)
    assert decision.decided_by == "flow" and decision.extra_card


def test_two_single_cards_in_flow_that_do_not_fit_together_go_worse_for_you() -> None:
    otto = Tape(a=["oPopA"], b=["oRockB"])
    decision = otto_choose(DECK, otto, Tape(), ["fA1", "fA3", "altBr"])
    # fA1 and fA3 each flow under oPopA but not under each other; altBr flows nowhere. No pair
    # is wholly in Flow, two single cards are. You (empty mixtape) would get the other two:
    # left fA3 + altBr you'd be 2 left → 20; left fA1 + altBr you'd stay on 30. Otto takes fA1.
    assert decision.decided_by == "worse-for-you"
    assert decision.otto_takes == ("fA1",) and decision.extra_card
    assert decision.you_get == ("fA3", "altBr")


def test_choices_that_would_push_otto_off_the_equalizer_count_for_nothing() -> None:
    deck = make_deck(
        card("s", "pop", "B", 1),
        card("bigA", "punk", "A", 3),
        card("r1", "rock", "B", 1),
        card("r2", "rock", "B", 1),
        squares=[0, 10, 30, 10, 0],
        start=2,
    )
    otto = Tape(b=["s"])  # +1: one square from the right edge
    decision = otto_choose(deck, otto, Tape(), ["bigA", "r1", "r2"])
    # bigA would go 3 left from +1 → off the board (discarded): it cannot bring him closer.
    # r1/r2 move him away. Genre: r1+r2 make rock 2 — but the second would push him off the
    # right edge and be discarded; rock 1 alone doesn't grow his largest set (pop 1). → Flow.
    assert decision.steps[0].startswith("balance: no option moves Otto closer")
    assert decision.decided_by not in ("balance", "genre")


# ---- the solo game -----------------------------------------------------------------------
SOLO = make_deck(
    card("s1", "pop", "A", 1, top="c", bottom="c"),
    card("s2", "rock", "B", 1, top="c", bottom="c"),
    card("rm1", "pop", "A", 1),
    card("rm2", "pop", "A", 1),
    card("rm3", "pop", "A", 1),
    card("rm4", "pop", "A", 1),
    card("m1", "punk", "B", 1, top="l", bottom="c"),
    card("m2", "punk", "B", 1, top="c", bottom="l"),
    card("m3", "hiphop", "A", 1, top="r", bottom="r"),
    card("m4", "rock", "A", 3),
    card("m5", "rnb", "B", 1),
    card("m6", "rnb", "B", 2),
    card("m7", "punk", "A", 1),
    card("x1", "alternative", "A", 1, players=3),
    card("x2", "alternative", "B", 1, players=4),
)
SETUP = ["s1", "s2", "rm1", "rm2", "rm3", "rm4"]


def test_solo_you_active_leave_otto_two_cards_in_best_flow() -> None:
    game = SoloGame.start(
        SOLO,
        seed=1,
        main_order=[*SETUP, "m1", "m2", "m3", "m4", "m5", "m6", "m7"],
        otto_order=["x1", "x2"],
    )
    assert game.you.card_ids() == ["s1"] and game.otto.card_ids() == ["s2"]
    assert sorted(game.box) == ["rm1", "rm2", "rm3", "rm4"]
    assert game.phase == YOU_CHOOSE and game.active == YOU
    assert game.drawn == ["m1", "m2", "m3"] and game.face_down == "m3"
    assert sorted(map(sorted, game.your_options())) == sorted(
        [["m1"], ["m2"], ["m3"], ["m1", "m3"], ["m2", "m3"]]
    )
    # Taking two must include the face-down card.
    try:
        game.you_choose(["m1", "m2"])
        raise AssertionError("a pair without the face-down card was accepted")
    except ValueError as error:
        assert "face-down card m3" in str(error)
    placed = game.you_choose(["m3"])
    # Otto gets m1 and m2 for his B column under s2 (bottom center): m2 (top center) first,
    # then m1 under it (m2 bottom left meets m1 top left) is the best flow.
    assert placed == ["m2", "m1"]
    assert game.otto.b == ["s2", "m2", "m1"]
    assert game.you.a == ["s1", "m3"]
    assert game.active == OTTO and game.phase == OTTO_TURN


def test_solo_otto_keeping_one_card_draws_the_extra_from_his_own_deck() -> None:
    game = SoloGame.start(
        SOLO,
        seed=1,
        main_order=[*SETUP, "m1", "m2", "m3", "m4", "m5", "m6", "m7"],
        otto_order=["x1", "x2"],
    )
    game.you_choose(["m3"])  # Otto now at +1 +1 +1 = +3 (s2, m2, m1)
    assert game.drawn == ["m4", "m5", "m6"]
    decision = game.otto_turn()
    # m4 (A3) alone brings him to 0: one card, so he draws x1 from his own deck as well.
    assert decision.otto_takes == ("m4",) and decision.extra_card
    assert "x1" in game.otto.card_ids() and "m4" in game.otto.card_ids()
    assert game.otto_deck == ["x2"]
    assert game.phase == YOU_PLACE and game.pending == ["m5", "m6"]
    game.you_place()
    assert {"m5", "m6"} <= set(game.you.card_ids())
    # One card (m7) is left: not enough for a round of three → to the box, game over.
    assert game.phase == "over" and "m7" in game.box
    assert game.winner() in ("you", "otto")


def test_solo_ties_go_to_otto() -> None:
    game = SoloGame.start(
        SOLO,
        seed=1,
        main_order=[*SETUP, "m1", "m2", "m3", "m4", "m5", "m6", "m7"],
        otto_order=["x1", "x2"],
    )
    game.you = Tape(a=["s1"])
    game.otto = Tape(a=["m7"])
    assert game.scores()["you"].total == game.scores()["otto"].total
    assert game.winner() == "otto"
