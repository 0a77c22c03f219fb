"""Mixtape deck files and End Game Scoring: balance, flow, genre sets, tie-breaks."""

from __future__ import annotations

import pytest
from test_mixtape_support import SQUARES, card, make_deck

from games.mixtape import (
    DeckError,
    IllegalMixtapeError,
    UnknownCardError,
    column_flow,
    genre_set_points,
    load_deck,
    load_example_deck,
    parse_deck,
    score_mixtape,
    winners,
)
from games.mixtape.scoring import MixtapeScore

GOOD_CARD = """
[[cards]]
id = "T01"
genre = "punk"
side = "A"
balance = 3
top = ["center"]
bottom = ["left"]
players = 2
"""
HEADER = """
name = "My copy"
[equalizer]
squares = [0, 5, 10, 15, 20, 25, 30, 25, 20, 15, 10, 5, 0]
start = 6
"""


# ---- deck files --------------------------------------------------------------------------
def test_the_issue_schema_loads(tmp_path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text(HEADER + GOOD_CARD)
    deck = load_deck(path)
    assert deck.name == "My copy"
    assert deck.squares == tuple(SQUARES) and deck.start == 6
    only = deck.card("T01")
    assert (only.genre, only.side, only.balance, only.players) == ("punk", "A", 3, 2)
    assert only.top == {"center"} and only.bottom == {"left"}


def test_the_packaged_example_deck_is_valid_and_labelled_as_an_example() -> None:
    deck = load_example_deck()
    assert "example" in deck.name.lower() and "not the real game" in deck.name.lower()
    assert {c.players for c in deck.cards} == {2, 3, 4}
    assert len(deck.for_players(2)) == 36 and len(deck.otto_deck()) == 18


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (('genre = "punk"', 'genre = "jazz"'), "card 'T01': field 'genre' = 'jazz'"),
        (('side = "A"', 'side = "C"'), "card 'T01': field 'side'"),
        (("balance = 3", "balance = -1"), "card 'T01': field 'balance'"),
        (("balance = 3", "balance = 13"), "card 'T01': field 'balance' = 13 can never fit"),
        (('top = ["center"]', 'top = ["middle"]'), "card 'T01': field 'top' has 'middle'"),
        (('bottom = ["left"]', 'bottom = ["left", "left"]'), "card 'T01': field 'bottom'"),
        (("players = 2", "players = 5"), "card 'T01': field 'players' = 5"),
        (("players = 2", "players = 2\nartist = 'x'"), "card 'T01': unknown field(s) artist"),
        (("players = 2\n", ""), "card 'T01': missing field(s) players"),
        (('id = "T01"', 'id = "T 01"'), "card #1: field 'id'"),
    ],
)
def test_a_bad_card_names_the_card_and_the_field(change, expected) -> None:
    with pytest.raises(DeckError) as caught:
        parse_deck(HEADER + GOOD_CARD.replace(*change))
    assert expected in str(caught.value)


def test_a_wild_without_all_flow_points_is_refused() -> None:
    text = HEADER + GOOD_CARD.replace('genre = "punk"', 'genre = "wild"')
    with pytest.raises(DeckError, match="card 'T01': field 'top': a Wild card has flow points"):
        parse_deck(text)


def test_a_duplicate_id_is_refused() -> None:
    with pytest.raises(DeckError, match="card 'T01' \\(card #2\\): field 'id' duplicates card #1"):
        parse_deck(HEADER + GOOD_CARD + GOOD_CARD)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (HEADER.replace("start = 6", "start = 13"), "start = 13 is outside the squares (0 to 12)"),
        (HEADER.replace("start = 6", "start = -1"), "start = -1 is outside the squares"),
        (HEADER.replace("start = 6", ""), "[equalizer] is missing 'start'"),
        (HEADER.replace("start = 6", "start = 'x'"), "start = 'x' must be a whole number"),
        (HEADER.replace("squares = [0, 5,", "squares = [0, 'x',"), "squares[1] = 'x'"),
        (HEADER.replace('name = "My copy"', ""), "'name' must be a non-empty string"),
        (HEADER + "colour = 'red'\n", "unknown key(s) colour"),
    ],
)
def test_a_bad_equalizer_or_header_is_refused(header, expected) -> None:
    with pytest.raises(DeckError) as caught:
        parse_deck(header + GOOD_CARD)
    assert expected in str(caught.value)


def test_missing_file_and_broken_toml(tmp_path) -> None:
    with pytest.raises(DeckError, match="not found"):
        load_deck(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n")
    with pytest.raises(DeckError, match="not valid TOML"):
        load_deck(broken)
    with pytest.raises(DeckError, match="no \\[\\[cards\\]\\]"):
        parse_deck(HEADER)


def test_player_count_filtering() -> None:
    deck = make_deck(
        card("a", "pop", "A", 1, players=2),
        card("b", "pop", "A", 1, players=3),
        card("c", "pop", "A", 1, players=4),
    )
    assert [c.id for c in deck.for_players(2)] == ["a"]
    assert [c.id for c in deck.for_players(3)] == ["a", "b"]
    assert [c.id for c in deck.for_players(4)] == ["a", "b", "c"]
    assert [c.id for c in deck.otto_deck()] == ["b", "c"]


# ---- genre sets ------------------------------------------------------------------------
def test_the_rulebook_genre_table() -> None:
    table = {1: 0, 2: 3, 3: 6, 4: 10, 5: 15, 6: 21, 7: 28, 8: 36, 9: 45, 10: 55, 11: 66, 12: 78}
    assert {n: genre_set_points(n) for n in table} == table
    assert genre_set_points(0) == 0
    assert genre_set_points(13) == 91  # assumption: the table's triangular pattern continues


def test_genre_sets_count_both_columns_and_never_wild() -> None:
    deck = make_deck(
        card("p1", "punk", "A", 1),
        card("p2", "punk", "B", 1),
        card("p3", "punk", "A", 1),
        card("w1", "wild", "A", 1),
        card("w2", "wild", "B", 1),
        card("r1", "rock", "B", 1),
    )
    score = score_mixtape(deck, ["p1", "w1", "p3"], ["p2", "w2", "r1"])
    assert score.genre_sets == {"punk": 3, "rock": 1}
    assert score.genres == 6


# ---- flow ----------------------------------------------------------------------------
FLOW_DECK = make_deck(
    card("top", "pop", "A", 1, top="c", bottom="c"),
    card("mid", "rock", "A", 1, top="c", bottom="r"),
    card("end", "punk", "A", 1, top="r", bottom="l"),
    card("odd", "rnb", "A", 1, top="l", bottom="l"),
    card("two", "pop", "A", 1, top="", bottom="lr"),
    card("one", "rock", "A", 1, top="r", bottom=""),
    card("wa", "wild", "A", 1),
    card("wb", "wild", "A", 1),
    card("bx", "hiphop", "B", 1, top="c", bottom="c"),
    squares=[0] * 21 + [30] + [0] * 21,
    start=21,
)


def flows(*ids: str) -> list[int]:
    return column_flow(FLOW_DECK.cards_for(ids))


def test_flow_single_card_scores_nothing() -> None:
    assert flows("top") == [0]


def test_flow_chain_first_and_last_have_one_neighbour() -> None:
    assert flows("top", "mid", "end") == [1, 3, 1]
    assert flows("top", "mid", "odd") == [1, 1, 0]  # mid's right bottom misses odd's left top


def test_flow_is_per_position_not_per_edge() -> None:
    # "top" has a bottom point only in the center; "end" has a top point only on the right.
    assert flows("top", "end") == [0, 0]


def test_flow_multi_point_edges_align_when_any_position_matches() -> None:
    assert flows("two", "one") == [1, 1]  # bottom left+right meets top right
    assert flows("two", "top") == [0, 0]  # bottom left+right misses top center


def test_flow_wild_at_either_end_aligns_with_its_only_neighbour() -> None:
    assert flows("wa", "two") == [1, 1]  # "two" has no top points, the Wild still aligns
    assert flows("one", "wa") == [1, 1]  # "one" has no bottom points
    assert flows("wa", "wb") == [1, 1]
    assert flows("wa") == [0]


def test_flow_wild_in_the_middle_gives_three_and_lifts_both_neighbours() -> None:
    assert flows("one", "two") == [0, 0]
    assert flows("one", "wa", "two") == [1, 3, 1]


def test_flow_never_crosses_columns() -> None:
    score = score_mixtape(FLOW_DECK, ["top"], ["bx"])
    assert score.flow == 0


# ---- balance ---------------------------------------------------------------------------
BAL_DECK = make_deck(
    *(card(f"A{n}", "pop", "A", n) for n in range(1, 8)),
    *(card(f"B{n}", "rock", "B", n) for n in range(1, 8)),
    card("A3x", "punk", "A", 3),
    card("B3x", "punk", "B", 3),
)


def test_balance_left_and_right_moves() -> None:
    score = score_mixtape(BAL_DECK, ["A3", "A1"], ["B2"])
    assert score.balance_position == -2 and score.balance_points == 20
    assert score.balance_square == 4


def test_balance_at_the_left_edge_scores_the_edge_square() -> None:
    score = score_mixtape(BAL_DECK, ["A6"], [])
    assert score.balance_position == -6 and score.balance_points == 0


def test_balance_at_the_right_edge_scores_the_edge_square() -> None:
    score = score_mixtape(BAL_DECK, ["A1"], ["B7"])
    assert score.balance_position == 6 and score.balance_points == 0


@pytest.mark.parametrize(
    ("a", "b", "side"), [(["A7"], [], "left"), (["A1"], ["B7", "B1"], "right")]
)
def test_balance_off_either_edge_is_refused_with_the_reason(a, b, side) -> None:
    with pytest.raises(IllegalMixtapeError, match=f"7 squares {side} of the start square, off"):
        score_mixtape(BAL_DECK, a, b)


def test_a_mixtape_whose_cube_must_have_left_the_board_on_the_way_is_refused() -> None:
    # Ends on the start square, but whichever 7 went first pushed the cube off the Equalizer.
    with pytest.raises(IllegalMixtapeError, match="whatever order"):
        score_mixtape(BAL_DECK, ["A7"], ["B7"])
    # With a small card first on one side, an order exists: B1 A7 B6 never leaves the board.
    assert score_mixtape(BAL_DECK, ["A7"], ["B1", "B6"]).balance_position == 0


def test_wrong_column_duplicate_and_unknown_ids_are_refused() -> None:
    with pytest.raises(IllegalMixtapeError, match="B1 is a B card and cannot be in column Trk A"):
        score_mixtape(BAL_DECK, ["B1"], [])
    with pytest.raises(IllegalMixtapeError, match="A1 appears twice"):
        score_mixtape(BAL_DECK, ["A1", "A1"], [])
    with pytest.raises(UnknownCardError, match="'Z9'"):
        score_mixtape(BAL_DECK, ["Z9"], [])


def test_total_is_the_sum_and_json_has_the_contract_fields() -> None:
    deck = make_deck(
        card("p1", "punk", "A", 2, bottom="c"),
        card("p2", "punk", "A", 1, top="c"),
        card("p3", "punk", "B", 2, top="l"),
        card("w", "wild", "B", 1),
    )
    score = score_mixtape(deck, ["p1", "p2"], ["w", "p3"])
    # balance: -3 + 3 = 0 → 30; flow: p1 1, p2 1, w 1, p3 1; genres: punk 3 → 6.
    assert (score.balance_points, score.flow, score.genres, score.total) == (30, 4, 6, 40)
    data = score.to_json()
    assert data["total"] == 40
    assert data["balance"]["position"] == 0 and data["balance"]["points"] == 30
    assert data["flow"] == 4 and data["genres"] == 6
    assert data["cards"] == [
        {"id": "p1", "column": "A", "flow_points": 1},
        {"id": "p2", "column": "A", "flow_points": 1},
        {"id": "w", "column": "B", "flow_points": 1},
        {"id": "p3", "column": "B", "flow_points": 1},
    ]


def _score(total_parts: tuple[int, int, int]) -> MixtapeScore:
    balance, flow, genres = total_parts
    return MixtapeScore(0, 0, balance, flow, genres, ())


def test_winner_tie_break_by_balance_then_shared() -> None:
    assert winners({"Ann": _score((30, 5, 5)), "Ben": _score((20, 10, 11))}) == ["Ben"]
    assert winners({"Ann": _score((30, 5, 5)), "Ben": _score((20, 10, 10))}) == ["Ann"]
    assert winners({"Ann": _score((20, 5, 5)), "Ben": _score((20, 0, 10))}) == ["Ann", "Ben"]
