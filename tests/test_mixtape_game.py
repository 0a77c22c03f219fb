"""The round engine (2–4 players), the rulebook's worked example, and the solo game as a whole."""

from __future__ import annotations

import json

import pytest
from test_mixtape_support import card, make_deck

from games.mixtape import (
    IllegalMoveError,
    MixtapeError,
    MixtapeGame,
    SoloGame,
    load_example_deck,
    play_simple,
    play_solo,
    simple_choice,
    start_game,
)
from games.mixtape.game import ADD, KEEP, OVER, SPLIT

# Mike (seat 0) and Cora (seat 1): with two players, left and right are the same neighbour.
MIKE_DECK = make_deck(
    card("mikeSetup", "rock", "B", 1, top="c", bottom="r"),
    card("coraSetup", "pop", "A", 2, top="c", bottom="c"),
    *(card(f"gone{n}", "pop", "A", 1) for n in range(4)),
    # Mike's three cards: two A cards in one pile, the B card in the other.
    card("mikeA1", "alternative", "A", 2, top="l", bottom="l"),
    card("mikeA2", "rnb", "A", 1, top="l", bottom="l"),
    card("punkB", "punk", "B", 2, top="r", bottom="c"),
    # Cora's three cards: the Punk A (3) and HipHop/Rap A (1) pile goes to Mike.
    card("hiphopA", "hiphop", "A", 1, top="r", bottom="c"),
    card("punkA", "punk", "A", 3, top="l", bottom="r"),
    card("coraB", "rock", "B", 3, top="c", bottom="c"),
    card("threeLines", "pop", "B", 1, players=3),
)
MIKE_ORDER = [
    "mikeSetup",
    "coraSetup",
    "gone0",
    "gone1",
    "gone2",
    "gone3",
    "mikeA1",
    "mikeA2",
    "punkB",
    "hiphopA",
    "punkA",
    "coraB",
]


def test_the_rulebook_worked_example_mikes_split_keep_and_balance() -> None:
    game = MixtapeGame.start(MIKE_DECK, ["Mike", "Cora"], order=MIKE_ORDER)
    assert game.tapes[0].b == ["mikeSetup"] and game.tapes[1].a == ["coraSetup"]
    assert game.box == ["gone0", "gone1", "gone2", "gone3"]  # 2 players: 4 cards to the box
    assert game.phase == SPLIT and game.hands[0] == ["mikeA1", "mikeA2", "punkB"]
    # 1. Split: Mike puts the two A cards in one pile and the B card in the other.
    game.split("Mike", ["mikeA1", "mikeA2"])
    game.split("Cora", ["hiphopA", "punkA"])
    assert game.phase == KEEP
    # 2. Pass: Mike has been passed Cora's two piles.
    assert game.received("Mike") == [["hiphopA", "punkA"], ["coraB"]]
    # 3. Keep: he keeps the pile of two; Cora keeps Mike's two A cards.
    game.keep("Mike", ["punkA", "hiphopA"])
    game.keep("Cora", 0)
    # 4. Return: Mike gives back coraB; Cora returns Mike's one card (the Punk B).
    assert game.phase == ADD
    assert sorted(game.to_add[0]) == ["hiphopA", "punkA", "punkB"]
    assert sorted(game.to_add[1]) == ["coraB", "mikeA1", "mikeA2"]
    # 5. Add: for the best Flow, the Punk A card then the HipHop/Rap A card.
    game.add("Mike")
    assert game.tapes[0].a == ["punkA", "hiphopA"]
    assert game.tapes[0].b == ["mikeSetup", "punkB"]
    # Balance: A cards 3 and 1 move the cube 4 left, the B card 2 right (after set-up's +1).
    assert game.tapes[0].square(MIKE_DECK) == MIKE_DECK.start + 1 - 4 + 2
    game.add("Cora", ["mikeA2", "coraB", "mikeA1"])
    assert game.tapes[1].a == ["coraSetup", "mikeA2", "mikeA1"]
    # 6. Repeat: the deck is empty, so the game is over.
    assert game.phase == OVER
    assert set(game.scores()) == {"Mike", "Cora"}
    assert "threeLines" not in json.dumps(game.to_json())  # a 3-line card stays in the box


def test_the_engine_refuses_moves_out_of_turn_and_impossible_piles() -> None:
    game = MixtapeGame.start(MIKE_DECK, ["Mike", "Cora"], order=MIKE_ORDER)
    with pytest.raises(IllegalMoveError, match="split step, not keep"):
        game.keep("Mike", 0)
    with pytest.raises(IllegalMoveError, match="two of their cards"):
        game.split("Mike", ["mikeA1", "punkA"])
    game.split("Mike", ["mikeA1", "mikeA2"])
    with pytest.raises(IllegalMoveError, match="already split"):
        game.split("Mike", ["mikeA1", "punkB"])
    game.split("Cora", ["hiphopA", "punkA"])
    with pytest.raises(IllegalMoveError, match="can keep"):
        game.keep("Mike", ["mikeA1", "mikeA2"])
    with pytest.raises(IllegalMoveError, match="no player called"):
        game.keep("Bob", 0)
    game.keep("Mike", 1)
    game.keep("Cora", 1)
    with pytest.raises(IllegalMoveError, match="must place exactly"):
        game.add("Mike", ["coraB"])


def test_a_card_that_would_push_the_cube_off_is_discarded_to_the_box() -> None:
    deck = make_deck(
        card("s0", "pop", "A", 1),
        card("s1", "pop", "B", 1),
        *(card(f"g{n}", "pop", "A", 1) for n in range(4)),
        card("big1", "rock", "A", 2),
        card("big2", "rock", "A", 2),
        card("c", "rock", "B", 1),
        card("d", "punk", "A", 1),
        card("e", "punk", "A", 1),
        card("f", "punk", "B", 1),
        squares=[0, 10, 20, 30, 20, 10, 0],
        start=3,
    )
    order = ["s0", "s1", "g0", "g1", "g2", "g3", "big1", "big2", "c", "d", "e", "f"]
    game = MixtapeGame.start(deck, 2, order=order)
    game.split(0, ["big1", "big2"])
    game.split(1, ["d", "e"])
    game.keep(0, 1)  # seat 0 keeps f and gets big1+big2 back
    game.keep(1, 1)  # seat 1 keeps c and gets d+e back
    # Seat 0 is at −1 (s0): big1 → −3 (the left edge), big2 would go to −5: discarded.
    discarded = game.add(0, ["big1", "big2", "f"])
    assert discarded == ["big2"] and "big2" in game.box
    assert game.tapes[0].a == ["s0", "big1"] and game.tapes[0].b == ["f"]


@pytest.mark.parametrize(("players", "rounds", "removed"), [(2, 5, 4), (3, 5, 0), (4, 4, 2)])
def test_whole_games_account_for_every_card(players, rounds, removed) -> None:
    deck = load_example_deck()
    for seed in range(3):
        game = play_simple(MixtapeGame.start(deck, players, seed=seed))
        assert game.phase == OVER and game.round == rounds
        used = [c for tape in game.tapes for c in tape.card_ids()] + game.box
        assert sorted(used) == sorted(c.id for c in deck.for_players(players))
        discards = sum(len(entry["discarded"]) for entry in game.log if "discarded" in entry)
        assert len(game.box) == removed + discards
        for entry in game.log:
            if "placed" in entry:  # "You will gain between two and four cards each round"
                assert 2 <= len(entry["placed"]) + len(entry["discarded"]) <= 4
        assert game.winners()


def test_setup_wild_is_set_aside_and_shuffled_back() -> None:
    deck = make_deck(
        card("w", "wild", "A", 1),
        card("a", "pop", "A", 1),
        card("b", "pop", "B", 1),
        *(card(f"g{n}", "pop", "A", 1) for n in range(10)),
    )
    order = ["w", "a", "b", *(f"g{n}" for n in range(10))]
    game = MixtapeGame.start(deck, 2, seed=3, order=order)
    assert game.tapes[0].card_ids() == ["a"]  # the Wild on top was set aside, "a" redrawn
    assert not deck.card(game.tapes[1].card_ids()[0]).is_wild
    in_deck = game.pile + game.box + [c for hand in game.hands for c in hand]
    assert "w" in in_deck


def test_leftover_cards_short_of_a_round_go_to_the_box() -> None:
    deck = make_deck(*(card(f"c{n}", "pop", "A" if n % 2 else "B", 1) for n in range(14)))
    game = play_simple(MixtapeGame.start(deck, 2, seed=0))
    # 14 − 2 set-up − 4 removed = 8: one round of 6, then 2 left over.
    assert game.round == 1 and game.phase == OVER
    assert any(entry.get("event") == "leftover" for entry in game.log)


def test_multiplayer_snapshot_restores_mid_round() -> None:
    deck = load_example_deck()
    straight = play_simple(MixtapeGame.start(deck, 3, seed=11))
    game = MixtapeGame.start(deck, 3, seed=11)
    game.split(0, game.hands[0][:2])
    saved = json.loads(json.dumps(game.to_json()))
    resumed = MixtapeGame.from_json(deck, saved)
    assert resumed.to_json() == game.to_json()
    with pytest.raises(MixtapeError):
        MixtapeGame.from_json(deck, {**saved, "kind": "something else"})
    with pytest.raises(MixtapeError):
        MixtapeGame.from_json(deck, {**saved, "tapes": [{"a": ["nope"], "b": []}]})
    assert straight.phase == OVER


def test_the_multiplayer_engine_is_for_two_to_four() -> None:
    with pytest.raises(IllegalMoveError, match="2 to 4 players"):
        MixtapeGame.start(load_example_deck(), 1)
    with pytest.raises(IllegalMoveError, match="2 to 4 players"):
        MixtapeGame.start(load_example_deck(), 5)


# ---- solo ---------------------------------------------------------------------------------
def test_solo_game_is_reproducible_from_the_seed() -> None:
    deck = load_example_deck()
    first = play_solo(SoloGame.start(deck, seed=42)).to_json()
    second = play_solo(SoloGame.start(deck, seed=42)).to_json()
    assert first == second
    other = play_solo(SoloGame.start(deck, seed=43)).to_json()
    assert other["log"] != first["log"]


def test_solo_game_accounts_for_every_card_and_alternates() -> None:
    deck = load_example_deck()
    for seed in range(5):
        game = play_solo(SoloGame.start(deck, seed=seed))
        rounds = [entry for entry in game.log if "round" in entry]
        assert [entry["active"] for entry in rounds] == ["you", "otto"] * 5
        extras = [card for entry in rounds for card in entry.get("extras", [])]
        used = game.you.card_ids() + game.otto.card_ids() + game.box
        assert sorted(used) == sorted([c.id for c in deck.for_players(2)] + extras)
        assert len(game.otto_deck) == 18 - len(extras)
        for entry in rounds:
            if entry["active"] == "otto":
                gained = len(entry["decision"]["otto_takes"]) + len(entry["extras"])
                assert gained == 2  # Otto ALWAYS gets two cards when active


def test_solo_snapshot_after_every_event_replays_the_same_game() -> None:
    deck = load_example_deck()
    straight = play_solo(SoloGame.start(deck, seed=9))
    game = SoloGame.start(deck, seed=9)
    while game.phase != "over":
        game = SoloGame.from_json(deck, json.loads(json.dumps(game.to_json())))
        if game.phase == "you-choose":
            game.you_choose(simple_choice(game))
        elif game.phase == "otto-turn":
            game.otto_turn()
        else:
            game.you_place()
    assert game.to_json() == straight.to_json()


def test_solo_restore_refuses_a_corrupt_state() -> None:
    deck = load_example_deck()
    saved = SoloGame.start(deck, seed=1).to_json()
    with pytest.raises(MixtapeError, match="not a solo Mixtape game"):
        SoloGame.from_json(deck, {"kind": "x"})
    with pytest.raises(MixtapeError, match="malformed"):
        SoloGame.from_json(deck, {k: v for k, v in saved.items() if k != "main"})
    with pytest.raises(MixtapeError, match="unknown card id"):
        SoloGame.from_json(deck, {**saved, "drawn": ["EX01", "NOPE", "EX02"]})


def test_solo_at_a_real_table_waits_for_the_cards_really_drawn() -> None:
    deck = load_example_deck()
    two_line = [c.id for c in deck.for_players(2) if not c.is_wild]
    game = SoloGame.at_table(deck, two_line[0], two_line[1], seed=3)
    assert game.phase == "draw" and game.unseen == 4 and len(game.main) == 34
    with pytest.raises(IllegalMoveError, match="not in the main deck"):
        game.draw([two_line[0], two_line[2], two_line[3]])
    rounds = 0
    while game.phase != "over":
        saved = json.loads(json.dumps(game.to_json()))
        game = SoloGame.from_json(deck, saved)
        if game.phase == "draw":
            # whatever the table drew; on your turn only the two face-up cards are given
            game.draw(sorted(game.main)[-3:] if game.active == "otto" else sorted(game.main)[-2:])
            rounds += 1
        elif game.phase == "you-choose":
            assert game.face_down is None and game.hidden
            game.you_choose(simple_choice(game))
        elif game.phase == "turn-up":
            game.turn_up(sorted(game.main)[0])  # the face-down card, now it is turned up
        elif game.phase == "otto-turn":
            decision = game.otto_turn()
            assert game.phase == ("otto-extra" if decision.extra_card else "you-place")
        elif game.phase == "otto-extra":
            extra = game.otto_deck[-1]
            game.otto_extra(extra)
            assert extra in game.otto.card_ids() + game.box
        else:
            game.you_place()
    # 36 two-line cards − 2 set-up − 4 removed unseen = 30 = 10 rounds of 3.
    assert rounds == 10
    assert len(game.box) >= 4
    with pytest.raises(IllegalMoveError):
        play_solo(SoloGame.at_table(deck, two_line[0], two_line[1]))


def test_solo_at_a_real_table_the_face_down_card_is_asked_for_only_after_your_choice() -> None:
    """Rulings: "Solo hidden card: of the three cards you draw on your turn, one stays face down
    until you have chosen. The appliance never shows or asks for it before your choice."
    Rulebook: "If taking two, one of them must be the face-down card."."""
    deck = load_example_deck()
    game = SoloGame.at_table(deck, "EX02", "EX03", seed=3)
    with pytest.raises(IllegalMoveError, match="two face-up ones"):
        game.draw(["EX05"])
    game.draw(["EX05", "EX06"])  # your turn: the two face-up cards, nothing else
    assert game.phase == "you-choose" and game.face_down is None and game.hidden
    assert game.your_options() == [["EX05"], ["EX06"], ["?"], ["EX05", "?"], ["EX06", "?"]]
    with pytest.raises(IllegalMoveError, match="one of them the face-down card"):
        game.you_choose(["EX05", "EX06"])
    before = game.to_json()
    assert game.you_choose(["EX06", "?"]) == []  # nothing placed while the card is unknown
    assert game.phase == "turn-up" and game.taken == ["EX06", "?"]
    assert game.you.card_ids() == ["EX02"] and game.otto.card_ids() == ["EX03"]
    saved = json.loads(json.dumps(game.to_json()))  # a power cut while it is turned up
    game = SoloGame.from_json(deck, saved)
    with pytest.raises(IllegalMoveError, match="not in the main deck"):
        game.turn_up("EX05")  # a face-up card
    with pytest.raises(IllegalMoveError, match="not in the main deck"):
        game.turn_up("EX02")  # your set-up card
    game.turn_up("EX07")
    entry = game.log[-1]
    assert entry["face_down"] == "EX07" and sorted(entry["you_take"]) == ["EX06", "EX07"]
    assert entry["otto_gets"] == ["EX05"] and "EX07" in game.you.card_ids()
    assert game.phase == "draw" and game.active == "otto"
    # undo (the appliance keeps the state before each step): back to the choice, card unknown
    again = SoloGame.from_json(deck, before)
    assert again.phase == "you-choose" and again.face_down is None
    assert again.you_choose(["EX05"]) == [] and again.phase == "turn-up"
    again.turn_up("EX07")
    assert again.log[-1]["otto_gets"] == ["EX06", "EX07"]


def test_the_simulated_game_never_names_the_face_down_card_before_the_choice() -> None:
    deck = load_example_deck()
    for seed in range(5):
        game = SoloGame.start(deck, seed=seed)
        while game.phase != "over":
            if game.phase == "you-choose":
                hidden = game.face_down
                assert hidden is not None and hidden not in game.face_up()
                options = game.your_options()
                assert all(hidden not in option for option in options)
                choice = simple_choice(game)
                assert choice in options and hidden not in choice
                game.you_choose(choice)
                assert game.log[-1]["face_down"] == hidden  # named once it is in a mixtape
            elif game.phase == "otto-turn":
                game.otto_turn()
            else:
                game.you_place()


def test_start_game_covers_one_to_four_players() -> None:
    deck = load_example_deck()
    assert isinstance(start_game(deck, 1, seed=2), SoloGame)
    for players in (2, 3, 4):
        game = start_game(deck, players, seed=2)
        assert isinstance(game, MixtapeGame) and game.count == players


def test_a_deck_too_small_for_the_set_up_is_refused() -> None:
    deck = make_deck(card("w", "wild", "A", 1), card("a", "pop", "A", 1))
    with pytest.raises(IllegalMoveError, match="too few non-Wild cards"):
        MixtapeGame.start(deck, 2)
    with pytest.raises(IllegalMoveError, match="too few non-Wild cards"):
        SoloGame.start(deck, seed=0)
