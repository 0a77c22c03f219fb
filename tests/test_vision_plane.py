"""The table plane (vision.plane): a fanned card lying under its neighbours, of which only a
strip shows, is placed whole as a card lies on the plane, not where a fit of the strip in the
photo shears it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import CARD_CORNERS, CARD_H, CARD_W, quad_iou
from vision.plane import placed_on_plane


def _tilted_table() -> np.ndarray:
    """A table seen from a camera tilted ~30 degrees: canonical card px on the plane -> photo px."""
    plane = np.array([[0, 0], [1000, 0], [1000, 800], [0, 800]], np.float32)
    photo = np.array([[300, 200], [1300, 200], [1450, 1000], [150, 1000]], np.float32)
    return cv2.getPerspectiveTransform(plane, photo).astype(np.float64)


def _card_at(turn_degrees: float, centre: tuple[float, float]) -> np.ndarray:
    """Canonical card -> plane: the card turned and moved on the table."""
    t = np.radians(turn_degrees)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    shift = np.array(centre) - rot @ np.array([CARD_W / 2, CARD_H / 2])
    return np.vstack([np.hstack([rot, shift[:, None]]), [0, 0, 1]])


def test_a_strip_of_a_card_is_placed_as_the_whole_card_lies_on_the_plane() -> None:
    plane_to_photo = _tilted_table()
    card_to_plane = _card_at(-12.0, (420.0, 380.0))
    card_to_photo = plane_to_photo @ card_to_plane
    rng = np.random.default_rng(1)
    # The strip that shows: the card's left third, top to bottom, matched to a pixel.
    strip = np.column_stack([rng.uniform(8, CARD_W / 3, 60), rng.uniform(8, CARD_H - 8, 60)])
    seen = cv2.perspectiveTransform(strip.reshape(1, -1, 2), card_to_photo)[0]
    seen += rng.normal(0, 0.7, seen.shape)
    truth = cv2.perspectiveTransform(
        CARD_CORNERS.reshape(1, 4, 2).astype(np.float64), card_to_photo
    )[0]
    # A fit of the strip alone in the photo (an affine of 9 matches, say) shears the far side.
    sheared = truth.copy()
    sheared[1:3] += np.array([60.0, 140.0])
    assert quad_iou(sheared, truth) < 0.8
    placed = placed_on_plane(strip, seen, np.linalg.inv(plane_to_photo))
    assert placed is not None
    assert quad_iou(placed, truth) > 0.97
    assert np.abs(placed - truth).max() < 6.0


def test_matches_that_no_turned_card_explains_place_nothing() -> None:
    plane_to_photo = _tilted_table()
    rng = np.random.default_rng(2)
    spots = np.column_stack([rng.uniform(8, CARD_W / 3, 40), rng.uniform(8, CARD_H - 8, 40)])
    seen = cv2.perspectiveTransform(
        spots.reshape(1, -1, 2), plane_to_photo @ _card_at(5.0, (500.0, 400.0))
    )[0]
    to_card = np.linalg.inv(plane_to_photo)
    # Half of them from another place: no single card's turn and shift explains them all.
    seen[::2] += 80.0
    assert placed_on_plane(spots, seen, to_card) is None
    # A card far bigger or smaller than a card on this plane is no card lying on it.
    big = cv2.perspectiveTransform(
        (spots * 1.6).reshape(1, -1, 2), plane_to_photo @ _card_at(5.0, (500.0, 400.0))
    )[0]
    assert placed_on_plane(spots, big, to_card) is None
    # Too few matches place nothing.
    assert placed_on_plane(spots[:5], seen[:5], to_card) is None
