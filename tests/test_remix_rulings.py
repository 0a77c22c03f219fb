"""Marvel: Remix readings of issue 13, each worked by hand from the rulebook, the rulings and the
card facts (../shared/remix-cards.md), not by running the engine.

Card facts used below (power, tags, text):
  Angel 6 (agility flight mutant); Beast 6 (tech agility mutant); Storm 4 (flight range mutant);
  Cyclops 4 (range mutant; +3/each other Mutant tag); Bruce Banner 1 (tech gamma; transforms
  with any other Gamma tag -> Hulk 13, strength x3 gamma); Jean Grey 3 (intel range mutant;
  transforms with two or more other Mutant tags -> Phoenix 9, intel range range flight mutant);
  Tony Stark 3 (tech range; transforms with two or more Intel tags -> Iron Man 8, tech strength
  flight range); Spider-Man 5 (strength agility; with a LOCATION that has Urban +5 and gains a
  Flight tag); Rogue * (mutant); Dora Milaje 6 (intel agility wakanda); Moira MacTaggert 3
  (tech intel); X-Jet 7; Xavier Mansion 4; Krakoa 0 (+5/each Mutant tag); Madripoor 0 (urban;
  +8/each Intel tag); Skyscraper 0 (urban; +4/each Agility and Flight tag); Hidden Lair 0;
  Hack In 0 (intel; +6/each Tech tag); Black Cat 8 (+5 with a LOCATION that has Urban, -5/each
  MANEUVER); Baron Zemo 15 (boss; -3/each HERO); Loki 15 (asgard); Magneto 17 (mutant boss);
  Sauron -7 (+7/each Flight and Range tag); Sentinels 12 (-20 unless two or more Mutant tags);
  The Leader 12 (gamma boss; -3/each Strength tag, -3/each other Gamma tag); Fearless 16.
"""

from __future__ import annotations

import json

import pytest

from display.cli import main
from games.remix import choices_from_json, prepare, score_hand


def _choices(result: object) -> list[str]:
    return [c["choice"] for c in result.to_json()["choices"]]  # type: ignore[attr-defined]


def test_loki_draw_cannot_steer_a_choice() -> None:
    """Rulings: "Every choice is settled before the draw (a card drawn only if Loki is not
    blanked cannot steer whether he is): the best score without the draw, preferring a blanked
    Loki on a tie; then the drawn power is subtracted. The choices shown before and after the
    draw are the same."

    Loki, Hidden Lair, Sentinels, Angel, Storm: Intel 0, so Hidden Lair must blank a VILLAIN.
    Blank Sentinels: Loki 15 + Angel 6 + Storm 4 = 25. Blank Loki: Sentinels 12 (Angel and
    Storm give two Mutant tags) + 6 + 4 = 22. So Sentinels goes, and with Fearless drawn:
    15 - 16 + 6 + 4 = 9 (was 22: the draw made the engine blank Loki instead)."""
    hand = ["Loki", "Hidden Lair", "Sentinels", "Angel", "Storm"]
    before = score_hand(hand)
    after = score_hand(hand, loki_draw="Fearless")
    assert before.total == 25 and before.loki_owed
    assert after.total == 9 and not after.loki_owed
    assert after.card("MR70").points == 15 - 16
    assert before.card("MR74").state == after.card("MR74").state == "blanked"
    assert _choices(before) == _choices(after) == ["Hidden Lair blanks Sentinels"]


def test_loki_choices_are_the_same_before_and_after_the_draw_on_the_cli(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The same reading through ``tablekeeper remix score``: text and ``--json``."""
    hand = ["Loki", "Hidden Lair", "Sentinels", "Angel", "Storm"]
    outputs = []
    for extra in ([], ["--loki-draw", "Fearless"]):
        assert main(["remix", "score", *hand, *extra]) == 0
        text = capsys.readouterr().out
        assert main(["remix", "score", *hand, *extra, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        outputs.append(([ln for ln in text.splitlines() if ln.startswith("choice:")], data))
    (text_before, json_before), (text_after, json_after) = outputs
    assert text_before == text_after == ["choice: Hidden Lair blanks Sentinels"]
    assert json_before["choices"] == json_after["choices"]
    assert (json_before["total"], json_after["total"]) == (25, 9)


def test_loki_on_a_tie_prefers_a_blanked_loki() -> None:
    """Rulings: "... preferring a blanked Loki on a tie". Hidden Lair, Loki, Baron Zemo, Dora
    Milaje (one Intel, so Hidden Lair must blank a VILLAIN): blank Loki, Zemo 15 (no HERO) +
    Dora 6 = 21; blank Zemo, Loki 15 + Dora 6 = 21 before the draw. Tie: Loki is blanked, no
    draw is owed, and Fearless drawn changes nothing: 21."""
    hand = ["Hidden Lair", "Loki", "Baron Zemo", "Dora Milaje"]
    before = score_hand(hand)
    assert before.total == 21 and before.card("MR70").state == "blanked"
    assert not before.loki_owed
    after = score_hand(hand, loki_draw="Fearless")
    assert after.total == 21 and _choices(after) == _choices(before)


def test_rogue_copies_power_and_tag_as_one_package() -> None:
    """Rulings: "Rogue copies the other HERO's power and tag as they are when she acts; power
    and tag are one package (she copies both or nothing)."

    Rogue, Bruce Banner, The Leader: The Leader's Gamma turns Banner into Hulk (13, Strength x3,
    Gamma) before any tag text. The Leader: 12 - 3 x 3 Strength - 3 x 1 other Gamma = 0.
    Rogue copies Hulk: 13 and a Strength (or Gamma) tag, The Leader 12 - 12 - 3 = -3: total
    13 + 13 - 3 = 23. Copying nothing: 13 + 0 + 0 = 13. (Was 26: Hulk's 13 without a tag.)"""
    result = score_hand(["Rogue", "Bruce Banner", "The Leader"])
    assert result.total == 23
    assert result.card("MR13").points == 13 and result.card("MR77").points == -3
    assert result.card("MR05").side == "Hulk"
    (rogue,) = [c for c in result.choices if c["rule"] == "rogue_copy"]
    assert rogue["value"]["copy"] == "MR05" and rogue["value"]["tag"] in ("strength", "gamma")


def test_count_twice_does_not_stack() -> None:
    """Rulings: ""Count one of its tags twice" (Moira, Xavier Mansion) means two instances of
    that tag, however many texts say so: two texts on the same tag of the same HERO do not stack
    to three."

    Moira MacTaggert, Xavier Mansion, Cyclops, Krakoa, Sentinels: Cyclops's Mutant counted twice
    is 2 Mutant tags: Krakoa 5 x 2 = 10, Sentinels 12 (two Mutant tags), Cyclops 4 (his own tags
    are not "other"), Moira 3, Mansion 4: 33 (was 38, with three Mutant tags)."""
    result = score_hand(["Moira MacTaggert", "Xavier Mansion", "Cyclops", "Krakoa", "Sentinels"])
    assert result.total == 33
    assert result.card("MR49").points == 10
    assert result.card("MR08").tags.count("mutant") == 2


def test_magneto_silences_hack_in() -> None:
    """Rulings: "Magneto: an ignored Tech tag counts for nothing anywhere: not for Hack In's
    Intel, Arc Reactor, Kang, Ultron, Build Gadgets or a transform."

    Magneto, Hack In, Beast, Madripoor: Beast's Tech is ignored, so it is no Intel: Madripoor
    8 x 1 (Hack In's own Intel) = 8; Hack In +6/each Tech = 0. 17 + 0 + 6 + 8 = 31 (was 39:
    Madripoor for two Intel). And Magneto, Hack In, Tony Stark, Beast: one Intel, Tony stays
    Tony: 17 + 0 + 3 + 6 = 26."""
    result = score_hand(["Magneto", "Hack In", "Beast", "Madripoor"])
    assert result.total == 31 and result.card("MR50").points == 8
    assert result.card("MR56").points == 0
    tony = score_hand(["Magneto", "Hack In", "Tony Stark", "Beast"])
    assert tony.card("MR20").state == "normal" and tony.total == 26


def test_transforms_see_hack_ins_intel() -> None:
    """Rulings: "Transforms see every tag in play, not only printed ones: tags gained from other
    texts, doubled tags (Moira, Xavier Mansion) and Hack In's Intel all count."

    Tony Stark, Hack In, Beast, Black Cat: Intel = Hack In 1 + Tony's Tech 1 + Beast's Tech 1 = 3,
    so Tony is Iron Man (8). Hack In 6 x 2 Tech = 12, Beast 6, Black Cat 8 - 5 (a MANEUVER) = 3:
    8 + 12 + 6 + 3 = 29 (was 24 with Tony Stark 3)."""
    result = score_hand(["Tony Stark", "Hack In", "Beast", "Black Cat"])
    assert result.card("MR20").side == "Iron Man" and result.card("MR20").points == 8
    assert result.total == 29


def test_rogue_copying_gamma_turns_bruce_banner_into_hulk() -> None:
    """Rulings: "A card turns over as soon as its condition holds (checked before the first tag
    text and after each one) and stays turned."

    Rogue, Bruce Banner, Black Cat: Rogue copies Banner's power (1) and his Gamma tag; now Banner
    has another Gamma tag and turns into Hulk (13). Rogue keeps the 1 she copied: 1 + 13 + 8 = 22
    (was 10: Banner never turned)."""
    result = score_hand(["Rogue", "Bruce Banner", "Black Cat"])
    assert result.card("MR05").side == "Hulk" and result.card("MR13").points == 1
    assert result.total == 22


def test_a_doubled_mutant_tag_turns_jean_grey_into_phoenix() -> None:
    """Xavier Mansion, Beast, Jean Grey, Black Cat: the Mansion counts Beast's Mutant twice, so
    Jean Grey has two other Mutant tags and turns into Phoenix (9): 4 + 6 + 9 + 8 = 27 (was 21)."""
    result = score_hand(["Xavier Mansion", "Beast", "Jean Grey", "Black Cat"])
    assert result.card("MR11").side == "Phoenix"
    assert result.total == 27


def test_tag_texts_act_in_an_order_the_owner_picks() -> None:
    """Rulings: "Tag-changing texts ... act one at a time, in an order the owner picks ...; each
    sees the tags as they are when it acts (so X-Jet acting before Spider-Man's own Flight gives
    him two Flight tags)."

    X-Jet, Spider-Man, Skyscraper, Black Cat: X-Jet first gives Spider-Man Flight (and its Range),
    then he gains his own Flight: Skyscraper 4 x (1 Agility + 2 Flight) = 12; Spider-Man 5 + 5;
    X-Jet 7; Black Cat 8 + 5 = 13: 42. In the rulings' listed order (Spider-Man first) X-Jet
    skips him: 38. The engine reports the order, because it changes the score."""
    result = score_hand(["X-Jet", "Spider-Man", "Skyscraper", "Black Cat"])
    assert result.total == 42 and result.card("MR53").points == 12
    assert result.card("MR17").tags.count("flight") == 2
    order = [c for c in result.choices if c["rule"] == "tag_order"]
    assert order and order[0]["value"] == ["MR37", "MR17"]
    assert order[0]["choice"] == "tag texts act in this order: X-Jet, Spider-Man"
    # the reported choices reproduce the total; without the order it is the listed order
    prepared = prepare(["X-Jet", "Spider-Man", "Skyscraper", "Black Cat"])
    fixed = choices_from_json(prepared, result.to_json()["choices"])
    assert fixed.order == (0, 1)
    assert prepared.total_for(fixed) == 42
    listed = choices_from_json(
        prepared, [c for c in result.to_json()["choices"] if c is not order[0]]
    )
    assert prepared.total_for(listed) == 38


def test_a_turned_card_keeps_the_tags_it_gained() -> None:
    """Rulings: "... and stays turned; its gained tags stay with it."

    X-Jet, Jean Grey, Beast, Moira MacTaggert, Sauron: X-Jet acts first: Jean Grey, Beast and
    Moira gain Flight, Jean the Range too; then Moira counts Beast's Mutant twice and Jean turns
    into Phoenix (intel range range flight mutant), keeping X-Jet's Flight and Range. Flight:
    Phoenix 2, Beast 1, Moira 1 = 4; Range: Phoenix 3 = 3; Sauron -7 + 7 x 7 = 42. Phoenix 9,
    Beast 6, Moira 3, X-Jet 7: 67. (Moira first would turn Jean before X-Jet, who then skips her
    Flight: 60.)"""
    result = score_hand(["X-Jet", "Jean Grey", "Beast", "Moira MacTaggert", "Sauron"])
    assert result.card("MR11").side == "Phoenix"
    assert result.card("MR11").tags.count("flight") == 2
    assert result.card("MR73").points == 42 and result.total == 67


def test_a_blanked_selene_scores_nothing_and_her_subtraction_goes_with_her() -> None:
    """Rulings: "A card blanked after its own blanking text acted (Hidden Lair blanks Selene after
    Selene blanked a HERO) leaves that blank in place but scores nothing: Selene's subtraction
    is part of her score and goes with it."

    Selene, Hidden Lair, Hela, Fearless, Runaway Train, Thor Odinson, She-Hulk, Halls of Asgard.
    Card facts: Selene 25 (VILLAIN; blanks one HERO or ALLY and subtracts its base power), Hidden
    Lair 0 (blanks one VILLAIN unless two or more Intel tags), Hela 18 (VILLAIN, asgard; -20
    unless two or more other Asgard tags), Fearless 16 (CONDITION, agility; blanked with more
    than one HERO), Runaway Train 0 (+4/each Strength and Tech tag), Thor Odinson 4 (HERO,
    strength asgard worthy), She-Hulk 4 (HERO, strength gamma), Halls of Asgard 0 (+9/each other
    Asgard tag). Selene blanks She-Hulk (so Thor is the only HERO and Fearless stays); no Intel,
    so Hidden Lair must blank a VILLAIN: Selene. She-Hulk stays blanked; Selene's 25 and her -4
    both go. Hela 18 (Thor and Halls: two other Asgard) + Fearless 16 + Runaway Train 4 (Thor's
    Strength) + Thor 4 + Halls 18 (Hela, Thor) = 60. (Her -4 kept would be 56; Hidden Lair
    blanking Hela instead: 21 + 16 + 4 + 4 + 9 = 54.)"""
    result = score_hand(
        [
            "Selene",
            "Hidden Lair",
            "Hela",
            "Fearless",
            "Runaway Train",
            "Thor Odinson",
            "She-Hulk",
            "Halls of Asgard",
        ]
    )
    assert result.total == 60
    assert result.card("MR75").state == "blanked" and result.card("MR75").points == 0
    assert result.card("MR15").state == "blanked"  # the blank Selene made stays
    assert [result.card(c).points for c in ("MR64", "MR33", "MR52", "MR19", "MR46")] == [
        18,
        16,
        4,
        4,
        18,
    ]
    assert _choices(result)[:2] == ["Selene blanks She-Hulk", "Hidden Lair blanks Selene"]


def test_a_choice_whose_card_is_blanked_later_is_idle_not_void() -> None:
    """Rulings: "An owner's choice whose card is blanked later (Xavier Mansion doubled Jean Grey's
    Intel, then Selene blanks her) is idle from then on, not void: every text that acted before
    the blank saw the hand as it was then (Hidden Lair counted two Intel and blanked nothing)."

    Selene, Hidden Lair, Sauron, Berserk, Xavier Mansion, Vision, Jean Grey. Card facts: Sauron
    -7 (+7/each Flight and Range tag), Berserk 18 (CONDITION; chooses a HERO or ALLY, -3/each
    other HERO or ALLY), Xavier Mansion 4 (HEROES with Mutant may count a tag twice), Vision 3
    (HERO, worthy; two chosen tags), Jean Grey 3 (HERO, intel range mutant). Vision takes Flight
    and Range; the Mansion doubles Jean's Intel, so Hidden Lair (acting first) sees two Intel
    and blanks nothing; then Selene blanks Jean (25 - 3 = 22). Sauron -7 + 7 x 2 (Vision's
    Flight and Range; Jean's Range is gone) = 7; Berserk 18 (chose Vision, no other HERO left);
    Mansion 4; Vision 3: 22 + 7 + 18 + 4 + 3 = 54. (Were the doubling void, Hidden Lair would
    have seen no Intel and had to blank a VILLAIN.)"""
    hand = ["Selene", "Hidden Lair", "Sauron", "Berserk", "Xavier Mansion", "Vision", "Jean Grey"]
    result = score_hand(hand)
    assert result.total == 54
    assert result.card("MR11").state == "blanked"
    assert result.card("MR75").state == result.card("MR73").state == "normal"
    assert result.card("MR75").points == 22 and result.card("MR73").points == 7
    choices = _choices(result)
    assert "Xavier Mansion doubles Jean Grey's Intel" in choices
    assert "Selene blanks Jean Grey" in choices
    assert not [c for c in choices if c.startswith("Hidden Lair blanks")]
    order = [c for c in result.choices if c["rule"] == "blanking_order"]
    assert order and order[0]["value"] == ["MR47", "MR75"]  # Hidden Lair acts before Selene
    # the reported choices reproduce the total
    prepared = prepare(hand)
    assert prepared.total_for(choices_from_json(prepared, result.to_json()["choices"])) == 54
