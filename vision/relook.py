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
  named), in a steep or blurred photo or where some of their votes nearly fit a card. On a
  clean table with every card named it would spend a sixth of the photo's time finding
  nothing; beside a phone, a score pad or dice it found nothing either (their crowds vote
  only by chance).
"""

from __future__ import annotations

import cv2
import numpy as np

import vision.tuning as tuning
from vision.detect import edge_support
from vision.features import photo_features
from vision.find import (
    Hypothesis,
    Votes,
    find_hypotheses,
    find_in_table_view,
    plane_depths,
    table_view,
)
from vision.gallery import Gallery
from vision.geometry import CARD_CORNERS, in_quad
from vision.leftovers import free_features
from vision.name import Naming, name_hypotheses, rectified
from vision.photo import Photo
from vision.plane import card_sized, to_card_plane
from vision.result import Card, UnknownCard, dedupe_cards, explained, report_explained
from vision.unknown import blurred


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
    if len(points) == 0 or not cards:
        return len(points)
    return _crowd(*free_features(points, photo.work_size, photo.scale, cards, unknown or []))


def _crowd(xs: np.ndarray, ys: np.ndarray, near_card: np.ndarray, short_side: float) -> int:
    """:func:`_first_look_crowd` of the free features at ``xs``, ``ys`` (work pixels), where
    ``near_card`` is the mask of the cards' surroundings and ``short_side`` a card's short side
    (:func:`vision.leftovers.free_features`)."""
    if len(xs) == 0:
        return 0
    cell = max(4, int(short_side / 4))
    h, w = near_card.shape
    grid = np.zeros((h // cell + 1, w // cell + 1), np.float32)
    np.add.at(grid, (ys // cell, xs // cell), 1.0)
    return int(round(float(cv2.boxFilter(grid, -1, (4, 4), normalize=False).max())))


def _undersampled(photo: Photo, card: UnknownCard, points: np.ndarray) -> bool:
    """Did the first look see few features on a card reported unknown (a dim, small or
    blurred card, which the more sensitive search may yet name)? A card it saw in full (a sharp
    stranger: hundreds of features) gains nothing from a second, finer search."""
    seen = int(in_quad(points, card.corners * photo.scale).sum()) if len(points) else 0
    return seen < tuning.REST_UNDERSAMPLED_FEATURES


def _nearly_fitted(
    photo: Photo, gallery: Gallery, cards: list[Card], votes: Votes, near_card: np.ndarray
) -> bool:
    """Did the first look's votes away from the named and reported cards (where
    ``near_card``, :func:`vision.leftovers.free_features`, is 0) nearly fit a card? At least
    ``REST_NEAR_MISS_VOTES`` of one reference's votes there lie as its features lie on a card
    (one scale, turn and shift: :func:`cv2.estimateAffinePartial2D`), of a card's size on the
    table plane of the named ``cards``. Votes without their reference features (a photo with
    no votes at all) cannot tell: then the answer is yes."""
    if votes.features is None:
        return True
    h, w = near_card.shape
    xs = np.clip(votes.points[:, 0].astype(np.int64), 0, w - 1)
    ys = np.clip(votes.points[:, 1].astype(np.int64), 0, h - 1)
    free = near_card[ys, xs] == 0
    entries = votes.entries[free]
    if len(entries) == 0:
        return False
    counts = np.bincount(entries)
    to_card = to_card_plane(cards)
    for entry in np.argsort(-counts, kind="stable"):
        if counts[entry] < tuning.REST_NEAR_MISS_VOTES:
            break
        voted = free & (votes.entries == entry)
        fit, inliers = cv2.estimateAffinePartial2D(
            gallery.points[votes.features[voted]],
            votes.points[voted],
            method=cv2.RANSAC,
            ransacReprojThreshold=tuning.FIT_REPROJECTION,
            maxIters=tuning.FIT_ITERATIONS,
            confidence=tuning.FIT_CONFIDENCE,
        )
        if fit is None or inliers is None or int(inliers.sum()) < tuning.REST_NEAR_MISS_VOTES:
            continue
        corners = (CARD_CORNERS @ fit[:, :2].T + fit[:, 2]) / photo.scale
        if to_card is None or card_sized(corners, to_card):
            return True
    return False


def _steepness(photo: Photo, best: Card) -> float:
    """How much a card's size varies over the photo (:func:`vision.find.plane_depths`, most
    over least), by the table plane of the best-supported named card ``best``: 1 straight
    down, infinite when the picture reaches the horizon."""
    to_plane = cv2.getPerspectiveTransform(
        (best.corners * photo.scale).astype(np.float32), CARD_CORNERS
    )
    height, width = photo.gray.shape[:2]
    _, depth = plane_depths(to_plane, width, height)
    if not ((depth > 0).all() or (depth < 0).all()):
        return float("inf")
    depth = np.abs(depth)
    return float(depth.max() / depth.min())


def _worth_a_last_look(
    photo: Photo,
    gallery: Gallery,
    cards: list[Card],
    unknown: list[UnknownCard],
    first_points: np.ndarray,
    votes: Votes,
) -> bool:
    """Is something there for the last look: a card reported unknown that the first look
    under-sampled, or a crowd of first-look features away from the named and reported cards
    (:func:`_first_look_crowd`), in a photo taken steeply (:func:`_steepness`) or blurred (its
    best-supported named card is: :func:`vision.unknown.blurred`), or where the crowd's votes
    nearly fit a card (:func:`_nearly_fitted`)? With nothing named, any crowd will do. A far
    card of a steep photo is small and foreshortened, a shaken photo's cards smeared: the first
    look's features on them hardly vote (the generated scenes' cards it added had no near miss,
    nor the shaken card it added on the Pi's stack, seed 2034, motion photo 1)."""
    if any(_undersampled(photo, u, first_points) for u in unknown):
        return True
    if len(first_points) == 0 or not cards:
        return len(first_points) >= tuning.REST_MIN_FIRST_FEATURES
    xs, ys, near_card, short_side = free_features(
        first_points, photo.work_size, photo.scale, cards, unknown
    )
    if _crowd(xs, ys, near_card, short_side) < tuning.REST_MIN_FIRST_FEATURES:
        return False
    best = max(cards, key=lambda c: c.inliers)
    if _steepness(photo, best) >= tuning.REST_STEEP_SCALE_RATIO:
        return True
    if blurred(rectified(photo.image, best.corners)):
        return True  # a shaken or blurred photo: its cards' features hardly vote either
    return _nearly_fitted(photo, gallery, cards, votes, near_card)


def last_look(
    photo: Photo,
    gallery: Gallery,
    cards: list[Card],
    unknown: list[UnknownCard],
    accept: float,
    first_points: np.ndarray,
    votes: Votes,
) -> tuple[list[Card], list[UnknownCard]]:
    """Cards found by a more sensitive search where no card is named yet. ``first_points``:
    the first look's features (work pixels); ``votes``: theirs. The search runs only where
    something is there: a card reported unknown (it may yet be named), or a crowd of
    first-look features away from the named cards whose votes nearly fit a card (a card the
    first look saw but could not fit or name: :func:`_nearly_fitted`). On a clean table with
    every card named, or beside props whose features vote only by chance, it finds nothing."""
    mask = _uncovered(photo, cards)
    if mask.mean() <= 255 * tuning.REST_MIN_UNCOVERED:
        return cards, unknown
    if not _worth_a_last_look(photo, gallery, cards, unknown, first_points, votes):
        return cards, unknown
    points, descriptors = photo_features(
        photo.gray,
        tuning.REST_FEATURES,
        mask,
        fast_threshold=tuning.SENSITIVE_FAST_THRESHOLD,
        levels=tuning.REST_LEVELS,
    )
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
