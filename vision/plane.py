"""The table plane: every card lies on one table, so once one card is named its perspective
says how big and how square any other card must look there.

``to_card`` maps photo pixels to the canonical card's pixels on the table plane (the named
card's own fit), so on that plane every card is about ``CARD_W x CARD_H``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

import vision.tuning as tuning
from vision.geometry import (
    CARD_CORNERS,
    CARD_H,
    CARD_W,
    inverse,
    max_corner_cos,
    order_corners,
)
from vision.result import Card


def to_card_plane(cards: list[Card]) -> np.ndarray | None:
    """Photo -> canonical card coordinates of the best-supported named card (its table plane,
    in canonical card pixels), or None when nothing is named."""
    if not cards:
        return None
    best = max(cards, key=lambda c: c.inliers)
    h = cv2.getPerspectiveTransform(best.corners.astype(np.float32), CARD_CORNERS)
    return np.asarray(h, np.float64)


def consensus_plane(cards: list[Card]) -> np.ndarray | None:
    """Photo -> canonical card coordinates of the named card whose plane the other named cards
    agree with most (they are card-sized on it; most inliers breaks ties), or None. One card's
    corners extrapolated across a steep photo can be far off; most cards agree on the truth."""
    best: tuple[int, int] | None = None
    plane = None
    for card in cards:
        h = np.asarray(
            cv2.getPerspectiveTransform(card.corners.astype(np.float32), CARD_CORNERS), np.float64
        )
        agree = sum(card_sized(other.corners, h) for other in cards if other is not card)
        if best is None or (agree, card.inliers) > best:
            best, plane = (agree, card.inliers), h
    return plane


def card_sized(quad: np.ndarray, to_card: np.ndarray, tight: bool = False) -> bool:
    """Is ``quad`` (photo pixels) a card-sized, card-shaped rectangle on the table plane?
    ``tight``: for exact corners (a feature fit), not an outline's."""
    q = cv2.perspectiveTransform(np.asarray(quad, np.float64).reshape(1, 4, 2), to_card)[0]
    pts = q.tolist()
    if not all(math.isfinite(v) for p in pts for v in p):
        return False
    # Plain floats, not numpy calls on four points (the same numbers: the root of the sum of
    # squares, as np.linalg.norm takes it): the outline screening asks this of every outline.
    steps = [(pts[(i + 1) % 4][0] - pts[i][0], pts[(i + 1) % 4][1] - pts[i][1]) for i in range(4)]
    sides = [math.sqrt(dx * dx + dy * dy) for dx, dy in steps]
    short = min(sides[0] + sides[2], sides[1] + sides[3]) / 2
    long = max(sides[0] + sides[2], sides[1] + sides[3]) / 2
    low, high = tuning.PLANE_TIGHT_TOLERANCE if tight else tuning.PLANE_SIZE_TOLERANCE
    if not (low * CARD_W < short < high * CARD_W and low * CARD_H < long < high * CARD_H):
        return False
    if tight and abs((short / long) / (CARD_W / CARD_H) - 1.0) > tuning.PLANE_TIGHT_ASPECT:
        return False
    return max_corner_cos(q) <= (tuning.PLANE_TIGHT_COS if tight else tuning.PLANE_MAX_COS)


def completed_cards(quad: np.ndarray, to_card: np.ndarray) -> list[np.ndarray]:
    """Whole cards that an outline of a partly hidden card (one corner under another card)
    may belong to: on the table plane, an edge of the outline that is as long as a card's
    side and square to its neighbours at both ends is taken as that side of the card, and the
    card is completed on the outline's side of it. Photo pixels."""
    q = cv2.perspectiveTransform(np.asarray(quad, np.float64).reshape(1, 4, 2), to_card)[0]
    if not np.isfinite(q).all():
        return []
    try:
        from_card = inverse(to_card)
    except np.linalg.LinAlgError:
        return []
    centre = q.mean(axis=0)
    out = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        edge = b - a
        length = float(np.linalg.norm(edge))
        if length < 1e-6:
            continue
        unit = edge / length
        ends_square = True
        for corner, neighbour in ((a, q[(i - 1) % 4]), (b, q[(i + 2) % 4])):
            side = neighbour - corner
            cos = float(np.dot(unit, side) / (np.linalg.norm(side) + 1e-9))
            ends_square &= abs(cos) < tuning.COMPLETION_MAX_COS
        if not ends_square:
            continue
        normal = np.array([-unit[1], unit[0]])
        if np.dot(centre - a, normal) < 0:
            normal = -normal
        for along, across in ((CARD_W, CARD_H), (CARD_H, CARD_W)):
            if abs(length / along - 1.0) > tuning.COMPLETION_LENGTH_TOLERANCE:
                continue
            # The visible edge keeps its place; the card's far side is one card across.
            mid = (a + b) / 2
            half = unit * along / 2
            card = np.array(
                [mid - half, mid + half, mid + half + normal * across, mid - half + normal * across]
            )
            back = cv2.perspectiveTransform(card.reshape(1, 4, 2), from_card)[0]
            if np.isfinite(back).all():
                out.append(order_corners(back.astype(np.float32)))
    return out


def placed_on_plane(
    on_card: np.ndarray, in_photo: np.ndarray, to_card: np.ndarray
) -> np.ndarray | None:
    """A card's corners (photo pixels) from matches that lie along a strip of it: ``on_card``
    (canonical card pixels) matched at ``in_photo`` (photo pixels), fitted as the card lies on
    the table plane (``to_card``: photo -> canonical card pixels on the plane), turned and
    moved but not sheared, or None when the strip does not fit so.

    A fanned card lying under its neighbours shows a strip a third of its width; a fit of a
    strip in the photo (an affine or a homography) explains the strip and shears or swings
    the rest of the card (seed 2043: a fan's bottom card placed at IoU 0.57 with the truth, so
    its look denied its name and the fan's steps went wrong). On the table plane a card is
    rigid: a turn, a shift and (for the plane's own scale error) a size, which a strip as tall
    as the card fixes."""
    if len(on_card) < tuning.MIN_NAME_INLIERS:
        return None
    on_plane = cv2.perspectiveTransform(
        np.asarray(in_photo, np.float64).reshape(1, -1, 2), to_card
    )[0]
    source = np.asarray(on_card, np.float64).reshape(-1, 2)
    if not np.isfinite(on_plane).all():
        return None
    # The least-squares turn, size and shift of ``source`` onto ``on_plane`` (Umeyama).
    mean_s, mean_p = source.mean(axis=0), on_plane.mean(axis=0)
    s, p = source - mean_s, on_plane - mean_p
    spread = float((s * s).sum())
    if spread <= 0:
        return None
    u, sigma, vt = np.linalg.svd(p.T @ s)
    sign = np.diag([1.0, float(np.sign(np.linalg.det(u @ vt)) or 1.0)])
    turn = u @ sign @ vt
    size = float(np.trace(np.diag(sigma) @ sign)) / spread
    lo, hi = tuning.PLANE_TIGHT_TOLERANCE
    if not lo <= size <= hi:
        return None
    moved = size * s @ turn.T + mean_p
    residual = float(np.sqrt(((moved - on_plane) ** 2).sum(axis=1).mean()))
    if residual > tuning.STRIP_PLANE_RESIDUAL:
        return None
    corners = size * (CARD_CORNERS.astype(np.float64) - mean_s) @ turn.T + mean_p
    try:
        from_card = inverse(to_card)
    except np.linalg.LinAlgError:
        return None
    back = cv2.perspectiveTransform(corners.reshape(1, 4, 2), from_card)[0]
    return back.astype(np.float32) if np.isfinite(back).all() else None
