"""`vision identify --annotate`'s copy of a photo: every card numbered in the part of it that
shows (a fanned hand's cards show a strip each, and names written across them overlapped), the
names listed by number on a panel in the corner that hides least of the cards."""

from __future__ import annotations

import cv2
import numpy as np

from vision.annotate import _inside_point, annotate
from vision.geometry import in_quad
from vision.result import REASON_NOT_IN_GALLERY, Card, Identification, UnknownCard


def quad(x: float, y: float, w: float = 200.0, h: float = 280.0) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_a_number_lands_inside_the_strip_that_shows() -> None:
    # An L-shaped part showing (a card under two neighbours): its centroid lies outside it.
    shown = np.array([[0, 0], [40, 0], [40, 240], [200, 240], [200, 280], [0, 280]], np.float32) + [
        300,
        100,
    ]
    x, y = _inside_point(shown, (720, 1280))
    mask = np.zeros((720, 1280), np.uint8)
    cv2.fillPoly(mask, [shown.astype(np.int32).reshape(-1, 1, 2)], 1)
    assert mask[y, x] == 1
    middle = shown.mean(axis=0)  # its corners' mean: outside it
    assert mask[int(middle[1]), int(middle[0])] == 0  # the premise


def test_a_fan_is_numbered_and_listed_away_from_the_cards() -> None:
    photo = np.full((720, 1280, 3), 128, np.uint8)
    # A fan in the top-left: each card shows its left 70 px under the next.
    cards = []
    for i, name in enumerate(["Angel", "Beast", "Loki"]):
        corners = quad(20 + 70 * i, 20)
        visible = quad(20 + 70 * i, 20, w=70.0) if i < 2 else None
        cards.append(Card(name, 0.9, corners, visible=visible))
    stranger = UnknownCard(quad(900, 400), REASON_NOT_IN_GALLERY, [])
    result = Identification(cards, [stranger], 0.1, (1280, 720))
    out = annotate(photo, result)
    assert out.shape == photo.shape
    # The panel darkens a corner, not the one the fan lies in.
    dark = [
        out[:40, :40].mean(),
        out[:40, -40:].mean(),
        out[-40:, :40].mean(),
        out[-40:, -40:].mean(),
    ]
    assert dark[0] > 60  # the fan's corner keeps the photo
    assert min(dark[1:]) < 60
    # Each number's box (black) lies in its card's part that shows: the strips stay distinct.
    for card in cards:
        part = card.visible if card.visible is not None else card.corners
        x, y = _inside_point(part, photo.shape[:2])
        assert in_quad(np.array([[x, y]], np.float32), part)[0]
        assert out[y, x].sum() < 3 * 128  # something drawn there, over the grey photo
