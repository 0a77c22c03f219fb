"""Leftovers: no card silently missed.

A card that is not enrolled matches nothing, so only its outline can report it - and an
outline is lost when the card touches another, lies steep or has a faint edge. But every card
is busy with print (text, art, frame): the photo's corner features crowd on cards and are
sparse on a table (measured on generated tables: 25-145 features per 10,000 work pixels on a
card, 0-3 on the table). So once the cards are named, features that no named or reported card
explains, crowded over a card-sized area, are a card: it is named like an outline if it can be
(a card the other cues missed), else reported unknown with a reason and its closest names.

A crowd is not always one card: print with a plain band (a flat art box) splits into scraps
too small for a card, and cards lying close together (or on a busy table) run into one crowd
too big for one; and a card near the camera of a steep photo looks twice the size of one far
off. So the crowded features are searched on the table plane (the plane most named cards
agree on), where every card has a card's size: a card-sized window, turned every few
degrees, is laid where it holds the most of them, taken as a card when its features look
like a card's print, and set aside before the next window.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

import vision.tuning as tuning
from vision.geometry import CARD_H, CARD_W, inverse, order_corners, quad_area, rotation
from vision.plane import consensus_plane
from vision.result import Card, UnknownCard

Rect = tuple[Sequence[float], Sequence[float], float]  # cv2's rotated rectangle


def free_features(
    points: np.ndarray,
    work_size: tuple[int, int],
    scale: float,
    cards: list[Card],
    unknown: list[UnknownCard],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The work-image feature ``points`` (x, y whole pixels) that no card named or reported
    covers, the mask of where they do (1 near a card), and a card's short side (work px; the
    named cards' median). The cards are grown by the card's print margin: their corners can
    be a few px off, and their border features must not be orphans. ``cards`` must not be
    empty."""
    card_area = float(np.median([quad_area(c.corners * scale) for c in cards]))
    short_side = float(np.sqrt(card_area * CARD_W / CARD_H))
    w, h = work_size
    grow = max(1, int(short_side * tuning.LEFTOVER_COVER_MARGIN))
    polygons = [
        np.round(quad * scale).astype(np.int32)
        for quad in [c.corners for c in cards] + [u.corners for u in unknown]
    ]
    # Filled and grown only inside the cards' box grown by that margin, the same mask (no
    # pixel beyond it is within reach of a card): over the whole work image the dilation
    # cost ~1.8 ms, and this runs twice a photo (the last look asks too).
    corners = np.concatenate(polygons).astype(np.int64)
    x0, y0 = np.maximum(corners.min(axis=0) - grow, 0).tolist()
    x1, y1 = np.minimum(corners.max(axis=0) + grow + 1, (w, h)).tolist()
    near_card = np.zeros((h, w), np.uint8)
    if x0 < x1 and y0 < y1:
        covered = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for polygon in polygons:
            cv2.fillPoly(covered, [polygon], 1, offset=(-x0, -y0))
        kernel = np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)
        near_card[y0:y1, x0:x1] = cv2.dilate(covered, kernel)
    xs = np.clip(points[:, 0].astype(np.int64), 0, w - 1)
    ys = np.clip(points[:, 1].astype(np.int64), 0, h - 1)
    free = near_card[ys, xs] == 0
    return xs[free], ys[free], near_card, short_side


def leftover_regions(
    points: np.ndarray,
    work_size: tuple[int, int],
    scale: float,
    cards: list[Card],
    unknown: list[UnknownCard],
) -> list[np.ndarray]:
    """Card-sized crowds of work-image feature ``points`` that no card or unknown covers, as
    photo-pixel quads (the crowd's rectangle on the table plane, grown by the card's print
    margin). Sized by the named cards: none named, none found."""
    if not cards or len(points) == 0:
        return []
    xs, ys, near_card, short_side = free_features(points, work_size, scale, cards, unknown)
    if len(xs) < tuning.LEFTOVER_MIN_FEATURES:
        return []
    w, h = work_size
    cell = max(4, int(short_side / tuning.LEFTOVER_CELLS_PER_SIDE))
    grid = np.zeros((h // cell + 1, w // cell + 1), np.float32)
    np.add.at(grid, (ys // cell, xs // cell), 1.0)
    window = max(1, int(round(tuning.LEFTOVER_WINDOW * short_side / cell)))
    density = cv2.boxFilter(grid, -1, (window, window), normalize=True) / float(cell * cell)
    crowded = (density * 10000.0 >= tuning.LEFTOVER_DENSITY).astype(np.uint8)
    pooled = crowded[ys // cell, xs // cell] > 0
    to_card = consensus_plane(cards)
    if to_card is None or pooled.sum() < tuning.LEFTOVER_MIN_FEATURES:
        return []
    pool = np.stack([xs[pooled], ys[pooled]], axis=1).astype(np.float64)
    return _card_windows(pool, scale, to_card, (xs, ys, near_card))


def _card_windows(
    pool: np.ndarray,
    scale: float,
    to_card: np.ndarray,
    table: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> list[np.ndarray]:
    """Cards among the crowded features ``pool`` (work pixels): on the table plane
    (``to_card``: photo -> canonical card pixels) the card-sized window holding most of them,
    then the next among the rest. A window's features must fill a card's rectangle, be
    crowded enough and stand out from the free table (``table``: free features and the mask
    of named cards). Photo-pixel quads."""
    on_plane = cv2.perspectiveTransform((pool / scale).reshape(1, -1, 2), to_card)[0]
    if not np.isfinite(on_plane).all():
        return []
    from_card = inverse(to_card)
    left = np.ones(len(pool), bool)
    regions = []
    for _ in range(tuning.LEFTOVER_MAX_WINDOWS):
        if left.sum() < tuning.LEFTOVER_MIN_FEATURES:
            break
        window = _busiest_window(on_plane[left])
        if window is None:
            break
        taken = left & _in_window(on_plane, window)
        left &= ~taken
        if taken.sum() < tuning.LEFTOVER_MIN_FEATURES:
            break  # the busiest window is a scrap: so are all the others
        rect = cv2.minAreaRect(on_plane[taken].astype(np.float32))
        if not _card_like(on_plane[taken], rect, CARD_W * CARD_H):
            continue
        corners = cv2.boxPoints(_grown(rect)).reshape(1, 4, 2).astype(np.float64)
        quad = cv2.perspectiveTransform(corners, from_card)[0].astype(np.float32)
        xs, ys, near_card = table
        if not _crowded(quad * scale, xs, ys, near_card):
            continue  # a sprinkle of the table's pattern over a card's size
        in_photo = _grown(cv2.minAreaRect(pool[taken].astype(np.float32)))
        if not _stands_out(in_photo, xs, ys, near_card):
            continue
        regions.append(order_corners(quad))
    return regions


def _busiest_window(points: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Centre and turn (degrees) of the card-sized window on the table plane that holds most
    of ``points`` (canonical card pixels), over turns every ``LEFTOVER_WINDOW_TURN`` degrees
    (a card's rectangle repeats after 180). None when the points spread absurdly wide (a
    plane seen edge-on)."""
    cell = CARD_W / tuning.LEFTOVER_CELLS_PER_SIDE
    kw, kh = tuning.LEFTOVER_CELLS_PER_SIDE, int(round(CARD_H / cell))
    best: tuple[float, np.ndarray, float] | None = None
    for turn in np.arange(0.0, 180.0, tuning.LEFTOVER_WINDOW_TURN):
        turned = points @ _rotation(-turn).T
        low = turned.min(axis=0)
        idx = ((turned - low) // cell).astype(np.int64) + [kw, kh]  # room for windows off the edge
        width, height = idx.max(axis=0) + [kw + 1, kh + 1]
        if width * height > tuning.LEFTOVER_MAX_GRID:
            return None
        grid = np.zeros((height, width), np.float64)
        np.add.at(grid, (idx[:, 1], idx[:, 0]), 1.0)
        total = cv2.integral(grid)
        counts = total[kh:, kw:] - total[:-kh, kw:] - total[kh:, :-kw] + total[:-kh, :-kw]
        row, col = np.unravel_index(int(np.argmax(counts)), counts.shape)
        if best is None or counts[row, col] > best[0]:
            centre = low + (np.array([col - kw, row - kh]) + [kw / 2, kh / 2]) * cell
            best = (float(counts[row, col]), _rotation(turn) @ centre, float(turn))
    return None if best is None else (best[1], best[2])


def _in_window(points: np.ndarray, window: tuple[np.ndarray, float]) -> np.ndarray:
    """Which ``points`` (table plane) lie in the card-sized window (centre, turn)."""
    centre, turn = window
    local = (points - centre) @ _rotation(-turn).T
    return (np.abs(local[:, 0]) <= CARD_W / 2) & (np.abs(local[:, 1]) <= CARD_H / 2)


def _rotation(degrees: float) -> np.ndarray:
    return rotation(np.radians(degrees))


def _card_like(points: np.ndarray, rect: Rect, card_area: float) -> bool:
    """Does a crowd (``points`` and their rectangle ``rect``) look like a card's print: big
    enough for a card's part, filling its rectangle, not a strip?"""
    (_, _), (rw, rh), _ = rect
    if rw * rh < tuning.LEFTOVER_MIN_AREA * card_area:
        return False  # a named card's stray corner
    fill = cv2.contourArea(cv2.convexHull(points.astype(np.float32))) / max(1.0, rw * rh)
    long_by_short = max(rw, rh) / max(1.0, min(rw, rh))
    return fill >= tuning.LEFTOVER_MIN_FILL and long_by_short <= tuning.LEFTOVER_MAX_ELONGATION


def _crowded(quad: np.ndarray, xs: np.ndarray, ys: np.ndarray, near_card: np.ndarray) -> bool:
    """Does the quad a window would report (work px: its rectangle on the table plane as the
    photo sees it) hold ``LEFTOVER_WINDOW_DENSITY`` free features per 10,000 px? Every free
    feature in it counts, not only those in the crowded cells that placed the window: the
    crowding pre-filter drops a card's sparser edges, which lie on the card all the same. And
    over the quad, not the photo's upright rectangle around the crowd: a card in perspective
    is a trapezoid, which leaves that rectangle's corners bare table (the warm-cast lighting
    scene 27's stranger: 148 crowded features against a bar of 150 over the rectangle; 160
    free features, 25 per 10,000 px, over its quad)."""
    inside = np.zeros_like(near_card)
    cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 1)
    area = int(inside.sum())
    return area > 0 and int(inside[ys, xs].sum()) >= tuning.LEFTOVER_WINDOW_DENSITY * area / 1e4


def _grown(rect: Rect) -> Rect:
    """A crowd's rectangle grown to the card's edge (features stop short of it)."""
    (cx, cy), (rw, rh), angle = rect
    return ((cx, cy), (rw * tuning.LEFTOVER_GROW, rh * tuning.LEFTOVER_GROW), angle)


def _stands_out(
    rect: Rect,
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
