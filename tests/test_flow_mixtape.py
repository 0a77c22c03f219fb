"""I Made You a Mixtape on the simulated appliance, end to end through the script runner with
the camera fed from generated scenes: enrolling cards with their printed attributes and the
Equalizer (written to the deck file the engine reads), importing an enrolment file, scoring two
mixtapes from photos (ranking with the balance tie-break), and a short solo game against Otto at
the table with an undo. The solo deck is cut down to 12 two-line cards so the game ends after
two rounds; every round runs the same code as a full game.

Set FLOW_SHOTS=/some/dir to keep the screenshots.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flowkit import run, shots_dir

from display.cards.enrolment import Enrolment
from display.checks.scenes import (
    columns_scene,
    example_mixtape_enrolment,
    scene,
    solo_deck_enrolment,
)
from games.mixtape import SoloGame, load_deck, load_example_deck, score_mixtape

HOME_TO_ENROL = "press right\npress right\npress right\npress ok\n"
HOME_TO_MIXTAPE = "press right\npress ok\n"
IMPORT = HOME_TO_ENROL + "press left\npress ok\npress ok\npress back\npress left\npress left\n"


def test_enrol_cards_with_attributes_and_equalizer(tmp_path: Path) -> None:
    state = tmp_path / "state"
    shots = shots_dir(tmp_path, "enrol-mixtape")
    faces = ["Tape one", "Tape two", "Tape three"]
    images = {"three.jpg": scene(faces, 41, size=(1640, 1232))}
    script = (
        HOME_TO_ENROL
        + """
        press right
        press ok
        shot 01-mixtape-enrol-menu
        press ok
        camera three.jpg
        press shutter
        shot 02-new-cards-named
        press ok
        shot 03-attributes-first-card
        press right
        press right
        press ok
        press right
        press ok
        press right
        press ok
        press right
        press ok
        press ok
        shot 04-attributes-last-field
        press ok
        shot 05-second-card-prefilled
        press seat1
        press right
        press right
        press right
        press right
        shot 06-third-card-wild
        press seat1
        press right
        press right
        press ok
        """
        + "press left\n" * 14
        + """
        press ok
        press right
        press right
        press right
        shot 07-equalizer
        press seat1
        shot 08-deck-ready
        """
    )
    run(tmp_path, state, script, images, shots)
    done = Enrolment(state, "mixtape")
    assert sorted(done.cards) == ["T01", "T02", "T03"]
    deck = load_deck(done.deck_path)
    assert list(deck.squares) == [3, 2, 4, 6, 9]
    assert deck.start == 4
    first, second, third = (deck.card(i) for i in ("T01", "T02", "T03"))
    assert (first.genre, first.side, first.balance, first.players) == ("punk", "B", 2, 2)
    assert sorted(first.top) == ["right"] and sorted(first.bottom) == ["center"]
    assert second.to_json() | {"id": "T01"} == first.to_json()  # pre-filled, saved as shown
    assert third.genre == "wild" and sorted(third.top) == ["center", "left", "right"]
    # The cards photographed in reading order got T01.. in that order: a new photo reads them.
    from display.cards.reading import read_photo

    reading = read_photo(scene(faces, 42), done.gallery())
    assert [c.name for c in reading.cards] == ["T01", "T02", "T03"]


@pytest.fixture(scope="module")
def example_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_mixtape_enrolment(tmp_path_factory.mktemp("mixtape-prep"))


def test_import_then_score_two_mixtapes(tmp_path: Path, example_export: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    shutil.copy(example_export, state / example_export.name)
    shots = shots_dir(tmp_path, "mixtape-score")
    deck = load_example_deck()
    ann = (["EX01", "EX03", "EX05"], ["EX02", "EX04", "EX06"])
    bob = (["EX07", "EX09", "EX11"], ["EX08", "EX10", "EX12"])
    images = {"ann.jpg": columns_scene(*ann, 51), "bob.jpg": columns_scene(*bob, 52)}
    dump = run(
        tmp_path,
        state,
        IMPORT
        + """
        shot 01-imported
        press ok
        shot 02-mixtape-menu
        press ok
        press ok
        type Ann
        press ok
        camera ann.jpg
        press shutter
        shot 03-ann-columns-read
        press ok
        shot 04-ann-score
        press ok
        camera bob.jpg
        press shutter
        press ok
        press ok
        press right
        press ok
        shot 05-ranking
        press back
        press left
        press left
        press left
        press ok
        shot 06-ann-reopened
        press back
        shot 07-ann-photo-again
        press ok
        press ok
        shot 08-table-still-two
        """,
        images,
        shots,
    )
    players = dump["store"]["mixtape"]["table"]["players"]
    assert [p["name"] for p in players] == ["Ann", "Player 2"]
    assert (players[0]["a"], players[0]["b"]) == (ann[0], ann[1])
    assert (players[1]["a"], players[1]["b"]) == (bob[0], bob[1])
    assert players[0]["score"] == score_mixtape(deck, *ann).to_json()
    assert players[1]["score"] == score_mixtape(deck, *bob).to_json()
    assert dump["screens"][-1]["kind"] == "mixtape.table"  # Ann re-saved in her place


SOLO_MAIN = [f"EX{n:02d}" for n in range(1, 13)]  # 12 two-line cards: 2 rounds after set-up
SOLO_OTTO = ["EX37", "EX38", "EX39", "EX40", "EX41", "EX42"]


def test_short_solo_game_against_otto(tmp_path: Path) -> None:
    export = solo_deck_enrolment(tmp_path / "prep", SOLO_MAIN + SOLO_OTTO)
    state = tmp_path / "state"
    state.mkdir()
    shutil.copy(export, state / export.name)
    shots = shots_dir(tmp_path, "mixtape-solo")
    deck = load_deck(Enrolment(tmp_path / "prep", "mixtape").deck_path)

    # What the engine does with these cards, to know whether Otto keeps one (extra card).
    # Your turn: EX05 and EX06 face up, EX07 face down (photographed only after the choice).
    setup, round1, round2 = ["EX02", "EX03"], ["EX05", "EX06"], ["EX04", "EX08", "EX10"]
    face_down = "EX07"
    expected = SoloGame.at_table(deck, setup[0], setup[1], seed=1)
    expected.draw(round1)
    expected.you_choose([round1[1]])
    expected.turn_up(face_down)
    expected.draw(round2)
    decision = expected.otto_turn()
    extra = "EX40"
    assert decision.extra_card and expected.phase == "otto-extra"  # Otto keeps one card
    expected.otto_extra(extra)
    expected.you_place()
    assert expected.phase == "over"

    images = {
        "setup.jpg": scene(setup, 61),
        "round1.jpg": scene(round1, 62),
        "face-down.jpg": scene([face_down], 65),
        "round2.jpg": scene(round2, 63),
        "extra.jpg": scene([extra], 64),
    }
    extra_steps = (
        "shot 07a-otto-keeps-one\ncamera extra.jpg\npress shutter\nshot 07b-extra-card\npress ok\n"
    )
    dump = run(
        tmp_path,
        state,
        IMPORT
        + "press ok\n"
        + """
        press right
        press ok
        shot 01-solo-setup
        camera setup.jpg
        press shutter
        shot 02-setup-photo
        press ok
        shot 03-your-turn
        camera round1.jpg
        press shutter
        press ok
        shot 04-choose
        press left
        press ok
        shot 05-after-wrong-choice
        press seat1
        shot 05b-undone
        press right
        press ok
        shot 05c-turn-the-face-down-card-up
        camera face-down.jpg
        press shutter
        press ok
        shot 06-otto-turn
        camera round2.jpg
        press shutter
        press ok
        """
        + extra_steps
        + """
        shot 08-otto-decided
        press ok
        shot 09-game-over
        """,
        images,
        shots,
    )
    solo = dump["store"]["mixtape"]["solo"]
    assert solo["phase"] == "over"
    assert solo["you"] == expected.you.to_json()
    assert solo["otto"] == expected.otto.to_json()
    assert solo["log"][-1]["decision"]["otto_takes"] == list(decision.otto_takes)
    history = dump["store"]["mixtape"]["solo_history"]
    assert len(history) >= 5  # every step can be undone
    # The face-down card is never named before your choice: not on the choosing screen.
    choosing = [h for h in history if h["game"] and h["game"]["phase"] == "you-choose"]
    assert choosing and all(h["game"]["face_down"] is None for h in choosing)
