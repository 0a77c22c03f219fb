"""The screening shortcuts of the outline and leftover steps (issue 39, speed) give the answers
of the plain computation they stand for: the cards' grown mask made only inside their box, and
the box test before an outline is measured against every named card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.tuning as tuning
from vision.geometry import CARD_H, CARD_W, inside, inverse, quad_area, quad_iou
from vision.leftovers import free_features
from vision.result import Card, UnknownCard, explained


def _card_quad(rng: np.random.Generator, centre: np.ndarray, size: float) -> np.ndarray:
    angle = rng.uniform(0, 2 * np.pi)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    shape = np.array([[-1, -1.4], [1, -1.4], [1, 1.4], [-1, 1.4]]) * size
    return (centre + shape @ turn.T).astype(np.float32)


def _whole_image_mask(work_size, scale, cards, unknown) -> np.ndarray:
    """The cards' mask as the plain definition has it: every card filled on the whole work
    image, grown by the card's print margin."""
    w, h = work_size
    short = float(
        np.sqrt(np.median([quad_area(c.corners * scale) for c in cards]) * CARD_W / CARD_H)
    )
    covered = np.zeros((h, w), np.uint8)
    for quad in [c.corners for c in cards] + [u.corners for u in unknown]:
        cv2.fillPoly(covered, [np.round(quad * scale).astype(np.int32)], 1)
    grow = max(1, int(short * tuning.LEFTOVER_COVER_MARGIN))
    return cv2.dilate(covered, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))


@pytest.mark.parametrize("seed", range(6))
def test_the_grown_card_mask_is_the_whole_image_one(seed: int) -> None:
    # Cards well inside the picture (the box is all that is grown), and cards over every edge
    # and wholly off it, at two work scales.
    rng = np.random.default_rng(seed)
    w, h = 900, 700
    scale = (1.0, 0.61)[seed % 2]
    if seed < 3:
        centres = [(300, 250), (600, 420), (rng.uniform(250, 650), rng.uniform(250, 450))]
    else:
        centres = [(450, 350), (-40, 300), (920, 650), (450, -60), (-400, -400)]
    cards = [
        Card(f"card {i}", 1.0, _card_quad(rng, np.array(c) / scale, rng.uniform(40, 120)))
        for i, c in enumerate(centres)
    ]
    corner = (w - 5, 5) if seed >= 3 else (450, 200)
    unknown = [UnknownCard(_card_quad(rng, np.array(corner) / scale, 60.0), "not in gallery")]
    points = rng.uniform([-5, -5], [w + 5, h + 5], (4000, 2)).astype(np.float32)
    xs, ys, near_card, _ = free_features(points, (w, h), scale, cards, unknown)
    want = _whole_image_mask((w, h), scale, cards, unknown)
    assert np.array_equal(near_card, want)
    px = np.clip(points[:, 0].astype(np.int64), 0, w - 1)
    py = np.clip(points[:, 1].astype(np.int64), 0, h - 1)
    free = want[py, px] == 0
    assert 0 < free.sum() < len(points)
    assert np.array_equal(xs, px[free]) and np.array_equal(ys, py[free])


def _explained_by_definition(quad: np.ndarray, cards: list[Card]) -> bool:
    q = np.asarray(quad, np.float32)
    return any(
        quad_iou(q, c.corners) > tuning.EXPLAINED_IOU
        or inside(q.mean(axis=0), c.corners)
        or inside(c.center, q)
        for c in cards
    )


def test_an_outline_is_explained_exactly_when_the_definition_says() -> None:
    rng = np.random.default_rng(39)
    answers = []
    for _ in range(400):
        cards = [
            Card("c", 1.0, _card_quad(rng, rng.uniform(0, 1000, 2), rng.uniform(30, 120)))
            for _ in range(4)
        ]
        quad = _card_quad(rng, rng.uniform(0, 1000, 2), rng.uniform(20, 160))
        answers.append(explained(quad, cards))
        assert answers[-1] == _explained_by_definition(quad, cards)
    assert 0 < sum(answers) < len(answers)  # both answers were asked for


@pytest.mark.parametrize("seed", range(4))
def test_the_lapack_free_inverse_is_numpys(seed: int) -> None:
    # Homographies as the pipeline makes them (a card's corners to the canonical card) and a
    # nearly singular one: the same inverse as np.linalg.inv, to rounding.
    rng = np.random.default_rng(seed)
    corners = _card_quad(rng, rng.uniform(200, 800, 2), rng.uniform(40, 200))
    corners += rng.normal(0, 8, corners.shape).astype(np.float32)  # a perspective, not affine
    card = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    for matrix in (
        np.asarray(cv2.getPerspectiveTransform(corners, card), np.float64),
        np.diag([1.0, 1e-9, 1.0]) + rng.normal(0, 1e-3, (3, 3)),
    ):
        expected = np.linalg.inv(matrix)
        np.testing.assert_allclose(inverse(matrix), expected, rtol=1e-9, atol=1e-12)


def test_the_lapack_free_inverse_refuses_a_singular_matrix() -> None:
    with pytest.raises(np.linalg.LinAlgError):
        inverse(np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]]))


@pytest.mark.parametrize("degrees", [0, 45, 90, 135])
@pytest.mark.parametrize("sigma", [1.0, 3.0])
def test_a_blur_along_a_line_is_the_whole_kernels(degrees: int, sigma: float) -> None:
    # The blur applied in halves (OpenCV's direct filter) is the whole line kernel's, to
    # float rounding, borders included.
    from vision.detect import _line_blur, _line_gaussian

    rng = np.random.default_rng(degrees)
    gray = cv2.GaussianBlur(rng.random((234, 168)).astype(np.float32) * 255, (0, 0), 1.0)
    whole = cv2.filter2D(gray, -1, _line_gaussian(sigma, degrees))
    np.testing.assert_allclose(_line_blur(gray, sigma, degrees), whole, atol=1e-3)
