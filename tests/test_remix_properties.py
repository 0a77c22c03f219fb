"""Property tests for the Remix scorer (hypothesis)."""

from __future__ import annotations

import tomllib
from importlib import resources

from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.remix import (
    Choices,
    choices_from_json,
    default_catalogue,
    parse_catalogue,
    prepare,
    score_hand,
)
from games.remix.hands import BLANKING_CARDS, CHOICE_CARDS, TAG_TEXT_CARDS, TRANSFORM_CARDS

CATALOGUE = default_catalogue()
IDS = [card.id for card in CATALOGUE]

# Random hands from the whole catalogue, and hands rich in owner choices and blanking texts
# (with cards that read tags, so that the choices matter).
POOL = [*CHOICE_CARDS, *BLANKING_CARDS, "MR72", "MR67", "MR44", "MR55", "MR56", "MR48", "MR77"]
POOL += ["MR01", "MR07", "MR08", "MR04", "MR24", "MR62", "MR63", "MR70", "MR73", "MR53"]
POOL += [c for c in (*TAG_TEXT_CARDS, *TRANSFORM_CARDS) if c not in POOL]
hands = st.one_of(
    st.lists(st.sampled_from(IDS), min_size=1, max_size=8, unique=True),
    st.lists(st.sampled_from(POOL), min_size=2, max_size=7, unique=True),
)


@settings(max_examples=150, deadline=None)
@given(hand=hands, data=st.data())
def test_permuting_a_hand_never_changes_its_score(hand: list[str], data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(hand))
    assert score_hand(hand).total == score_hand(shuffled).total


# A card with no effect and no tags, of a type no card refers to (CONDITION): nothing can blank
# it and it changes no other card, so it must add exactly its base power.
def _catalogue_with_plain_cards() -> object:
    data = tomllib.loads(resources.files("games.remix").joinpath("cards.toml").read_text())
    for power in range(-5, 21):
        data["card"].append(
            {
                "id": f"PLAIN{power + 5:02d}",
                "name": f"Plain Test Card {power}",
                "type": "CONDITION",
                "power": power,
                "tags": [],
                "text": "No effect.",
            }
        )
    return parse_catalogue(data)


PLAIN = _catalogue_with_plain_cards()


@settings(max_examples=150, deadline=None)
@given(hand=hands.filter(lambda h: len(h) <= 7), power=st.integers(-5, 20))
def test_a_card_without_effect_or_tags_adds_its_base_power(hand: list[str], power: int) -> None:
    before = score_hand(hand, catalogue=PLAIN)  # type: ignore[arg-type]
    after = score_hand([*hand, f"PLAIN{power + 5:02d}"], catalogue=PLAIN)  # type: ignore[arg-type]
    assert after.cards[-1].state == "normal"
    assert after.cards[-1].points == power
    if before.valid and after.valid:
        assert after.total == before.total + power
    elif before.valid:
        # The owner may prefer a 0 (a hand left without HERO/ALLY or VILLAIN) to a negative score.
        assert after.total == 0 and before.total + power <= 0
    elif after.valid:
        assert before.total == 0 and after.total >= 0
    else:
        assert before.total == after.total == 0


@settings(max_examples=300, deadline=None)
@given(hand=hands, loki=st.sampled_from(["MR13", "MR33", "MR37", None]))
# Found by this test: Magneto (last in hand order) acts first and blanks Mjolnir; the report
# must say so, or a replay runs Mjolnir first and reports an order the search never used.
@example(hand=["MR13", "MR16", "MR22", "MR40", "MR71"], loki=None)
@example(hand=["MR13", "MR40", "MR22", "MR71"], loki=None)
def test_reported_choices_applied_as_fixed_choices_reproduce_the_total(
    hand: list[str], loki: str | None
) -> None:
    if loki is not None and ("MR70" not in hand or loki in hand):
        loki = None
    result = score_hand(hand, loki)
    reported = result.to_json()["choices"]
    fixed = choices_from_json(prepare(hand, loki), reported)
    again = score_hand(hand, loki, choices=fixed)
    assert again.total == result.total
    assert again.to_json()["choices"] == reported
    chosen = result.chosen
    internal = Choices(dict(chosen.options), tuple(chosen.blanking), chosen.order)
    assert score_hand(hand, loki, choices=internal).total == result.total
    # ... and the search's own claim is the explained total.
    prepared = prepare(hand, loki)
    prepared.search()
    claimed = prepared.best_value
    assert result.total == claimed


@settings(max_examples=100, deadline=None)
@given(hand=hands)
def test_json_has_the_contract_fields(hand: list[str]) -> None:
    out = score_hand(hand).to_json()
    assert {"total", "valid", "cards", "choices", "loki_owed"} <= set(out)
    for card in out["cards"]:
        assert {"id", "name", "state", "base", "points", "tags", "lines"} <= set(card)
        assert card["state"] in ("normal", "transformed", "blanked")
    if out["valid"]:
        assert out["total"] == sum(card["points"] for card in out["cards"])
    else:
        assert out["total"] == 0
