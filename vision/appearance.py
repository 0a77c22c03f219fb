"""The look's verdicts on a name: a second opinion where the features are unsure, and the last
word on every named card.

A card that is not enrolled but shares the rules text and frame of its cycle with an enrolled
card lines up enough features to be named; its art still differs, and its look says so.
Looks are not used for galleries under ``LOOK_MIN_GALLERY`` references (their "typical card"
means little).
"""

from __future__ import annotations

import numpy as np

import vision.tuning as tuning
from vision.gallery import Gallery
from vision.geometry import CARD_H, CARD_W, rectify
from vision.look import card_look, look_cells, look_residuals, look_vectors
from vision.result import REASON_NOT_IN_GALLERY, Card, UnknownCard
from vision.timing import part


def confidence_from_look(similarity: float, other: float) -> float:
    """How sure a name is from the card's look alone: its correlation with the named
    reference (``similarity``) and with the closest reference of any other name (``other``),
    both after taking the gallery's typical card away (:func:`vision.look.look_vectors`).
    At least the accept threshold (0.5) only when the look is close *and* clearly closer than
    any other name's; up to 0.9, never certain (looks cannot tell two printings apart from
    two cards with the same art)."""
    lead = similarity - other
    if similarity < tuning.LOOK_MIN_SIMILARITY or lead < tuning.LOOK_MIN_LEAD:
        return 0.0
    return float(
        min(
            tuning.LOOK_MAX_CONFIDENCE,
            tuning.ACCEPT_CONFIDENCE + (lead - tuning.LOOK_MIN_LEAD),
        )
    )


def look_contradicts(similarity: float, other: float) -> bool:
    """Does the card's look speak against its name: hardly like the named reference and far
    more like another name's? (A card that is not enrolled but shares its rules text and
    frame with an enrolled one - a cycle of lands, say - lines up many features with it.)"""
    return similarity < tuning.LOOK_VETO_SIMILARITY and other - similarity > tuning.LOOK_VETO_GAP


def look_patch(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card at ``corners`` rectified at the small size its look needs."""
    size = (CARD_W // tuning.LOOK_PATCH_DIVISOR, CARD_H // tuning.LOOK_PATCH_DIVISOR)
    return rectify(image, corners, size)


def _named(gallery: Gallery, name: str) -> np.ndarray:
    """Which gallery entries carry ``name`` (a mask over the entries)."""
    return np.asarray(gallery.name_ids == gallery.name_ids[gallery.entries_named(name)[0]])


def look_similarities(patch: np.ndarray, gallery: Gallery, name: str) -> tuple[float, float] | None:
    """The look correlation of the upright card image ``patch`` with the closest reference
    named ``name`` and with the closest reference of any other name; None when the gallery
    is too small for a typical card or holds only that name."""
    if len(gallery) < tuning.LOOK_MIN_GALLERY:
        return None
    with part("look"):
        return _similarities(patch, gallery, name)


def _similarities(patch: np.ndarray, gallery: Gallery, name: str) -> tuple[float, float] | None:
    table = gallery.look_vectors()
    mine = look_vectors(look_residuals(card_look(patch)[None], gallery.typical_look()))[0]
    # einsum, not a BLAS product: no BLAS helper threads woken (they spin, costing CPU)
    sims = np.einsum("ed,d->e", table, mine)
    same = _named(gallery, name)
    if same.all():
        return None
    return float(sims[same].max()), float(sims[~same].max())


def look_disowns(
    patch: np.ndarray, gallery: Gallery, name: str, *, shared_layout: bool = False
) -> bool:
    """Does the card's look, compared cell by cell (the median of 12 cells, so half the card
    may be covered or glared), deny the name? Yes when it is not close to the named reference,
    or closer to a reference of another name. With ``shared_layout`` (another name lined up
    nearly as many inliers: see :func:`shares_layout`) the look must also be close to
    the named reference, not just closer to it than to the others."""
    if len(gallery) < tuning.LOOK_MIN_GALLERY:
        return False
    cells = gallery.look_cells()
    mine = look_cells(look_residuals(card_look(patch)[None], gallery.typical_look()))[0]
    scores = np.median(np.einsum("ecd,cd->ec", cells, mine), axis=1)
    same = _named(gallery, name)
    if same.all():
        return False
    similarity, other = float(scores[same].max()), float(scores[~same].max())
    if similarity < tuning.LOOK_MIN_CELLS_SIMILARITY or other > similarity:
        return True
    return shared_layout and similarity < tuning.LOOK_SHARED_MIN_CELLS_SIMILARITY


def shares_layout(card: Card) -> bool:
    """Did another name line up nearly as many inliers as the card's own name (at least
    ``LOOK_SHARED_RIVAL_SHARE``)? Then what the features saw is mostly what the two share - a
    cycle's frame and word-for-word rules text - and the name rests on the art, which only the
    look can judge (a card that is not enrolled, sharing the rules text of two enrolled ones,
    was named at 77 inliers against 61)."""
    return card.rival_inliers >= tuning.LOOK_SHARED_RIVAL_SHARE * card.inliers


def last_word(
    image: np.ndarray, gallery: Gallery, cards: list[Card], unknown: list[UnknownCard]
) -> tuple[list[Card], list[UnknownCard]]:
    """Every named card whose look denies its name is reported unknown instead, its name
    first in the pick-list."""
    kept: list[Card] = []
    disowned: list[UnknownCard] = []
    for card in cards:
        patch = look_patch(image, card.corners)
        if look_disowns(patch, gallery, card.name, shared_layout=shares_layout(card)):
            disowned.append(UnknownCard(card.corners, REASON_NOT_IN_GALLERY, card.candidates))
        else:
            kept.append(card)
    return kept, unknown + disowned
