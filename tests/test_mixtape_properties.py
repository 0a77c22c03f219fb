"""Property tests for Mixtape scoring and Otto (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.mixtape import Card, Deck, Tape, column_flow, otto_choose, score_mixtape
from games.mixtape.deck import FLOW_POSITIONS, GENRES
from games.mixtape.otto import landing, options_for

edges = st.frozensets(st.sampled_from(FLOW_POSITIONS))
WILD_EDGES = frozenset(FLOW_POSITIONS)


@st.composite
def cards(draw: st.DrawFn, prefix: str = "c", min_size: int = 0, max_size: int = 12) -> list[Card]:
    count = draw(st.integers(min_size, max_size))
    result = []
    for n in range(count):
        wild = draw(st.booleans().map(lambda b: b and draw(st.integers(0, 4)) == 0))
        result.append(
            Card(
                id=f"{prefix}{n}",
                genre="wild" if wild else draw(st.sampled_from(GENRES)),
                side=draw(st.sampled_from("AB")),
                balance=draw(st.integers(0, 4)),
                top=WILD_EDGES if wild else draw(edges),
                bottom=WILD_EDGES if wild else draw(edges),
                players=2,
            )
        )
    return result


def wide_deck(all_cards: list[Card]) -> Deck:
    width = 8 * len(all_cards) + 1  # reaches 4 squares per card each way: never off
    return Deck("prop", tuple(range(width)), width // 2, tuple(all_cards))


@given(cards())
def test_total_is_the_sum_of_its_three_parts(all_cards: list[Card]) -> None:
    deck = wide_deck(all_cards)
    a = [c.id for c in all_cards if c.side == "A"]
    b = [c.id for c in all_cards if c.side == "B"]
    score = score_mixtape(deck, a, b)
    assert score.total == score.balance_points + score.flow + score.genres
    assert score.flow == sum(c.flow_points for c in score.cards)
    assert score.to_json()["total"] == score.total
    assert all(c.flow_points in (0, 1, 3) for c in score.cards)


@given(cards(min_size=2), st.data())
def test_a_wild_between_two_cards_never_lowers_another_cards_flow(
    column: list[Card], data: st.DataObject
) -> None:
    at = data.draw(st.integers(1, len(column) - 1))
    wild = Card("wild", "wild", "A", 1, WILD_EDGES, WILD_EDGES, 2)
    before = column_flow(column)
    after = column_flow([*column[:at], wild, *column[at:]])
    assert after[at] >= 1
    others = after[:at] + after[at + 1 :]
    assert all(new >= old for new, old in zip(others, before, strict=True))


@settings(max_examples=150, deadline=None)
@given(
    cards(prefix="d", min_size=6, max_size=14),
    st.integers(3, 11),
    st.data(),
)
def test_ottos_choice_is_always_a_legal_pile(
    all_cards: list[Card], width: int, data: st.DataObject
) -> None:
    deck = Deck(
        "prop",
        tuple(data.draw(st.lists(st.integers(0, 30), min_size=width, max_size=width))),
        width // 2,
        tuple(all_cards),
    )
    ids = [c.id for c in all_cards]
    drawn = data.draw(st.permutations(ids)).copy()[:3]
    rest = [i for i in ids if i not in drawn]
    split = data.draw(st.integers(0, len(rest)))
    otto, you = Tape(), Tape()
    otto.place_all(deck, rest[:split])  # placing discards anything that would fall off
    you.place_all(deck, rest[split:])
    seed = data.draw(st.integers(0, 10_000))
    decision = otto_choose(deck, otto, you, drawn, seed=seed)
    taken = decision.otto_takes
    assert taken in options_for(drawn) or (taken == () and decision.decided_by == "random")
    assert sorted(taken + decision.you_get) == sorted(drawn)
    # Rulings: "an option is judged by the cards that land": every card he takes lands, and
    # "he draws his extra card for each card short" of two.
    assert sorted(landing(deck, otto, taken)[1]) == sorted(taken)
    assert decision.extra_cards == 2 - len(taken)
    assert decision.extra_card == (len(taken) < 2)
    assert decision.decided_by in {"balance", "genre", "flow", "random"}
    if decision.decided_by == "random" and decision.random_among:
        assert taken in decision.random_among
