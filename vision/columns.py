"""Cards in overlapping columns (a Mixtape laid by its rulebook: each Track card overlaps the
bottom of the card above it, its sides aligned with its column's): which two cards lie in one
column, and how far apart. A fan steps sideways from card to card; a tape steps down its
columns. :func:`in_columns` tells the two apart for :func:`vision.layers.fill_fan_gaps`, which
must not take a tape's two columns, read across, for a fan with cards missing between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

import vision.tuning as tuning
from vision.result import Card


class _Frame(NamedTuple):
    """A card's unit across (left to right) and down (top to bottom) directions, its width and
    height and its centre (photo px), from its corners (TL, TR, BR, BL of the face)."""

    across: np.ndarray
    down: np.ndarray
    width: float
    height: float
    centre: np.ndarray


def _frame(quad: np.ndarray) -> _Frame:
    q = np.asarray(quad, np.float64).reshape(4, 2)
    across = (q[1] - q[0] + q[2] - q[3]) / 2
    down = (q[3] - q[0] + q[2] - q[1]) / 2
    width, height = float(np.linalg.norm(across)), float(np.linalg.norm(down))
    return _Frame(
        across / max(width, 1e-9), down / max(height, 1e-9), width, height, q.mean(axis=0)
    )


def column_step(upper: np.ndarray, lower: np.ndarray) -> float | None:
    """How far down its column the card at ``lower`` lies from the one at ``upper``, in card
    heights, when the two lie in one column (turned alike, as wide, sides aligned) overlapping
    by a column step (``TAPE_MIN_STEP``-``TAPE_MAX_STEP``); else None."""
    return _column_step(_frame(upper), _frame(lower))


def _column_step(upper: _Frame, lower: _Frame) -> float | None:
    if float(upper.across @ lower.across) < tuning.TAPE_MIN_ALIGN:
        return None  # turned differently: not one column
    if abs(lower.width - upper.width) > tuning.TAPE_MAX_SIZE_CHANGE * upper.width:
        return None
    move = lower.centre - upper.centre
    if abs(float(move @ upper.across)) > tuning.TAPE_MAX_ASTRAY * upper.width:
        return None
    step = float(move @ upper.down) / max(upper.height, 1e-9)
    if not tuning.TAPE_MIN_STEP <= step <= tuning.TAPE_MAX_STEP:
        return None
    return step


def in_columns(cards: Sequence[Card]) -> bool:
    """Do two of the named ``cards`` lie in one column, the lower overlapping the upper by a
    column step (:func:`column_step`)? Each card's frame is worked out once, not once per pair
    and way (42 times for a fan of 7 cards)."""
    frames = [_frame(card.corners) for card in cards]
    return any(
        _column_step(a, b) is not None or _column_step(b, a) is not None
        for i, a in enumerate(frames)
        for b in frames[i + 1 :]
    )
