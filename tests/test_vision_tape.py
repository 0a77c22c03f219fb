"""A Mixtape laid by the rulebook (each Track card overlapping the bottom of the one above it,
sides aligned in two columns): the generated tape (vision.synth_hands.compose_tape), the
recogniser on it and the columns read top to bottom."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.galleries import generated_gallery
from vision import identify
from vision.bench.families import (
    FAMILIES,
    KNOWN_FAMILIES,
    Faces,
    family_photos,
    match_hand,
    turned_photo,
)
from vision.bench.main import families_gallery
from vision.bench.scoring import Tally
from vision.columns import column_step, in_columns
from vision.gallery import Gallery
from vision.geometry import order_corners, quad_area, quad_iou, rectify
from vision.layout import hand_axes, two_columns
from vision.result import Card
from vision.synth import render_card_face
from vision.synth_hands import TAPE_COVER, TAPE_RULE_COVER, compose_hand, compose_tape

NAMES = [f"EX{i:02d}" for i in range(1, 25)]


def _covered_share(upper: np.ndarray, lower: np.ndarray) -> float:
    shared, _ = cv2.intersectConvexConvex(upper.astype(np.float32), lower.astype(np.float32))
    return float(shared) / quad_area(upper)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_tape_is_two_columns_each_card_over_the_bottom_of_the_one_above(seed: int) -> None:
    a = [render_card_face(n) for n in NAMES[:4]]
    b = [render_card_face(n) for n in NAMES[4:7]]
    scene = compose_tape(a, b, np.random.default_rng(seed), table="felt")
    assert [c.index for c in scene.cards] == list(range(7))
    left, right = scene.cards[:4], scene.cards[4:]
    for column in (left, right):
        for upper, lower in zip(column, column[1:], strict=False):
            share = _covered_share(upper.corners, lower.corners)
            # the rule's overlap up to a tight tuck, give or take the hand's slack
            assert TAPE_COVER[0] - 0.05 < share < TAPE_COVER[1] + 0.05
            assert lower.center[1] > upper.center[1]  # each new card below the one above
            # sides aligned: the lower card's left edge, across the column, within a few % of
            # a card's width of the upper one's
            top = upper.corners[1] - upper.corners[0]
            width = float(np.linalg.norm(top))
            astray = float((lower.corners[0] - upper.corners[0]) @ top) / width
            assert abs(astray) < 0.08 * width
    # the columns lie apart: no card of Trk A touches one of Trk B
    for x in left:
        for y in right:
            assert _covered_share(x.corners, y.corners) == 0.0
    # the layout helper reads the true tape back as laid, the covered card being the upper one
    shuffled = [scene.cards[i] for i in (5, 2, 0, 6, 3, 1, 4)]
    got_a, got_b = two_columns(shuffled)
    assert [c.index for c in got_a] == [0, 1, 2, 3]
    assert [c.index for c in got_b] == [4, 5, 6]


def _turned(corners: np.ndarray, degrees: float) -> np.ndarray:
    """``corners`` turned clockwise on the picture (y down) about its middle."""
    t = np.radians(degrees)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return ((np.asarray(corners, np.float64) - (820, 616)) @ turn.T + (820, 616)).astype(np.float32)


@pytest.mark.parametrize("degrees", [30, 90, 135, 180, 270])
def test_a_tape_laid_facing_another_side_of_the_table_reads_as_laid(degrees: float) -> None:
    a = [render_card_face(n) for n in NAMES[:4]]
    b = [render_card_face(n) for n in NAMES[4:7]]
    scene = compose_tape(a, b, np.random.default_rng(1), table="felt")
    cards = [Card(f"c{s.index}", 1.0, _turned(s.corners, degrees)) for s in scene.cards]
    # One card not named: its corners come in the picture's order (top-left of the picture
    # first), not the card's own; the named ones still give the tape's frame.
    cards[5] = Card("unknown", 0.0, order_corners(cards[5].corners))
    shuffled = [cards[i] for i in (5, 2, 0, 6, 3, 1, 4)]
    got_a, got_b = two_columns(shuffled)
    assert [c.name for c in got_a] == ["c0", "c1", "c2", "c3"]
    assert [c.name for c in got_b] == ["c4", "unknown", "c6"]
    # Read by the picture's axes instead, the turned tape comes out in another order.
    if degrees in (90, 180, 270):
        by_picture = two_columns([c.center for c in shuffled])
        assert [list(map(tuple, col)) for col in by_picture] != [
            [tuple(c.center) for c in got_a],
            [tuple(c.center) for c in got_b],
        ]


def test_the_hand_frame_is_the_cards_own() -> None:
    upright = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    right, down = hand_axes([Card("a", 1.0, _turned(upright, 180))])
    assert np.allclose(right, [-1, 0], atol=1e-6) and np.allclose(down, [0, -1], atol=1e-6)
    right, down = hand_axes([Card("a", 1.0, _turned(upright, 90))])
    assert np.allclose(right, [0, 1], atol=1e-6) and np.allclose(down, [-1, 0], atol=1e-6)
    # points without corners, and cards whose top edges cancel out: the picture's axes
    for items in (
        [(1, 2), (3, 4)],
        [Card("a", 1.0, upright), Card("b", 1.0, _turned(upright, 180))],
    ):
        right, down = hand_axes(items)
        assert np.allclose(right, [1, 0]) and np.allclose(down, [0, 1])


def test_the_rule_overlap_is_the_marker_line_of_our_faces() -> None:
    # The stat box in a generated face's bottom-right corner stands in for the player count
    # marker: a card laid by the rule puts its top edge on that box's top line.
    face = render_card_face("EX01").astype(int)
    line = face.shape[0] - round(TAPE_RULE_COVER * face.shape[0])
    column = face.shape[1] - 30  # inside the stat box
    box = face[line + 2, column]
    assert np.abs(face[line : line + 10, column] - box).max() <= 2  # the box from the line down
    assert np.abs(face[line - 3, column] - box).max() > 10  # the frame just above it
    assert TAPE_COVER[0] == TAPE_RULE_COVER


def test_bench_tape_family_scores_the_cards_and_the_columns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.test_vision_hands import run

    code = run(["bench", "vision", "--families", "tape", "--family-photos", "1", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0
    row = next(line.split() for line in out.splitlines() if line.strip().startswith("tape "))
    photos, cards, named, unknown, missed, wrong = (int(x) for x in row[1:7])
    assert photos == 1 and 6 <= cards <= 10 and named + unknown + missed == cards
    assert wrong == 0
    assert re.search(r"tape: both columns read as laid .* in [01] of 1 photos", out)
    # the families, 'all', leave the tape out (their figures stay comparable)
    assert "tape" not in FAMILIES and "tape" in KNOWN_FAMILIES


def test_bench_turns_the_families_photos_as_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_vision_hands import run

    args = ["bench", "vision", "--families", "tape", "--family-photos", "1", "--seed", "3"]
    assert run([*args, "--turn", "180"]) == 0
    out = capsys.readouterr().out
    assert "turned 180 degrees clockwise" in out
    # the same tape, upside down to the camera, still reads as laid
    assert re.search(r"tape: both columns read as laid .* in 1 of 1 photos", out)
    with pytest.raises(SystemExit) as refused:  # a quarter turn only
        run([*args, "--turn", "45"])
    assert refused.value.code == 2 and "--turn" in capsys.readouterr().err
    assert run(["bench", "vision", "--turn", "90"]) == 2  # only the families' photos turn
    assert "--turn goes with --families" in capsys.readouterr().out  # (this runner prints it)


def test_a_turned_family_photo_keeps_its_truth_on_its_cards() -> None:
    faces = [(n, render_card_face(n)) for n in NAMES[:10]]
    (photo,) = family_photos("tape", 1, 3, faces, [])
    assert turned_photo(photo, 0) is photo
    originals = [rectify(photo.image, c) for c, _ in photo.truth]
    for degrees in (90, 180, 270, 360):
        turned = turned_photo(photo, degrees)
        assert turned.columns == photo.columns
        assert turned.image.shape[:2] == (
            photo.image.shape[:2] if degrees in (180, 360) else photo.image.shape[1::-1]
        )
        for (corners, name), (_, was), original in zip(
            turned.truth, photo.truth, originals, strict=True
        ):
            assert name == was
            # the card cut out at its turned corners is the card cut out before
            cut = rectify(turned.image, corners).astype(int)
            assert np.abs(cut - original).mean() < 3
    with pytest.raises(ValueError, match="quarter turn"):
        turned_photo(photo, 45)


def test_a_tapes_columns_are_not_a_fan_and_a_fan_is_not_a_tape() -> None:
    a = [render_card_face(n) for n in NAMES[:4]]
    b = [render_card_face(n) for n in NAMES[4:8]]
    tape = compose_tape(a, b, np.random.default_rng(2), table="felt")
    cards = [Card(f"c{s.index}", 1.0, s.corners) for s in tape.cards]
    steps = [column_step(u.corners, w.corners) for u, w in zip(cards, cards[1:], strict=False)]
    # down each column one step of 0.55-0.92 card heights; none from Trk A's bottom to Trk B
    assert all(s is not None and 0.5 < s < 0.95 for s in steps[:3] + steps[4:])
    assert steps[3] is None
    assert in_columns(cards) and in_columns(cards[:2]) and not in_columns([cards[0], cards[4]])
    fan = compose_hand(a + b, np.random.default_rng(2), layout="fan", table="felt")
    assert not in_columns([Card(f"c{s.index}", 1.0, s.corners) for s in fan.cards])


def test_a_tape_is_read_card_by_card_with_no_box_off_its_cards() -> None:
    # (The fan-gap guard itself: bench tape family seed 2028's first photo, where a tape's
    # columns read across passed for a fan and 13 "unknown card" boxes crossed it.)
    gallery = generated_gallery(NAMES)
    a = [render_card_face(n) for n in NAMES[:4]]
    b = [render_card_face(n) for n in NAMES[4:8]]
    tape = compose_tape(a, b, np.random.default_rng(2), table="felt")
    result = identify(tape.image, gallery)
    truth = {NAMES[s.index]: s.corners for s in tape.cards}
    for card in result.cards:
        assert card.name in truth and quad_iou(card.corners, truth[card.name]) > 0.7
    for report in result.unknown:  # each unknown box lies on a card of the tape
        assert any(quad_iou(report.corners, c) > 0.3 for c in truth.values())
    assert len(result.cards) >= 6


@pytest.fixture(scope="module")
def families_scans(real_cards: Path) -> tuple[Gallery, Faces]:
    gallery, faces, _ = families_gallery(real_cards)
    return gallery, faces


def test_no_card_is_guessed_between_a_tapes_two_columns(
    families_scans: tuple[Gallery, Faces],
) -> None:
    # A tape of ten real scans on felt (the tape family's first photo of seed 2028 while it
    # drew scans, not names): its two columns, read across, passed for a fan with cards
    # missing between them, and 13 "unknown card" boxes crossed the tape. A tape is no fan
    # (vision.columns.in_columns).
    gallery, faces = families_scans
    rng = np.random.default_rng([2028, zlib.crc32(b"tape")])
    count = int(rng.integers(6, 11))
    tape = [faces[i] for i in rng.choice(len(faces), size=count, replace=False)]
    trk_a = int(rng.integers(max(3, count - 5), min(5, count - 3) + 1))
    table, difficulty = (
        str(rng.choice(["wood", "cloth", "felt"])),
        str(rng.choice(["easy", "medium"])),
    )
    scene = compose_tape(
        [f for _, f in tape[:trk_a]],
        [f for _, f in tape[trk_a:]],
        rng,
        table=table,
        difficulty=difficulty,
    )
    truth: list[tuple[np.ndarray, str | None]] = [
        (c.corners, tape[c.index][0]) for c in scene.cards
    ]
    result = identify(scene.image, gallery)
    tally = Tally()
    match_hand(result, truth, tally)
    assert tally.wrong == 0
    assert tally.false <= 1
    assert tally.right >= 5
