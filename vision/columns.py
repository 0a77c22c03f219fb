"""Cards in overlapping columns (a Mixtape laid by its rulebook: each Track card overlaps the
bottom of the card above it, its sides aligned with its column's): which two cards lie in one
column, and how far apart. A fan steps sideways from card to card; a tape steps down its
columns. :func:`in_columns` tells the two apart for :func:`vision.layers.fill_fan_gaps`, which
must not take a tape's two columns, read across, for a fan with cards missing between them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import vision.tuning as tuning
from vision.result import Card


def _frame(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
    """A card's unit across (left to right) and down (top to bottom) directions, its width and
    height (photo px), from its corners (TL, TR, BR, BL of the face)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    across = (q[1] - q[0] + q[2] - q[3]) / 2
    down = (q[3] - q[0] + q[2] - q[1]) / 2
    width, height = float(np.linalg.norm(across)), float(np.linalg.norm(down))
    return across / max(width, 1e-9), down / max(height, 1e-9), width, height


def column_step(upper: np.ndarray, lower: np.ndarray) -> float | None:
    """How far down its column the card at ``lower`` lies from the one at ``upper``, in card
    heights, when the two lie in one column (turned alike, as wide, sides aligned) overlapping
    by a column step (``TAPE_MIN_STEP``-``TAPE_MAX_STEP``); else None."""
    across, down, width, height = _frame(upper)
    across_low, _, width_low, _ = _frame(lower)
    if float(across @ across_low) < tuning.TAPE_MIN_ALIGN:
        return None  # turned differently: not one column
    if abs(width_low - width) > tuning.TAPE_MAX_SIZE_CHANGE * width:
        return None
    centre_up = np.asarray(upper, np.float64).reshape(4, 2).mean(axis=0)
    move = np.asarray(lower, np.float64).reshape(4, 2).mean(axis=0) - centre_up
    if abs(float(move @ across)) > tuning.TAPE_MAX_ASTRAY * width:
        return None
    step = float(move @ down) / max(height, 1e-9)
    if not tuning.TAPE_MIN_STEP <= step <= tuning.TAPE_MAX_STEP:
        return None
    return step


def in_columns(cards: Sequence[Card]) -> bool:
    """Do two of the named ``cards`` lie in one column, the lower overlapping the upper by a
    column step (:func:`column_step`)?"""
    return any(
        column_step(a.corners, b.corners) is not None
        or column_step(b.corners, a.corners) is not None
        for i, a in enumerate(cards)
        for b in cards[i + 1 :]
    )
