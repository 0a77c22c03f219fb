"""Name: a card region rectified from the full photo, compared with a shortlist of references
feature by feature *at the same position on the card*.

The geometric inliers (a homography fitted by USAC) of the best reference against the best
reference of another name give the confidence (:func:`confidence_from_inliers`) and the exact
corners. A name the features are not fully sure of gets a second opinion from the card's look
(:mod:`vision.appearance`).
"""

from __future__ import annotations

import functools
import itertools
import math
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar, cast

import cv2
import numpy as np

import vision.tuning as tuning
from vision.appearance import confidence_from_look, look_contradicts, look_patch, look_similarities
from vision.detect import sharpness
from vision.features import (
    card_features,
    global_descriptor,
    hamming_at,
    pick,
    repeat_runs,
    run_members,
)
from vision.find import Hypothesis, Votes, shortlist_by_index
from vision.frame import counted_features, interior
from vision.gallery import Gallery
from vision.geometry import (
    CARD_CORNERS,
    CARD_H,
    CARD_W,
    corners_from_homography,
    in_quad,
    inverse,
    plausible_card,
    quad_iou,
    rectify,
)
from vision.plane import card_sized, consensus_plane, placed_on_plane
from vision.result import Candidate, Card
from vision.timing import part


@dataclass
class Naming:
    """The best name for one card region: its reference (``entry``), geometric inliers, the
    best other name's inliers, the confidence, the reference -> patch fit (to refine corners),
    every name's score (for the pick-list), the share of the card the fit's inliers
    spread over (the area of their hull; :attr:`pins_corners`) and how many of its inliers
    lie inside the card's outer band (``placing``; the rest are the reference's own features
    in that band, :mod:`vision.frame`)."""

    entry: int
    name: str
    inliers: int
    rival_inliers: int
    confidence: float
    refine: np.ndarray | None  # canonical reference -> rectified patch
    scores: dict[str, int]
    cover: float = 1.0
    placing: int | None = None  # None: all of them

    @property
    def placing_inliers(self) -> int:
        """The inliers that say where the card lies: those inside its outer band. The band's
        own features (a room card's titles along its left edge) name a card but lie along
        one edge, and a fit to them swings the corners it extrapolates to (seed 2028's fan:
        a room named from 44 of them kept corners 20 px off and two neighbours went
        missing)."""
        return self.inliers if self.placing is None else self.placing

    @property
    def placing_confidence(self) -> float:
        """How sure the name would be on the inliers that place the card alone: a name its
        band's own features make sure may still rest on corners a little off."""
        return confidence_from_inliers(self.placing_inliers, self.rival_inliers)

    @property
    def pins_corners(self) -> bool:
        """Do the fit's inliers say where the card's corners are: enough of them, spread over
        enough of the card? A homography fitted to a strip of the card (the title line a fan
        shows, one column of a room card) explains the strip and swings the corners it
        extrapolates to, the further the narrower the strip."""
        return (
            self.placing_inliers >= tuning.MIN_NAME_INLIERS
            and self.cover >= tuning.REFINE_MIN_COVER
        )


def confidence_from_inliers(best: int, other: int) -> float:
    """How sure a name is, from the geometric inliers of the best reference (``best``) and of
    the best reference with another name (``other``).

    Two things must hold: a clear margin over every other name, and enough inliers in
    absolute terms - a card of the same game that is *not* enrolled still lines up its frame,
    title bar and text box with any reference (measured: up to ~30 inliers, mostly against the
    plain basic lands), while right names start at ~55 (1st percentile, synthetic benchmark).
    How many is enough grows with ``other``: the other names' inliers show how much this
    card's layout alone lines up, so a small blurred card whose every other name gets almost
    nothing needs fewer (measured on scenes of another seed and on real cards left out of the
    gallery: not-enrolled cards with a weak rival reach at most ~21 inliers)."""
    margin = best - max(other, 0) - tuning.MARGIN_FLOOR
    if margin <= 0:
        return 0.0
    evidence = (
        best - tuning.EVIDENCE_FLOOR - tuning.EVIDENCE_RIVAL_SHARE * max(other, 0)
    ) / tuning.EVIDENCE_SPAN
    evidence = min(1.0, max(0.0, evidence))
    return float((1.0 - math.exp(-margin / tuning.MARGIN_SCALE)) * evidence)


def candidate_list(
    scores: dict[str, int], limit: int = tuning.CANDIDATES_LISTED
) -> list[Candidate]:
    """A pick-list: the best-scoring names, each with the confidence its inliers would give."""
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])[:limit]
    out = []
    for i, (name, count) in enumerate(ranked):
        rival = ranked[1][1] if i == 0 and len(ranked) > 1 else ranked[0][1] if i else 0
        out.append(Candidate(name, round(confidence_from_inliers(count, rival), 3)))
    return out


def card_from(naming: Naming, corners: np.ndarray) -> Card:
    return Card(
        name=naming.name,
        confidence=naming.confidence,
        corners=corners.astype(np.float32),
        entry=naming.entry,
        inliers=naming.inliers,
        candidates=candidate_list(naming.scores),
        rival_inliers=naming.rival_inliers,
    )


Pairs = tuple[np.ndarray, np.ndarray]  # (patch feature, reference feature) indices
# A photo's features: work-image points, descriptors, corner strengths
# (:func:`vision.features.ranked_photo_features`).
PhotoPoints = tuple[np.ndarray, np.ndarray, np.ndarray]
# A card's naming inliers as (reference points, photo points), worked out when asked.
InlierSpots = Callable[[], tuple[np.ndarray, np.ndarray] | None]


@dataclass(frozen=True)
class ReferenceCells:
    """One reference's features laid out on the naming grid (:class:`_Grid`), made once per
    gallery entry (:func:`reference_cells`): per naming they were sorted and counted again
    for every reference of the shortlist (~0.3 ms of a naming's ~2)."""

    order: np.ndarray  # feature indices sorted by cell (stable)
    ends: np.ndarray  # per cell: how many features lie in it and the cells before it
    x: np.ndarray  # feature positions on the upright card (float32), x and y apart
    y: np.ndarray
    tie_cell: np.ndarray  # each feature's cell on a radius-sized grid (ties go to the lower)

    @classmethod
    def of(cls, points: np.ndarray) -> ReferenceCells:
        r = tuning.POSITION_RADIUS
        grid = _Grid(r)
        pts = np.ascontiguousarray(points, np.float32).reshape(-1, 2)
        cell = grid.cell_of(pts)
        return cls(
            np.argsort(cell, kind="stable"),
            np.cumsum(np.bincount(cell, minlength=grid.cells)),
            np.ascontiguousarray(pts[:, 0]),
            np.ascontiguousarray(pts[:, 1]),
            _Grid(r, columns_per_radius=1).cell_of(pts),
        )


_GALLERY_CELLS: weakref.WeakKeyDictionary[Gallery, dict[int, ReferenceCells]] = (
    weakref.WeakKeyDictionary()
)


def reference_cells(gallery: Gallery, entry: int) -> ReferenceCells:
    """:class:`ReferenceCells` of a gallery entry, made on first use (entries never change
    once enrolled)."""
    held = _GALLERY_CELLS.setdefault(gallery, {})
    cells = held.get(entry)
    if cells is None:
        cells = held[entry] = ReferenceCells.of(gallery.entry_features(entry)[0])
    return cells


def positional_matches(
    points: np.ndarray,
    descriptors: np.ndarray,
    refs: list[tuple[np.ndarray, np.ndarray]],
    cells: list[ReferenceCells] | None = None,
) -> list[Pairs]:
    """For each reference (points, descriptors) in ``refs``: pairs (patch feature, reference
    feature) that sit at about the same place on the upright card (within
    ``POSITION_RADIUS``) and have close descriptors; each patch feature keeps its closest such
    reference feature. Position first, on a grid of cells one radius tall and a quarter radius
    wide (one grid per reference): only a handful of reference features lie near any patch
    feature, so few descriptors are compared, for the whole shortlist at once. ``cells``: the
    references' :class:`ReferenceCells`, when already made."""
    empty = np.zeros(0, np.int64)
    if len(points) == 0 or not refs or sum(len(p) for p, _ in refs) == 0:
        return [(empty, empty) for _ in refs]
    r = tuning.POSITION_RADIUS
    if cells is None:
        cells = [ReferenceCells.of(p) for p, _ in refs]
    sizes = np.array([len(p) for p, _ in refs], np.int64)
    starts = np.cumsum(sizes) - sizes
    ref_desc = np.concatenate([d for _, d in refs])
    ref_entry = np.repeat(np.arange(len(refs)), sizes)
    # The references' cell-sorted features, one after another, and where each cell's end in
    # that order: a table over every cell of every reference, not two searches per feature.
    order = np.concatenate([c.order + start for c, start in zip(cells, starts, strict=True)])
    cell_end = np.concatenate([c.ends + start for c, start in zip(cells, starts, strict=True)])
    grid = _Grid(r)
    first_cell, last_cell = grid.runs_within_radius(points)
    entry_base = (np.arange(len(refs)) * grid.cells)[:, None]
    lo = cell_end[entry_base + first_cell.ravel() - 1].ravel()
    lengths = cell_end[entry_base + last_cell.ravel()].ravel() - lo
    owner = np.tile(np.repeat(np.arange(len(points)), first_cell.shape[1]), len(refs))
    ii = repeat_runs(owner, lengths)
    jj = pick(order, run_members(lo, lengths))
    # x and y gathered as separate flat float32 arrays (numpy gathers flat arrays several times
    # faster than 2-float rows); dx * dx + dy * dy is the squared distance a complex offset
    # times its conjugate gave, bit for bit, at a third of the time on numpy 2.
    patch_points = np.asarray(points, np.float32)
    dx = pick(np.concatenate([c.x for c in cells]), jj)
    dx -= pick(np.ascontiguousarray(patch_points[:, 0]), ii)
    dy = pick(np.concatenate([c.y for c in cells]), jj)
    dy -= pick(np.ascontiguousarray(patch_points[:, 1]), ii)
    dx *= dx
    dy *= dy
    dx += dy
    near = np.flatnonzero(dx < r * r)
    ii, jj = pick(ii, near), pick(jj, near)
    hd = hamming_at(descriptors, ii, ref_desc, jj)
    ok = hd <= tuning.MAX_DESCRIPTOR_DISTANCE
    ii, jj, hd = ii[ok], jj[ok], hd[ok]
    entry = ref_entry[jj]
    # A tie in distance goes to the reference feature in the lower cell of a radius-sized
    # grid, then the lower index: the choice the earlier, coarser search made, so answers
    # (and the benchmark's figures) stay reproducible.
    tie_cell = np.concatenate([c.tie_cell for c in cells])
    tie = tie_cell[jj] * int(sizes.sum()) + jj
    best = np.lexsort((tie, hd, ii, entry))
    ii, jj, entry = ii[best], jj[best], entry[best]
    first = np.r_[len(ii) > 0, (ii[1:] != ii[:-1]) | (entry[1:] != entry[:-1])][: len(ii)]
    ii, jj, entry = ii[first], jj[first], entry[first]
    bounds = np.searchsorted(entry, np.arange(len(refs) + 1))
    return [
        (ii[a:b], jj[a:b] - starts[k])
        for k, (a, b) in enumerate(zip(bounds[:-1], bounds[1:], strict=True))
    ]


class _Grid:
    """Cells over the upright card, rows one radius tall and columns ``1 / columns_per_radius``
    of it wide, numbered row by row, with a margin all round so that a search reaching a
    radius past the card's edge stays on the grid. A row's cells are consecutive, so the
    features of a stretch of a row are one run of a cell-sorted list."""

    def __init__(self, r: float, columns_per_radius: int = 4) -> None:
        self.r = r
        self.width = r / columns_per_radius
        self.margin = columns_per_radius + 1
        self.cols = int(CARD_W // self.width) + 2 * self.margin
        self.rows = int(CARD_H // r) + 4
        self.cells = self.cols * self.rows

    # Bounded by np.minimum and np.maximum in place, not np.clip: numpy 1's clip checks its
    # bounds on every call (~40 calls a photo).
    def _col(self, x: np.ndarray) -> np.ndarray:
        col = np.floor(x / self.width).astype(np.int64)
        col += self.margin
        return np.minimum(np.maximum(col, 1, out=col), self.cols - 1, out=col)

    def _row(self, y: np.ndarray) -> np.ndarray:
        row = np.floor(y / self.r).astype(np.int64)
        row += 1
        return np.minimum(np.maximum(row, 1, out=row), self.rows - 2, out=row)

    def cell_of(self, points: np.ndarray) -> np.ndarray:
        return self._row(points[:, 1]) * self.cols + self._col(points[:, 0])

    def runs_within_radius(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per point (P x 3: the row above, its own, the row below): the first and last cell
        of the stretch of the row that can hold points within a radius of it (the circle's
        chord at the row's nearest edge). Compares 30 % fewer pairs than whole 3 x 3 blocks
        of radius-sized cells (measured on the profile photos)."""
        x = points[:, 0].astype(np.float64)[:, None]
        y = points[:, 1].astype(np.float64)[:, None]
        rows = self._row(points[:, 1])[:, None] + np.array([-1, 0, 1])
        top = (rows - 1) * self.r  # the rows' edges on the card (row 1 starts at y = 0)
        gap = np.maximum(0.0, np.maximum(top - y, y - (top + self.r)))
        half = np.sqrt(np.maximum(self.r**2 - gap**2, 0.0))
        return rows * self.cols + self._col(x - half), rows * self.cols + self._col(x + half)


def _descriptor_matches(
    descriptors: np.ndarray, ref_desc: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (patch feature, reference feature) by descriptor alone (nearest clearly better
    than second nearest), for a patch whose outline may be off (an inner frame, a sleeve)."""
    if len(descriptors) == 0 or len(ref_desc) < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    dist, nearest = cv2.batchDistance(
        descriptors, ref_desc, cv2.CV_32S, normType=cv2.NORM_HAMMING, K=2
    )
    good = (dist[:, 0] <= tuning.MAX_DESCRIPTOR_DISTANCE) & (
        dist[:, 0] < tuning.LOOSE_RATIO * dist[:, 1]
    )
    ii = np.flatnonzero(good)
    return ii, nearest[ii, 0].astype(np.int64)


Matches = list[tuple[int, np.ndarray, np.ndarray]]  # (entry, patch features, its features)


def _match_shortlist(
    points: np.ndarray,
    descriptors: np.ndarray,
    gallery: Gallery,
    shortlist: list[int],
    aligned: bool,
) -> Matches:
    """Each shortlisted reference's matches with the patch, most matches first."""
    entries = list(dict.fromkeys(shortlist))
    refs = [gallery.entry_features(entry) for entry in entries]
    if aligned:
        cells = [reference_cells(gallery, entry) for entry in entries]
        pairs = positional_matches(points, descriptors, refs, cells)
    else:
        pairs = [_descriptor_matches(descriptors, ref_desc) for _, ref_desc in refs]
    matched: Matches = [(e, ii, jj) for e, (ii, jj) in zip(entries, pairs, strict=True)]
    matched.sort(key=lambda m: -len(m[1]))
    return matched


def _to_check(matched: Matches, gallery: Gallery) -> set[int]:
    """The geometric check (a homography fit) runs for the two best-matching references and the best
    few references of other names (the rivals that set the confidence); the rest keep their
    match counts."""
    top_name = gallery.entries[matched[0][0]].name
    check = {matched[0][0]}
    if len(matched) > 1:
        check.add(matched[1][0])
    others = [m[0] for m in matched if gallery.entries[m[0]].name != top_name]
    check.update(others[: tuning.RIVALS_CHECKED])
    return check


def _geometric_inliers(
    points: np.ndarray,
    ref_points: np.ndarray,
    ii: np.ndarray,
    jj: np.ndarray,
    counted: np.ndarray | None = None,
) -> tuple[int, np.ndarray | None, float, int]:
    """Inliers of the reference -> patch homography inside the card's outer band, the
    homography, the share of the card its inliers spread over (the area of their hull), and
    the inliers in the band that count all the same (``counted``: the reference's own features
    there, :func:`vision.frame.counted_features`; none when not given).

    OpenCV's USAC (sampling by a neighbourhood and local optimisation of each better model),
    not plain RANSAC: a rival name lines up only a fifth of its matches (its frame and text),
    and 300 plain rounds mostly ran to the end without one all-inlier sample, so its count was
    both slow and a noisy underestimate. USAC is ~8x faster on the recorded matches, counts
    about half an inlier more, and its fit puts the corners within a pixel where plain RANSAC
    was up to ~10 px off on one CPU."""
    if len(ii) < tuning.MIN_NAME_INLIERS:
        return 0, None, 0.0, 0
    h, mask = cv2.findHomography(
        ref_points[jj],
        points[ii],
        cv2.USAC_FAST,
        tuning.NAME_REPROJECTION,
        maxIters=tuning.NAME_ITERATIONS,
        confidence=tuning.NAME_CONFIDENCE,
    )
    if mask is None or h is None:
        return 0, h, 0.0, 0
    # Only inliers off the card's frame count: every card of a layout has the same frame, and
    # frame corners match any reference's at the same place.
    keep = mask.ravel().astype(bool)
    inliers = ref_points[jj[keep]]
    inside = interior(inliers)
    count = int(inside.sum())
    own_band = 0 if counted is None else int((counted[jj[keep]] & ~inside).sum())
    if len(inliers) < 3:
        return count, h, 0.0, own_band
    hull = cv2.convexHull(np.ascontiguousarray(inliers, np.float32))
    return count, h, float(cv2.contourArea(hull)) / (CARD_W * CARD_H), own_band


@dataclass
class _Region:
    """A card region made ready for naming: the references whose whole-card signatures are
    closest to its sharpened upright patch, and the patch's features."""

    by_signature: list[int]
    features: tuple[np.ndarray, np.ndarray]


_T = TypeVar("_T")
# Per photo (see :func:`region_memo`): (what, image id, corners) -> (image, what was made).
_MEMO: ContextVar[dict[tuple[str, int, bytes], tuple[np.ndarray, object]] | None] = ContextVar(
    "card_region_memo", default=None
)


@contextmanager
def region_memo() -> Iterator[None]:
    """While one photo is identified, a card region rectified or named again reuses its
    patch, signature shortlist and features: an outline is rectified for its shortlist, named
    by position and then, turn by turn, by descriptors alone — the same patches each time
    (about a sixth of a photo's namings; ~6 ms each on the Pi's stack)."""
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def _remembered(what: str, image: np.ndarray, corners: np.ndarray, make: Callable[[], _T]) -> _T:
    """``make()`` for this region of this image, made once while :func:`region_memo` holds."""
    memo = _MEMO.get()
    if memo is None:
        return make()
    key = (what, id(image), np.asarray(corners, np.float64).tobytes())
    held = memo.get(key)
    if held is None or held[0] is not image:  # an id is reused only once its image is gone
        held = memo[key] = (image, make())
    return cast(_T, held[1])


def remembered(what: str, image: np.ndarray, key: np.ndarray, make: Callable[[], _T]) -> _T:
    """``make()`` for ``image`` and ``key`` (an array), made once while :func:`region_memo`
    holds: for other modules' work on a card region."""
    return _remembered(what, image, key, make)


def rectified(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """:func:`~vision.geometry.rectify` at the card's size, remembered for the photo."""
    return _remembered("patch", image, corners, lambda: rectify(image, corners))


_WHOLE = np.zeros(0)  # the key of something made from a whole picture, not a region of it


def patch_features(patch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The features of a rectified card (:func:`~vision.features.card_features` at the patch
    budget), made once per patch while a photo is identified: an outline's shortlist and its
    naming, and a last-look find's, look at the same patch when it is sharp (it is not
    sharpened), so one ORB pass serves both (~3.5 ms each)."""
    return _remembered(
        "features", patch, _WHOLE, lambda: card_features(patch, tuning.PATCH_FEATURES)
    )


def _region(image: np.ndarray, corners: np.ndarray, gallery: Gallery) -> _Region:
    def make() -> _Region:
        patch = sharpened(rectified(image, corners))
        return _Region(
            shortlist_by_signature(patch, gallery, tuning.SIGNATURE_SHORTLIST),
            patch_features(patch),
        )

    return _remembered("region", image, corners, make)


def _name_features(
    features: tuple[np.ndarray, np.ndarray],
    gallery: Gallery,
    shortlist: list[int],
    aligned: bool = True,
) -> Naming | None:
    """The best naming of an upright card's features (points, descriptors) among
    ``shortlist``."""
    points, descriptors = features
    if len(points) < tuning.MIN_NAME_INLIERS:
        return None
    matched = _match_shortlist(points, descriptors, gallery, shortlist, aligned)
    if not matched:
        return None
    check = _to_check(matched, gallery)
    best: tuple[int, int, np.ndarray | None] = (-1, 0, None)
    best_cover, best_inside = 0.0, 0
    per_name: dict[str, int] = {}
    checked: dict[str, int] = {}  # geometric inliers, for the references checked
    for entry, ii, jj in matched:
        name = gallery.entries[entry].name
        if entry not in check or _moot(len(ii), name, best, checked, gallery):
            per_name[name] = max(per_name.get(name, 0), len(ii))
            continue
        inside, refine, cover, own_band = _geometric_inliers(
            points, gallery.entry_features(entry)[0], ii, jj, counted_features(gallery, entry)
        )
        count = inside + own_band
        per_name[name] = max(per_name.get(name, 0), count)
        checked[name] = max(checked.get(name, 0), count)
        if count > best[1]:
            best, best_cover, best_inside = (entry, count, refine), cover, inside
    entry, inliers, refine = best
    if entry < 0:
        return None
    name = gallery.entries[entry].name
    rival = max((checked[n] for n in checked if n != name), default=0)
    # Pick-list scores: checked names by their inliers, the rest by match counts capped at the
    # rival's (unchecked counts overstate).
    scores = {n: checked.get(n, min(c, rival)) for n, c in per_name.items()}
    scores[name] = inliers
    return Naming(
        entry,
        name,
        inliers,
        rival,
        confidence_from_inliers(inliers, rival),
        refine,
        scores,
        best_cover,
        best_inside,
    )


def _moot(
    matches: int,
    name: str,
    best: tuple[int, int, np.ndarray | None],
    checked: dict[str, int],
    gallery: Gallery,
) -> bool:
    """Can a reference's geometric check change the naming? Not when its matches (an upper
    bound on its inliers; references come most matches first) can neither beat the best so
    far nor raise the best other name's inliers: then its fit is skipped (the naming is the
    same, its pick-list score is its match count)."""
    if best[0] < 0 or matches > best[1]:
        return False
    best_name = gallery.entries[best[0]].name
    if name == best_name:
        return True
    rival = max((c for n, c in checked.items() if n != best_name), default=-1)
    return matches <= rival


def shortlist_by_signature(patch: np.ndarray, gallery: Gallery, k: int) -> list[int]:
    """The ``k`` references whose whole-card signatures are closest to the patch's."""
    if len(gallery) == 0:
        return []
    signature = _remembered("signature", patch, _WHOLE, lambda: global_descriptor(patch))
    sims = np.einsum("ed,d->e", gallery.signatures, signature)  # no BLAS threads
    top = np.argsort(-sims)[:k]
    return [int(e) for e in top]


def sharpened(patch: np.ndarray) -> np.ndarray:
    """A soft card image with its fine detail boosted (unsharp mask), so ORB finds the corners
    a slightly defocused or small card still has; a sharp one is returned as it is. Made once
    per patch while a photo is identified: a card the photo's own features did not settle is
    judged again when it is cut out (~0.5 ms)."""
    return _remembered("sharpened", patch, _WHOLE, lambda: _sharpened(patch))


def _sharpened(patch: np.ndarray) -> np.ndarray:
    if tuning.SHARPEN_AMOUNT <= 0 or sharpness(patch) >= tuning.SHARPEN_BELOW:
        return patch
    soft = cv2.GaussianBlur(patch, (0, 0), tuning.SHARPEN_SIGMA)
    return cv2.addWeighted(patch, 1.0 + tuning.SHARPEN_AMOUNT, soft, -tuning.SHARPEN_AMOUNT, 0)


def _second_opinion(image: np.ndarray, corners: np.ndarray, naming: Naming, gallery: Gallery):
    """A name the features are not fully sure of is checked against the card's look at the
    fitted corners: a contradicting look drops it; a close look settles a likely name (a
    small, blurred or glared card). Changes ``naming.confidence`` in place."""
    likely = (
        naming.inliers >= tuning.LOOK_MIN_INLIERS
        and naming.inliers - naming.rival_inliers >= tuning.LOOK_MIN_MARGIN
    )
    if naming.confidence >= tuning.LOOSE_CONFIDENCE or not (naming.confidence > 0 or likely):
        return
    looks = look_similarities(look_patch(image, corners), gallery, naming.name)
    if looks is not None and look_contradicts(*looks):
        naming.confidence = 0.0
    elif looks is not None and likely:
        naming.confidence = max(naming.confidence, confidence_from_look(*looks))


def name_region(
    image: np.ndarray,
    corners: np.ndarray,
    gallery: Gallery,
    entries: list[int],
    aligned: bool = True,
    refit: bool = False,
) -> tuple[np.ndarray, Naming] | None:
    """Rectify ``corners`` (TL, TR, BR, BL) from the full photo and name it against a shortlist
    (``entries`` and the closest signatures); refine the corners from the fit.
    ``aligned=False`` matches by descriptor alone (an outline that may be off), against
    ``entries`` only. ``refit``: corners fitted from a few photo features, so an unsure name
    is fitted again at the corners its own inliers give. Not for outlines or leftover
    windows: their corners are the photo's own evidence (edges, a crowd), and fitted to a
    name they would line up a card of that name's cycle (the same frame and rules text)
    that is not enrolled."""
    with part("name"):
        return _name_region(image, corners, gallery, entries, aligned, refit)


def _name_region(
    image: np.ndarray,
    corners: np.ndarray,
    gallery: Gallery,
    entries: list[int],
    aligned: bool,
    refit: bool,
) -> tuple[np.ndarray, Naming] | None:
    if not plausible_card(corners, fitted=True):
        return None
    region = _region(image, corners, gallery)
    # Matching by descriptors alone compares only the references given (see
    # :meth:`vision.outlines._OutlineNamer.name`); by position, the closest signatures too.
    shortlist = list(dict.fromkeys(entries + (region.by_signature if aligned else [])))
    naming = _name_features(region.features, gallery, shortlist, aligned)
    if naming is None:
        return None
    seed = _refined_corners(corners, naming, pinned=False)
    refitted = False
    if (
        seed is not None
        and refit
        and aligned
        and naming.placing_confidence < tuning.REFIT_BELOW
        and naming.inliers >= tuning.MIN_NAME_INLIERS
    ):
        # A name the features are not sure of may come from corners a little off (a fit of
        # a few photo features): rectified again at the corners its own inliers give, the card
        # lines up with its reference position by position and shows how sure it really is.
        # Those inliers may lie in a small part of the card (the rest of it too far off to
        # line up): the refit is kept when it lines up more, over enough of the card or over
        # clearly more of it than they did, and then places the card (a refit at the corners
        # a strip swung lines up that strip again, and is not kept).
        patch = sharpened(rectify(image, seed))
        again = _name_features(
            card_features(patch, tuning.PATCH_FEATURES), gallery, shortlist, aligned
        )
        spreads = again is not None and again.cover >= tuning.REFIT_MIN_SPREAD * naming.cover
        if again is not None and again.inliers > naming.inliers and (again.pins_corners or spreads):
            corners, naming, refitted = seed, again, True
    # Corners found by a fit (``refit``) are a few px off at most: a fit that does not pin
    # the corners would only swing them. An outline's or a leftover window's can be far off
    # (a card's edge joined to its neighbour's) and any fit places the card better (lighting
    # suite: three outlines at IoU 0.61-0.78 placed at 0.99; a descriptor-only fit of 10
    # inliers that the naming by position then confirmed).
    refined = _refined_corners(corners, naming, pinned=refit and not refitted)
    if refined is not None:
        corners = refined
    _second_opinion(image, corners, naming, gallery)
    return corners, naming


def _refined_corners(corners: np.ndarray, naming: Naming, pinned: bool = True) -> np.ndarray | None:
    """The card's exact corners from the naming's fit (reference -> patch composed with patch
    -> photo), or None when there is no fit, it does not look like this card, or (``pinned``)
    its inliers do not pin the corners (:attr:`Naming.pins_corners`)."""
    if naming.refine is None or (pinned and not naming.pins_corners):
        return None
    patch_to_photo = cv2.getPerspectiveTransform(CARD_CORNERS, corners.astype(np.float32))
    refined = corners_from_homography(patch_to_photo @ naming.refine)
    if plausible_card(refined, fitted=True) and quad_iou(refined, corners) > tuning.REFINE_MIN_IOU:
        return refined
    return None


def _points_in(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Indices (ascending) of the ``points`` inside ``quad``: those in its bounding box first,
    a card holds a tenth of a photo's features (the same points as :func:`in_quad` on all)."""
    low, high = quad.min(axis=0), quad.max(axis=0)
    x, y = points[:, 0], points[:, 1]
    boxed = np.flatnonzero((x >= low[0]) & (x <= high[0]) & (y >= low[1]) & (y <= high[1]))
    return boxed[in_quad(points[boxed], quad)]


def _settled_by_photo_features(
    image: np.ndarray,
    corners: np.ndarray,
    hyp: Hypothesis,
    gallery: Gallery,
    entries: list[int],
    photo_points: PhotoPoints,
    covering: Sequence[np.ndarray] = (),
) -> tuple[np.ndarray, Naming, InlierSpots | None] | None:
    """A hypothesis named beyond doubt by the photo's own features on it, brought onto the
    upright card by the hypothesis's fit, or None. ORB is rotation-invariant and the photo's
    pyramid covers a card's scale, so most of its features on a card match the reference at
    the same place, just as the features of the card cut out and straightened do, without a
    second ORB pass (~7 ms a card, most of naming). Only a naming of the card the features
    found, with the inliers and margin a settled outline needs, is taken; anything less
    (a card half hidden in a fan, small, blurred or not enrolled) is cut out and named as
    before. So is a soft card (a shaken camera): the photo's coarse pyramid levels still
    name it, but its corners from them were up to 20 px off.

    Only the card's ``PATCH_FEATURES`` strongest features are matched, the budget a cut-out
    card (and a reference) gets: its inliers are then counted as a cut-out card's are, so
    the best-supported card (:func:`vision.plane.to_card_plane`, :func:`dedupe_cards`) is
    not simply the one the photo shows biggest; and matching a large card's ~1,000 features
    cost twice the time for the same answer.

    The features inside ``covering`` (the outlines of the cards found lying over this one,
    :func:`_covering_quads`) are left out first: a fanned card is 50-65 % hidden, its quad
    holds ~800-2,200 of the photo's features, and the strongest 500 of them were mostly its
    neighbours' print, which lines up with its reference nowhere (seed 2026's fans: 16
    inliers where its cut-out had 57). With the part that shows matched alone, 41 of the 54
    cards found settle, not 22, and 14 are cut out, not 33 (a fan photo's name step 49 -> 35
    ms); the settle asks the same confidence and inliers as ever. Their corners are as good on
    the whole: fan cards' mean IoU with the truth 0.979 -> 0.977, 0.978 -> 0.980, 0.974 ->
    0.974, 0.980 -> 0.981 and 0.975 -> 0.983 on seeds 2026, 2032, 2034, 2037 and 2038, single
    cards moving either way (a photo-feature fit of a strip against a cut-out's refit). Where
    the card's fit does not place it, see :func:`_settled_corners`."""
    points, descriptors, strength = photo_points
    if len(points) < tuning.SETTLED_INLIERS or not plausible_card(corners, fitted=True):
        return None
    on_card = _points_in(points, corners_from_homography(hyp.homography))
    for quad in covering:
        on_card = on_card[~in_quad(points[on_card], quad)]
    if len(on_card) < tuning.SETTLED_INLIERS:
        return None
    if len(on_card) > tuning.PATCH_FEATURES:
        strongest = np.argsort(-strength[on_card], kind="stable")[: tuning.PATCH_FEATURES]
        on_card = on_card[np.sort(strongest)]
    upright = cv2.perspectiveTransform(
        points[on_card].reshape(-1, 1, 2).astype(np.float64), inverse(hyp.homography)
    )
    features = (upright.reshape(-1, 2).astype(np.float32), descriptors[on_card])
    patch = rectified(image, corners)
    if sharpened(patch) is not patch:
        return None  # soft: the photo's coarse features would name it, but place it loosely
    shortlist = list(
        dict.fromkeys(entries + shortlist_by_signature(patch, gallery, tuning.SIGNATURE_SHORTLIST))
    )
    naming = _name_features(features, gallery, shortlist)
    if (
        naming is None
        or naming.name != gallery.entries[hyp.entry].name
        or naming.confidence < tuning.LOOSE_CONFIDENCE
        or naming.inliers < tuning.SETTLED_INLIERS
    ):
        return None
    settled = _settled_corners(corners, naming, covered=len(covering) > 0)
    if settled is None:
        return None
    strip: InlierSpots | None = None
    if settled is corners:  # a covered card its strip could not place: kept where found
        found_to_photo = cv2.getPerspectiveTransform(CARD_CORNERS, corners.astype(np.float32))
        strip = functools.partial(_inlier_spots, features, gallery, naming, found_to_photo)
    return settled, naming, strip


def _inlier_spots(
    features: tuple[np.ndarray, np.ndarray],
    gallery: Gallery,
    naming: Naming,
    upright_to_photo: np.ndarray,
) -> tuple[np.ndarray, np.ndarray] | None:
    """The naming's inliers as (reference points, photo points): the matches of its reference
    at the same place on the upright card that its fit (``naming.refine``) brings within
    ``NAME_REPROJECTION``; ``upright_to_photo`` maps the upright card's features into the
    photo."""
    if naming.refine is None:
        return None
    points, descriptors = features
    ref_points, ref_descriptors = gallery.entry_features(naming.entry)
    ((ii, jj),) = positional_matches(
        points,
        descriptors,
        [(ref_points, ref_descriptors)],
        [reference_cells(gallery, naming.entry)],
    )
    if len(ii) == 0:
        return None
    projected = cv2.perspectiveTransform(
        ref_points[jj].reshape(-1, 1, 2).astype(np.float64), naming.refine
    ).reshape(-1, 2)
    near = np.linalg.norm(projected - points[ii], axis=1) < tuning.NAME_REPROJECTION
    if not near.any():
        return None
    in_photo = cv2.perspectiveTransform(
        points[ii[near]].reshape(-1, 1, 2).astype(np.float64), upright_to_photo
    ).reshape(-1, 2)
    return ref_points[jj[near]].astype(np.float64), in_photo


def _settled_corners(corners: np.ndarray, naming: Naming, covered: bool) -> np.ndarray | None:
    """The corners of a card its photo features name beyond doubt (found at ``corners``), or
    None to cut it out: those its naming's fit gives when the fit places the card
    (:attr:`Naming.pins_corners` on ``SETTLED_INLIERS`` inliers off the band) within
    ``PHOTO_NAMING_MAX_SHIFT`` of them.

    A fit that does not place the card leaves a ``covered`` card (one lying under others)
    at the corners the find step fitted: its inliers lie in the strip that shows. Cut out, it
    showed the same strip: named the same, it kept those corners too or swung them from the
    strip (seed 2026's fans, IoU with the truth 0.92 -> 0.81 and 0.92 -> 0.86), and its
    whole quad's features, mostly its neighbours', named it less surely than the part that
    shows (seed 2034's Niko: 0.95 -> 0.16, left to be named later). Over seeds 2026, 2032,
    2034, 2037 and 2038 (2026-2037 on the Pi's stack too: 90 fan photos) 40 cards cut out are
    not, their found corners' mean IoU with the truth 0.960 where their cut-outs' was 0.940;
    fan cards' mean IoU in the answers 0.977 -> 0.980 on seed 2026 (Pi 0.979 -> 0.982),
    -0.002 to +0.003 on the others; names the same but two fanned cards unknown before, now
    named. A card nothing lies over is cut out as before: cut out, all of it shows and places
    it (a small card's found corners: IoU ~0.98, its cut-out's 0.99+)."""
    if naming.placing_inliers < tuning.SETTLED_INLIERS or not naming.pins_corners:
        return corners if covered else None
    refined = _refined_corners(corners, naming)
    if refined is None or _shift(refined, corners) > tuning.PHOTO_NAMING_MAX_SHIFT:
        return None
    return refined


def _covering_quads(
    found: list[Hypothesis], votes: Votes, gallery: Gallery
) -> list[list[np.ndarray]]:
    """Per hypothesis, the outlines (work px) of the other hypotheses lying over it, by the
    rule of :func:`vision.layers.lies_over`: where two fits of different names overlap, the
    one on top is the one at least ``LAYER_MIN_VOTERS`` of the photo's voting features in the
    shared part vote for, and no fewer than for the other (a fan's card on top shows its
    print there, so its features vote for it). Under 1 ms a fan photo."""
    quads = [corners_from_homography(h.homography) for h in found]
    ids = gallery.name_ids
    over: list[list[np.ndarray]] = [[] for _ in found]
    if len(votes.points) == 0:
        return over
    for i, j in itertools.combinations(range(len(found)), 2):
        name_i, name_j = ids[found[i].entry], ids[found[j].entry]
        if name_i == name_j:
            continue  # two fits of one card (or of two copies): neither hides the other
        area, shared = cv2.intersectConvexConvex(quads[i], quads[j])
        if area <= 0 or shared is None or len(shared) < 3:
            continue
        voted = ids[votes.entries[_points_in(votes.points, shared.reshape(-1, 2))]]
        for_i, for_j = int((voted == name_i).sum()), int((voted == name_j).sum())
        if for_i >= tuning.LAYER_MIN_VOTERS and for_i >= for_j:
            over[j].append(quads[i])
        elif for_j >= tuning.LAYER_MIN_VOTERS and for_j >= for_i:
            over[i].append(quads[j])
    return over


def _shift(refined: np.ndarray, corners: np.ndarray) -> float:
    """How far ``refined`` moved any corner from ``corners``, as a fraction of the long side."""
    long_side = max(float(np.linalg.norm(corners[i] - corners[i - 1])) for i in range(4))
    return float(np.abs(refined - corners).max()) / long_side


def name_hypotheses(
    image: np.ndarray,
    scale: float,
    gallery: Gallery,
    found: list[Hypothesis],
    accept: float,
    wide: bool = False,
    photo_points: PhotoPoints | None = None,
    votes: Votes | None = None,
) -> tuple[list[Card], list[tuple[np.ndarray, Naming]]]:
    """Name every hypothesis (found at ``scale`` of the full ``image``): the named cards, and
    the regions named too weakly (corners, naming) for a later unknown report. ``wide``: found
    from few features, so checked against as many rivals as an outline is. ``photo_points``:
    the features (work pixels, descriptors, strengths) the hypotheses were found from; a card
    they name beyond doubt is not cut out and named again
    (:func:`_settled_by_photo_features`). ``votes``: the find step's, to tell which cards
    found lie over which, so a fanned card is settled from its own features (the part that
    shows), not from those of the cards over it."""
    to_full = np.diag([1.0 / scale, 1.0 / scale, 1.0])
    named: list[Card] = []
    weak: list[tuple[np.ndarray, Naming]] = []
    # Cards the photo's features settled: their place in ``named`` -> (hypothesis, rivals).
    settled_from: dict[int, tuple[Hypothesis, list[int]]] = {}
    # Cards lying under others settled where found: how to get their inliers (reference and
    # photo points), worked out only for a card that needs placing.
    strips: dict[int, InlierSpots] = {}
    covering = _covering_quads(found, votes, gallery) if votes is not None else None
    for k, hyp in enumerate(found):
        corners = corners_from_homography(to_full @ hyp.homography)
        rivals = [e for e in hyp.votes if e != hyp.entry][: tuning.RIVALS_NAMED]
        if photo_points is not None and not wide:
            with part("name"):
                settled = _settled_by_photo_features(
                    image,
                    corners,
                    hyp,
                    gallery,
                    [hyp.entry, *rivals],
                    photo_points,
                    covering[k] if covering is not None else (),
                )
            if settled is not None:
                settled_from[len(named)] = (hyp, rivals)
                if settled[2] is not None:
                    strips[len(named)] = settled[2]
                named.append(card_from(settled[1], settled[0]))
                continue
        if wide and plausible_card(corners, fitted=True):
            patch = rectified(image, corners)
            rivals += shortlist_by_index(
                patch, gallery, tuning.REST_INDEX_SHORTLIST, patch_features(patch)
            )
            rivals += shortlist_by_signature(patch, gallery, tuning.REST_SIGNATURE_SHORTLIST)
        result = name_region(image, corners, gallery, [hyp.entry, *rivals], refit=True)
        if result is None:
            continue
        corners, naming = result
        if naming.confidence >= accept and naming.inliers >= tuning.MIN_NAME_INLIERS:
            named.append(card_from(naming, corners))
        else:
            weak.append((corners, naming))
    _place_strips(named, strips)
    _cut_out_plane_card(image, scale, gallery, named, settled_from, accept)
    return named, weak


def _place_strips(named: list[Card], strips: dict[int, InlierSpots]) -> None:
    """Cards lying under others that their strip named but could not place
    (:func:`_settled_corners` left them where the find step's fit put them), placed on the
    table plane the other named cards give (:func:`vision.plane.placed_on_plane`), when
    they are no card lying on it (in place in ``named``).

    Only those: placing every such card moved the corners of 2-6 fan photos a seed and the fan
    cards' mean IoU with the truth up by as much as 0.005 (down 0.0008 on one seed), but one
    named card of seed 2032 became unknown (default stack). Placing the cards off the plane
    alone changed one photo of the eight fan seeds tried (2026, 2032, 2034, 2037, 2038, 2039,
    2041, 2043) on either stack: seed 2043's, on the Pi's, where a bottom card at IoU 0.57
    went unknown and its neighbour was missed; now both are named."""
    if not strips:
        return
    others = [card for k, card in enumerate(named) if k not in strips]
    plane = consensus_plane(others)
    if plane is None:
        return
    for k, spots in strips.items():
        if card_sized(named[k].corners, plane, tight=True):
            continue
        inliers = spots()
        placed = None if inliers is None else placed_on_plane(*inliers, plane)
        if placed is not None and plausible_card(placed, fitted=True):
            named[k].corners = placed


def _cut_out_plane_card(
    image: np.ndarray,
    scale: float,
    gallery: Gallery,
    named: list[Card],
    settled_from: dict[int, tuple[Hypothesis, list[int]]],
    accept: float,
) -> None:
    """A lone named card gives the table plane (:mod:`vision.plane`) with no other card to
    check it, and its corners are extrapolated across the photo: a leftover crowd or a
    last-look find far away is judged on them. Photo-feature corners are ~1 px off (a
    cut-out card's ~0.5 px), which moved a lone card's plane enough to box a phone beside
    it; so a lone card the photo's features settled is cut out and named again, as every
    card was before, and keeps the cut-out's corners when that names it the same (in place
    in ``named``). Where several cards are named they share the plane (consensus_plane) and
    the saving is kept."""
    if len(named) != 1 or 0 not in settled_from:
        return
    hyp, rivals = settled_from[0]
    to_full = np.diag([1.0 / scale, 1.0 / scale, 1.0])
    corners = corners_from_homography(to_full @ hyp.homography)
    result = name_region(image, corners, gallery, [hyp.entry, *rivals], refit=True)
    if result is None:
        return
    corners, naming = result
    if (
        naming.name == named[0].name
        and naming.confidence >= accept
        and naming.inliers >= tuning.MIN_NAME_INLIERS
    ):
        named[0] = card_from(naming, corners)


def name_card_features(
    features: tuple[np.ndarray, np.ndarray], gallery: Gallery, shortlist: list[int]
) -> Naming | None:
    """The best naming, among ``shortlist``, of an upright card's features (points, descriptors)
    matched position by position: for features taken from only part of the card (the part
    of a fanned card that shows, :mod:`vision.layers`)."""
    return _name_features(features, gallery, shortlist, aligned=True)


def refined_corners(corners: np.ndarray, naming: Naming) -> np.ndarray | None:
    """The card's exact corners from ``naming``'s fit of the card rectified at ``corners``, or
    None when it has no fit or the fit does not look like this card."""
    return _refined_corners(corners, naming)
