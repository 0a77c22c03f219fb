"""What is reported unknown, and why: a card-shaped thing that could not be named comes back
with its corners, a reason ("too blurred" or "not in gallery") and a pick-list - never as its
nearest neighbour."""

from __future__ import annotations

import cv2
import numpy as np

import vision.tuning as tuning
from vision.detect import sharpness, streak_sharpness
from vision.features import to_gray
from vision.geometry import inside, quad_iou, rectify
from vision.name import Naming, candidate_list, rectified
from vision.result import (
    REASON_NOT_IN_GALLERY,
    REASON_TOO_BLURRED,
    Card,
    UnknownCard,
    explained,
    report_explained,
)


def blurred(card: np.ndarray) -> bool:
    """Has the upright card image lost its fine detail: all over (out of focus), or along one
    direction far more than the others (a shaken camera)?"""
    if sharpness(card) < tuning.BLUR_LIMIT:
        return True
    worst, spread = streak_sharpness(card)
    return worst < tuning.STREAK_BLUR_LIMIT and spread < tuning.STREAK_SPREAD


def reason_for(image: np.ndarray, corners: np.ndarray) -> str:
    """Why the card at ``corners`` could not be named: its fine detail is gone (defocus, or a
    shake that smeared it along one direction), or it is not in the gallery. Measured on the
    card's own region, so a blurred corner of the photo says nothing about a sharp card."""
    if blurred(rectified(image, corners)):
        return REASON_TOO_BLURRED
    return REASON_NOT_IN_GALLERY


def not_a_card(image: np.ndarray, corners: np.ndarray) -> bool:
    """Is the card-shaped region at ``corners`` too plain to be a card: a check of a
    tablecloth, a phone's wallpaper, a page? A card, even one nobody enrolled, is busy all over
    (art, title, rules text); a flat check has next to no detail, and a plaid check or a phone
    has sharp lines but little else. A blurred card keeps its broad contrast, and the blur
    tells it from a sharp plain thing, so a shaken card is still reported."""
    size = tuning.PLAIN_VIEW
    gray = to_gray(rectify(image, corners, size)).astype(np.float32)
    dx, dy = int(size[0] * tuning.PLAIN_BORDER), int(size[1] * tuning.PLAIN_BORDER)
    inner = gray[dy:-dy, dx:-dx]
    if float(inner.std()) < tuning.PLAIN_MIN_STD:
        return True
    detail = np.abs(inner - cv2.GaussianBlur(inner, (0, 0), 1.5)) > tuning.PLAIN_DETAIL_LEVEL
    if float(detail.mean()) >= tuning.PLAIN_MIN_DETAIL:
        return False
    return not blurred(rectified(image, corners))


def uncovered_part_is_plain(image: np.ndarray, corners: np.ndarray, cards: list[Card]) -> bool:
    """Is what a weak card-shaped fit or an unnamed outline covers, once the named cards are
    taken out, bare table? Features left on a named card (the part of its rules text its own
    fit did not spend) can fit another reference whose quad hangs off that card over the cloth,
    and a named card's edge joins a cloth's check lines into a card-sized loop. A real card
    lying partly under its neighbours (a fan) shows its own busy art in the part nobody covers;
    a region that is mostly named cards, or named cards and plain table, is no card."""
    size = tuning.PLAIN_VIEW
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    free = _free_of_cards(quad, cards, size)
    if int(free.sum()) == free.size:
        return False  # nothing named over it: not_a_card and the reason decide as before
    if float(free.mean()) < tuning.WEAK_UNCOVERED_MIN_SHARE:
        return True  # next to nothing of it lies outside the named cards
    gray = to_gray(rectify(image, quad, size)).astype(np.float32)
    part = free.astype(bool)
    if float(gray[part].std()) < tuning.PLAIN_MIN_STD:
        return True
    detail = np.abs(gray - cv2.GaussianBlur(gray, (0, 0), 1.5)) > tuning.PLAIN_DETAIL_LEVEL
    return float(detail[part].mean()) < tuning.PLAIN_MIN_DETAIL and not blurred(
        rectified(image, quad)
    )


def stands_out(image: np.ndarray, quad: np.ndarray, cards: list[Card]) -> bool:
    """Does the region at ``quad`` differ in colour from the table around it? A card does, even
    smeared (its art against wood, felt or cloth); a loop in the table's own pattern (wood
    grain of a card's size) is the table inside and out. The median Lab colour of the quad's
    middle (``STANDS_OUT_MIDDLE`` of it about its centre) against that of a ring around it
    (out to ``STANDS_OUT_RING`` past its corners), the named ``cards`` left out of the ring."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    middle = centre + (quad - centre) * tuning.STANDS_OUT_MIDDLE
    around = centre + (quad - centre) * (1.0 + tuning.STANDS_OUT_RING)
    height, width = image.shape[:2]
    x0, y0 = np.maximum(0, np.floor(around.min(axis=0))).astype(np.int64)
    x1 = min(width, int(np.ceil(around[:, 0].max())) + 1)
    y1 = min(height, int(np.ceil(around[:, 1].max())) + 1)
    if x1 <= x0 or y1 <= y0:
        return False
    lab = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2LAB)

    def mask(*polygons: np.ndarray) -> np.ndarray:
        out = np.zeros(lab.shape[:2], np.uint8)
        for polygon in polygons:
            cv2.fillConvexPoly(out, np.round(polygon - [x0, y0]).astype(np.int32), 1)
        return out > 0

    inside = mask(middle)
    ring = mask(around) & ~mask(quad, *(card.corners for card in cards))
    if int(ring.sum()) < tuning.STANDS_OUT_MIN_RING_PX or not inside.any():
        return False  # no table to compare with: not shown to stand out
    difference = np.median(lab[inside], axis=0) - np.median(lab[ring], axis=0)
    return float(np.linalg.norm(difference.astype(np.float64))) >= tuning.STANDS_OUT_MIN_LAB


def _free_of_cards(quad: np.ndarray, cards: list[Card], size: tuple[int, int]) -> np.ndarray:
    """Over ``quad`` straightened to ``size``: 1 where no named card lies, else 0. The cards
    are drawn in the photo and the drawing straightened with the quad (a card's corners mapped
    into a steep quad's view can fall past its horizon and fill the wrong side)."""
    low = np.floor(quad.min(axis=0)).astype(np.int64)
    high = np.ceil(quad.max(axis=0)).astype(np.int64)
    width, height = (high - low + 1).tolist()
    covered = np.zeros((height, width), np.uint8)
    for card in cards:
        cv2.fillPoly(covered, [np.round(card.corners - low).astype(np.int32)], 1)
    upright = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float32)
    to_view = cv2.getPerspectiveTransform((quad - low).astype(np.float32), upright)
    seen = cv2.warpPerspective(covered, to_view, size, flags=cv2.INTER_NEAREST)
    return (seen == 0).astype(np.uint8)


def same_card(a: np.ndarray, b: np.ndarray) -> bool:
    """Do two reports cover one card: overlapping enough, or one's centre inside the other?"""
    if quad_iou(a, b) > tuning.WEAK_SAME_IOU:
        return True
    return inside(a.mean(axis=0), b) or inside(b.mean(axis=0), a)


def _in_visible_part(a: UnknownCard, b: UnknownCard) -> bool:
    """Does report ``a`` lie within the part of ``b`` that shows (at least
    ``UNKNOWN_IN_VISIBLE_SHARE`` of it)? Then it is an outline of that part (a tape's card
    showing above the next one), not a card of its own: a card's neighbour in a hand overlaps
    it by half at most."""
    if b.visible is None or len(b.visible) < 3:
        return False
    low = np.floor(np.minimum(a.corners.min(axis=0), b.visible.min(axis=0)))
    high = np.ceil(np.maximum(a.corners.max(axis=0), b.visible.max(axis=0)))
    width, height = (high - low + 1).astype(np.int64)
    if width * height > tuning.UNKNOWN_MASK_MAX_PX:
        return False
    own = np.zeros((height, width), np.uint8)
    cv2.fillPoly(own, [np.round(a.corners - low).astype(np.int32)], 1)
    shown = np.zeros_like(own)
    cv2.fillPoly(shown, [np.round(b.visible - low).astype(np.int32)], 1)
    area = int(own.sum())
    return area > 0 and int((own & shown).sum()) >= tuning.UNKNOWN_IN_VISIBLE_SHARE * area


def _one_card(a: UnknownCard, b: UnknownCard) -> bool:
    """Do two reports cover one card? Two cards of a fan overlap by half and hold each other's
    centres, so reports of cards lying under others (``visible`` set) are one card only when
    they overlap as much as two names for one card (``LAYERED_MAX_IOU``)."""
    if a.visible is not None or b.visible is not None:
        return (
            quad_iou(a.corners, b.corners) > tuning.LAYERED_MAX_IOU
            or _in_visible_part(a, b)
            or _in_visible_part(b, a)
        )
    return same_card(a.corners, b.corners)


def merged(unknown: list[UnknownCard], cards: list[Card]) -> list[UnknownCard]:
    """One report per card: unknowns a named card explains are dropped, and of unknowns that
    cover one card the first reported is kept (outlines come before feature fits, whose
    corners are less sure)."""
    kept: list[UnknownCard] = []
    for report in unknown:
        if report_explained(report, cards):
            continue
        if any(_one_card(report, k) for k in kept):
            continue
        kept.append(report)
    return kept


def report_weak(
    image: np.ndarray,
    weak: list[tuple[np.ndarray, Naming]],
    cards: list[Card],
    unknown: list[UnknownCard],
) -> list[UnknownCard]:
    """``unknown`` plus every card the features found but could not name with confidence
    (still a card: reported with its closest names) unless something named or already
    reported covers it."""
    out = list(unknown)
    for corners, naming in weak:
        if naming.inliers < tuning.WEAK_CARD_INLIERS or explained(corners, cards):
            continue
        if any(quad_iou(corners, u.corners) > tuning.WEAK_SAME_IOU for u in out):
            continue
        if uncovered_part_is_plain(image, corners, cards):
            continue
        reason = reason_for(image, corners)
        out.append(UnknownCard(corners.astype(np.float32), reason, candidate_list(naming.scores)))
    return out
