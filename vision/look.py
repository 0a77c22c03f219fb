"""A card's *look*: the upright card at about 1/8 size, and how two looks are compared.

At that size blur, noise and a few pixels of misalignment hardly matter, while the art and
colours of two cards still differ. Looks are compared after taking the gallery's typical card
away (what every card of one game shares: frame, title bar, text box), whole or cell by cell.
The verdicts drawn from them on a name are in :mod:`vision.appearance`.
"""

from __future__ import annotations

import cv2
import numpy as np

import vision.tuning as tuning
from vision.photometry import standard_look


def card_look(card: np.ndarray) -> np.ndarray:
    """A card's look: the upright card image at about 1/8 size (colour, uint8, 38 x 54 after
    a two-pixel margin is dropped), slightly blurred."""
    small = cv2.resize(card, tuning.LOOK_SIZE, interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    m = tuning.LOOK_MARGIN
    return np.ascontiguousarray(small[m:-m, m:-m])


def look_shape() -> tuple[int, int, int]:
    """(rows, columns, channels) of one look."""
    width, height = tuning.LOOK_SIZE
    return height - 2 * tuning.LOOK_MARGIN, width - 2 * tuning.LOOK_MARGIN, 3


def typical_look(looks: np.ndarray) -> np.ndarray:
    """The typical card of a gallery: the mean of its looks, each with the light taken out
    (:func:`vision.photometry.standard_look`); float32."""
    return np.asarray(standard_look(looks).mean(axis=0), np.float32)


def look_residuals(looks: np.ndarray, typical: np.ndarray) -> np.ndarray:
    """Looks (K x 54 x 38 x 3) with the light taken out and the typical card taken away:
    what is left is what makes each card itself (its art, its colours), not the layout every
    card of one game shares (frame, title bar, text box)."""
    return np.asarray(standard_look(looks) - typical[None], np.float32)


def look_vectors(residuals: np.ndarray) -> np.ndarray:
    """Residual looks (:func:`look_residuals`) as unit vectors, so the correlation of two says
    whether two images show the same *card*, not just the same layout."""
    diff = residuals.reshape(len(residuals), -1).astype(np.float32)
    diff -= diff.mean(axis=1, keepdims=True)
    diff /= np.linalg.norm(diff, axis=1, keepdims=True) + 1e-6
    return diff


def look_cells(residuals: np.ndarray) -> np.ndarray:
    """Looks with the typical card taken away (K x 54 x 38 x 3 float32) cut into a 4 x 3 grid
    of cells, each a zero-mean unit vector: K x 12 x D. Comparing cell by cell and taking the
    median lets a card half under another card or a glare spot still be compared fairly."""
    rows, cols = tuning.LOOK_CELLS
    h, w = tuning.LOOK_CELL
    k = len(residuals)
    grid = residuals[:, : rows * h, : cols * w].reshape(k, rows, h, cols, w, -1)
    cells = grid.transpose(0, 1, 3, 2, 4, 5).reshape(k, rows * cols, -1).astype(np.float32)
    cells -= cells.mean(axis=2, keepdims=True)
    cells /= np.linalg.norm(cells, axis=2, keepdims=True) + 1e-6
    return cells
