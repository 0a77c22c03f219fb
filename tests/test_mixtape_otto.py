"""Otto's preference, worked by hand: Balance → Genre → Flow, the tie rules, and the solo game.

Equalizer: the schema's 13 squares (start 6). Positions are squares from the start square.
Rulings (I Made You a Mixtape) quoted where they decide: "Otto's Genre and Flow steps count single
cards, as their clauses do ("if one card… if two cards… three cards, or none"): each drawn card is
judged on its own against Otto's mixtape as it stands."
"""

from __future__ import annotations

import json

import pytest
from test_mixtape_support import card, make_deck

from games.mixtape import SoloGame, Tape, best_order, otto_choose, place_best
from games.mixtape.errors import IllegalMoveError
from games.mixtape.solo import (
    OTTO,
    OTTO_EXTRA,
    OTTO_TURN,
    YOU,
    YOU_CHOOSE,
    YOU_PLACE,
    next_step,
)

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
    # rockA1+popA2 → 0 and rockA1+punkA2 → 0: same-size tie → Genre, which judges each card:
    # only rockA1 is in his largest set (Rock), so Otto takes just that card (even though it
    # leaves him 2 from perfect Balance).
    assert decision.otto_takes == ("rockA1",)
    assert decision.decided_by == "genre" and decision.extra_card
    assert decision.steps == (
        "The pairs rockA1+popA2 and rockA1+punkA2 tie closest to perfect Balance (0 away): "
        "on to Genre",
        "rockA1 is the only card in Otto's largest genre set (Rock: 1 card): Otto takes it and "
        "draws an extra card",
    )


def test_no_option_moves_closer_goes_to_genre() -> None:
    otto = Tape(a=["oPunkA"], b=["oPunkB"])  # on perfect Balance; punk 2 is his largest set
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["punkA2", "punkB2", "rockA1"])
    assert decision.steps[0].startswith("No option brings Otto closer to perfect Balance")
    # punkA2 and punkB2 are each in his largest set (Punk), rockA1 is not: the two cards
    assert decision.otto_takes == ("punkA2", "punkB2")
    assert decision.decided_by == "genre"
    assert decision.steps[1] == (
        "punkA2 and punkB2 are in Otto's largest genre set (Punk: 2 cards): Otto takes both"
    )


def test_genre_one_card_adds_to_the_largest_set() -> None:
    otto = Tape(a=["oPunkA"], b=["oPunkB"])
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["punkA2", "rockA1", "hipA2"])
    assert decision.otto_takes == ("punkA2",)
    assert decision.decided_by == "genre" and decision.extra_card


def test_genre_a_card_counts_only_in_one_of_his_largest_sets() -> None:
    """Rulings: "Genre: a card counts when its genre is one of Otto's largest sets"."""
    otto = Tape(a=["oPopA"], b=["oRockB"])  # pop 1, rock 1: two tied largest sets
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["punkA2", "punkB2", "wildA1"])
    # Two Punk cards would start a set of 2, but Punk is not one of his largest sets (and a Wild
    # never counts): none counts, on to Flow, where only the Wild meets the card above it.
    assert decision.decided_by == "flow"
    assert decision.otto_takes == ("wildA1",) and decision.extra_card
    tied = otto_choose(DECK, otto, YOU_EMPTY, ["rockA1", "popA2", "hipA2"])
    # Pop and Rock are both his largest sets (1 card each): rockA1 and popA2 count.
    assert tied.decided_by == "genre" and tied.otto_takes == ("rockA1", "popA2")


def test_genre_with_no_set_yet_any_non_wild_card_counts() -> None:
    """Rulings: "... (any non-Wild card when he has no set yet)"."""
    decision = otto_choose(DECK, Tape(), YOU_EMPTY, ["popA2", "wildA1", "rockA1"])
    # On the start square nothing brings him closer; popA2 and rockA1 count, the Wild does not.
    assert decision.decided_by == "genre" and decision.otto_takes == ("popA2", "rockA1")


def test_genre_tie_then_flow_one_card_in_flow() -> None:
    otto = Tape(a=["oPopA"], b=["oRockB"])  # A column ends bottom center; B ends bottom left
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["xA2", "zB1off", "yA2off"])
    # No balance gain (Otto is on the start square), no genre matches pop/rock, and three
    # different new genres (pairs make sets of 1): Flow. Only xA2 meets the card above it.
    assert decision.otto_takes == ("xA2",)
    assert decision.decided_by == "flow" and decision.extra_card
    assert decision.steps[-1] == (
        "xA2 is the only card in Flow: Otto takes it and draws an extra card"
    )


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


def test_flow_two_cards_each_in_flow_are_taken_even_if_they_do_not_flow_together() -> None:
    """Rulings: "Flow: a card counts when it would align with the card above it in its column.
    ... exactly two → those two". (The engine used to judge pairs and break the tie with the
    "worse for you" rule of thumb: xA2+yA2.)"""
    otto = Tape(a=["oPopA"], b=["oRockB"])
    you = Tape(b=["yR1", "yR2"])
    decision = otto_choose(DECK, otto, you, ["xA2", "yA2", "zB1"])
    # On the start square: no option brings him closer; Punk, Alternative and R&B are not his
    # sets (Pop, Rock). Flow, card by card: xA2 meets oPopA (center), zB1 meets oRockB (left),
    # yA2 (top right) meets nothing. Two cards: Otto takes xA2 and zB1.
    assert decision.decided_by == "flow"
    assert decision.otto_takes == ("xA2", "zB1") and decision.you_get == ("yA2",)
    assert decision.steps[-1] == "xA2 and zB1 are in Flow: Otto takes both"


def test_genre_three_way_tie_goes_to_flow_which_may_take_a_single_card() -> None:
    otto = Tape(a=["oPunkA"], b=["oPunkB"])  # punk 2 is his largest set
    decision = otto_choose(DECK, otto, YOU_EMPTY, ["punkA2", "punkB2", "punkB1c"])
    # All three cards are in his largest set (Punk): three count → Flow, which no longer cares
    # about genre. Only punkB1c meets the card above it (the other two have no top flow points).
    assert decision.steps[1] == (
        "All three cards are in Otto's largest genre set (Punk: 2 cards): on to Flow"
    )
    assert decision.otto_takes == ("punkB1c",)
    assert decision.decided_by == "flow" and decision.extra_card


def test_two_single_cards_in_flow_that_do_not_fit_together_are_both_taken() -> None:
    """The issue's case: "when two drawn cards each align under his mixtape but not with each
    other he takes one and an extra card instead of both"."""
    otto = Tape(a=["oPopA"], b=["oRockB"])
    decision = otto_choose(DECK, otto, Tape(), ["fA1", "fA3", "altBr"])
    # Balance: fA1+altBr lands him back on 0, where he already is: not closer. No Pop or Rock
    # card. fA1 and fA3 each meet oPopA (center); altBr meets nothing: two cards, both taken.
    assert decision.decided_by == "flow"
    assert decision.otto_takes == ("fA1", "fA3") and not decision.extra_card
    assert decision.you_get == ("altBr",)


def test_a_pair_with_a_dead_card_is_a_one_card_option() -> None:
    """Rulings: "A card that cannot be placed (it would push the cube off the Equalizer) goes
    back to the box and counts for nothing: Otto's Balance step compares options by the cards
    that actually land, so a pair with a dead card is a one-card option."
    """
    deck = make_deck(
        card("s", "rock", "B", 1),
        card("bigB", "punk", "B", 3),
        card("aL", "pop", "A", 1),
        card("r1", "rnb", "B", 1),
        squares=[0, 10, 30, 10, 0],
        start=2,
    )
    otto = Tape(b=["s"])  # +1, one square from the right edge
    decision = otto_choose(deck, otto, Tape(), ["bigB", "aL", "r1"])
    # bigB (+3) cannot land whatever the order. aL alone → 0; aL+bigB lands only aL → 0, the
    # same one-card option; aL+r1 → 1; r1 → 2. Closest: aL alone, so Otto keeps his extra card
    # (the engine used to take aL+bigB as "two cards beat one" and lose bigB to the box).
    assert decision.decided_by == "balance"
    assert decision.otto_takes == ("aL",) and decision.extra_card
    assert decision.you_get == ("bigB", "r1")
    assert decision.steps[0] == (
        "bigB cannot go into Otto's mixtape (it would push his cube off the Equalizer): it "
        "counts for nothing"
    )
    assert decision.steps[1] == (
        "aL alone brings Otto closest to perfect Balance (0 away): Otto takes it and draws an "
        "extra card"
    )


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
    # The options never name the face-down card: it is "?" until it goes into a mixtape.
    assert game.your_options() == [["m1"], ["m2"], ["?"], ["m1", "?"], ["m2", "?"]]
    # Taking two must include the face-down card; the refusal does not name it either.
    try:
        game.you_choose(["m1", "m2"])
        raise AssertionError("a pair without the face-down card was accepted")
    except ValueError as error:
        assert "face-down card ?" in str(error) and "m3" not in str(error)
    placed = game.you_choose(["?"])
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


def test_cards_go_in_the_order_that_keeps_every_card_that_can_be_kept() -> None:
    """Rulings: "Cards go into a mixtape in an order that keeps every card that can be kept;
    among those orders, the best flow." (The engine used to rank orders by flow, then total: here
    it dropped x for a better Balance square.)"""
    deck = make_deck(
        card("a2", "rock", "A", 2),
        card("x", "pop", "A", 1),
        card("z", "rnb", "B", 2),
        squares=[0, 10, 30, 10, 0],
        start=2,
    )
    tape = Tape(a=["a2"])  # 2 left: on the left edge
    # x first would push the cube off (-3) and go to the box; z first (back to 0) keeps both.
    assert best_order(deck, tape, ["x", "z"]) == ["z", "x"]
    order, discarded = place_best(deck, tape, ["x", "z"])
    assert discarded == [] and tape.a == ["a2", "x"] and tape.b == ["z"]


# ---- Otto always gets two cards (issue 38) ------------------------------------------------------
# The test deck on a standard Equalizer: 15 squares, the cube starting in the middle, so a
# mixtape side more than 7 balance points heavier pushes it off. (The printed points are invented:
# only the squares' count matters here.)
ALWAYS_TWO = make_deck(
    card("O1", "pop", "A", 1, top="l", bottom="c"),
    card("O3", "pop", "A", 2, top="c", bottom="r"),
    card("Q2", "alternative", "A", 2, top="l", bottom="l"),
    card("P3", "rock", "A", 3, top="l", bottom="l"),
    card("X1", "pop", "A", 2, top="l", bottom="l"),
    card("X2", "pop", "A", 2, top="r", bottom="r"),
    card("X3", "rnb", "A", 1, top="r", bottom="r"),
    card("Q5", "pop", "A", 4, top="r", bottom="r"),
    card("T1", "pop", "A", 2, top="l", bottom="l"),
    card("U3", "alternative", "A", 1, top="l", bottom="c"),
    card("R1", "rock", "B", 1, top="c", bottom="c"),
    card("R2", "punk", "B", 2, top="c", bottom="c"),
    card("E1", "punk", "A", 1, players=3),  # Otto's own deck
    card("E2", "rnb", "B", 1, players=3),
    card("E3", "hiphop", "B", 2, players=4),
    card("E4", "punk", "A", 1, top="c", bottom="c", players=4),
    squares=[0, 2, 4, 6, 9, 12, 20, 30, 20, 12, 9, 6, 4, 2, 0],
    start=7,
)


def test_a_pair_of_which_only_one_can_land_is_a_one_card_option_in_genre() -> None:
    """Rulebook, Otto's Preference 2: "If one card would create or add to their largest set, they
    will take that one card." Special Rule for Otto: "they will ALWAYS get two cards per round
    ... Any time when Otto would keep only one card from the drawn three due to following their
    preference, draw an additional card". Rulings: "a pair of which only one card can land is a
    one-card option (the step's one-card clause applies; ties between such cards go on to the
    next step)"."""
    otto = Tape(a=["O1", "O3", "Q2"])
    assert ALWAYS_TWO.position_of(otto.square(ALWAYS_TWO)) == -5
    decision = otto_choose(ALWAYS_TWO, otto, Tape(), ["X1", "X2", "X3"])
    # Every card moves him further from Balance: on to Genre. Pop (2 cards) is his largest set:
    # X1 and X2 each add to it, but together they would push his cube to -9, off the Equalizer.
    # The tie between the two one-card options goes to Flow: X1's top left meets Q2's bottom left.
    assert decision.decided_by == "flow"
    assert decision.otto_takes == ("X1",) and decision.you_get == ("X2", "X3")
    assert decision.extra_cards == 1
    assert decision.steps == (
        "No option brings Otto closer to perfect Balance (he is 5 away): on to Genre",
        "X1 and X2 are in Otto's largest genre set (Pop: 2 cards), but only one of them can go "
        "into his mixtape: the Flow picks X1; Otto takes it alone and draws an extra card",
    )


def test_dead_cards_are_never_his_options_at_random() -> None:
    """Rulebook, Special Rule for Otto: "When Otto is the Active player, they will ALWAYS get two
    cards per round to add to their Mixtape." Rulings: "In every step (Balance, Genre, Flow, at
    random) an option is judged by the cards that land: a card that cannot go into his mixtape
    is never one of his options"."""
    otto = Tape(a=["P3", "O3", "O1"])
    assert ALWAYS_TWO.position_of(otto.square(ALWAYS_TWO)) == -6
    decision = otto_choose(ALWAYS_TWO, otto, Tape(), ["Q5", "T1", "U3"], seed=1)
    # Q5 (-10) and T1 (-8) would push his cube off; U3 (-7) lands but is not closer, not Pop and
    # not in Flow under O1. At random he used to take Q5 and T1, both dead: nothing landed.
    assert decision.decided_by == "random"
    assert decision.otto_takes == ("U3",) and decision.you_get == ("Q5", "T1")
    assert decision.extra_cards == 1
    assert decision.steps == (
        "Q5 and T1 cannot go into Otto's mixtape (they would push his cube off the Equalizer): "
        "they count for nothing",
        "No option brings Otto closer to perfect Balance (he is 6 away): on to Genre",
        "None of the cards is in Otto's largest genre set (Pop: 2 cards): on to Flow",
        "None of the cards is in Flow: no two of them can both go into his mixtape",
        "Only U3 can go into Otto's mixtape: Otto takes it alone and draws an extra card",
    )


def test_when_no_card_can_land_otto_takes_none_and_draws_two_extra_cards() -> None:
    """Rulings: "When fewer than two of his cards land (one, or none), he draws his extra card
    for each card short"."""
    otto = Tape(a=["P3", "O3", "O1", "U3"])  # -7: on the left edge
    decision = otto_choose(ALWAYS_TWO, otto, Tape(), ["Q5", "T1", "X3"])
    assert decision.otto_takes == () and decision.you_get == ("Q5", "T1", "X3")
    assert decision.extra_cards == 2
    assert decision.steps[-1] == (
        "None of the cards can go into Otto's mixtape: Otto takes none and draws two extra cards"
    )


def _otto_turn(otto: Tape, drawn: list[str], otto_deck: list[str], physical: bool) -> SoloGame:
    """A solo game at Otto's turn with his mixtape and the three drawn cards given."""
    main = ["R1", "R2", "X1", "X2", "X3", "Q5", "T1", "U3", "O1", "O3", "Q2", "P3"]
    game = SoloGame.start(ALWAYS_TWO, seed=1, main_order=main, otto_order=["E1", "E2", "E3", "E4"])
    rest = [card for card in main if card not in drawn and card not in otto.card_ids()]
    game.you, game.otto, game.box, game.main = Tape(b=["R1"]), otto, [], rest
    game.active, game.phase, game.round, game.drawn = OTTO, OTTO_TURN, 2, drawn
    game.otto_deck, game.physical = otto_deck, physical
    return game


def test_a_tie_the_flow_cannot_break_is_a_seeded_random_card() -> None:
    """Rulings: "ties between such cards go on to the next step": X1 and T1 both add to his Pop
    set and both meet Q2's bottom left, but only one can land: Flow passes it on, at random."""
    otto = Tape(a=["O1", "O3", "Q2"])
    picks = set()
    for seed in range(12):
        decision = otto_choose(ALWAYS_TWO, otto, Tape(), ["X1", "T1", "X3"], seed=seed)
        assert decision.decided_by == "random" and decision.extra_cards == 1
        assert decision.random_among == (("X1",), ("T1",))
        picks.add(decision.otto_takes)
        assert decision.steps[-1] == (
            "X1 and T1 are in Otto's largest genre set (Pop: 2 cards), but only one of them can "
            f"go into his mixtape: the Flow does not tell them apart: at random (seed {seed}) "
            f"Otto takes {decision.otto_takes[0]} alone and draws an extra card"
        )
    assert picks == {("X1",), ("T1",)}


def test_solo_otto_short_of_a_card_draws_one_and_a_dead_extra_goes_to_the_box() -> None:
    """Rulings: "an extra card that cannot land goes to the box. The drawn cards he does not take
    are yours." """
    game = _otto_turn(Tape(a=["P3", "O3", "O1"]), ["Q5", "T1", "U3"], ["E1", "E2"], False)
    decision = game.otto_turn()
    assert decision.otto_takes == ("U3",)
    # U3 takes him to -7, the edge: E1 (A, 1) would push him off, so it goes to the box.
    assert game.otto.a == ["P3", "O3", "O1", "U3"] and game.box == ["E1"]
    assert game.otto_deck == ["E2"]
    assert game.log[-1]["extras"] == ["E1"] and game.log[-1]["discarded"] == ["E1"]
    assert game.phase == YOU_PLACE and game.pending == ["Q5", "T1"]


def test_solo_extra_card_never_pushes_out_the_card_he_chose() -> None:
    """At -6 only one of U3 and E4 fits, and E4 would flow better under O1; U3 is the card he
    chose, so it lands and E4 is the extra that cannot ("an extra card that cannot land goes to
    the box")."""
    game = _otto_turn(Tape(a=["P3", "O3", "O1"]), ["Q5", "T1", "U3"], ["E4"], False)
    game.otto_turn()
    assert game.otto.a == ["P3", "O3", "O1", "U3"] and game.box == ["E4"]


def test_solo_at_a_table_otto_with_no_card_landing_waits_for_two_extra_cards() -> None:
    """Rulings: "he draws his extra card for each card short"; the game is saved between them."""
    otto = Tape(a=["P3", "O3", "O1", "U3"])
    game = _otto_turn(otto, ["Q5", "T1", "X3"], ["E1", "E2", "E3"], physical=True)
    decision = game.otto_turn()
    assert decision.extra_cards == 2 and game.phase == OTTO_EXTRA
    assert next_step(game) == (
        "Otto keeps no card (extra card 1 of 2): draw his extra card from his own deck and give it"
    )
    assert game.otto_extra("E3") == []
    game = SoloGame.from_json(ALWAYS_TWO, json.loads(json.dumps(game.to_json())))
    assert game.phase == OTTO_EXTRA and game.otto_extras == ["E3"]
    assert next_step(game).startswith("Otto keeps no card (extra card 2 of 2)")
    with pytest.raises(IllegalMoveError, match="not in Otto's own deck"):
        game.otto_extra("E3")
    assert game.otto_extra("E2") == ["E3", "E2"]
    assert game.otto.b == ["E3", "E2"] and game.box == []
    assert game.log[-1]["extras"] == ["E3", "E2"]
    assert game.phase == YOU_PLACE and game.pending == ["Q5", "T1", "X3"]
