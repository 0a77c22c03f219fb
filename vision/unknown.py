"""What is reported unknown, and why: a card-shaped thing that could not be named comes back
with its corners, a reason ("too blurred" or "not in gallery") and a pick-list - never as its
nearest neighbour."""

from __future__ import annotations

import numpy as np

import vision.tuning as tuning
from vision.detect import sharpness
from vision.geometry import inside, quad_iou
from vision.name import Naming, candidate_list, rectified
from vision.result import REASON_NOT_IN_GALLERY, REASON_TOO_BLURRED, Card, UnknownCard, explained


def reason_for(image: np.ndarray, corners: np.ndarray) -> str:
    """Why the card at ``corners`` could not be named: its fine detail is gone, or it is not
    in the gallery."""
    if sharpness(rectified(image, corners)) < tuning.BLUR_LIMIT:
        return REASON_TOO_BLURRED
    return REASON_NOT_IN_GALLERY


def same_card(a: np.ndarray, b: np.ndarray) -> bool:
    """Do two reports cover one card: overlapping enough, or one's centre inside the other?"""
    if quad_iou(a, b) > tuning.WEAK_SAME_IOU:
        return True
    return inside(a.mean(axis=0), b) or inside(b.mean(axis=0), a)


def merged(unknown: list[UnknownCard], cards: list[Card]) -> list[UnknownCard]:
    """One report per card: unknowns a named card explains are dropped, and of unknowns that
    cover one card the first reported is kept (outlines come before feature fits, whose
    corners are less sure)."""
    kept: list[UnknownCard] = []
    for report in unknown:
        if explained(report.corners, cards):
            continue
        if any(same_card(report.corners, k.corners) for k in kept):
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
        reason = reason_for(image, corners)
        out.append(UnknownCard(corners.astype(np.float32), reason, candidate_list(naming.scores)))
    return out
