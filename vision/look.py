"""A card's *look*: the upright card at about 1/8 size, and how two looks are compared.

At that size blur, noise and a few pixels of misalignment hardly matter, while the art and
colours of two cards still differ. Looks are compared after taking the gallery's typical card
away (what every card of one game shares: frame, title bar, text box), whole or cell by cell.
The verdicts drawn from them on a name are in :mod:`vision.appearance`.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class CellBasis:
    """A few orthonormal directions that hold most of what the gallery's look cells are made
    of, for bounding a card's cell correlations cheaply (:func:`cell_score_bounds`).
    ``directions``: B x D; ``coords``: each reference cell's coordinates along them, laid out
    cell by cell (12 x E x B); ``rest``: the length of what they leave of each reference
    cell (12 x E x 1)."""

    directions: np.ndarray
    coords: np.ndarray
    rest: np.ndarray


def _cosines(n: int) -> np.ndarray:
    """The orthonormal DCT-II matrix of size ``n`` (one frequency a row)."""
    k = np.arange(n)[:, None]
    x = np.arange(n)[None, :]
    m = np.cos(np.pi * (x + 0.5) * k / n) * np.sqrt(2.0 / n)
    m[0] /= np.sqrt(2.0)
    return m


# A cell's colours as grey and two colour differences (orthonormal): a card's print varies
# mostly in brightness.
_COLOURS = np.array(
    [
        [1.0 / np.sqrt(3), 1.0 / np.sqrt(3), 1.0 / np.sqrt(3)],
        [1.0 / np.sqrt(2), -1.0 / np.sqrt(2), 0.0],
        [1.0 / np.sqrt(6), 1.0 / np.sqrt(6), -2.0 / np.sqrt(6)],
    ]
)


def cell_basis(cells: np.ndarray, size: int) -> CellBasis:
    """The ``size`` cosine patterns (2-D DCT over a cell's rows and columns, times grey and two
    colour differences: an orthonormal basis of a cell, known without any fitting) that hold
    most of the references' look cells (``cells``: E x 12 x D, :func:`look_cells`), and the
    references' coordinates along them. Worked out separably in float64 (~58 M products for
    372 references), not as one D x D product."""
    count, grid, dims = cells.shape
    h, w = tuning.LOOK_CELL
    rows, cols = _cosines(h), _cosines(w)
    wide = cells.reshape(count * grid, h, w, 3).astype(np.float64)
    coef = np.einsum("uh,nhwc->nuwc", rows, wide)
    coef = np.einsum("vw,nuwc->nuvc", cols, coef)
    coef = np.einsum("sc,nuvc->nuvs", _COLOURS, coef).reshape(count * grid, dims)
    top = np.argsort(-np.einsum("nd,nd->d", coef, coef), kind="stable")[: max(0, size)]
    basis = np.einsum("uh,vw,sc->uvshwc", rows, cols, _COLOURS).reshape(dims, dims)[top]
    coords = coef[:, top].reshape(count, grid, len(top))
    rest_sq = np.einsum("nd,nd->n", wide.reshape(len(wide), -1), wide.reshape(len(wide), -1))
    rest_sq = rest_sq.reshape(count, grid) - np.einsum("ecb,ecb->ec", coords, coords)
    rest = np.sqrt(np.maximum(rest_sq, 0.0))
    return CellBasis(
        np.ascontiguousarray(basis.T, np.float32),
        np.ascontiguousarray(coords.transpose(1, 0, 2), np.float32),
        np.ascontiguousarray(rest.T[:, :, None], np.float32),
    )


# Multiply-adds of one matrix product under which OpenBLAS keeps it on the calling thread: a
# bigger one wakes helper threads, which spin (40 cards' bounds at once: 29 ms of CPU for
# 0.3 ms of work, default stack).
_ONE_THREAD_PRODUCT = 250_000


def cell_score_bounds(own: np.ndarray, cells: CellBasis) -> np.ndarray:
    """Upper bounds on cards' cell correlations with every reference (``own``: the cards' look
    cells, K x 12 x D, :func:`look_cells`): K x E x 12, each at least the exact dot product.
    Both cells are split into their parts along the basis and what it leaves: the exact
    product of the parts along it plus the product of the lengths of the rest
    (Cauchy-Schwarz), plus ``LOOK_BOUND_SLACK`` for float32 rounding. Small matrix products,
    a cell and a few cards at a time (:data:`_ONE_THREAD_PRODUCT`): 7 cards 0.25 ms, where
    their exact figures took 2.5 ms (both stacks)."""
    count, _, dims = own.shape
    refs, size = cells.coords.shape[1], cells.directions.shape[1]
    step = max(1, _ONE_THREAD_PRODUCT // max(1, max(dims, refs) * size))
    parts = [np.zeros((0, refs, own.shape[1]), np.float32)]
    for start in range(0, count, step):
        by_cell = np.ascontiguousarray(own[start : start + step].transpose(1, 0, 2))  # 12 x k x D
        mine = np.matmul(by_cell, cells.directions)  # 12 x k x B
        length_sq = np.einsum("ckd,ckd->ck", by_cell, by_cell)
        rest = np.sqrt(np.maximum(length_sq - np.einsum("ckb,ckb->ck", mine, mine), 0.0))
        inside = np.matmul(cells.coords, mine.transpose(0, 2, 1))  # 12 x E x k
        bounds = inside + cells.rest * rest[:, None, :] + tuning.LOOK_BOUND_SLACK
        parts.append(bounds.transpose(2, 1, 0))
    return np.ascontiguousarray(np.concatenate(parts), np.float32)
