"""What :func:`vision.identify` returns: named cards, unknown cards and why, and the timings.

Also the two book-keeping rules every step shares: when a find is already explained by a named
card, and how duplicate names of one card are merged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import vision.tuning as tuning
from vision.geometry import inside, quad_iou

REASON_NOT_IN_GALLERY = "not in gallery"
REASON_TOO_BLURRED = "too blurred"


class VisionError(ValueError):
    """An image that cannot be used at all (empty, unreadable)."""

    @property
    def advice(self) -> str:
        """The sentence for a player at the table (says what to do: retake)."""
        return f"That photo cannot be used ({self}): retake it."


class DamagedPhotoError(VisionError):
    """A photo file that ends early (a camera write cut short, a copy interrupted): decoders
    read the missing part as flat grey or white, so it is refused before decoding."""

    def __init__(self, problem: str = "it ends early") -> None:
        super().__init__(f"the photo is damaged ({problem})")
        self.problem = problem

    @property
    def advice(self) -> str:
        return f"The photo is damaged ({self.problem}): retake it."


@dataclass
class Candidate:
    """One possible name for a card, with its confidence (for pick-lists)."""

    name: str
    confidence: float


@dataclass
class Card:
    """A named card: ``corners`` are the card face's top-left, top-right, bottom-right,
    bottom-left in image pixels (so the card's top edge is corners[0] -> corners[1]);
    ``orientation`` is how far the card is turned from upright, degrees counter-clockwise.
    ``inliers`` are the named reference's geometric inliers, ``rival_inliers`` those of the
    best reference with another name."""

    name: str
    confidence: float
    corners: np.ndarray
    entry: int = -1
    inliers: int = 0
    candidates: list[Candidate] = field(default_factory=list)
    rival_inliers: int = 0
    visible: np.ndarray | None = None  # the part that shows, when cards lie over it

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
    visible: np.ndarray | None = None  # the part that shows, when named cards lie over it

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


@dataclass
class Identification:
    """Every card found in one photo: ``cards`` named (confidence at or above the accept
    threshold), ``unknown`` card-shaped but not named, ``seconds`` the wall time,
    ``timings`` the wall seconds of each step of the pipeline, ``cpu`` the CPU seconds of
    each kind of work and ``step_cpu`` the CPU seconds of each step (:mod:`vision.timing`)."""

    cards: list[Card]
    unknown: list[UnknownCard]
    seconds: float
    image_size: tuple[int, int] = (0, 0)  # width, height
    timings: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    step_cpu: dict[str, float] = field(default_factory=dict)

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
                    **({} if c.visible is None else {"visible": pts(c.visible)}),
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
                    **({} if u.visible is None else {"visible": pts(u.visible)}),
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


def explained(quad: np.ndarray, cards: list[Card]) -> bool:
    """Is this outline one of the named cards, a part of one, or a region holding one?"""
    q = np.asarray(quad, np.float32)
    centre = q.mean(axis=0)
    (x0, y0), (x1, y1) = q.min(axis=0).tolist(), q.max(axis=0).tolist()
    for card in cards:
        # Apart (their boxes do not even touch): no overlap, neither centre in the other.
        # Most outlines lie apart from most cards, and this is a fraction of the tests' cost.
        c = np.asarray(card.corners, np.float32)
        (cx0, cy0), (cx1, cy1) = c.min(axis=0).tolist(), c.max(axis=0).tolist()
        if cx0 > x1 or x0 > cx1 or cy0 > y1 or y0 > cy1:
            continue
        if quad_iou(q, card.corners) > tuning.EXPLAINED_IOU:
            return True
        if inside(centre, card.corners) or inside(card.center, q):
            return True
    return False


def report_explained(report: UnknownCard, cards: list[Card]) -> bool:
    """Is an unknown card one of the named cards, a part of one, or a region holding one? An
    unknown card lying partly under named cards (its ``visible`` part set: a fan's card that
    could not be named) lies over or under its named neighbours, which hold its centre and
    half of it: only a name for the card itself (overlapping it more than two cards in layers
    do, ``LAYERED_MAX_IOU``) explains it."""
    if report.visible is None:
        return explained(report.corners, cards)
    return any(quad_iou(report.corners, card.corners) > tuning.LAYERED_MAX_IOU for card in cards)


def layered(a: Card, b: Card) -> bool:
    """Are two named cards two cards of a fan, one lying partly over the other, rather than
    two names for one card? Different names, each fitted from its own features (the fits are
    whole cards, so a fan's neighbours overlap by IoU 0.3-0.5) and overlapping less than
    ``LAYERED_MAX_IOU``."""
    return a.name != b.name and quad_iou(a.corners, b.corners) < tuning.LAYERED_MAX_IOU


def dedupe_cards(cards: list[Card]) -> list[Card]:
    """One name per card: of overlapping names the best-supported one (most inliers); cards
    lying in layers (a fan: :func:`layered`) are all kept."""
    kept: list[Card] = []
    for card in sorted(cards, key=lambda c: -c.inliers):
        if all(
            quad_iou(card.corners, k.corners) < tuning.SAME_CARD_IOU or layered(card, k)
            for k in kept
        ):
            kept.append(card)
    return kept
