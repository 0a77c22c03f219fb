"""Find: where the cards are, from the photo's features looked up in the gallery's word index.

ORB features of the (reduced) photo are looked up in the gallery's visual-word index
(:mod:`vision.features`), kept when the nearest reference feature is clearly closer than any
feature of a *differently named* card, and vote for references. The most-voted references
are fitted (RANSAC affine, perspective when needed); each consistent set is a card
*hypothesis*: a reference and a homography from the canonical card into the photo.

A second look searches a straight-down view of a steep photo (:func:`find_in_table_view`),
where ORB sees the far cards better.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

import vision.tuning as tuning
from vision.features import (
    card_features,
    hamming_runs,
    photo_features,
    pick,
    repeat_runs,
    run_members,
)
from vision.gallery import Gallery
from vision.geometry import (
    corners_from_homography,
    in_quad,
    inverse,
    plausible_card,
    quad_iou,
)
from vision.timing import part


@dataclass
class Hypothesis:
    """A card found by its features: the reference it matched (``entry``), the homography
    from the canonical card into the picture searched, its inliers, and the references voted
    near it (its rivals for naming)."""

    entry: int
    homography: np.ndarray  # canonical card -> work image
    inliers: int
    votes: dict[int, int]


@dataclass
class Votes:
    """Where the photo's well-matched features are (work image) and which reference each one
    votes for: a shortlist for any region of the photo. ``features``: the reference feature
    each vote matched (its place on the canonical card, ``Gallery.points``), when known."""

    points: np.ndarray
    entries: np.ndarray
    features: np.ndarray | None = None
    # What was worked out from these votes for a pair of quads, kept for the photo (the votes'
    # life): :func:`vision.layers.lies_over` is asked of the same pairs again and again
    # (436 asks, 173 distinct pairs, on the 10 fan photos of seed 2026).
    memo: dict[tuple[object, ...], object] = field(default_factory=dict, repr=False, compare=False)

    def shortlist(self, quad: np.ndarray, k: int) -> list[int]:
        if len(self.points) == 0:
            return []
        local = self.entries[in_quad(self.points, quad)]
        if len(local) == 0:
            return []
        counts = np.bincount(local)
        top = np.argsort(-counts)[:k]
        return [int(e) for e in top if counts[e] >= tuning.VOTES_FOR_SHORTLIST]


NO_VOTES = Votes(np.zeros((0, 2), np.float32), np.zeros(0, np.int64))


@dataclass
class _Pairs:
    """Matches that vote: photo feature (query), gallery feature and its reference."""

    query: np.ndarray
    entry: np.ndarray
    feature: np.ndarray


_PAIR_BITS_32 = 22  # pair numbers below 2**22 share an int32 with a distance below 2**9


def _best_per_query(
    query_ids: np.ndarray, dist: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs are grouped by query id: each group's start, the group of every pair, and each
    group's nearest pair."""
    starts_group = np.r_[True, query_ids[1:] != query_ids[:-1]]
    group_start = np.flatnonzero(starts_group)
    group_of_pair = np.cumsum(starts_group) - 1
    return group_start, group_of_pair, _nearest_in_groups(group_start, dist)


def _nearest_in_groups(group_start: np.ndarray, dist: np.ndarray) -> np.ndarray:
    """Each group's nearest pair (the first on a tie), for groups of consecutive pairs
    starting at ``group_start``."""
    # Each pair's distance (at most 256: 9 bits) above its number, so one minimum per group
    # gives the nearest pair and, on a tie, the first; in 32 bits when the numbers fit (half
    # the memory to move for a photo's ~half a million pairs).
    if len(dist) < 1 << _PAIR_BITS_32:
        packed = dist.astype(np.int32, copy=False) << _PAIR_BITS_32
        packed |= np.arange(len(dist), dtype=np.int32)
        return np.minimum.reduceat(packed, group_start) & ((1 << _PAIR_BITS_32) - 1)
    packed = (dist.astype(np.int64) << 32) | np.arange(len(dist), dtype=np.int64)
    return np.minimum.reduceat(packed, group_start) & 0xFFFFFFFF


def _voting_pairs(descriptors: np.ndarray, gallery: Gallery) -> _Pairs | None:
    """The matches that vote: per photo feature, the nearest reference feature must be close
    and clearly closer than the nearest feature of any *other* name (many printings share
    art: those must not count as rivals); every pair of such a feature that points at its
    best name and is nearly as close votes for its reference (so each printing gets its
    share)."""
    query_ids, slots, per_query = gallery.index.candidate_runs(descriptors, tuning.PROBES)
    if len(query_ids) == 0:
        return None
    descriptors_by_word, name_by_word = gallery.by_word
    dist = hamming_runs(descriptors, per_query, descriptors_by_word, slots)
    name_of = pick(name_by_word, slots)
    # The pairs come grouped by photo feature, each feature's candidates one run: the groups
    # follow from the run lengths, not from comparing half a million neighbouring pairs.
    group_size = per_query[per_query > 0]
    group_start = np.cumsum(group_size) - group_size
    best_pair = _nearest_in_groups(group_start, dist)
    best_dist = pick(dist, best_pair)
    same_name = name_of == repeat_runs(pick(name_of, best_pair), group_size)
    other = np.where(same_name, 512, dist)  # 512: no other name
    second = np.minimum.reduceat(other, group_start)
    good_group = (best_dist <= tuning.MAX_DESCRIPTOR_DISTANCE) & (best_dist < tuning.RATIO * second)
    good = np.flatnonzero(good_group)
    if len(good) == 0:
        return None
    # Only the pairs of the groups that pass (a few hundred of a photo's ~4,000) are screened
    # further, not every pair (~half a million); in the same order as ever.
    lengths = group_size[good]
    pair = run_members(group_start[good], lengths)
    near = dist[pair] <= repeat_runs(best_dist[good], lengths) + tuning.VOTE_SPREAD_BITS
    keep = pair[same_name[pair] & near]
    if len(keep) == 0:
        return None
    voters = gallery.index.order[slots[keep]].astype(np.int64)
    return _Pairs(query_ids[keep], gallery.owner[voters], voters)


def _fit(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Canonical card -> picture homography of one reference's matches, and its inlier mask.

    An affine fit: robust when the matches bunch up on one part of the card (a full
    homography from a cluster extrapolates wildly to the corners). A card near a steeply
    tilted camera is far from affine: then the perspective fit is kept if it explains clearly
    more matches. (Naming at full scale puts the exact perspective back.)"""
    with part("fit"):
        return _fit_ransac(src, dst)


def _fit_ransac(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    affine, mask = cv2.estimateAffine2D(
        src,
        dst,
        method=cv2.RANSAC,
        ransacReprojThreshold=tuning.FIT_REPROJECTION,
        maxIters=tuning.FIT_ITERATIONS,
        confidence=tuning.FIT_CONFIDENCE,
    )
    if affine is None or mask is None:
        return None
    h = np.vstack([affine, [0.0, 0.0, 1.0]])
    inl = mask.ravel().astype(bool)
    count = int(inl.sum())
    if count < tuning.MIN_FIND_INLIERS:
        return None
    if (
        count < tuning.PERSPECTIVE_BELOW_SHARE * len(src)
        and count >= tuning.PERSPECTIVE_MIN_INLIERS
    ):
        ph, pmask = cv2.findHomography(
            src,
            dst,
            cv2.RANSAC,
            tuning.FIT_REPROJECTION,
            maxIters=tuning.PERSPECTIVE_ITERATIONS,
        )
        if ph is not None and pmask is not None:
            pin = pmask.ravel().astype(bool)
            if int(pin.sum()) > tuning.PERSPECTIVE_GAIN * count and plausible_card(
                corners_from_homography(ph)
            ):
                h, inl = ph, pin
    return h, inl


def _shown_part(corners: np.ndarray, inliers: np.ndarray) -> np.ndarray:
    """The part of a fitted card its features came from: the card's quad, clipped to the
    bounding box of its inliers grown by ``SHOWN_PART_MARGIN`` of the card's size, when that
    box covers under ``SHOWN_PART_WHOLE`` of the card: a card in a fan spends only the part
    that shows, so the features of the card lying over it stay free to find that card. A card
    lying whole spends its whole quad."""
    if len(inliers) < 3:
        return corners
    span = float(np.ptp(corners, axis=0).max()) * tuning.SHOWN_PART_MARGIN
    x0, y0 = inliers.min(axis=0) - span
    x1, y1 = inliers.max(axis=0) + span
    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    area, shared = cv2.intersectConvexConvex(corners.astype(np.float32), box)
    whole = abs(float(cv2.contourArea(corners.astype(np.float32))))
    if area <= 0 or shared is None or len(shared) < 3 or area > tuning.SHOWN_PART_WHOLE * whole:
        return corners  # a card lying whole (or nearly) spends its whole outline, as ever
    hull = cv2.convexHull(shared.reshape(-1, 2).astype(np.float32)).reshape(-1, 2)
    return hull


def _fit_voted(
    points: np.ndarray, pairs: _Pairs, gallery: Gallery, work_size: tuple[int, int]
) -> list[Hypothesis]:
    """Fit the most-voted references in turn; each fit spends the photo features on its card
    (no other reference may claim them), and a reference may fit several cards."""
    votes = np.bincount(pairs.entry, minlength=len(gallery))
    order = np.argsort(-votes, kind="stable")
    used = np.zeros(len(points), bool)
    found: list[Hypothesis] = []
    work_w, work_h = work_size
    for tried, entry in enumerate(order):
        if votes[entry] < tuning.MIN_VOTES or tried >= tuning.MAX_HYPOTHESES:
            break
        sel = (pairs.entry == entry) & ~used[pairs.query]
        while int(sel.sum()) >= tuning.MIN_FIND_INLIERS:
            fit = _fit(gallery.points[pairs.feature[sel]], points[pairs.query[sel]])
            if fit is None:
                break
            h, inl = fit
            corners = corners_from_homography(h)
            if not plausible_card(corners) or not on_picture(corners, work_w, work_h):
                break
            found.append(Hypothesis(int(entry), h, int(inl.sum()), {}))
            # Its inliers are spent too, so the loop always ends even if the fitted outline
            # misses them.
            inlier_points = points[pairs.query[np.flatnonzero(sel)[inl]]]
            used |= in_quad(points, _shown_part(corners, inlier_points))
            used[pairs.query[np.flatnonzero(sel)[inl]]] = True
            sel = (pairs.entry == entry) & ~used[pairs.query]
    return found


def _voting_pairs_of(
    descriptors: np.ndarray, features: np.ndarray, gallery: Gallery
) -> _Pairs | None:
    """:func:`_voting_pairs` of the photo features numbered ``features`` (ascending), their
    pairs numbered as the photo's features. A feature's votes depend on it alone (its nearest
    references and their names), not on which other features are looked up with it."""
    pairs = _voting_pairs(descriptors[features], gallery)
    if pairs is not None:
        pairs.query = features[pairs.query]
    return pairs


def _lone_sure_cards(hypotheses: list[Hypothesis]) -> list[np.ndarray]:
    """The outlines of the cards fitted from at least ``FIND_SURE_INLIERS`` inliers that no
    other fit overlaps (in a fan every card overlaps a neighbour's fit)."""
    quads = [corners_from_homography(h.homography) for h in hypotheses]
    lone = []
    for i, (hyp, quad) in enumerate(zip(hypotheses, quads, strict=True)):
        if hyp.inliers < tuning.FIND_SURE_INLIERS:
            continue
        others = (q for j, q in enumerate(quads) if j != i)
        if all(cv2.intersectConvexConvex(quad, q)[0] <= 0 for q in others):
            lone.append(quad)
    return lone


def _strongest_first_pairs(
    points: np.ndarray,
    descriptors: np.ndarray,
    strength: np.ndarray,
    gallery: Gallery,
    work_size: tuple[int, int],
) -> _Pairs | None:
    """The voting pairs of the photo's ``FIND_FIRST_FEATURES`` strongest features, and of the
    rest but those on a card the strongest fit beyond doubt that lies alone: looking a
    feature up (its nearest words and ~120 reference features) is most of finding's cost,
    and such a card gains little from the weaker features' votes. A card in a fan, or one
    the strongest fit weakly or not at all, keeps every feature: the fits of a hand depend
    on each other (the features each one spends), and skipping the weaker features on any
    card found lost fanned cards. The pairs come in the photo features' order, as one
    look-up of them all gives them."""
    strong = np.zeros(len(descriptors), bool)
    strong[np.argsort(-strength, kind="stable")[: tuning.FIND_FIRST_FEATURES]] = True
    pairs = _voting_pairs_of(descriptors, np.flatnonzero(strong), gallery)
    skip = strong.copy()
    if pairs is not None:
        for quad in _lone_sure_cards(_fit_voted(points, pairs, gallery, work_size)):
            skip |= in_quad(points, quad)
    rest = _voting_pairs_of(descriptors, np.flatnonzero(~skip), gallery)
    if pairs is None or rest is None:
        return rest if pairs is None else pairs
    query = np.concatenate([pairs.query, rest.query])
    order = np.argsort(query, kind="stable")
    return _Pairs(
        query[order],
        np.concatenate([pairs.entry, rest.entry])[order],
        np.concatenate([pairs.feature, rest.feature])[order],
    )


def find_hypotheses(
    points: np.ndarray,
    descriptors: np.ndarray,
    gallery: Gallery,
    work_size: tuple[int, int],
    strength: np.ndarray | None = None,
) -> tuple[list[Hypothesis], Votes]:
    """Cards found by the photo's features (``points`` in the work image), and the votes.
    ``strength``: the features' corner strengths, to look the strongest up first
    (:func:`_strongest_first_pairs`); without them every feature is looked up."""
    if len(descriptors) == 0 or len(gallery) == 0:
        return [], NO_VOTES
    if strength is not None and len(descriptors) > tuning.FIND_FIRST_FEATURES:
        pairs = _strongest_first_pairs(points, descriptors, strength, gallery, work_size)
    else:
        pairs = _voting_pairs(descriptors, gallery)
    if pairs is None:
        return [], NO_VOTES
    found = _fit_voted(points, pairs, gallery, work_size)
    # The voted references near each hypothesis are its rivals for naming.
    voter_points = points[pairs.query]
    for hyp in found:
        inside_mask = in_quad(voter_points, corners_from_homography(hyp.homography))
        local = np.bincount(pairs.entry[inside_mask], minlength=len(gallery))
        top = np.argsort(-local)[: tuning.RIVAL_VOTES_KEPT]
        hyp.votes = {int(e): int(local[e]) for e in top if local[e] > 0}
    return found, Votes(voter_points, pairs.entry, pairs.feature)


def on_picture(corners: np.ndarray, w: int, h: int) -> bool:
    """The card's centre lies inside the picture, and it is not a speck."""
    c = corners.mean(axis=0)
    if not (0 <= c[0] < w and 0 <= c[1] < h):
        return False
    area = cv2.contourArea(corners.reshape(-1, 1, 2))
    return area >= tuning.MIN_CARD_AREA


def shortlist_by_index(
    patch: np.ndarray,
    gallery: Gallery,
    k: int,
    features: tuple[np.ndarray, np.ndarray] | None = None,
) -> list[int]:
    """The references most voted for by the patch's own features, looked up in the word index
    (whichever way up the patch is: features do not care). For outlines in places the photo's
    features missed: a small or blurred card has few features in the whole-photo budget.
    ``features``: the patch's, when already made (its ORB pass at the patch budget)."""
    if len(gallery) == 0:
        return []
    _, descriptors = (
        features if features is not None else card_features(patch, tuning.PATCH_FEATURES)
    )
    return shortlist_by_descriptors(descriptors, gallery, k)


def shortlist_by_descriptors(descriptors: np.ndarray, gallery: Gallery, k: int) -> list[int]:
    """:func:`shortlist_by_index` of a card's own features (``descriptors``): those of the part
    of a card that shows, say."""
    if len(gallery) == 0 or len(descriptors) == 0:
        return []
    query_ids, slots, per_query = gallery.index.candidate_runs(descriptors, tuning.PROBES)
    if len(query_ids) == 0:
        return []
    dist = hamming_runs(descriptors, per_query, gallery.by_word[0], slots)
    _, _, best_pair = _best_per_query(query_ids, dist)
    best_pair = best_pair[dist[best_pair] <= tuning.MAX_DESCRIPTOR_DISTANCE]
    if len(best_pair) == 0:
        return []
    counts = np.bincount(
        gallery.owner[gallery.index.order[slots[best_pair]]], minlength=len(gallery)
    )
    top = np.argsort(-counts)[:k]
    return [int(e) for e in top if counts[e] >= tuning.INDEX_MIN_VOTES]


# -- the second look: a straight-down view of a steep photo -----------------------------------
def plane_depths(to_plane: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """A ``TABLE_VIEW_GRID`` square grid of points over a ``width`` x ``height`` picture (N x 2)
    and each one's depth under the picture -> table plane homography ``to_plane`` (its
    homogeneous w). A card's linear size in the picture goes as 1 / w, so how much w varies
    over the picture (most over least) says how steep the view is; w changes sign where the
    picture reaches the horizon."""
    steps = tuning.TABLE_VIEW_GRID
    grid = np.array(
        [[x, y] for x in np.linspace(0, width, steps) for y in np.linspace(0, height, steps)],
        np.float64,
    )
    return grid, to_plane[2, 0] * grid[:, 0] + to_plane[2, 1] * grid[:, 1] + to_plane[2, 2]


def table_view(
    hypotheses: list[Hypothesis], width: int, height: int
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
        to_plane = inverse(h)
    except np.linalg.LinAlgError:
        return None
    grid, w = plane_depths(to_plane, width, height)
    if (w <= 0).any() or (w > 0).sum() < len(w):
        return None  # the picture reaches the horizon: no finite table view
    if w.max() / w.min() < tuning.STEEP_SCALE_RATIO:
        return None
    plane = cv2.perspectiveTransform(grid[None], to_plane)[0]
    x0, y0 = plane.min(axis=0)
    x1, y1 = plane.max(axis=0)
    span_w, span_h = x1 - x0, y1 - y0
    if span_w <= 0 or span_h <= 0:
        return None
    scale = min(
        np.sqrt(width * height / (span_w * span_h)) * tuning.TABLE_VIEW_ZOOM,
        tuning.TABLE_VIEW_MAX_SIDE / max(span_w, span_h),
    )
    shift = np.array([[scale, 0, -scale * x0], [0, scale, -scale * y0], [0, 0, 1.0]])
    size = (int(np.ceil(span_w * scale)), int(np.ceil(span_h * scale)))
    return shift @ to_plane, size


def find_in_table_view(
    gray: np.ndarray,
    view: tuple[np.ndarray, tuple[int, int]],
    hypotheses: list[Hypothesis],
    gallery: Gallery,
) -> list[Hypothesis]:
    """Look again in the straight-down ``view`` of the table (:func:`table_view` of
    ``hypotheses``): ORB is not made for steep views, so cards far from the camera of a tilted
    photo are found here instead. Returns the new cards' hypotheses, mapped back to the
    photo."""
    height, width = gray.shape[:2]
    to_view, size = view
    flat = cv2.warpPerspective(gray, to_view, size, flags=cv2.INTER_LINEAR)
    points, descriptors = photo_features(flat, tuning.PHOTO_FEATURES)
    found, _ = find_hypotheses(points, descriptors, gallery, size)
    back = inverse(to_view)
    known = [corners_from_homography(h.homography) for h in hypotheses]
    new: list[Hypothesis] = []
    for hyp in found:
        # In the flat view the card must look like a card; in the photo, any fitted shape will
        # do (a card near the camera of a steep photo can look far thinner than a card).
        if not plausible_card(corners_from_homography(hyp.homography)):
            continue
        hyp.homography = back @ hyp.homography
        corners = corners_from_homography(hyp.homography)
        if not plausible_card(corners, fitted=True) or not on_picture(corners, width, height):
            continue
        if any(quad_iou(corners, k) > tuning.SAME_CARD_IOU for k in known):
            continue
        known.append(corners)
        new.append(hyp)
    return new
