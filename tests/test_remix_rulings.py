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
