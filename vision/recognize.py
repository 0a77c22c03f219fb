"""Find and name every card in a table photo.

The pipeline (each step measured in ``tablekeeper bench vision``):

1. **Find** (reduced scale, long side <= 1640 px): ORB features of the photo are looked up in the
   gallery's word index (:mod:`vision.features`), kept when the nearest reference feature is
   clearly closer than any feature of a *differently named* card, and vote for references. The
   most-voted references are checked geometrically (RANSAC homography); each consistent set is a
   card hypothesis with its four corners and its orientation.
2. **Name** (full scale): each hypothesis is rectified from the full-resolution photo to the
   upright canonical card and compared, feature by feature and position by position, with a
   shortlist of references (the voted ones, every printing of the same name, and the closest
   whole-card signatures). The best reference's geometric inlier count against the best
   *other* name gives the confidence; the fit refines the corners.
3. **Outlines** (second cue): card-shaped outlines from edges that no named card explains are
   rectified and get the same naming check; if still unnamed they come back as unknown with a
   reason ("too blurred" or "not in gallery") - never as their nearest neighbour.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.detect import (
    corners_from_homography,
    edge_support,
    find_card_quads,
    inside,
    order_corners,
    plausible_card,
    quad_iou,
    rectify,
    sharpness,
)
from vision.features import (
    CARD_CORNERS,
    CARD_H,
    CARD_W,
    PATCH_FEATURES,
    card_features,
    card_look,
    global_descriptor,
    hamming,
    look_cells,
    look_vectors,
    photo_features,
    to_gray,
)
from vision.gallery import Gallery

WORK_LONG_SIDE = 1640  # finding works at most at this size; naming uses the full photo
PHOTO_FEATURES = 4000
SENSITIVE_FAST_THRESHOLD = 6  # FAST threshold of the last look, where no card was named yet
PLANE_SIZE_TOLERANCE = (0.55, 1.5)  # an outline's size on the table, relative to a card's
PLANE_MAX_COS = 0.35  # its corners on the table within ~20 degrees of square
PLANE_TIGHT_TOLERANCE = (0.8, 1.25)  # the same for a card fitted from its features ...
PLANE_TIGHT_ASPECT = 0.08  # ... whose proportions must be a card's within 8%
PLANE_TIGHT_COS = 0.2  # ... and corners within ~12 degrees of square
COMPLETION_MAX_COS = 0.2  # a partly hidden card's visible edge: square at both ends ...
COMPLETION_LENGTH_TOLERANCE = 0.12  # ... and a card's side long, within 12%
SHARPEN_BELOW = 0.5  # a rectified card less sharp than this is sharpened before naming
SHARPEN_AMOUNT = 2.0
OUTLINE_AGREEMENT = 0.6  # IoU of a feature fit with its outline for the two to agree
REST_FEATURES = 2000  # feature budget of that last look
PROBES = 3  # words looked up per photo feature
RATIO = 0.9  # nearest reference must beat the nearest other-named reference by this factor
MAX_DESCRIPTOR_DISTANCE = 64  # of 256 bits
MIN_VOTES = 6
MIN_FIND_INLIERS = 8
MAX_HYPOTHESES = 40
POSITION_RADIUS = 24.0  # canonical px: how far a rectified feature may sit from its reference
MIN_NAME_INLIERS = 12
MAX_OUTLINE_TRIES = 20  # outline namings per photo after which the rest get only two turns
SETTLED_INLIERS = 40  # an outline named this surely is not tried in its other turns
LOOSE_CONFIDENCE = 0.9  # the bar for a name found by descriptor-only matching of an outline
RIVALS_CHECKED = 3  # other-name references geometrically checked when naming a card
WEAK_CARD_INLIERS = 10  # a found-but-unnamed card with this much support is reported unknown
ACCEPT_CONFIDENCE = 0.5  # calibrated with `tablekeeper bench vision`
# The appearance check, for a name the features make likely but not sure (see
# confidence_from_look); calibrated on scenes of another seed than the benchmark's and on
# scenes of real cards left out of the gallery (a card of the same game, not enrolled).
LOOK_MIN_INLIERS = 16  # the features must back the name this much ...
LOOK_MIN_MARGIN = 8  # ... and beat every other name by this many inliers
LOOK_MIN_SIMILARITY = 0.7  # the card must look like the named reference ...
LOOK_MIN_LEAD = 0.15  # ... clearly more than like any reference of another name
LOOK_MIN_GALLERY = 40  # a gallery's typical card needs this many references to mean much
# The last word on every named card, cell by cell (see _look_disowns). Measured on scenes of
# another seed than the benchmark's: right names 0.54 and up (a glared one; 0.89 and up on the
# real photos), and only 1 in ~1,700 closer to another name; real cards that are not enrolled
# but were named as a card of their cycle 0.27-0.55, nearly all closer to another name.
LOOK_MIN_CELLS_SIMILARITY = 0.45
LOOK_VETO_SIMILARITY = 0.25  # a name not fully sure by features is doubted when the card
LOOK_VETO_GAP = 0.25  # looks this little like it and this much more like another name's
MIN_EDGE_SUPPORT = 0.5  # an unnamed outline must have a real edge along all four sides
BLUR_LIMIT = 0.35  # sharpness() below this: "too blurred"

REASON_NOT_IN_GALLERY = "not in gallery"
REASON_TOO_BLURRED = "too blurred"


class VisionError(ValueError):
    """An image that cannot be used at all (empty, unreadable)."""


@dataclass
class Candidate:
    """One possible name for a card, with its confidence (for pick-lists)."""

    name: str
    confidence: float


@dataclass
class Card:
    """A named card: ``corners`` are the card face's top-left, top-right, bottom-right,
    bottom-left in image pixels (so the card's top edge is corners[0] -> corners[1]);
    ``orientation`` is how far the card is turned from upright, degrees counter-clockwise."""

    name: str
    confidence: float
    corners: np.ndarray
    entry: int = -1
    inliers: int = 0
    candidates: list[Candidate] = field(default_factory=list)

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def orientation(self) -> float:
        return _orientation(self.corners)


@dataclass
class UnknownCard:
    """A card-shaped thing that could not be named, and why (``reason``)."""

    corners: np.ndarray
    reason: str
    candidates: list[Candidate] = field(default_factory=list)

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


@dataclass
class Identification:
    cards: list[Card]
    unknown: list[UnknownCard]
    seconds: float
    image_size: tuple[int, int] = (0, 0)  # width, height
    timings: dict[str, float] = field(default_factory=dict)

    def candidates(self, name: str) -> list[Candidate]:
        """Closest matches for the (first) card named ``name``: a pick-list."""
        for card in self.cards:
            if card.name == name:
                return card.candidates
        return []

    def to_json(self) -> dict[str, Any]:
        def pts(c: np.ndarray) -> list[list[float]]:
            return [[round(float(x), 1), round(float(y), 1)] for x, y in c]

        return {
            "cards": [
                {
                    "name": c.name,
                    "confidence": round(c.confidence, 3),
                    "corners": pts(c.corners),
                    "center": [round(v, 1) for v in c.center],
                    "orientation": round(c.orientation, 1),
                    "candidates": [
                        {"name": k.name, "confidence": round(k.confidence, 3)} for k in c.candidates
                    ],
                }
                for c in self.cards
            ],
            "unknown": [
                {
                    "corners": pts(u.corners),
                    "center": [round(v, 1) for v in u.center],
                    "reason": u.reason,
                    "candidates": [
                        {"name": k.name, "confidence": round(k.confidence, 3)} for k in u.candidates
                    ],
                }
                for u in self.unknown
            ],
            "seconds": round(self.seconds, 3),
        }


def _orientation(corners: np.ndarray) -> float:
    top = (corners[0] + corners[1]) / 2
    bottom = (corners[3] + corners[2]) / 2
    up = top - bottom
    angle = math.degrees(math.atan2(-up[1], up[0])) - 90.0
    return (angle + 180.0) % 360.0 - 180.0


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
    margin = best - max(other, 0) - 6
    if margin <= 0:
        return 0.0
    evidence = min(1.0, max(0.0, (best - 14 - 0.5 * max(other, 0)) / 16.0))
    return float((1.0 - math.exp(-margin / 12.0)) * evidence)


def confidence_from_look(similarity: float, other: float) -> float:
    """How sure a name is from the card's look alone: its correlation with the named
    reference (``similarity``) and with the closest reference of any other name (``other``),
    both after taking the gallery's typical card away (:func:`vision.features.look_vectors`).
    At least the accept threshold (0.5) only when the look is close *and* clearly closer than
    any other name's; up to 0.9, never certain (looks cannot tell two printings apart from
    two cards with the same art)."""
    lead = similarity - other
    if similarity < LOOK_MIN_SIMILARITY or lead < LOOK_MIN_LEAD:
        return 0.0
    return float(min(0.9, ACCEPT_CONFIDENCE + (lead - LOOK_MIN_LEAD)))


def look_contradicts(similarity: float, other: float) -> bool:
    """Does the card's look speak against its name: hardly like the named reference and far
    more like another name's? (A card that is not enrolled but shares its rules text and
    frame with an enrolled one - a cycle of lands, say - lines up many features with it.)"""
    return similarity < LOOK_VETO_SIMILARITY and other - similarity > LOOK_VETO_GAP


def _named(gallery: Gallery, name: str) -> np.ndarray:
    """Which gallery entries carry ``name`` (a mask over the entries)."""
    return np.asarray(gallery.name_ids == gallery.name_ids[gallery.entries_named(name)[0]])


def _look_similarities(
    patch: np.ndarray, gallery: Gallery, name: str
) -> tuple[float, float] | None:
    """The look correlation of the upright card image ``patch`` with the closest reference
    named ``name`` and with the closest reference of any other name; None when the gallery
    is too small for a typical card or holds only that name."""
    if len(gallery) < LOOK_MIN_GALLERY:
        return None
    table = gallery.look_vectors()
    mine = look_vectors(card_look(patch)[None], gallery.typical_look())[0]
    sims = table @ mine
    same = _named(gallery, name)
    if same.all():
        return None
    return float(sims[same].max()), float(sims[~same].max())


def _look_disowns(patch: np.ndarray, gallery: Gallery, name: str) -> bool:
    """Does the card's look, compared cell by cell (the median of 12 cells, so half the card
    may be covered or glared), deny the name? Yes when it is not close to the named reference,
    or closer to a reference of another name. A card that is not enrolled but shares the rules
    text and frame of its cycle with an enrolled card lines up enough features to be named
    with confidence; its art still differs."""
    if len(gallery) < LOOK_MIN_GALLERY:
        return False
    cells = gallery.look_cells()
    residual = card_look(patch).astype(np.float32) - gallery.typical_look()
    mine = look_cells(residual[None])[0]
    scores = np.median(np.einsum("ecd,cd->ec", cells, mine), axis=1)
    same = _named(gallery, name)
    if same.all():
        return False
    similarity, other = float(scores[same].max()), float(scores[~same].max())
    return similarity < LOOK_MIN_CELLS_SIMILARITY or other > similarity


# -- step 1: find -------------------------------------------------------------------------
@dataclass
class _Hypothesis:
    entry: int
    homography: np.ndarray  # canonical card -> work image
    inliers: int
    votes: dict[int, int]


@dataclass
class _Votes:
    """Where the photo's well-matched features are (work image) and which reference each one
    votes for: a shortlist for any region of the photo."""

    points: np.ndarray
    entries: np.ndarray

    def shortlist(self, quad: np.ndarray, k: int) -> list[int]:
        if len(self.points) == 0:
            return []
        local = self.entries[_in_quad(self.points, quad)]
        if len(local) == 0:
            return []
        counts = np.bincount(local)
        top = np.argsort(-counts)[:k]
        return [int(e) for e in top if counts[e] >= 2]


_NO_VOTES = _Votes(np.zeros((0, 2), np.float32), np.zeros(0, np.int64))


def _find_hypotheses(
    points: np.ndarray, descriptors: np.ndarray, gallery: Gallery, work_size: tuple[int, int]
) -> tuple[list[_Hypothesis], _Votes]:
    if len(descriptors) == 0 or len(gallery) == 0:
        return [], _NO_VOTES
    query_ids, gallery_ids = gallery.index.candidates(descriptors, PROBES)
    if len(query_ids) == 0:
        return [], _NO_VOTES
    dist = hamming(descriptors[query_ids], gallery.descriptors[gallery_ids]).astype(np.int64)
    entry_of = gallery.owner[gallery_ids]
    name_of = gallery.name_ids[entry_of]
    # Pairs are grouped by query id: per query the nearest reference feature ...
    group_start = np.flatnonzero(np.r_[True, query_ids[1:] != query_ids[:-1]])
    group_of_pair = np.repeat(
        np.arange(len(group_start)), np.diff(np.r_[group_start, len(query_ids)])
    )
    packed = (dist << 32) | np.arange(len(dist), dtype=np.int64)
    best_pair = (np.minimum.reduceat(packed, group_start) & 0xFFFFFFFF).astype(np.int64)
    best_dist = dist[best_pair]
    best_name = name_of[best_pair]
    # ... and the nearest feature of any *other* name (many printings share art: those must not
    # count as rivals).
    other = np.where(name_of != best_name[group_of_pair], dist, 512)
    second = np.minimum.reduceat(other, group_start)
    good_group = (best_dist <= MAX_DESCRIPTOR_DISTANCE) & (best_dist < RATIO * second)
    # Every pair of a good query that points at its best name and is nearly as close as the
    # best counts for that reference (so each printing of a name gets its share).
    keep = good_group[group_of_pair] & (name_of == best_name[group_of_pair])
    keep &= dist <= best_dist[group_of_pair] + 8
    pair_query = query_ids[keep]
    pair_entry = entry_of[keep]
    pair_gallery = gallery_ids[keep]
    if len(pair_query) == 0:
        return [], _NO_VOTES
    votes = np.bincount(pair_entry, minlength=len(gallery))
    order = np.argsort(-votes, kind="stable")
    used = np.zeros(len(points), bool)
    found: list[_Hypothesis] = []
    work_w, work_h = work_size
    tried = 0
    for entry in order:
        if votes[entry] < MIN_VOTES or tried >= MAX_HYPOTHESES:
            break
        tried += 1
        sel = (pair_entry == entry) & ~used[pair_query]
        while int(sel.sum()) >= MIN_FIND_INLIERS:
            src = gallery.points[pair_gallery[sel]]
            dst = points[pair_query[sel]]
            # An affine fit: robust when the matches bunch up on one part of the card (a full
            # homography from a cluster extrapolates wildly to the corners). Perspective is
            # put back when the card is named at full scale.
            affine, mask = cv2.estimateAffine2D(
                src,
                dst,
                method=cv2.RANSAC,
                ransacReprojThreshold=8.0,
                maxIters=1000,
                confidence=0.995,
            )
            if affine is None or mask is None:
                break
            h = np.vstack([affine, [0.0, 0.0, 1.0]])
            inl = mask.ravel().astype(bool)
            if int(inl.sum()) < MIN_FIND_INLIERS:
                break
            if int(inl.sum()) < 0.8 * len(src) and int(inl.sum()) >= 12:
                # A card near a steeply tilted camera is far from affine: try the full
                # perspective fit and keep it if it explains clearly more matches.
                ph, pmask = cv2.findHomography(src, dst, cv2.RANSAC, 8.0, maxIters=500)
                if ph is not None and pmask is not None:
                    pin = pmask.ravel().astype(bool)
                    if int(pin.sum()) > 1.15 * int(inl.sum()) and plausible_card(
                        corners_from_homography(ph)
                    ):
                        h, inl = ph, pin
            corners = corners_from_homography(h)
            if not plausible_card(corners) or not _on_picture(corners, work_w, work_h):
                break
            found.append(_Hypothesis(int(entry), h, int(inl.sum()), {}))
            # Features on this card are spent: no other reference may claim them (its inliers
            # included, so the loop always ends even if the fitted outline misses them).
            used |= _in_quad(points, corners)
            used[pair_query[np.flatnonzero(sel)[inl]]] = True
            sel = (pair_entry == entry) & ~used[pair_query]
    # The voted references near each hypothesis are its rivals for naming.
    for hyp in found:
        inside_mask = _in_quad(points[pair_query], corners_from_homography(hyp.homography))
        local = np.bincount(pair_entry[inside_mask], minlength=len(gallery))
        top = np.argsort(-local)[:6]
        hyp.votes = {int(e): int(local[e]) for e in top if local[e] > 0}
    return found, _Votes(points[pair_query], pair_entry)


def _in_quad(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Which points lie inside the convex quadrilateral ``quad`` (either winding)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    p = np.asarray(points, np.float64).reshape(-1, 2)
    signs = []
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        signs.append((b[0] - a[0]) * (p[:, 1] - a[1]) - (b[1] - a[1]) * (p[:, 0] - a[0]))
    s = np.stack(signs, axis=1)
    return np.asarray((s >= 0).all(axis=1) | (s <= 0).all(axis=1))


def _table_view(
    hypotheses: list[_Hypothesis], width: int, height: int
) -> tuple[np.ndarray, tuple[int, int]] | None:
    """A homography from the photo to a straight-down view of the table, when the photo is
    taken steeply enough for it to matter; from the best-supported card found (its fit maps
    the upright card, so its inverse flattens the table plane). None if the view is near
    straight-down already."""
    if not hypotheses:
        return None
    h = hypotheses[0].homography  # the caller puts the best-fitting card first
    if abs(h[2, 0]) < 1e-12 and abs(h[2, 1]) < 1e-12:
        return None
    try:
        to_plane = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return None
    grid = np.array(
        [[x, y] for x in np.linspace(0, width, 5) for y in np.linspace(0, height, 5)], np.float64
    )
    w = to_plane[2, 0] * grid[:, 0] + to_plane[2, 1] * grid[:, 1] + to_plane[2, 2]
    if (w <= 0).any() or (w > 0).sum() < len(w):
        return None  # the picture reaches the horizon: no finite table view
    # Linear scale of the plane -> photo map is proportional to 1/w: how much it varies over
    # the picture says how steep the view is.
    if w.max() / w.min() < 1.35:
        return None
    plane = cv2.perspectiveTransform(grid[None], to_plane)[0]
    x0, y0 = plane.min(axis=0)
    x1, y1 = plane.max(axis=0)
    span_w, span_h = x1 - x0, y1 - y0
    if span_w <= 0 or span_h <= 0:
        return None
    scale = min(
        np.sqrt(width * height / (span_w * span_h)) * 1.1,
        2200.0 / max(span_w, span_h),
    )
    shift = np.array([[scale, 0, -scale * x0], [0, scale, -scale * y0], [0, 0, 1.0]])
    size = (int(np.ceil(span_w * scale)), int(np.ceil(span_h * scale)))
    return shift @ to_plane, size


def _find_in_table_view(
    gray: np.ndarray, hypotheses: list[_Hypothesis], gallery: Gallery
) -> list[_Hypothesis]:
    """Look again in a straight-down view of the table: ORB is not made for steep views, so
    cards far from the camera of a tilted photo are found here instead. Returns the new cards'
    hypotheses, mapped back to the photo."""
    height, width = gray.shape[:2]
    view = _table_view(hypotheses, width, height)
    if view is None:
        return []
    to_view, size = view
    flat = cv2.warpPerspective(gray, to_view, size, flags=cv2.INTER_LINEAR)
    points, descriptors = photo_features(flat, PHOTO_FEATURES)
    found, _ = _find_hypotheses(points, descriptors, gallery, size)
    back = np.linalg.inv(to_view)
    known = [corners_from_homography(h.homography) for h in hypotheses]
    new: list[_Hypothesis] = []
    for hyp in found:
        # In the flat view the card must look like a card; in the photo, any fitted shape will
        # do (a card near the camera of a steep photo can look far thinner than a card).
        if not plausible_card(corners_from_homography(hyp.homography)):
            continue
        hyp.homography = back @ hyp.homography
        corners = corners_from_homography(hyp.homography)
        if not plausible_card(corners, fitted=True) or not _on_picture(corners, width, height):
            continue
        if any(quad_iou(corners, k) > 0.3 for k in known):
            continue
        known.append(corners)
        new.append(hyp)
    return new


def _on_picture(corners: np.ndarray, w: int, h: int) -> bool:
    """At least the card's centre and most of it lies inside the picture."""
    c = corners.mean(axis=0)
    if not (0 <= c[0] < w and 0 <= c[1] < h):
        return False
    area = cv2.contourArea(corners.reshape(-1, 1, 2))
    return area >= 900.0


# -- step 2: name -------------------------------------------------------------------------
@dataclass
class _Naming:
    entry: int
    name: str
    inliers: int
    rival_inliers: int
    confidence: float
    refine: np.ndarray | None  # canonical reference -> rectified patch
    scores: dict[str, int]


def _positional_matches(
    points: np.ndarray, descriptors: np.ndarray, ref_points: np.ndarray, ref_desc: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (patch feature, reference feature) that sit at about the same place on the upright
    card (within ``POSITION_RADIUS``) and have close descriptors; each patch feature keeps its
    closest such reference feature. Position first (a grid of radius-sized cells): only a
    handful of reference features lie near any patch feature, so few descriptors are compared."""
    if len(points) == 0 or len(ref_points) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    r = POSITION_RADIUS
    cols = int(CARD_W // r) + 3
    ref_cx = np.floor(ref_points[:, 0] / r).astype(np.int64) + 1
    ref_cy = np.floor(ref_points[:, 1] / r).astype(np.int64) + 1
    ref_cell = ref_cy * cols + ref_cx
    order = np.argsort(ref_cell, kind="stable")
    cells = ref_cell[order]
    px = np.floor(points[:, 0] / r).astype(np.int64) + 1
    py = np.floor(points[:, 1] / r).astype(np.int64) + 1
    around = np.array([dy * cols + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)], np.int64)
    wanted = ((py * cols + px)[:, None] + around[None, :]).ravel()
    owner = np.repeat(np.arange(len(points)), len(around))
    lo = np.searchsorted(cells, wanted, side="left")
    hi = np.searchsorted(cells, wanted, side="right")
    lengths = hi - lo
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    ii = np.repeat(owner, lengths)
    offsets = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    jj = order[np.repeat(lo, lengths) + offsets]
    near = ((ref_points[jj] - points[ii]) ** 2).sum(axis=1) < r * r
    ii, jj = ii[near], jj[near]
    if len(ii) == 0:
        return ii, jj
    hd = hamming(descriptors[ii], ref_desc[jj])
    ok = hd <= MAX_DESCRIPTOR_DISTANCE
    ii, jj, hd = ii[ok], jj[ok], hd[ok]
    if len(ii) == 0:
        return ii, jj
    best = np.lexsort((hd, ii))
    ii, jj = ii[best], jj[best]
    first = np.r_[True, ii[1:] != ii[:-1]]
    return ii[first], jj[first]


def _interior(points: np.ndarray) -> np.ndarray:
    """Which reference positions lie inside the card's frame (not on its outer border)."""
    x, y = points[:, 0], points[:, 1]
    return (x > 0.1 * CARD_W) & (x < 0.9 * CARD_W) & (y > 0.07 * CARD_H) & (y < 0.93 * CARD_H)


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
    good = (dist[:, 0] <= MAX_DESCRIPTOR_DISTANCE) & (dist[:, 0] < 0.8 * dist[:, 1])
    ii = np.flatnonzero(good)
    return ii, nearest[ii, 0].astype(np.int64)


def _name_patch(
    patch: np.ndarray, gallery: Gallery, shortlist: list[int], aligned: bool = True
) -> _Naming | None:
    points, descriptors = card_features(patch, PATCH_FEATURES)
    if len(points) < MIN_NAME_INLIERS:
        return None
    matched: list[tuple[int, np.ndarray, np.ndarray]] = []
    for entry in dict.fromkeys(shortlist):
        ref_points, ref_desc = gallery.entry_features(entry)
        if aligned:
            ii, jj = _positional_matches(points, descriptors, ref_points, ref_desc)
        else:
            ii, jj = _descriptor_matches(descriptors, ref_desc)
        matched.append((entry, ii, jj))
    if not matched:
        return None
    matched.sort(key=lambda m: -len(m[1]))
    # The geometric check (RANSAC) runs for the two best-matching references and the best few
    # references of other names (the rivals that set the confidence); the rest keep their
    # match counts.
    top_name = gallery.entries[matched[0][0]].name
    check = {matched[0][0]}
    if len(matched) > 1:
        check.add(matched[1][0])
    others = [m[0] for m in matched if gallery.entries[m[0]].name != top_name]
    check.update(others[:RIVALS_CHECKED])
    best: tuple[int, int, np.ndarray | None] = (-1, 0, None)
    per_name: dict[str, int] = {}
    checked: dict[str, int] = {}  # geometric inliers, for the references checked
    for entry, ii, jj in matched:
        count = len(ii)
        refine = None
        if entry in check:
            if count >= MIN_NAME_INLIERS:
                ref_points = gallery.entry_features(entry)[0]
                h, mask = cv2.findHomography(
                    ref_points[jj], points[ii], cv2.RANSAC, 5.0, maxIters=300, confidence=0.99
                )
                if mask is not None and h is not None:
                    # Only inliers inside the card count: every card has the same frame, and
                    # frame corners match any reference's at the same place.
                    keep = mask.ravel().astype(bool)
                    count = int(_interior(ref_points[jj[keep]]).sum())
                else:
                    count = 0
                refine = h
            else:
                count = 0
        name = gallery.entries[entry].name
        per_name[name] = max(per_name.get(name, 0), count)
        if entry in check:
            checked[name] = max(checked.get(name, 0), count)
        if entry in check and count > best[1]:
            best = (entry, count, refine)
    entry, inliers, refine = best
    if entry < 0:
        return None
    name = gallery.entries[entry].name
    rival = max((checked[n] for n in checked if n != name), default=0)
    # Pick-list scores: checked names by their inliers, the rest by match counts capped at the
    # rival's (unchecked counts overstate).
    scores = {n: checked.get(n, min(c, rival)) for n, c in per_name.items()}
    scores[name] = inliers
    return _Naming(
        entry, name, inliers, rival, confidence_from_inliers(inliers, rival), refine, scores
    )


def _shortlist_by_signature(patch: np.ndarray, gallery: Gallery, k: int) -> list[int]:
    if len(gallery) == 0:
        return []
    sims = gallery.signatures @ global_descriptor(patch)
    top = np.argsort(-sims)[:k]
    return [int(e) for e in top]


def _shortlist_by_index(patch: np.ndarray, gallery: Gallery, k: int) -> list[int]:
    """The references most voted for by the patch's own features, looked up in the word index
    (whichever way up the patch is: features do not care). For outlines in places the photo's
    features missed: a small or blurred card has few features in the whole-photo budget."""
    if len(gallery) == 0:
        return []
    _, descriptors = card_features(patch, PATCH_FEATURES)
    if len(descriptors) == 0:
        return []
    query_ids, gallery_ids = gallery.index.candidates(descriptors, PROBES)
    if len(query_ids) == 0:
        return []
    dist = hamming(descriptors[query_ids], gallery.descriptors[gallery_ids]).astype(np.int64)
    group_start = np.flatnonzero(np.r_[True, query_ids[1:] != query_ids[:-1]])
    packed = (dist << 32) | np.arange(len(dist), dtype=np.int64)
    best_pair = (np.minimum.reduceat(packed, group_start) & 0xFFFFFFFF).astype(np.int64)
    best_pair = best_pair[dist[best_pair] <= MAX_DESCRIPTOR_DISTANCE]
    if len(best_pair) == 0:
        return []
    counts = np.bincount(gallery.owner[gallery_ids[best_pair]], minlength=len(gallery))
    top = np.argsort(-counts)[:k]
    return [int(e) for e in top if counts[e] >= 3]


def _candidate_list(scores: dict[str, int], limit: int = 5) -> list[Candidate]:
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])[:limit]
    out = []
    for i, (name, count) in enumerate(ranked):
        rival = ranked[1][1] if i == 0 and len(ranked) > 1 else ranked[0][1] if i else 0
        out.append(Candidate(name, round(confidence_from_inliers(count, rival), 3)))
    return out


def _with_printings(entries: list[int], gallery: Gallery) -> list[int]:
    out = list(entries)
    for e in entries:
        out.extend(gallery.entries_named(gallery.entries[e].name))
    return list(dict.fromkeys(out))


# -- the whole pipeline -------------------------------------------------------------------
def identify(
    image: np.ndarray, gallery: Gallery, *, accept: float = ACCEPT_CONFIDENCE
) -> Identification:
    """Find and name every card in ``image`` (BGR) against ``gallery``."""
    start = time.perf_counter()
    timings: dict[str, float] = {}
    if image is None or not isinstance(image, np.ndarray) or image.size == 0:
        raise VisionError("empty image")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    full_h, full_w = image.shape[:2]
    if min(full_h, full_w) < 32:
        raise VisionError(f"image too small ({full_w}x{full_h})")
    scale = min(1.0, WORK_LONG_SIDE / max(full_h, full_w))
    work = image
    if scale < 1.0:
        work = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    gray = to_gray(work)
    tick = time.perf_counter()
    points, descriptors = photo_features(gray, PHOTO_FEATURES)
    timings["features"] = time.perf_counter() - tick
    tick = time.perf_counter()
    hypotheses, votes = _find_hypotheses(
        points, descriptors, gallery, (work.shape[1], work.shape[0])
    )
    timings["find"] = time.perf_counter() - tick

    tick = time.perf_counter()
    to_full = np.diag([1.0 / scale, 1.0 / scale, 1.0])
    named: list[tuple[Card, _Naming]] = []
    weak: list[tuple[np.ndarray, _Naming | None]] = []

    def name_all(found: list[_Hypothesis], wide: bool = False) -> None:
        for hyp in found:
            corners = corners_from_homography(to_full @ hyp.homography)
            rivals = [e for e in hyp.votes if e != hyp.entry][:4]
            if wide and plausible_card(corners, fitted=True):
                # Found from few features: check against as many rivals as an outline is.
                patch = rectify(image, corners)
                rivals += _shortlist_by_index(patch, gallery, 6)
                rivals += _shortlist_by_signature(patch, gallery, 8)
            result = _name_region(image, corners, gallery, [hyp.entry, *rivals])
            if result is None:
                continue
            corners, naming = result
            if naming.confidence >= accept and naming.inliers >= MIN_NAME_INLIERS:
                named.append((_card_from(naming, corners), naming))
            else:
                weak.append((corners, naming))

    name_all(hypotheses)
    timings["name"] = time.perf_counter() - tick
    tick = time.perf_counter()
    # Named cards have exact (perspective) corners: the best one flattens the table for a
    # second look, which finds cards a steep view hid from the first.
    seen = [
        _Hypothesis(
            c.entry,
            cv2.getPerspectiveTransform(CARD_CORNERS, (c.corners * scale).astype(np.float32)),
            c.inliers,
            {},
        )
        for c, _ in sorted(named, key=lambda cn: -cn[0].inliers)
    ]
    extra = _find_in_table_view(gray, seen + hypotheses, gallery)
    name_all(extra)
    cards = _dedupe_cards([c for c, _ in named])
    timings["find_table_view"] = time.perf_counter() - tick

    tick = time.perf_counter()
    unknown: list[UnknownCard] = []
    # Outlines are searched on the work copy (they need no more detail) and scaled back.
    quads = [(q / scale).astype(np.float32) for q in find_card_quads(work)]
    timings["outlines"] = time.perf_counter() - tick
    tick = time.perf_counter()
    named_areas = [cv2.contourArea(c.corners.reshape(-1, 1, 2)) for c in cards]
    typical_area = float(np.median(named_areas)) if named_areas else 0.0
    # Every card lies on the table: seen through the best named card's perspective, another
    # card's outline must be a card-sized rectangle too (an art box, a gap between cards or a
    # loop in the table's pattern is not).
    to_card = _to_card_plane(cards)
    outline_tries = 0  # namings of outlines so far (each turn of each outline is one)
    outlines = list(quads)  # grows: whole cards completed from partly hidden ones join it
    completed: set[int] = set()  # which outlines were completed (their positions in the list)
    for number, quad in enumerate(outlines):
        if _explained(quad, cards):
            continue
        if to_card is not None and not _card_sized(quad, to_card):
            if number not in completed:
                for whole in _completed_cards(quad, to_card):
                    if all(quad_iou(whole, q) < 0.7 for q in outlines):
                        completed.add(len(outlines))
                        outlines.append(whole)
            continue
        outline_patch = rectify(image, quad)
        shortlist = (
            votes.shortlist(quad * scale, 4)
            + _shortlist_by_index(outline_patch, gallery, 6)
            + _shortlist_by_signature(outline_patch, gallery, 8)
        )
        best: tuple[np.ndarray, _Naming] | None = None
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        squarish = (sides[0] + sides[2]) / (sides[1] + sides[3]) > 0.8
        # Which short edge is the top is unknown; seen steeply, even which edges are the
        # short ones can be (the card looks nearly square): then try all four turns.
        # Past the photo's budget of namings (a busy table with many card-like loops) an
        # outline gets only the two likeliest turns and no descriptor-only matching.
        spent = outline_tries >= MAX_OUTLINE_TRIES
        for turn in [
            np.roll(quad, -k, axis=0) for k in ((0, 1, 2, 3) if squarish and not spent else (0, 2))
        ]:
            outline_tries += 1
            result = _name_region(image, turn, gallery, shortlist)
            if result is not None and (best is None or result[1].inliers > best[1].inliers):
                best = result
            if _settled(best, accept):
                break  # a wrong turn cannot line up this many features: the rest are moot
        if best is None or best[1].confidence < accept:
            # The outline may be an inner frame or a sleeve's edge: match without positions.
            loose: tuple[np.ndarray, _Naming] | None = None
            turns = range(0) if spent else range(4)
            for turn in [np.roll(quad, -k, axis=0) for k in turns]:
                outline_tries += 1
                result = _name_region(image, turn, gallery, shortlist, aligned=False)
                if result is not None and (loose is None or result[1].inliers > loose[1].inliers):
                    loose = result
                if _settled(loose, accept):
                    break
            if loose is not None:
                # Descriptor-only matches can agree by chance: confirm at the corners they
                # found, with the position-by-position check.
                confirmed = _name_region(image, loose[0], gallery, [loose[1].entry, *shortlist])
                if (
                    confirmed is not None
                    and confirmed[1].name == loose[1].name
                    and confirmed[1].confidence
                    >= (
                        # where the fitted corners agree with the outline the two cues back
                        # each other up: the ordinary bar is enough
                        accept
                        if quad_iou(confirmed[0], quad) > OUTLINE_AGREEMENT
                        else max(accept, LOOSE_CONFIDENCE)
                    )
                ):
                    if best is None or confirmed[1].inliers > best[1].inliers:
                        best = confirmed
        if (
            best is not None
            and best[1].confidence >= accept
            and best[1].inliers >= MIN_NAME_INLIERS
        ):
            card = _card_from(best[1], best[0])
            if not _explained(card.corners, cards):
                cards.append(card)
                if to_card is None:
                    # The first card named gives the table plane that screens the outlines
                    # still to come (a steep photo whose features named nothing).
                    to_card = _to_card_plane(cards)
            continue
        if typical_area > 0:
            # Cards on one table are one size (give or take perspective): an unnamed outline
            # far smaller or larger than the named cards is a pattern on the table, not a card.
            ratio = cv2.contourArea(quad.reshape(-1, 1, 2)) / typical_area
            if not 0.3 <= ratio <= 3.0:
                continue
        if number in completed:
            continue  # a guess at a hidden card's extent: only a name can confirm it
        if edge_support(image, quad) < MIN_EDGE_SUPPORT:
            continue  # a loop in the table's pattern, not a card's edge
        patch = rectify(image, quad)
        reason = REASON_TOO_BLURRED if sharpness(patch) < BLUR_LIMIT else REASON_NOT_IN_GALLERY
        candidates = _candidate_list(best[1].scores) if best is not None else []
        if not any(quad_iou(quad, u.corners) > 0.4 for u in unknown):
            unknown.append(UnknownCard(order_corners(quad), reason, candidates))
    # A card the features found but could not name with confidence is still a card: report it
    # as unknown (with its closest names) unless something named covers it.
    for corners, weak_naming in weak:
        if (
            weak_naming is None
            or weak_naming.inliers < WEAK_CARD_INLIERS
            or _explained(corners, cards)
        ):
            continue
        if any(quad_iou(corners, u.corners) > 0.3 for u in unknown):
            continue
        reason = (
            REASON_TOO_BLURRED
            if sharpness(rectify(image, corners)) < BLUR_LIMIT
            else REASON_NOT_IN_GALLERY
        )
        unknown.append(
            UnknownCard(corners.astype(np.float32), reason, _candidate_list(weak_naming.scores))
        )
    if not seen and cards:
        # Nothing was named before the outlines were: the outline-named cards now give the
        # table's perspective for the second look (a steep photo where ORB found nothing).
        tick_view = time.perf_counter()
        named.clear()
        known = [
            _Hypothesis(
                c.entry,
                cv2.getPerspectiveTransform(CARD_CORNERS, (c.corners * scale).astype(np.float32)),
                c.inliers,
                {},
            )
            for c in sorted(cards, key=lambda c: -c.inliers)
        ]
        name_all(_find_in_table_view(gray, known, gallery))
        for card in _dedupe_cards([c for c, _ in named]):
            if not _explained(card.corners, cards):
                cards.append(card)
        unknown = [u for u in unknown if not _explained(u.corners, cards)]
        timings["find_table_view"] += time.perf_counter() - tick_view
    timings["outline_naming"] = time.perf_counter() - tick
    tick = time.perf_counter()
    # Third look: the feature budget went mostly to the big, sharp cards. Search again only
    # where no named card lies, with a more sensitive corner detector, for the small or
    # blurred cards the first pass under-sampled.
    mask = np.full(gray.shape[:2], 255, np.uint8)
    for card in cards:
        cv2.fillConvexPoly(mask, np.round(card.corners * scale).astype(np.int32), 0)
    if mask.mean() > 255 * 0.05:
        named.clear()
        points2, descriptors2 = photo_features(
            gray, REST_FEATURES, mask, fast_threshold=SENSITIVE_FAST_THRESHOLD
        )
        found2, _ = _find_hypotheses(points2, descriptors2, gallery, (work.shape[1], work.shape[0]))
        name_all(found2, wide=True)
        to_card = _to_card_plane(cards)
        for card in _dedupe_cards([c for c, _ in named]):
            # Found from few features, a card must also show its outline in the photo: a card
            # of the same layout that is not enrolled shares text and frame features with the
            # references, but not at a consistent outline.
            # Its shape on the table must match the other cards' closely, too.
            if _explained(card.corners, cards):
                continue
            if edge_support(image, card.corners) < MIN_EDGE_SUPPORT:
                continue
            if to_card is None and card.confidence < LOOSE_CONFIDENCE:
                continue
            if to_card is not None and not _card_sized(card.corners, to_card, tight=True):
                continue
            cards.append(card)
        unknown = [u for u in unknown if not _explained(u.corners, cards)]
    timings["find_rest"] = time.perf_counter() - tick
    tick = time.perf_counter()
    # Last word: a named card whose look denies its name is reported unknown, its name first
    # in the pick-list.
    for card in list(cards):
        small = rectify(image, card.corners, (CARD_W // 4, CARD_H // 4))
        if _look_disowns(small, gallery, card.name):
            cards.remove(card)
            unknown.append(UnknownCard(card.corners, REASON_NOT_IN_GALLERY, card.candidates))
    timings["look_check"] = time.perf_counter() - tick
    cards.sort(key=lambda c: (c.center[1], c.center[0]))
    return Identification(cards, unknown, time.perf_counter() - start, (full_w, full_h), timings)


def _name_region(
    image: np.ndarray,
    corners: np.ndarray,
    gallery: Gallery,
    entries: list[int],
    aligned: bool = True,
) -> tuple[np.ndarray, _Naming] | None:
    """Rectify ``corners`` (TL, TR, BR, BL) from the full photo and name it against a shortlist
    (``entries``, every printing of their names, and the closest signatures); refine corners."""
    if not plausible_card(corners, fitted=True):
        return None
    patch = _sharpened(rectify(image, corners))
    shortlist = list(dict.fromkeys(entries + _shortlist_by_signature(patch, gallery, 3)))
    naming = _name_patch(patch, gallery, shortlist, aligned)
    if naming is None:
        return None
    if naming.refine is not None:
        # The fit maps reference -> patch; compose with patch -> photo for exact corners.
        patch_to_photo = cv2.getPerspectiveTransform(CARD_CORNERS, corners.astype(np.float32))
        refined = corners_from_homography(patch_to_photo @ naming.refine)
        if plausible_card(refined, fitted=True) and quad_iou(refined, corners) > 0.45:
            corners = refined
    likely = (
        naming.inliers >= LOOK_MIN_INLIERS
        and naming.inliers - naming.rival_inliers >= LOOK_MIN_MARGIN
    )
    if naming.confidence < LOOSE_CONFIDENCE and (naming.confidence > 0 or likely):
        # Not sure by features: the card's look at the fitted corners is a second opinion
        # (at a quarter of the canonical size: the look needs no more).
        small = rectify(image, corners, (CARD_W // 4, CARD_H // 4))
        looks = _look_similarities(small, gallery, naming.name)
        if looks is not None and look_contradicts(*looks):
            naming.confidence = 0.0
        elif looks is not None and likely:
            # Likely by features (a small, blurred or glared card): a close look settles it.
            naming.confidence = max(naming.confidence, confidence_from_look(*looks))
    return corners, naming


def _settled(best: tuple[np.ndarray, _Naming] | None, accept: float) -> bool:
    """True when an outline's naming is beyond doubt, so its other turns need not be tried."""
    return (
        best is not None
        and best[1].confidence >= max(accept, LOOSE_CONFIDENCE)
        and best[1].inliers >= SETTLED_INLIERS
    )


def _sharpened(patch: np.ndarray) -> np.ndarray:
    """A soft card image with its fine detail boosted (unsharp mask), so ORB finds the corners
    a slightly defocused or small card still has; a sharp one is returned as it is."""
    if SHARPEN_AMOUNT <= 0 or sharpness(patch) >= SHARPEN_BELOW:
        return patch
    soft = cv2.GaussianBlur(patch, (0, 0), 1.5)
    return cv2.addWeighted(patch, 1.0 + SHARPEN_AMOUNT, soft, -SHARPEN_AMOUNT, 0)


def _card_from(naming: _Naming, corners: np.ndarray) -> Card:
    return Card(
        name=naming.name,
        confidence=naming.confidence,
        corners=corners.astype(np.float32),
        entry=naming.entry,
        inliers=naming.inliers,
        candidates=_candidate_list(naming.scores),
    )


def _to_card_plane(cards: list[Card]) -> np.ndarray | None:
    """Photo -> canonical card coordinates of the best-supported named card (its table plane,
    in canonical card pixels), or None when nothing is named."""
    if not cards:
        return None
    best = max(cards, key=lambda c: c.inliers)
    h = cv2.getPerspectiveTransform(best.corners.astype(np.float32), CARD_CORNERS)
    return np.asarray(h, np.float64)


def _card_sized(quad: np.ndarray, to_card: np.ndarray, tight: bool = False) -> bool:
    """Is ``quad`` (photo pixels) a card-sized, card-shaped rectangle on the table plane?
    ``tight``: for exact corners (a feature fit), not an outline's."""
    q = cv2.perspectiveTransform(np.asarray(quad, np.float64).reshape(1, 4, 2), to_card)[0]
    if not np.isfinite(q).all():
        return False
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    short = min(sides[0] + sides[2], sides[1] + sides[3]) / 2
    long = max(sides[0] + sides[2], sides[1] + sides[3]) / 2
    low, high = PLANE_TIGHT_TOLERANCE if tight else PLANE_SIZE_TOLERANCE
    if not (low * CARD_W < short < high * CARD_W and low * CARD_H < long < high * CARD_H):
        return False
    if tight and abs((short / long) / (CARD_W / CARD_H) - 1.0) > PLANE_TIGHT_ASPECT:
        return False
    for i in range(4):
        a = q[(i - 1) % 4] - q[i]
        b = q[(i + 1) % 4] - q[i]
        cos = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
        if abs(cos) > (PLANE_TIGHT_COS if tight else PLANE_MAX_COS):
            return False
    return True


def _completed_cards(quad: np.ndarray, to_card: np.ndarray) -> list[np.ndarray]:
    """Whole cards that an outline of a partly hidden card (one corner under another card)
    may belong to: on the table plane, an edge of the outline that is as long as a card's
    side and square to its neighbours at both ends is taken as that side of the card, and the
    card is completed on the outline's side of it. Photo pixels."""
    q = cv2.perspectiveTransform(np.asarray(quad, np.float64).reshape(1, 4, 2), to_card)[0]
    if not np.isfinite(q).all():
        return []
    try:
        from_card = np.linalg.inv(to_card)
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
            ends_square &= abs(cos) < COMPLETION_MAX_COS
        if not ends_square:
            continue
        normal = np.array([-unit[1], unit[0]])
        if np.dot(centre - a, normal) < 0:
            normal = -normal
        for along, across in ((CARD_W, CARD_H), (CARD_H, CARD_W)):
            if abs(length / along - 1.0) > COMPLETION_LENGTH_TOLERANCE:
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


def _explained(quad: np.ndarray, cards: list[Card]) -> bool:
    """Is this outline one of the named cards, a part of one, or a region holding one?"""
    q = np.asarray(quad, np.float32)
    centre = q.mean(axis=0)
    for card in cards:
        if quad_iou(q, card.corners) > 0.25:
            return True
        if inside(centre, card.corners) or inside(card.center, q):
            return True
    return False


def _dedupe_cards(cards: list[Card]) -> list[Card]:
    kept: list[Card] = []
    for card in sorted(cards, key=lambda c: -c.inliers):
        if all(quad_iou(card.corners, k.corners) < 0.3 for k in kept):
            kept.append(card)
    return kept


def annotate(image: np.ndarray, result: Identification) -> np.ndarray:
    """A copy of ``image`` with every card outlined: green named (top edge thick), red unknown."""
    out = image.copy()
    thickness = max(2, int(round(max(out.shape[:2]) / 500)))
    font = max(0.5, max(out.shape[:2]) / 1600)
    for card in result.cards:
        pts = card.corners.astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, (60, 220, 60), thickness, cv2.LINE_AA)
        p0, p1 = card.corners[0].astype(int), card.corners[1].astype(int)
        cv2.line(
            out,
            tuple(int(v) for v in p0),
            tuple(int(v) for v in p1),
            (0, 255, 255),
            thickness * 2,
            cv2.LINE_AA,
        )
        _label(out, f"{card.name} {card.confidence:.2f}", card.center, font, (60, 220, 60))
    for unk in result.unknown:
        pts = unk.corners.astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, (40, 40, 230), thickness, cv2.LINE_AA)
        _label(out, f"? {unk.reason}", unk.center, font, (40, 40, 230))
    return out


def _label(img: np.ndarray, text: str, at: tuple[float, float], font: float, color) -> None:
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, 2)
    x, y = int(at[0] - tw / 2), int(at[1])
    cv2.rectangle(img, (x - 4, y - th - 6), (x + tw + 4, y + 6), (0, 0, 0), -1)
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, font, color, 2, cv2.LINE_AA)
