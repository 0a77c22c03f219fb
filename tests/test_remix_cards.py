"""One hand-worked hand (or more) for every one of the 79 Marvel: Remix cards.

Every expected number below was worked out by hand from the card text in
/shared/remix-cards.md and the rulebook, not by running the engine. Black Cat (MR63, 8, no tags)
is the usual VILLAIN filler: with no LOCATION that has Urban and no MANEUVER it scores exactly 8.
Angel (MR01: 6, Agility Flight Mutant, no text) is the usual HERO filler.
"""

from __future__ import annotations

import pytest

from games.remix import default_catalogue, score_hand

# (card under test, hand, its expected points, expected hand total or None, expected state)
CASES: list[tuple[str, list[str], int, int | None, str]] = [
    ("MR01", ["MR01", "MR63"], 6, 14, "normal"),
    ("MR02", ["MR02", "MR63"], 6, 14, "normal"),
    # Black Panther 4 + 5 x (Dora, Killmonger); Killmonger -9 + 9 x (Panther, Dora); Dora 6.
    ("MR03", ["MR03", "MR24", "MR68"], 14, 29, "normal"),
    ("MR04", ["MR04", "MR63"], 6, 14, "normal"),
    # Banner with She-Hulk's Gamma: Hulk 13; She-Hulk 4 + 5 x Hulk's Gamma = 9; Black Cat 8.
    ("MR05", ["MR05", "MR15", "MR63"], 13, 30, "transformed"),
    ("MR05", ["MR05", "MR63"], 1, 9, "normal"),
    # Cap 4 + 2 x (Angel, Beast) + 4 (Vibranium Shield, kept: Cap has Agility) = 12.
    ("MR06", ["MR06", "MR01", "MR02", "MR41", "MR63"], 12, 41, "normal"),
    ("MR07", ["MR07", "MR63"], 6, 14, "normal"),
    # Cyclops 4 + 3 x (Angel's and Storm's Mutant) = 10.
    ("MR08", ["MR08", "MR01", "MR18", "MR63"], 10, 28, "normal"),
    ("MR09", ["MR09", "MR63"], 6, 14, "normal"),
    ("MR10", ["MR10", "MR63"], 5, 13, "normal"),
    # Jean Grey with two other Mutant tags (Angel, Beast): Phoenix 9.
    ("MR11", ["MR11", "MR01", "MR02", "MR63"], 9, 29, "transformed"),
    ("MR11", ["MR11", "MR01", "MR63"], 3, 17, "normal"),
    # Professor X 3 + 6 (Cerebro) + 6 (Xavier Mansion); Cerebro 8, Mansion 4, Black Cat 8.
    ("MR12", ["MR12", "MR38", "MR54", "MR63"], 15, 35, "normal"),
    # Rogue copies Colossus: power 6.
    ("MR13", ["MR13", "MR07", "MR63"], 6, 20, "normal"),
    ("MR13", ["MR13", "MR63"], 0, 8, "normal"),
    # Rogue copies Colossus's power and a Strength tag: Falling Debris 4 x 3 Strength = 12;
    # Black Cat 8 + 5 (Falling Debris has Urban).
    ("MR13", ["MR13", "MR07", "MR44", "MR63"], 6, 37, "normal"),
    # Shadowcat 4 + 4 (Factory); Factory 5 x Shadowcat's Tech = 5; Black Cat 8.
    ("MR14", ["MR14", "MR45", "MR63"], 8, 21, "normal"),
    # She-Hulk 4 + 5 x (Hulk Operations, The Leader); The Leader 12 - 3 (Strength) - 3 x 2.
    ("MR15", ["MR15", "MR26", "MR77"], 14, 21, "normal"),
    # Shuri and Angel each gain Strength: Falling Debris 4 x (2 Strength + 1 Flight) = 12.
    ("MR16", ["MR16", "MR01", "MR44", "MR63"], 2, 33, "normal"),
    # Spider-Man 5 + 5 and gains Flight; Skyscraper 4 x (1 Agility + 1 Flight); Black Cat 13.
    ("MR17", ["MR17", "MR53", "MR63"], 10, 31, "normal"),
    ("MR18", ["MR18", "MR63"], 4, 12, "normal"),
    # Thor with Mjolnir (kept: Thor has Worthy) becomes God of Thunder 12.
    ("MR19", ["MR19", "MR40", "MR63"], 12, 30, "transformed"),
    # ... or with two ALLIES: Jane Foster 5 + 8, Heimdall 4.
    ("MR19", ["MR19", "MR27", "MR28", "MR63"], 12, 37, "transformed"),
    # Tony Stark with two Intel tags (Black Widow, Dora Milaje): Iron Man 8.
    ("MR20", ["MR20", "MR04", "MR24", "MR63"], 8, 28, "transformed"),
    ("MR21", ["MR21", "MR63"], 7, 15, "normal"),
    # Vision takes Strength and Flight: Falling Debris 8, Black Cat 13.
    ("MR22", ["MR22", "MR44", "MR63"], 3, 24, "normal"),
    # Wolverine 4 + 6 (Baron Zemo has Boss); Zemo 15 - 3 x 1 HERO.
    ("MR23", ["MR23", "MR65"], 10, 22, "normal"),
    ("MR24", ["MR24", "MR63"], 6, 14, "normal"),
    # Forge 4 + 4 x (X-Jet, Cerebro); X-Jet 7, Cerebro 8, Black Cat 8.
    ("MR25", ["MR25", "MR37", "MR38", "MR63"], 12, 35, "normal"),
    ("MR26", ["MR26", "MR63"], 4, 12, "normal"),
    # Heimdall 4 + 6 (Bifrost); Bifrost without a second LOCATION 0.
    ("MR27", ["MR27", "MR42", "MR63"], 10, 18, "normal"),
    # Jane Foster 5 + 8 (Thor; one ALLY only, so Thor stays 4).
    ("MR28", ["MR28", "MR19", "MR63"], 13, 25, "normal"),
    # Lockheed 5 + 7 (Shadowcat 4).
    ("MR29", ["MR29", "MR14", "MR63"], 12, 24, "normal"),
    # Moira doubles Colossus's Strength: Falling Debris 4 x 3 = 12; Black Cat 13.
    ("MR30", ["MR30", "MR07", "MR44", "MR63"], 3, 34, "normal"),
    # Assembled 4 x (Angel, Beast).
    ("MR31", ["MR31", "MR01", "MR02", "MR63"], 8, 28, "normal"),
    # Berserk 18 - 3 x (3 HERO/ALLY - the chosen one) - 3 x 1 Urban = 9.
    ("MR32", ["MR32", "MR01", "MR02", "MR24", "MR53", "MR63"], 9, None, "normal"),
    ("MR33", ["MR33", "MR01", "MR63"], 16, 30, "normal"),
    ("MR33", ["MR33", "MR01", "MR02", "MR63"], 0, 20, "blanked"),
    # Secret ID with a HERO and Skyscraper (Urban): 8; with Factory (no Urban): blanked.
    ("MR34", ["MR34", "MR01", "MR53", "MR63"], 8, None, "normal"),
    ("MR34", ["MR34", "MR01", "MR45", "MR63"], 0, None, "blanked"),
    # Worthy needs a VILLAIN above 12: Baron Zemo (15) yes, Black Cat (8) no.
    ("MR35", ["MR35", "MR01", "MR65"], 11, 29, "normal"),
    ("MR35", ["MR35", "MR01", "MR63"], 0, 14, "blanked"),
    # Arc Reactor 9 x (Beast's and Falcon's Tech).
    ("MR36", ["MR36", "MR02", "MR09", "MR63"], 18, 38, "normal"),
    # X-Jet: Colossus gains Flight and Range; Sauron -7 + 7 x 2 = 7.
    ("MR37", ["MR37", "MR07", "MR73"], 7, 20, "normal"),
    ("MR38", ["MR38", "MR01", "MR63"], 8, 22, "normal"),
    # Spear 7 x (X-Jet, Cerebro) + 7 x Shuri's Wakanda = 21.
    ("MR39", ["MR39", "MR37", "MR38", "MR16", "MR63"], 21, None, "normal"),
    # Mjolnir with Jane Foster (an ALLY with Worthy): 10; with Angel only: blanked;
    # with the card Worthy (kept: Baron Zemo 15 > 12): 10.
    ("MR40", ["MR40", "MR28", "MR63"], 10, 23, "normal"),
    ("MR40", ["MR40", "MR01", "MR63"], 0, 14, "blanked"),
    ("MR40", ["MR40", "MR35", "MR01", "MR65"], 10, 39, "normal"),
    ("MR41", ["MR41", "MR01", "MR63"], 9, 23, "normal"),
    ("MR41", ["MR41", "MR07", "MR63"], 0, 14, "blanked"),
    # Bifrost 11 with Factory; Factory 5 x Angel's Agility.
    ("MR42", ["MR42", "MR45", "MR01", "MR63"], 11, 30, "normal"),
    # Birnin Zana 7 x (Shuri, Dora Milaje).
    ("MR43", ["MR43", "MR16", "MR24", "MR63"], 14, None, "normal"),
    # Falling Debris 4 x (Colossus 2 Strength + Angel 1 Flight); Black Cat 13.
    ("MR44", ["MR44", "MR07", "MR01", "MR63"], 12, 37, "normal"),
    # Factory 5 x (1 Tech + 3 Agility).
    ("MR45", ["MR45", "MR02", "MR04", "MR63"], 20, 40, "normal"),
    # Halls of Asgard 9 x (Valkyrie, Heimdall).
    ("MR46", ["MR46", "MR21", "MR27", "MR63"], 18, None, "normal"),
    # Hidden Lair must blank a VILLAIN: Abomination (13 - 20) rather than Black Cat (8).
    ("MR47", ["MR47", "MR01", "MR62", "MR63"], 0, 14, "normal"),
    # ... but not with two Intel tags: Black Cat stays.
    ("MR47", ["MR47", "MR04", "MR24", "MR63"], 0, 20, "normal"),
    # High Speed Chase 3 x (1 Agility + 1 Flight + 2 Range); Black Cat 13.
    ("MR48", ["MR48", "MR01", "MR10", "MR63"], 12, 36, "normal"),
    # Krakoa 5 x (Angel, Colossus Mutant).
    ("MR49", ["MR49", "MR01", "MR07", "MR63"], 10, 30, "normal"),
    # Madripoor 8 x (Black Widow, Jean Grey Intel).
    ("MR50", ["MR50", "MR04", "MR11", "MR63"], 16, None, "normal"),
    ("MR51", ["MR51", "MR01", "MR65"], 0, 18, "normal"),
    ("MR51", ["MR51", "MR01", "MR63"], 0, 14, "blanked"),
    # Runaway Train 4 x (2 Strength + 1 Tech).
    ("MR52", ["MR52", "MR07", "MR02", "MR63"], 12, None, "normal"),
    # Skyscraper 4 x (3 Agility + 1 Flight).
    ("MR53", ["MR53", "MR01", "MR04", "MR63"], 16, None, "normal"),
    # Xavier Mansion 4; it doubles Colossus's Strength and Angel's Flight: Falling Debris 20.
    ("MR54", ["MR54", "MR07", "MR01", "MR44", "MR63"], 4, 49, "normal"),
    # The rulebook FAQ: 27 and 21.
    ("MR55", ["MR55", "MR29", "MR18", "MR08", "MR63"], 27, None, "normal"),
    ("MR55", ["MR55", "MR10", "MR29", "MR63"], 21, None, "normal"),
    # Hack In 6 x 2 Tech; Black Cat 8 - 5.
    ("MR56", ["MR56", "MR02", "MR10", "MR63"], 12, 26, "normal"),
    # Find Higher Ground 10 x min(2 Flight, 2 Range).
    ("MR57", ["MR57", "MR18", "MR09", "MR63"], 20, None, "normal"),
    # Precise Shot 12 x min(1 Intel, 2 Range).
    ("MR58", ["MR58", "MR04", "MR10", "MR63"], 12, None, "normal"),
    # Build Gadgets 13 x min(2 Tech, 1 Intel).
    ("MR59", ["MR59", "MR30", "MR02", "MR63"], 13, None, "normal"),
    ("MR60", ["MR60", "MR07", "MR53", "MR63"], 14, None, "normal"),
    ("MR60", ["MR60", "MR07", "MR45", "MR63"], 0, None, "normal"),
    # Discover Weakness 11 x min(1 Intel, 2 Agility); Black Cat 8 - 5 (a MANEUVER).
    ("MR61", ["MR61", "MR04", "MR63"], 11, 20, "normal"),
    ("MR62", ["MR62", "MR07"], 13, 19, "normal"),
    ("MR62", ["MR62", "MR01"], -7, -1, "normal"),
    # Black Cat 8 + 5 (Skyscraper) - 5 (Throw Car, which scores 0 without Strength).
    ("MR63", ["MR63", "MR01", "MR53", "MR60"], 8, None, "normal"),
    ("MR64", ["MR64", "MR21", "MR27"], 18, 29, "normal"),
    ("MR64", ["MR64", "MR21"], -2, 5, "normal"),
    ("MR65", ["MR65", "MR01", "MR02", "MR24"], 9, 27, "normal"),
    # Juggernaut must blank a LOCATION: Madripoor (0) rather than Skyscraper (8).
    ("MR66", ["MR66", "MR01", "MR53", "MR50"], 16, 30, "normal"),
    # Kang -10 + 5 x 4 different tags (Agility, Flight, Mutant, Tech).
    ("MR67", ["MR67", "MR01", "MR02"], 10, 22, "normal"),
    ("MR68", ["MR68", "MR16", "MR24"], 9, 17, "normal"),
    ("MR69", ["MR69", "MR01", "MR53"], 13, 27, "normal"),
    ("MR70", ["MR70", "MR01"], 15, 21, "normal"),
    # Magneto blanks Arc Reactor and every Tech tag is ignored: Runaway Train 0.
    ("MR71", ["MR71", "MR02", "MR36", "MR52"], 17, 23, "normal"),
    ("MR72", ["MR72", "MR01"], -6, 0, "normal"),
    ("MR72", ["MR72", "MR04", "MR24"], 14, 26, "normal"),
    # Sauron -7 + 7 x (2 Flight + 2 Range).
    ("MR73", ["MR73", "MR18", "MR09"], 21, 31, "normal"),
    ("MR74", ["MR74", "MR01", "MR02"], 12, 24, "normal"),
    ("MR74", ["MR74", "MR01"], -8, -2, "normal"),
    # Selene blanks Hawkeye (5) rather than Angel (6): 25 - 5.
    ("MR75", ["MR75", "MR01", "MR10"], 20, 26, "normal"),
    ("MR76", ["MR76", "MR01", "MR57"], 11, 17, "normal"),
    # The Leader 12 - 3 x 3 Strength - 3 x She-Hulk's Gamma = 0; She-Hulk 4 + 5.
    ("MR77", ["MR77", "MR07", "MR15"], 0, 15, "normal"),
    ("MR78", ["MR78", "MR65", "MR01"], 14, 32, "normal"),
    ("MR79", ["MR79", "MR02", "MR09"], 14, 26, "normal"),
    ("MR79", ["MR79", "MR02"], -6, 0, "normal"),
]


@pytest.mark.parametrize(("card_id", "hand", "points", "total", "state"), CASES)
def test_card_hand_worked(
    card_id: str, hand: list[str], points: int, total: int | None, state: str
) -> None:
    result = score_hand(hand)
    card = result.card(card_id)
    assert card.points == points, result.text()
    assert card.state == state, result.text()
    if total is not None:
        assert result.total == total, result.text()


def test_every_card_has_a_hand_worked_case() -> None:
    covered = {case[0] for case in CASES}
    assert covered == {card.id for card in default_catalogue()}


def test_hidden_lair_blanks_the_worst_villain() -> None:
    result = score_hand(["MR47", "MR01", "MR62", "MR63"])
    assert result.card("MR62").state == "blanked"
    assert result.card("MR62").blanked_by == "blanked by Hidden Lair"


def test_juggernaut_blanks_the_cheapest_location() -> None:
    result = score_hand(["MR66", "MR01", "MR53", "MR50"])
    assert result.card("MR50").blanked_by == "blanked by Juggernaut"
    assert result.card("MR53").points == 8


def test_selene_subtracts_the_blanked_cards_base_power() -> None:
    result = score_hand(["MR75", "MR01", "MR10"])
    assert result.card("MR10").state == "blanked"
    assert any("Hawkeye" in line for line in result.card("MR75").lines)


def test_selene_blanking_the_only_hero_leaves_an_invalid_hand() -> None:
    result = score_hand(["MR75", "MR01"])
    assert not result.valid and result.total == 0


def test_kingpin_and_toad_blanked_leave_no_villain() -> None:
    for hand in (["MR69", "MR01"], ["MR78", "MR01"]):
        result = score_hand(hand)
        assert result.cards[0].state == "blanked"
        assert not result.valid and result.total == 0


def test_taskmaster_blanks_maneuvers() -> None:
    result = score_hand(["MR76", "MR01", "MR57"])
    assert result.card("MR57").state == "blanked"
    assert result.card("MR57").points == 0


def test_magneto_blanks_equipment_and_ignores_tech() -> None:
    result = score_hand(["MR71", "MR02", "MR36", "MR52"])
    assert result.card("MR36").state == "blanked"
    assert result.card("MR52").points == 0
    assert "tech" not in result.card("MR02").tags


def test_transformed_cards_show_their_side() -> None:
    result = score_hand(["MR05", "MR15", "MR63"])
    hulk = result.card("MR05")
    assert hulk.side == "Hulk"
    assert hulk.tags == ["strength", "strength", "strength", "gamma"]
