"""Leftovers: no card silently missed.

A card that is not enrolled matches nothing, so only its outline can report it - and an
outline is lost when the card touches another, lies steep or has a faint edge. But every card
is busy with print (text, art, frame): the photo's corner features crowd on cards and are
sparse on a table (measured on generated tables: 25-145 features per 10,000 work pixels on a
card, 0-3 on the table). So once the cards are named, features that no named or reported card
explains, crowded over a card-sized area, are a card: it is named like an outline if it can be
(a card the other cues missed), else reported unknown with a reason and its closest names.
"""

from __future__ import annotations

import cv2
import numpy as np

import vision.tuning as tuning
from vision.geometry import CARD_H, CARD_W, order_corners, quad_area
from vision.result import Card, UnknownCard


def leftover_regions(
    points: np.ndarray,
    work_size: tuple[int, int],
    scale: float,
    cards: list[Card],
    unknown: list[UnknownCard],
) -> list[np.ndarray]:
    """Card-sized crowds of work-image feature ``points`` that no card or unknown covers, as
    photo-pixel quads (the crowd's bounding rectangle, grown by the card's print margin).
    Sized by the named cards: none named, none found."""
    if not cards or len(points) == 0:
        return []
    card_area = float(np.median([quad_area(c.corners * scale) for c in cards]))
    short_side = float(np.sqrt(card_area * CARD_W / CARD_H))
    w, h = work_size
    covered = np.zeros((h, w), np.uint8)
    for quad in [c.corners for c in cards] + [u.corners for u in unknown]:
        cv2.fillPoly(covered, [np.round(quad * scale).astype(np.int32)], 1)
    grow = max(1, int(short_side * tuning.LEFTOVER_COVER_MARGIN))
    near_card = cv2.dilate(covered, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    xs = np.clip(points[:, 0].astype(np.int64), 0, w - 1)
    ys = np.clip(points[:, 1].astype(np.int64), 0, h - 1)
    free = near_card[ys, xs] == 0
    xs, ys = xs[free], ys[free]
    if len(xs) < tuning.LEFTOVER_MIN_FEATURES:
        return []
    cell = max(4, int(short_side / tuning.LEFTOVER_CELLS_PER_SIDE))
    grid = np.zeros((h // cell + 1, w // cell + 1), np.float32)
    np.add.at(grid, (ys // cell, xs // cell), 1.0)
    window = max(1, int(round(tuning.LEFTOVER_WINDOW * short_side / cell)))
    density = cv2.boxFilter(grid, -1, (window, window), normalize=True) / float(cell * cell)
    crowded = (density * 10000.0 >= tuning.LEFTOVER_DENSITY).astype(np.uint8)
    count, labels = cv2.connectedComponents(crowded, connectivity=8)
    regions = []
    for label in range(1, count):
        inside = labels[ys // cell, xs // cell] == label
        if inside.sum() < tuning.LEFTOVER_MIN_FEATURES:
            continue
        crowd = np.stack([xs[inside], ys[inside]], axis=1).astype(np.float32)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(crowd)
        low, high = tuning.LEFTOVER_AREA
        if not low * card_area <= rw * rh <= high * card_area:
            continue  # a named card's stray corner, or the table's pattern spread wide
        grown = ((cx, cy), (rw * tuning.LEFTOVER_GROW, rh * tuning.LEFTOVER_GROW), angle)
        fill = cv2.contourArea(cv2.convexHull(crowd)) / max(1.0, rw * rh)
        long_by_short = max(rw, rh) / max(1.0, min(rw, rh))
        if fill < tuning.LEFTOVER_MIN_FILL or long_by_short > tuning.LEFTOVER_MAX_ELONGATION:
            continue  # print fills a card's rectangle; a scatter on the table does not
        if not _stands_out(grown, xs, ys, near_card):
            continue
        quad = cv2.boxPoints(grown).astype(np.float32) / scale
        regions.append(order_corners(quad))
    return regions


def _stands_out(
    rect: tuple[tuple[float, float], tuple[float, float], float],
    xs: np.ndarray,
    ys: np.ndarray,
    near_card: np.ndarray,
) -> bool:
    """Is the crowd in ``rect`` denser than the free table around it (a ring as wide again)?
    A busy table (confetti, print) is crowded everywhere; a card stands out from it."""
    (cx, cy), (rw, rh), angle = rect
    ring_rect = ((cx, cy), (rw * tuning.LEFTOVER_RING, rh * tuning.LEFTOVER_RING), angle)
    inside = np.zeros_like(near_card)
    cv2.fillPoly(inside, [np.round(cv2.boxPoints(rect)).astype(np.int32)], 1)
    ring = np.zeros_like(near_card)
    cv2.fillPoly(ring, [np.round(cv2.boxPoints(ring_rect)).astype(np.int32)], 1)
    ring[(inside > 0) | (near_card > 0)] = 0
    ring_area = int(ring.sum())
    if ring_area == 0:
        return True  # hemmed in by cards: nothing to compare with
    own = int(inside[ys, xs].sum()) / max(1, int(inside.sum()))
    around = int(ring[ys, xs].sum()) / ring_area
    return own >= tuning.LEFTOVER_OVER_TABLE * around
