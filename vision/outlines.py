"""Outlines: card-shaped outlines from colour edges that no named card explains are rectified
and named like feature finds; the rest come back unknown with a reason.

Which short edge is an outline's top is unknown, so it is named in two turns (four when it
looks nearly square, as a card seen steeply can). An outline that no position-by-position
naming explains may be an inner frame or a sleeve's edge: it is also matched by descriptors
alone, and such a name must be confirmed at the corners it found. Once a card is named, its
perspective gives the table plane (:mod:`vision.plane`): an outline must be card-sized there,
and an outline too short for a card, with one card-long side square at both ends, is
completed to the whole card it is part of (only a name confirms such a guess).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import vision.tuning as tuning
from vision.detect import edge_support
from vision.find import Votes, shortlist_by_index
from vision.gallery import Gallery
from vision.geometry import in_quad, order_corners, quad_area, quad_iou
from vision.name import (
    Naming,
    candidate_list,
    card_from,
    name_region,
    patch_features,
    rectified,
    shortlist_by_signature,
)
from vision.photo import Photo
from vision.plane import card_sized, completed_cards, to_card_plane
from vision.result import REASON_TOO_BLURRED, Card, UnknownCard, explained
from vision.unknown import (
    blurred,
    not_a_card,
    reason_for,
    stands_out,
    uncovered_part_is_plain,
)

NamedRegion = tuple[np.ndarray, Naming]  # fitted corners, naming


@dataclass
class _OutlineNamer:
    """The outline step's state: the cards named so far (growing), the unknowns reported,
    the table plane once a card is named, and how many namings the photo has spent."""

    photo: Photo
    gallery: Gallery
    votes: Votes
    accept: float
    cards: list[Card]
    unknown: list[UnknownCard] = field(default_factory=list)
    #: smeared cards' reports (:meth:`smeared`), held back for the last look to name first
    held_back: list[UnknownCard] = field(default_factory=list)
    to_card: np.ndarray | None = None
    typical_area: float = 0.0
    tries: int = 0

    def settled(self, best: NamedRegion | None) -> bool:
        """An outline's naming beyond doubt: its other turns need not be tried."""
        return (
            best is not None
            and best[1].confidence >= max(self.accept, tuning.LOOSE_CONFIDENCE)
            and best[1].inliers >= tuning.SETTLED_INLIERS
        )

    def voted_in(self, quad: np.ndarray) -> bool:
        """Do the photo's voting features (each matched to some reference) lie inside the
        outline? A card the gallery holds, even a small or shaken one, casts a few; a knot in
        the wood, a smear or a card nobody enrolled that shows next to no detail casts none,
        and naming it would only find a name at confidence 0 (~50 ms of turns). A photo
        whose features voted nowhere (too dark or shaken for the first look) has only its
        outlines to go on: they are all named."""
        points = self.votes.points
        if len(points) == 0:
            return True
        inside = in_quad(points, quad * self.photo.scale)
        return int(inside.sum()) >= tuning.OUTLINE_MIN_VOTES

    def shortlist(self, quad: np.ndarray) -> tuple[list[int], list[int]]:
        """References voted inside the outline by the photo's features and by the outline's
        own features in the word index; and those plus the closest whole-card signatures."""
        patch = rectified(self.photo.image, quad)
        by_features = self.votes.shortlist(
            quad * self.photo.scale, tuning.VOTE_SHORTLIST
        ) + shortlist_by_index(patch, self.gallery, tuning.INDEX_SHORTLIST, patch_features(patch))
        return by_features, by_features + shortlist_by_signature(
            patch, self.gallery, tuning.OUTLINE_SIGNATURE_SHORTLIST
        )

    def best_turn(
        self, quad: np.ndarray, shortlist: list[int], shifts: tuple[int, ...], aligned: bool
    ) -> NamedRegion | None:
        """The best naming of the outline over its turns (most inliers)."""
        best: NamedRegion | None = None
        for turn in [np.roll(quad, -k, axis=0) for k in shifts]:
            self.tries += 1
            result = name_region(self.photo.image, turn, self.gallery, shortlist, aligned)
            if result is not None and (best is None or result[1].inliers > best[1].inliers):
                best = result
            if self.settled(best):
                break  # a wrong turn cannot line up this many features: the rest are moot
        return best

    def confirmed(
        self, quad: np.ndarray, loose: NamedRegion, shortlist: list[int]
    ) -> NamedRegion | None:
        """A descriptor-only name (they can agree by chance) checked position by position at
        the corners it found; where those corners agree with the outline the two cues back
        each other up and the ordinary bar is enough. A fit that left the corners where the
        outline put them (one of its turns) is not checked: that turn was just named by
        position, at those corners against the same references, and fell short of the bar or
        lined up fewer features than the best turn (~4 ms a check; 0 of the ~110 such checks
        on seeds 11 and 2026 and the scenes confirmed a name, against 3 of 3 fits that moved
        the corners)."""
        if any(np.array_equal(loose[0], np.roll(quad, -k, axis=0)) for k in range(4)):
            return None
        found = name_region(self.photo.image, loose[0], self.gallery, [loose[1].entry, *shortlist])
        if found is None or found[1].name != loose[1].name:
            return None
        agree = quad_iou(found[0], quad) > tuning.OUTLINE_AGREEMENT
        bar = self.accept if agree else max(self.accept, tuning.LOOSE_CONFIDENCE)
        return found if found[1].confidence >= bar else None

    def name(self, quad: np.ndarray) -> NamedRegion | None:
        """The outline's best naming. Past the photo's budget of namings (a busy table with
        many card-like loops) it gets only the two likeliest turns and no descriptor-only
        matching. Descriptor-only matching tries the same turns as matching by position: a
        quarter turn squeezes the card into the other proportions, which only an outline of
        uncertain proportions needs (ORB's descriptors are only roughly the same half a turn
        round, so both halves are tried: a small card in a dark room was named only upside
        down, and on the Pi's library stack one card of the lighting suite at exposure x1.0
        was named only in the second half). It compares only the references the features
        voted for: an outline around an inner frame or a sleeve holds the card's own
        features, while a look-alike signature at the wrong extent is no evidence (and each
        reference costs ~3 ms a turn: this halves the worst photos' outline naming, with the
        same answers on the bench's 330 scenes and one more card named in the lighting
        suite)."""
        by_features, shortlist = self.shortlist(quad)
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        squarish = (sides[0] + sides[2]) / (sides[1] + sides[3]) > tuning.SQUARISH
        spent = self.tries >= tuning.MAX_OUTLINE_TRIES
        shifts = (0, 1, 2, 3) if squarish and not spent else (0, 2)
        best = self.best_turn(quad, shortlist, shifts, aligned=True)
        if best is not None and best[1].confidence >= self.accept:
            return best
        loose = self.best_turn(quad, by_features, () if spent else shifts, aligned=False)
        if loose is not None:
            confirmed = self.confirmed(quad, loose, shortlist)
            if confirmed is not None and (best is None or confirmed[1].inliers > best[1].inliers):
                best = confirmed
        return best

    def add(self, best: NamedRegion) -> None:
        card = card_from(best[1], best[0])
        if explained(card.corners, self.cards):
            return
        self.cards.append(card)
        if self.to_card is None:
            # The first card named gives the table plane that screens the outlines still to
            # come (a steep photo whose features named nothing).
            self.to_card = to_card_plane(self.cards)

    def report(self, quad: np.ndarray, best: NamedRegion | None) -> None:
        """An unnamed outline is reported unknown when it is card-sized beside the named
        cards (else it is a pattern on the table) and a real edge backs all four sides."""
        if self.typical_area > 0:
            ratio = quad_area(quad) / self.typical_area
            low, high = tuning.UNNAMED_AREA_RATIO
            if not low <= ratio <= high:
                return
        smeared = False
        if edge_support(self.photo.image, quad) < tuning.MIN_EDGE_SUPPORT:
            smeared = self.smeared(quad)
            if not smeared:
                return  # a loop in the table's pattern, not a card's edge
        if uncovered_part_is_plain(self.photo.image, quad, self.cards):
            # A loop of a named card's edge and the cloth's check lines: the whole of it is
            # busy (the card's print), the part no named card covers is bare cloth.
            return
        reported = self.unknown + self.held_back
        if any(quad_iou(quad, u.corners) > tuning.UNKNOWN_SAME_IOU for u in reported):
            return
        # a smeared outline was found blurred on its way here (:meth:`smeared`)
        reason = REASON_TOO_BLURRED if smeared else reason_for(self.photo.image, quad)
        candidates = candidate_list(best[1].scores) if best is not None else []
        report = UnknownCard(order_corners(quad), reason, candidates)
        # A smeared card's report would hide it from the last look, which looks again where
        # features crowd away from the named and reported cards (and named such a card on the
        # Pi's stack, seed 2034, motion photo 1): it is added once the last look is done.
        (self.held_back if smeared else self.unknown).append(report)

    def smeared(self, quad: np.ndarray) -> bool:
        """Is the outline a card the photo smeared (it moved as the photo was taken, or lies
        out of focus)? Its edges are ramps as wide as the smear, too soft for the edge check at
        full size, so they are looked at again at ``SMEARED_EDGE_VIEW_SIDE``, where the ramp is
        a few pixels and a straight border shows all round (``SMEARED_MIN_EDGE_SUPPORT``).
        Only an outline the size of the named cards (``SMEARED_AREA_RATIO``) whose own region
        is blurred is asked, and it must stand out in colour from the table around it
        (:func:`vision.unknown.stands_out`): wood grain seen coarsely draws card-sized loops
        with straight-looking sides. A photo with no card named gives no size to ask by."""
        if self.typical_area <= 0:
            return False
        low, high = tuning.SMEARED_AREA_RATIO
        if not low <= quad_area(quad) / self.typical_area <= high:
            return False
        if not blurred(rectified(self.photo.image, quad)):
            return False
        view = tuning.SMEARED_EDGE_VIEW_SIDE
        if edge_support(self.photo.image, quad, view_side=view) < tuning.SMEARED_MIN_EDGE_SUPPORT:
            return False
        return stands_out(self.photo.image, quad, self.cards)


def name_outlines(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    quads: list[np.ndarray],
    cards: list[Card],
    accept: float,
) -> tuple[list[Card], list[UnknownCard], list[UnknownCard]]:
    """``cards`` plus the outlines named, the unnamed outlines reported unknown, and the
    reports of smeared cards (:meth:`_OutlineNamer.smeared`), to add after the last look
    unless it names them."""
    areas = [quad_area(c.corners) for c in cards]
    namer = _OutlineNamer(photo, gallery, votes, accept, list(cards))
    namer.typical_area = float(np.median(areas)) if areas else 0.0
    namer.to_card = to_card_plane(cards)
    outlines = list(quads)  # grows: whole cards completed from partly hidden ones join it
    completed: set[int] = set()  # which outlines were completed (their positions in the list)
    for number, quad in enumerate(outlines):
        if explained(quad, namer.cards):
            continue
        if namer.to_card is not None and not card_sized(quad, namer.to_card):
            if number not in completed:
                for whole in completed_cards(quad, namer.to_card):
                    if all(quad_iou(whole, q) < tuning.COMPLETION_NEW_IOU for q in outlines):
                        completed.add(len(outlines))
                        outlines.append(whole)
            continue
        if not_a_card(photo.image, quad):
            # A check of the cloth, a phone, a page: no card is that plain, so it is neither
            # named nor reported. Asked before naming (~1.5 ms against ~30 ms for its turns):
            # a gingham cloth's checks were three quarters of the outlines named, never named.
            continue
        best = namer.name(quad) if namer.voted_in(quad) else None
        if (
            best is not None
            and best[1].confidence >= accept
            and best[1].inliers >= tuning.MIN_NAME_INLIERS
        ):
            namer.add(best)
        elif number not in completed:  # a guess at a hidden card's extent: only a name counts
            namer.report(quad, best)
    return namer.cards, namer.unknown, namer.held_back


def name_leftovers(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    regions: list[np.ndarray],
    cards: list[Card],
    unknown: list[UnknownCard],
    accept: float,
) -> tuple[list[Card], list[UnknownCard]]:
    """Leftover regions (:mod:`vision.leftovers`: crowds of features no card explains) named
    like outlines; one that stays unnamed is still a card: reported unknown with its reason
    and closest names (no edge is asked for: its features are the evidence). A region's
    corners are a guess, as a descriptor-only match's are, so its name must clear the same
    bar (``LOOSE_CONFIDENCE``): a card of an enrolled card's cycle (its frame and rules text)
    lines up enough features at guessed corners to reach the ordinary one."""
    namer = _OutlineNamer(photo, gallery, votes, accept, list(cards), list(unknown))
    namer.to_card = to_card_plane(cards)
    for quad in regions:
        if explained(quad, namer.cards):
            continue
        best = namer.name(quad)
        if (
            best is not None
            and best[1].confidence >= max(accept, tuning.LOOSE_CONFIDENCE)
            and best[1].inliers >= tuning.MIN_NAME_INLIERS
        ):
            namer.add(best)
            continue
        if any(quad_iou(quad, u.corners) > tuning.UNKNOWN_SAME_IOU for u in namer.unknown):
            continue
        if not_a_card(photo.image, quad):
            continue
        candidates = candidate_list(best[1].scores) if best is not None else []
        namer.unknown.append(UnknownCard(quad, reason_for(photo.image, quad), candidates))
    return namer.cards, namer.unknown
