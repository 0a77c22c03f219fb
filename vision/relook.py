"""Searching again where the first look found too little.

- *Second look*: when the photo is steep, a named card's perspective flattens the table and
  the search runs again on that straight-down view (:func:`vision.find.find_in_table_view`),
  where the first look saw a card it did not name (a crowd of its features away from the named
  cards). If the features named nothing, the cards named from their outlines give the
  perspective.
- *Last look*: where no card is named yet, ORB runs again with a more sensitive corner
  threshold for small or blurred cards the first budget under-sampled, on the pyramid's finer
  levels only (a card big enough for the coarse ones was found by the first look). Such a
  card must show its outline in the photo and fit the table plane tightly, since a card of the
  same layout that is not enrolled shares text and frame features with the references.
  It runs only where something is there: a card reported unknown (it may yet be named), or
  the first look's features crowding where no card is named (a card seen but not fitted or
  named). On a clean table with every card named it would spend a sixth of the photo's time
  finding nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

import vision.tuning as tuning
from vision.detect import edge_support
from vision.features import photo_features
from vision.find import Hypothesis, find_hypotheses, find_in_table_view, table_view
from vision.gallery import Gallery
from vision.geometry import CARD_CORNERS, CARD_H, CARD_W, in_quad
from vision.leftovers import free_features
from vision.name import Naming, name_hypotheses
from vision.photo import Photo
from vision.plane import card_sized, to_card_plane
from vision.result import Card, UnknownCard, dedupe_cards, explained, report_explained


def _as_hypotheses(cards: list[Card], scale: float) -> list[Hypothesis]:
    """Named cards (best-supported first) as hypotheses in the work image: their exact
    perspective corners flatten the table better than any feature fit."""
    return [
        Hypothesis(
            c.entry,
            cv2.getPerspectiveTransform(CARD_CORNERS, (c.corners * scale).astype(np.float32)),
            c.inliers,
            {},
        )
        for c in sorted(cards, key=lambda c: -c.inliers)
    ]


def _flat_view(photo: Photo, known: list[Hypothesis]) -> tuple[np.ndarray, tuple[int, int]] | None:
    """The straight-down view of the work image that the best of ``known`` gives (None when
    the photo is not steep: :func:`vision.find.table_view`)."""
    height, width = photo.gray.shape[:2]
    return table_view(known, width, height)


def second_look(
    photo: Photo,
    gallery: Gallery,
    named: list[Card],
    hypotheses: list[Hypothesis],
    accept: float,
    first_points: np.ndarray,
) -> tuple[list[Card], list[tuple[np.ndarray, Naming]]]:
    """Cards named in the straight-down view of a steep photo (and the weak namings there).
    ``first_points``: the first look's features (work pixels). The view is searched only
    where the first look saw something it did not name: a crowd of its features away from the
    named cards (:func:`_first_look_crowd`). Every card the view has added came with one; with
    every card on the table named, the search (a second ORB and find, a third of a steep
    photo's time) finds nothing."""
    known = _as_hypotheses(named, photo.scale) + hypotheses
    view = _flat_view(photo, known)
    if view is None:
        return [], []
    if named and _first_look_crowd(photo, named, first_points) < tuning.VIEW_MIN_FIRST_FEATURES:
        return [], []
    extra = find_in_table_view(photo.gray, view, known, gallery)
    return name_hypotheses(photo.image, photo.scale, gallery, extra, accept)


def _with_unexplained(cards: list[Card], new: list[Card]) -> list[Card]:
    out = list(cards)
    for card in new:
        if not explained(card.corners, out):
            out.append(card)
    return out


def second_look_from_outlines(
    photo: Photo, gallery: Gallery, cards: list[Card], unknown: list[UnknownCard], accept: float
) -> tuple[list[Card], list[UnknownCard]]:
    """The second look of a steep photo where ORB named nothing: the outline-named cards give
    the table's perspective."""
    known = _as_hypotheses(cards, photo.scale)
    view = _flat_view(photo, known)
    if view is None:
        return cards, unknown
    extra = find_in_table_view(photo.gray, view, known, gallery)
    more, _ = name_hypotheses(photo.image, photo.scale, gallery, extra, accept)
    cards = _with_unexplained(cards, dedupe_cards(more))
    return cards, [u for u in unknown if not report_explained(u, cards)]


def _uncovered(photo: Photo, cards: list[Card]) -> np.ndarray:
    """A mask of the work image where no named card lies."""
    mask = np.full(photo.gray.shape[:2], 255, np.uint8)
    for card in cards:
        cv2.fillConvexPoly(mask, np.round(card.corners * photo.scale).astype(np.int32), 0)
    return mask


def _first_look_crowd(
    photo: Photo, cards: list[Card], points: np.ndarray, unknown: list[UnknownCard] | None = None
) -> int:
    """The most first-look features (work ``points``) in any card-sized square away from the
    named cards and the ``unknown`` ones (:func:`vision.leftovers.free_features`). A card the
    first look saw but could not name is such a crowd; a table's pattern scatters a few
    features over the whole photo."""
    crowds = _crowds(photo, cards, points, unknown or [])
    return len(points) if crowds is None else int(round(float(crowds.counts.max(initial=0.0))))


@dataclass(frozen=True)
class _Crowds:
    """The first-look features away from the cards, counted in every card-sized square:
    ``counts[row, col]`` holds the square of grid cells ``row - 2 .. row + 1`` and
    ``col - 2 .. col + 1`` (cells ``cell`` work px wide); ``short_side``: a card's (work px)."""

    counts: np.ndarray
    cell: int
    short_side: float

    def crowded_boxes(self, at_least: int) -> list[tuple[float, float, float, float]]:
        """The squares holding ``at_least`` features, those that touch taken together, as
        work-pixel boxes (x0, y0, x1, y1)."""
        crowded = (self.counts >= at_least).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(crowded, connectivity=8)
        c = self.cell
        return [
            (
                float((x - _HALF) * c),
                float((y - _HALF) * c),
                float((x + w + _HALF - 1) * c),
                float((y + h + _HALF - 1) * c),
            )
            for x, y, w, h, _ in stats[1:n].tolist()
        ]


_SQUARE_CELLS = 4  # a crowd's square is this many cells a side (a card's short side)
_HALF = _SQUARE_CELLS // 2  # cv2.boxFilter's anchor in an even square: this many cells in


def _crowds(
    photo: Photo, cards: list[Card], points: np.ndarray, unknown: list[UnknownCard]
) -> _Crowds | None:
    """:class:`_Crowds` of the first look's ``points``; None when no card is named (no card
    size to count in)."""
    if len(points) == 0 or not cards:
        return None
    xs, ys, near_card, short_side = free_features(
        points, photo.work_size, photo.scale, cards, unknown
    )
    cell = max(4, int(short_side / _SQUARE_CELLS))
    h, w = near_card.shape
    grid = np.zeros((h // cell + 1, w // cell + 1), np.float32)
    if len(xs):
        np.add.at(grid, (ys // cell, xs // cell), 1.0)
    counts = cv2.boxFilter(grid, -1, (_SQUARE_CELLS, _SQUARE_CELLS), normalize=False)
    return _Crowds(counts, cell, short_side)


def _last_look_areas(
    photo: Photo, cards: list[Card], unknown: list[UnknownCard], first_points: np.ndarray
) -> list[tuple[int, int, int, int]]:
    """Where the last look searches (work-pixel boxes x0, y0, x1, y1, apart): around every
    card reported unknown that the first look under-sampled and every crowd of first-look
    features away from the cards, each grown by ``REST_AREA_REACH`` card long sides (the card
    a crowd is on may reach that far past it) and ORB's border; boxes that touch are one.
    With no card named, the whole photo. None of them: no search. Every card the last look
    added in the benchmarks lay at a crowd (seed 2026's 240 scenes and real photos, the
    families of seed 2032); a whole-photo search cost as much as the first ORB pass where
    the crowd is a phone or a page (the clutter family: ~23 of its ~35 ms)."""
    w, h = photo.work_size
    crowds = _crowds(photo, cards, first_points, unknown)
    if crowds is None:
        return [(0, 0, w, h)]
    boxes = crowds.crowded_boxes(tuning.REST_MIN_FIRST_FEATURES)
    for card in unknown:
        if _undersampled(photo, card, first_points):
            (x0, y0), (x1, y1) = card.corners.min(axis=0), card.corners.max(axis=0)
            k = photo.scale
            boxes.append((float(x0) * k, float(y0) * k, float(x1) * k, float(y1) * k))
    if not boxes:
        return []
    reach = tuning.REST_AREA_REACH * crowds.short_side * CARD_H / CARD_W + _ORB_REACH
    grown = [
        (
            max(0, int(x0 - reach)),
            max(0, int(y0 - reach)),
            min(w, int(np.ceil(x1 + reach))),
            min(h, int(np.ceil(y1 + reach))),
        )
        for x0, y0, x1, y1 in boxes
    ]
    return _merged_boxes(grown)


# px past an area's edge where ORB finds no corner on the last look's finest levels (its border,
# 19 px, at the third level's scale 1.25^2), so a corner at the edge is still found.
_ORB_REACH = 32


def _merged_boxes(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """``boxes`` with every two that overlap replaced by their bounding box, until none do."""
    merged = list(boxes)
    changed = True
    while changed:
        changed = False
        out: list[tuple[int, int, int, int]] = []
        for box in merged:
            for i, other in enumerate(out):
                if _overlap(box, other):
                    out[i] = (
                        min(box[0], other[0]),
                        min(box[1], other[1]),
                        max(box[2], other[2]),
                        max(box[3], other[3]),
                    )
                    changed = True
                    break
            else:
                out.append(box)
        merged = out
    return sorted(merged)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _undersampled(photo: Photo, card: UnknownCard, points: np.ndarray) -> bool:
    """Did the first look see few features on a card reported unknown (a dim, small or
    blurred card, which the more sensitive search may yet name)? A card it saw in full (a sharp
    stranger: hundreds of features) gains nothing from a second, finer search."""
    seen = int(in_quad(points, card.corners * photo.scale).sum()) if len(points) else 0
    return seen < tuning.REST_UNDERSAMPLED_FEATURES


def last_look(
    photo: Photo,
    gallery: Gallery,
    cards: list[Card],
    unknown: list[UnknownCard],
    accept: float,
    first_points: np.ndarray,
) -> tuple[list[Card], list[UnknownCard]]:
    """Cards found by a more sensitive search where no card is named yet. ``first_points``:
    the first look's features (work pixels). The search runs only where something is there:
    a card reported unknown (it may yet be named), or a crowd of first-look features away from
    the named cards (a card the first look saw but could not fit or name). On a clean table
    with every card named it would find nothing."""
    mask = _uncovered(photo, cards)
    if mask.mean() <= 255 * tuning.REST_MIN_UNCOVERED:
        return cards, unknown
    areas = _last_look_areas(photo, cards, unknown, first_points)
    if not areas:
        return cards, unknown
    found_points, found_descriptors = [], []
    sizes = [(x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in areas]
    for (x0, y0, x1, y1), size in zip(areas, sizes, strict=True):
        # The budget is shared by area, as one search over them all would spread it.
        points, descriptors = photo_features(
            photo.gray[y0:y1, x0:x1],
            max(1, round(tuning.REST_FEATURES * size / sum(sizes))),
            mask[y0:y1, x0:x1],
            fast_threshold=tuning.SENSITIVE_FAST_THRESHOLD,
            levels=tuning.REST_LEVELS,
        )
        found_points.append(points + np.array([x0, y0], np.float32))
        found_descriptors.append(descriptors)
    points, descriptors = np.concatenate(found_points), np.concatenate(found_descriptors)
    found, _ = find_hypotheses(points, descriptors, gallery, photo.work_size)
    named, _ = name_hypotheses(photo.image, photo.scale, gallery, found, accept, wide=True)
    to_card = to_card_plane(cards)
    out = list(cards)
    for card in dedupe_cards(named):
        if explained(card.corners, out):
            continue
        if edge_support(photo.image, card.corners) < tuning.MIN_EDGE_SUPPORT:
            continue
        if to_card is None and card.confidence < tuning.LOOSE_CONFIDENCE:
            continue
        if to_card is not None and not card_sized(card.corners, to_card, tight=True):
            continue
        out.append(card)
    return out, [u for u in unknown if not report_explained(u, out)]
