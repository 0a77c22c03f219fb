"""Arranging found cards the way players read them: rows, or two columns.

Both helpers take any items that have a centre: objects with a ``center`` attribute
(:class:`vision.result.Card`, :class:`vision.synth.SceneCard`, ...) or plain ``(x, y)`` pairs.
They need no image, only positions, so a game can also use them on corrected positions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import cv2
import numpy as np

T = TypeVar("T")


def _center_of(item: Any) -> tuple[float, float]:
    center = getattr(item, "center", item)
    return float(center[0]), float(center[1])


def _typical_size(points: np.ndarray, sizes: Sequence[float] | None) -> float:
    if sizes:
        return float(np.median(sizes))
    if len(points) < 2:
        return 1.0
    # Nearest-neighbour distance is about one card across when cards are laid out in a grid.
    d = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
    d[d == 0] = np.inf
    return float(np.median(d.min(axis=1)))


def _size_of(item: Any) -> float | None:
    corners = getattr(item, "corners", None)
    if corners is None:
        return None
    c = np.asarray(corners, np.float32).reshape(-1, 2)
    span = c.max(axis=0) - c.min(axis=0)
    return float(min(span))


def reading_order(
    items: Sequence[T], center: Callable[[T], tuple[float, float]] | None = None
) -> list[list[T]]:
    """Group items into rows, top row first, each row left to right.

    Two items share a row when their centres are closer vertically than about half a card
    (taken from the items' corners when they have them, otherwise from their spacing), so a
    slightly crooked row still reads as one row.
    """
    if not items:
        return []
    get = center or _center_of
    pts = np.array([get(it) for it in items], np.float64)
    sizes = [s for s in (_size_of(it) for it in items) if s is not None]
    tolerance = 0.5 * _typical_size(pts, sizes)
    order = np.argsort(pts[:, 1], kind="stable")
    rows: list[list[int]] = []
    row_y: list[float] = []
    for i in order:
        y = pts[i, 1]
        if rows and abs(y - row_y[-1]) <= tolerance:
            rows[-1].append(int(i))
            row_y[-1] = float(np.mean(pts[rows[-1], 1]))
        else:
            rows.append([int(i)])
            row_y.append(float(y))
    return [[items[i] for i in sorted(row, key=lambda j: pts[j, 0])] for row in rows]


def reading_sequence(
    items: Sequence[T], center: Callable[[T], tuple[float, float]] | None = None
) -> list[T]:
    """The items in reading order as one flat list (rows top to bottom, left to right); a
    hand held in a fan (:func:`is_fan`) in its fan order (:func:`fan_sequence`)."""
    if center is None and is_fan(items):
        return fan_sequence(items)
    return [item for row in reading_order(items, center) for item in row]


def _corners_of(item: Any) -> np.ndarray | None:
    corners = getattr(item, "corners", None)
    if corners is None:
        return None
    return np.asarray(corners, np.float32).reshape(-1, 2)


# Two cards overlap (one lies partly over the other) when they share more than this share of
# the smaller one's area (a fan shows 35-50 % of each card: neighbours share 50-65 %).
FAN_OVERLAP = 0.1


def is_fan(items: Sequence[Any]) -> bool:
    """Do the items (with corners) lie in one overlapping hand: two or more cards, each
    overlapping another, all joined into one group?"""
    quads = [_corners_of(it) for it in items]
    if len(quads) < 2 or any(q is None or len(q) != 4 for q in quads):
        return False
    shapes = [np.asarray(q, np.float32) for q in quads if q is not None]
    areas = [abs(float(cv2.contourArea(q))) for q in shapes]
    group = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in range(len(shapes)):
            if j in group:
                continue
            shared, _ = cv2.intersectConvexConvex(shapes[i], shapes[j])
            if float(shared) > FAN_OVERLAP * max(1.0, min(areas[i], areas[j])):
                group.add(j)
                frontier.append(j)
    return len(group) == len(shapes)


def fan_sequence(items: Sequence[T]) -> list[T]:
    """A fanned hand left to right along its arc, as its holder reads it: the cards' centres
    projected on the hand's own left-to-right direction (:func:`hand_axes`), so a hand turned on
    the table still reads from its first card."""
    quads = [_corners_of(it) for it in items]
    if not items or any(q is None for q in quads):
        return list(items)
    right, _ = hand_axes(items)
    centres = np.array([_center_of(it) for it in items], np.float64)
    along = centres @ right
    return [items[i] for i in np.argsort(along, kind="stable")]


def hand_axes(items: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The hand's own right and down on the picture (unit vectors, x to the right and y down):
    right is the mean of the cards' top edges (top-left to top-right corner: a named card's
    corners follow the card itself, however it lies), down a quarter turn clockwise from it.
    A hand laid facing a player across the table, or at its side, is read as that player laid
    it. Items without corners, or whose edges cancel out: the picture's own axes."""
    quads = [_corners_of(it) for it in items]
    right = None
    if quads and all(q is not None and len(q) == 4 for q in quads):
        right = left_to_right([q for q in quads if q is not None])
    if right is None:
        return np.array([1.0, 0.0]), np.array([0.0, 1.0])
    return right, np.array([-right[1], right[0]])


def left_to_right(quads: Sequence[np.ndarray]) -> np.ndarray | None:
    """The unit mean of the quads' top edges (corner 0 to corner 1, each edge of unit length):
    the way a hand of them reads. None when there are none or their edges cancel out."""
    if not quads:
        return None
    edges = np.array([np.asarray(q, np.float64).reshape(4, 2)[1] - q[0] for q in quads])
    edges /= np.linalg.norm(edges, axis=1, keepdims=True) + 1e-9
    mean = edges.mean(axis=0)
    length = float(np.linalg.norm(mean))
    return None if length < 1e-6 else mean / length


def two_columns(
    items: Sequence[T], center: Callable[[T], tuple[float, float]] | None = None
) -> tuple[list[T], list[T]]:
    """Split items into a left and a right column, each top to bottom (Trk A, Trk B), in the
    tape's own frame when the items have corners (:func:`hand_axes`): a tape laid facing a
    player across the table, or at its side, reads as that player laid it.

    The split is at the widest gap across the tape between card centres, so it works wherever
    the two columns sit in the picture and however many cards each holds. A single item, or
    items all in one column (no gap wider than half a card), come back as the left column.
    """
    if not items:
        return [], []
    get = center or _center_of
    right, down = hand_axes(items)
    pts = np.array([get(it) for it in items], np.float64)
    across, along = pts @ right, pts @ down
    by_across = np.argsort(across, kind="stable")
    xs = across[by_across]
    sizes = [s for s in (_width_of(it) for it in items) if s is not None]
    min_gap = 0.5 * (float(np.median(sizes)) if sizes else _typical_size(pts, None))
    left_idx: list[int] = [int(i) for i in by_across]
    right_idx: list[int] = []
    if len(xs) >= 2:
        gaps = np.diff(xs)
        k = int(np.argmax(gaps))
        if gaps[k] > min_gap:
            left_idx = [int(i) for i in by_across[: k + 1]]
            right_idx = [int(i) for i in by_across[k + 1 :]]
    left = [items[i] for i in sorted(left_idx, key=lambda j: along[j])]
    right_column = [items[i] for i in sorted(right_idx, key=lambda j: along[j])]
    return left, right_column


def _width_of(item: Any) -> float | None:
    """A card's width whichever way it lies: the shorter of its top and left edges."""
    corners = _corners_of(item)
    if corners is None or len(corners) != 4:
        return _size_of(item)
    return float(
        min(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[3] - corners[0]))
    )
