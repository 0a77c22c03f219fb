"""Cards lying in layers (a fanned hand): which card lies over which, the part of each card that
shows, and naming a card from that part alone.

A fanned card shows 35-50 % of itself; the rest lies under its neighbour. Rectified whole, most
of its patch is the neighbour's print, where ORB spends most of a patch's feature budget and
where nothing lines up with the card's own reference: the name comes out weak although the
part that shows matches well. Two things follow:

- :func:`lies_over`: of two overlapping cards, the one on top is the one whose name the photo's
  well-matched features in the shared part vote for (:class:`vision.find.Votes`);
- :func:`name_visible_parts`: a card found but named weakly, lying under named cards, is named
  again from the part no named card covers, with the whole feature budget spent there;
- :func:`visible_parts`: for the answer, each card's visible part as a polygon (its quad less
  the cards lying over it), which the photo review draws.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TypeVar, cast

import cv2
import numpy as np

import vision.tuning as tuning
from vision.appearance import (
    cell_centres_on_card,
    confidence_from_look,
    look_contradicts,
    look_patch,
    shown_look_similarities,
)
from vision.columns import in_columns
from vision.features import card_orb, to_gray
from vision.find import Votes, shortlist_by_descriptors
from vision.gallery import Gallery
from vision.geometry import (
    CARD_CORNERS,
    CARD_H,
    CARD_W,
    in_quad,
    inverse,
    quad_iou,
    rotation,
)
from vision.layout import left_to_right
from vision.name import (
    Naming,
    candidate_list,
    card_from,
    name_card_features,
    rectified,
    refined_corners,
    remembered,
    sharpened,
)
from vision.photo import Photo
from vision.photometry import stretch
from vision.plane import card_sized, consensus_plane
from vision.result import Card, UnknownCard
from vision.timing import part
from vision.unknown import reason_for

_T = TypeVar("_T")


def _overlap(a: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray | None]:
    """The area two convex quads share, and the shared polygon."""
    area, shared = cv2.intersectConvexConvex(
        np.asarray(a, np.float32).reshape(-1, 2), np.asarray(b, np.float32).reshape(-1, 2)
    )
    if shared is None or len(shared) < 3:
        return 0.0, None
    return float(area), shared.reshape(-1, 2)


def _area(quad: np.ndarray) -> float:
    return abs(float(cv2.contourArea(np.asarray(quad, np.float32).reshape(-1, 2))))


def _tally(entries: np.ndarray, gallery: Gallery) -> np.ndarray:
    """Votes (references, ``entries``) counted by name (:attr:`Gallery.name_ids` numbers)."""
    ids = gallery.name_ids
    return np.bincount(ids[entries], minlength=int(ids.max(initial=0)) + 1)


def _named_votes(tally: np.ndarray, gallery: Gallery, name: str | None) -> int:
    """How many of the votes (counted by name, :func:`_tally`) are for ``name``."""
    number = gallery.name_number(name)
    return 0 if number is None else int(tally[number])


def _most_votes(tally: np.ndarray, gallery: Gallery, leave_out: Collection[str | None]) -> int:
    """The most votes (counted by name, :func:`_tally`) any one name gets, leaving out the
    names in ``leave_out``."""
    skip = [n for n in (gallery.name_number(name) for name in leave_out) if n is not None]
    if skip:
        tally = tally.copy()
        tally[skip] = 0
    return int(tally.max(initial=0))


def _votes_in(votes: Votes, region: np.ndarray) -> np.ndarray:
    """The references voted for by the photo's well-matched features inside ``region`` (work
    px, convex)."""
    if len(votes.points) == 0:
        return votes.entries[:0]
    low, high = region.min(axis=0), region.max(axis=0)
    # Column by column, not (points >= low).all(axis=1), which walks rows of two: ~1,200
    # points 79 -> 24 us. (Bounds as 1-element arrays, not scalars: compared in the same
    # precision as the whole rows on numpy 1.24 too.)
    x, y = votes.points[:, 0], votes.points[:, 1]
    near = np.flatnonzero((x >= low[:1]) & (x <= high[:1]) & (y >= low[1:]) & (y <= high[1:]))
    return votes.entries[near[in_quad(votes.points[near], region)]]


def _pair_memo(kind: str, a: np.ndarray, b: np.ndarray, votes: Votes, make: Callable[[], _T]) -> _T:
    """``make()`` for the quads ``a`` and ``b`` (in this order), made once a photo: kept with
    the photo's ``votes`` (not with :data:`vision.find.NO_VOTES`, which every photo without
    votes shares)."""
    if len(votes.points) == 0:
        return make()
    key = (
        kind,
        np.asarray(a, np.float32).reshape(-1, 2).tobytes(),
        np.asarray(b, np.float32).reshape(-1, 2).tobytes(),
    )
    if key not in votes.memo:
        votes.memo[key] = make()
    return cast(_T, votes.memo[key])


def _shared_part(
    top: np.ndarray, under: np.ndarray, votes: Votes
) -> tuple[float, np.ndarray | None]:
    """:func:`_overlap` of ``top`` and ``under``, remembered for the photo (:func:`_pair_memo`)."""
    return _pair_memo("shared", top, under, votes, lambda: _overlap(top, under))


def _shared_votes(
    top: np.ndarray, under: np.ndarray, votes: Votes, gallery: Gallery, scale: float
) -> np.ndarray:
    """The votes of the photo's well-matched features in the part ``top`` and ``under`` (photo
    px) share, counted by name (:func:`_tally`); remembered for the photo: which of two cards
    lies over the other is asked again in every later step (:func:`_pair_memo`)."""

    def count() -> np.ndarray:
        area, shared = _shared_part(top, under, votes)
        if shared is None or area <= 0:
            return _tally(votes.entries[:0], gallery)
        return _tally(_votes_in(votes, shared * scale), gallery)

    return _pair_memo(f"votes {id(gallery)} {scale!r}", top, under, votes, count)


def lies_over(
    top: np.ndarray,
    top_name: str | None,
    under: np.ndarray,
    under_name: str | None,
    votes: Votes,
    gallery: Gallery,
    scale: float,
    named: Collection[str] = (),
) -> bool:
    """Does the card at ``top`` (photo px) lie over the card at ``under`` where they overlap?
    The features in the shared part belong to the card on top: it lies over the other when
    at least ``LAYER_MIN_VOTERS`` of them vote for its name and no fewer than for the other's
    (for a card with no name, ``None``: than for any one name no named card has, ``named``:
    the votes its own print casts for the references it looks most like)."""
    area, shared = _shared_part(top, under, votes)
    if shared is None or area <= 0:
        return False
    inside = _shared_votes(top, under, votes, gallery, scale)
    mine = _named_votes(inside, gallery, top_name)
    if under_name is None:
        theirs = _most_votes(inside, gallery, {top_name, *named} if top_name else set(named))
    else:
        theirs = _named_votes(inside, gallery, under_name)
    return mine >= tuning.LAYER_MIN_VOTERS and mine >= theirs


def _to_canonical(corners: np.ndarray) -> np.ndarray:
    """The homography from the photo into the upright canonical card at ``corners``."""
    return cv2.getPerspectiveTransform(np.asarray(corners, np.float32).reshape(4, 2), CARD_CORNERS)


def _uncovered(corners: np.ndarray, over: Sequence[np.ndarray]) -> np.ndarray:
    """Over the upright canonical card at ``corners``: 255 where no quad of ``over`` (photo px)
    covers it, else 0."""
    mask = np.full((CARD_H, CARD_W), 255, np.uint8)
    to_card = _to_canonical(corners)
    for quad in over:
        seen = cv2.perspectiveTransform(np.asarray(quad, np.float32).reshape(-1, 1, 2), to_card)
        cv2.fillPoly(mask, [np.round(seen).astype(np.int32).reshape(-1, 2)], 0)
    return mask


def shown_mask(corners: np.ndarray, over: Sequence[np.ndarray]) -> np.ndarray:
    """:func:`_uncovered`, shrunk by ``LAYER_EDGE_PX`` from the covering cards' edges (features
    there straddle the top card's edge): where a card's own features are."""
    edge = 2 * tuning.LAYER_EDGE_PX + 1
    kernel = np.ones((edge, edge), np.uint8)
    return cv2.erode(_uncovered(corners, over), kernel, borderType=cv2.BORDER_REPLICATE)


def shown_features(patch: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(points, descriptors) of an upright canonical card image, only where ``mask`` is set:
    the whole feature budget spent on the part that shows."""
    gray = stretch(to_gray(patch))
    keypoints, descriptors = card_orb(tuning.PATCH_FEATURES).detectAndCompute(gray, mask)
    if descriptors is None or not keypoints:
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)
    points = np.asarray(cv2.KeyPoint.convert(keypoints), np.float32).reshape(-1, 2)
    return points, descriptors


def _shown_part_features(
    photo: Photo, gallery: Gallery, corners: np.ndarray, mask: np.ndarray
) -> tuple[tuple[np.ndarray, np.ndarray], list[int]]:
    """The features of the part ``mask`` shows of the card at ``corners``
    (:func:`shown_features`) and the references its descriptors point to
    (:func:`vision.find.shortlist_by_descriptors`), made once a photo per card and part: a
    weak card named again from its part that shows (``shown_naming``) is met again, the same
    cards over it, when the fan's gaps are filled (3 of 22 such parts on the fans of seed 2032,
    ~5 ms each)."""
    patch = sharpened(rectified(photo.image, corners))

    def make() -> tuple[tuple[np.ndarray, np.ndarray], list[int]]:
        features = shown_features(patch, mask)
        return features, shortlist_by_descriptors(features[1], gallery, tuning.INDEX_SHORTLIST)

    return remembered("shown part", patch, np.packbits(mask > 0), make)


def _shown_polygon(corners: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """The biggest part of ``mask`` (canonical card) as a polygon in photo px (its outline
    simplified to ``LAYER_POLYGON_PX`` canonical px)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    biggest = cv2.approxPolyDP(biggest, tuning.LAYER_POLYGON_PX, True)
    biggest = biggest.reshape(-1, 1, 2).astype(np.float32)
    back = inverse(_to_canonical(corners))
    return np.asarray(cv2.perspectiveTransform(biggest, back)).reshape(-1, 2)


def _shown_voters(votes: Votes, corners: np.ndarray, mask: np.ndarray, scale: float) -> np.ndarray:
    """The references voted for by the photo's voting features (work px) that fall where
    ``mask`` (over the canonical card at ``corners``, photo px) is set."""
    if len(votes.points) == 0:
        return votes.entries[:0]
    on_card = cv2.perspectiveTransform(
        (votes.points / scale).reshape(-1, 1, 2).astype(np.float32), _to_canonical(corners)
    ).reshape(-1, 2)
    col = np.round(on_card[:, 0]).astype(np.int64)
    row = np.round(on_card[:, 1]).astype(np.int64)
    on = (col >= 0) & (col < CARD_W) & (row >= 0) & (row < CARD_H)
    on[on] = mask[row[on], col[on]] > 0
    return votes.entries[on]


def _covering(
    corners: np.ndarray,
    name: str | None,
    cards: list[Card],
    votes: Votes,
    gallery: Gallery,
    scale: float,
    loose: bool = False,
) -> list[Card]:
    """The named cards lying over the card at ``corners`` (named ``name``, or None).
    ``loose``: every overlapping named card whose name the shared part's votes are for (at
    least ``LAYER_MIN_VOTERS``), however many votes the card under it has there."""
    area = max(_area(corners), 1.0)
    names = {card.name for card in cards}
    over = []
    for card in cards:
        if card.corners is corners:
            continue  # the card itself
        shared, polygon = _shared_part(card.corners, corners, votes)
        if shared <= tuning.LAYER_MIN_OVERLAP * area or polygon is None:
            continue
        if loose:
            inside = _shared_votes(card.corners, corners, votes, gallery, scale)
            if _named_votes(inside, gallery, card.name) >= tuning.LAYER_MIN_VOTERS:
                over.append(card)
        elif lies_over(card.corners, card.name, corners, name, votes, gallery, scale, names):
            over.append(card)
    return over


def name_visible_parts(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    weak: list[tuple[np.ndarray, Naming]],
    cards: list[Card],
    accept: float,
) -> tuple[list[Card], list[tuple[np.ndarray, Naming]], list[UnknownCard]]:
    """Name again every weakly named card that lies partly under named cards, from the part
    that shows (at least ``LAYER_MIN_SHOWN`` of it). Returns the named cards, with those named
    so added; the weak fits left as they were; and the cards under named cards that are still
    not named but whose part that shows holds a card's features (``LAYER_MIN_SHOWN_VOTERS``
    votes for one name no named card has) and that is card-sized on the named cards' table
    plane: reported unknown with that part as ``visible``, not left for a named neighbour to
    explain away. (A chance fit over two cards and the gap between them can collect a card's
    worth of votes there, but it is not the size of the cards of its hand.)"""
    named = list(cards)
    still_weak: list[tuple[np.ndarray, Naming]] = []
    unknown: list[UnknownCard] = []
    plane = consensus_plane(cards)
    with part("name"):
        for corners, naming in weak:
            shown = _shown_part(photo, gallery, votes, corners, naming, named)
            if shown is None:
                still_weak.append((corners, naming))
                continue
            mask, polygon = shown
            found = _name_shown(photo, gallery, votes, corners, naming, named, mask, accept)
            if isinstance(found, Card):
                named.append(found)
                continue
            still_weak.append((corners, naming))
            others = {c.name for c in named}
            shown_votes = _tally(_shown_voters(votes, corners, mask, photo.scale), gallery)
            own = _most_votes(shown_votes, gallery, others)
            hand_sized = plane is None or card_sized(corners, plane)
            if found is not None and own >= tuning.LAYER_MIN_SHOWN_VOTERS and hand_sized:
                scores = found.scores if found.inliers >= naming.inliers else naming.scores
                unknown.append(
                    UnknownCard(
                        corners.astype(np.float32),
                        reason_for(photo.image, corners),
                        candidate_list(scores),
                        visible=polygon.astype(np.float32),
                    )
                )
    return named, still_weak, unknown


def _shown_part(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    corners: np.ndarray,
    naming: Naming,
    named: list[Card],
) -> tuple[np.ndarray, np.ndarray] | None:
    """The part of a weak fit no named card lies over (canonical mask, photo polygon), when
    named cards lie over it and enough of it shows; else None."""
    if any(quad_iou(corners, c.corners) > tuning.LAYERED_MAX_IOU for c in named):
        return None  # a second fit of a named card, not a card under it
    over = _covering(corners, naming.name, named, votes, gallery, photo.scale)
    if not over:
        return None
    mask = shown_mask(corners, [c.corners for c in over])
    if float(np.count_nonzero(mask)) < tuning.LAYER_MIN_SHOWN * mask.size:
        return None
    polygon = _shown_polygon(corners, mask)
    if polygon is None:
        return None
    return mask, polygon


def _name_shown(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    corners: np.ndarray,
    naming: Naming,
    named: list[Card],
    mask: np.ndarray,
    accept: float,
) -> Card | Naming | None:
    """The card named from its part that shows (``mask``), or the naming that fell short of
    ``accept``, or None when nothing lined up."""
    features, by_descriptors = _shown_part_features(photo, gallery, corners, mask)
    voters = np.bincount(_shown_voters(votes, corners, mask, photo.scale))
    voted = [int(e) for e in np.argsort(-voters)[: tuning.VOTE_SHORTLIST]]
    shortlist = [
        naming.entry,
        *[e for e in voted if voters[e] >= tuning.VOTES_FOR_SHORTLIST],
        *by_descriptors,
    ]
    again = name_card_features(features, gallery, shortlist)
    if again is None:
        return None
    _shown_second_opinion(photo.image, corners, again, gallery, mask)
    if again.confidence < accept or again.inliers < tuning.MIN_NAME_INLIERS:
        return again
    if any(
        c.name == again.name and quad_iou(c.corners, corners) > tuning.SAME_CARD_IOU for c in named
    ):
        return None
    refined = refined_corners(corners, again)
    return card_from(again, corners if refined is None else refined)


def _shown_second_opinion(
    image: np.ndarray, corners: np.ndarray, naming: Naming, gallery: Gallery, mask: np.ndarray
) -> None:
    """The look's second opinion on a name from the part that shows (``mask``), as a whole
    card's gets one (:func:`vision.name.name_region`), judged on the look cells that show: a
    likely name (``LOOK_MIN_INLIERS``, ``LOOK_MIN_MARGIN`` more than any other name) whose
    look there is close and clearly closer than any other name's is settled; a look that
    contradicts drops it. Cards sharing a layout (a cycle of lands) line up the frame of the
    part that shows nearly as well under their names; their art tells them apart. Changes
    ``naming.confidence`` in place."""
    likely = (
        naming.inliers >= max(tuning.LOOK_MIN_INLIERS, tuning.MIN_NAME_INLIERS)
        and naming.inliers - naming.rival_inliers >= tuning.LOOK_MIN_MARGIN
    )
    if naming.confidence >= tuning.LOOSE_CONFIDENCE or not (naming.confidence > 0 or likely):
        return
    centres = cell_centres_on_card() * np.array([CARD_W - 1, CARD_H - 1], np.float32)
    cols, rows = np.round(centres).astype(np.int64).T
    looks = shown_look_similarities(
        look_patch(image, corners), gallery, naming.name, mask[rows, cols] > 0
    )
    if looks is None:
        return
    if look_contradicts(*looks):
        naming.confidence = 0.0
    elif likely:
        naming.confidence = max(naming.confidence, confidence_from_look(*looks))


def visible_parts(
    cards: list[Card], unknown: list[UnknownCard], votes: Votes, gallery: Gallery, scale: float
) -> None:
    """Set each card's and unknown card's ``visible`` polygon (photo px): its quad less the
    named cards lying over it (:func:`lies_over`); left None for a card nothing covers."""
    for card in cards:
        over = _covering(card.corners, card.name, cards, votes, gallery, scale)
        card.visible = _visible_polygon(card.corners, over)
    for report in unknown:
        over = _covering(report.corners, None, cards, votes, gallery, scale)
        report.visible = _visible_polygon(report.corners, over)


def _visible_polygon(corners: np.ndarray, over: list[Card]) -> np.ndarray | None:
    if not over:
        return None
    return _shown_polygon(corners, _uncovered(corners, [card.corners for card in over]))


def fill_fan_gaps(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    points: np.ndarray,
    cards: list[Card],
    unknown: list[UnknownCard],
    accept: float,
) -> tuple[list[Card], list[UnknownCard]]:
    """Look for the cards a fan's features missed. A fan steps evenly from card to card (each
    shows 35-50 % of itself), so where two neighbours along the arc lie two or more steps
    apart a card lies between them, its quad between theirs; and a card may lie a step past
    either end. There it is named from the part that shows, or reported unknown when that
    part holds ``LAYER_MIN_SHOWN_VOTERS`` votes for a name no named card has (between two
    cards) or is crowded with the photo's features (``points``, work px) as a card's print
    is (``FAN_SHOWN_MIN_DENSITY``; the bare table past a hand's ends is not). Nothing is
    looked for unless two named cards lie in layers and the cards found step from one to the
    next along their own left-to-right direction (``FAN_MIN_ALONG``), by less than
    ``FAN_MAX_STEP`` of a card's width (cards lying apart, or down a column, are no fan; nor
    are a tape's two columns read across, :func:`vision.columns.in_columns`). Where the named
    cards tell which way the hand stacks (:func:`_stacking`), a guess is also named under the
    hand's cards on top of it, reported or named, and so is a card of the hand that an earlier
    step only reported (:func:`_name_reports_under`)."""
    hand: list[np.ndarray] = [c.corners for c in cards] + [u.corners for u in unknown]
    if len(hand) < tuning.FAN_MIN_CARDS or in_columns(cards):
        return cards, unknown  # too few cards, or a tape's columns (vision.columns): no fan
    order = _fan_order(hand)
    quads = _turned_with_hand([np.asarray(hand[i], np.float64).reshape(4, 2) for i in order])
    centres = np.array([q.mean(axis=0) for q in quads])
    moves = np.diff(centres, axis=0)
    steps = np.linalg.norm(moves, axis=1)
    width = float(np.median([np.linalg.norm(q[1] - q[0]) for q in quads]))
    right = quads[len(quads) // 2][1] - quads[len(quads) // 2][0]
    # Each step is measured along the hand's left-to-right where it is taken (the two cards'
    # top edges): a fan's arc turns, and its far ends step askew to its middle card.
    tops = np.array([q[1] - q[0] for q in quads])
    tops /= np.linalg.norm(tops, axis=1, keepdims=True) + 1e-9
    local = tops[:-1] + tops[1:]
    local /= np.linalg.norm(local, axis=1, keepdims=True) + 1e-9
    along = np.abs(np.sum(moves * local, axis=1)) / np.maximum(steps, 1e-9)
    if (along[steps >= tuning.FAN_MIN_STEP * width] < tuning.FAN_MIN_ALONG).any():
        return cards, unknown  # cards stepping down a column (a Mixtape's), not along a fan
    real = steps[steps >= tuning.FAN_MIN_STEP * width]  # two reports of one card are no step
    if not len(real):
        return cards, unknown
    # A hand, not cards apart: two named cards lie in layers, or the cards turn as they step
    # the way a fan's arc does (every other card found leaves no two of them overlapping).
    arc = _turns_along_arc(quads, steps, width)
    if not (arc or _layered_pair(cards)):
        return cards, unknown
    # the hand's step: the mean of the single steps (an arc's steps differ a little)
    step = float(np.mean(real[real <= 1.5 * real.min()]))
    if step > tuning.FAN_MAX_STEP * width:
        # no two neighbours found: on an arc, a step every gap is a whole number of
        even = _even_step(real, width) if arc else None
        if even is None:
            return cards, unknown
        step = even
    guesses: list[tuple[np.ndarray, bool]] = []  # (quad, between two cards)
    for a, b, gap in zip(quads, quads[1:], steps, strict=False):
        missing = int(round(gap / step)) - 1
        if missing < 1 or abs(gap / step - (missing + 1)) > tuning.FAN_STEP_TOLERANCE:
            continue
        for j in range(1, missing + 1):
            guesses.append((_along_arc(a, b, j / (missing + 1)), True))
    for end, next_, gap in ((quads[0], quads[1], steps[0]), (quads[-1], quads[-2], steps[-1])):
        guesses.append((_along_arc(next_, end, 1.0 + step / max(gap, 1e-6)), False))
    named, found = list(cards), list(unknown)
    rises = _stacking(cards, votes, gallery, photo.scale, right)
    up = None if rises is None else right * rises
    with part("name"):
        _name_guesses(photo, gallery, votes, points, guesses, hand, named, found, up, accept)
        if up is not None:
            _name_reports_under(photo, gallery, votes, hand, named, found, unknown, up, accept)
    return named, found


def _name_guesses(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    points: np.ndarray,
    guesses: list[tuple[np.ndarray, bool]],
    hand: list[np.ndarray],
    named: list[Card],
    found: list[UnknownCard],
    up: np.ndarray | None,
    accept: float,
) -> None:
    """Name each guess (quad, between two cards) of :func:`fill_fan_gaps` that lies on the
    photo and is no card of the ``hand`` already, under the cards lying over it (``up``: the
    way the hand stacks, None when unknown); adds it to ``named`` or ``found`` and its quad to
    ``hand``."""
    for quad, between in guesses:
        guess = quad.astype(np.float32)
        if not _on_photo(guess, photo):
            continue
        if any(quad_iou(guess, q) > tuning.LAYERED_MAX_IOU for q in hand):
            continue
        above = None if up is None else _above(guess, hand, up)
        made = _name_guess(
            photo, gallery, votes, points, guess, named, accept, between, hand, above
        )
        if isinstance(made, Card):
            named.append(made)
            hand.append(made.corners)
        elif made is not None:
            found.append(made)
            hand.append(made.corners)


def _name_reports_under(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    hand: list[np.ndarray],
    named: list[Card],
    found: list[UnknownCard],
    reports: list[UnknownCard],
    up: np.ndarray,
    accept: float,
) -> None:
    """The cards of a hand reported unknown before its gaps were filled (a crowd of features,
    an outline, a weak fit), named from the part the hand's cards lying over them leave showing
    (those further along ``up``, the way the hand stacks): whole, most of such a card is its
    neighbours' print. Moves each card named so from ``found`` to ``named``."""
    for report in reports:
        others = [q for q in hand if q is not report.corners]
        above = _above(report.corners, others, up)
        if not above:
            continue
        card, _ = _named_under(photo, gallery, votes, report.corners, above, named, accept)
        if card is not None:
            found.remove(report)
            named.append(card)


def _stacking(
    cards: list[Card], votes: Votes, gallery: Gallery, scale: float, right: np.ndarray
) -> int | None:
    """Which way a hand's cards stack: +1 when each card lies over its neighbour on the left
    (along ``right``, the hand's left-to-right direction), -1 when over the one on the right;
    None when the named cards that overlap do not all tell the same (:func:`lies_over`). A
    hand is laid one card on the next, so one pair of named cards tells for every gap."""
    ways: set[int] = set()
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            if not tuning.HAND_MIN_IOU < quad_iou(a.corners, b.corners) < tuning.LAYERED_MAX_IOU:
                continue
            a_over = lies_over(a.corners, a.name, b.corners, b.name, votes, gallery, scale)
            b_over = lies_over(b.corners, b.name, a.corners, a.name, votes, gallery, scale)
            if a_over == b_over:
                continue  # the shared part's features tell neither way
            top, under = (a, b) if a_over else (b, a)
            ahead = float((top.corners.mean(axis=0) - under.corners.mean(axis=0)) @ right)
            ways.add(1 if ahead > 0 else -1)
    return ways.pop() if len(ways) == 1 else None


def _above(quad: np.ndarray, hand: list[np.ndarray], up: np.ndarray) -> list[np.ndarray]:
    """The cards of the ``hand`` (named or reported) overlapping ``quad`` that lie over it: those
    further along ``up`` (the way the hand stacks, :func:`_stacking`)."""
    area = max(_area(quad), 1.0)
    centre = np.asarray(quad, np.float64).reshape(4, 2).mean(axis=0)
    return [
        q
        for q in hand
        if float((np.asarray(q, np.float64).reshape(4, 2).mean(axis=0) - centre) @ up) > 0
        and _overlap(q, quad)[0] > tuning.LAYER_MIN_OVERLAP * area
    ]


def _along_arc(a: np.ndarray, b: np.ndarray, t: float) -> np.ndarray:
    """The quad ``t`` of the way from quad ``a`` to quad ``b`` (past ``b`` for ``t`` > 1) as a
    fan lays its cards: turned and moved about the point that turns ``a`` onto ``b`` (a fan's
    pivot), not along the straight line between them, whose middle falls short of the arc by a
    good part of the search radius when several cards are missing. What a turn and scale do not
    explain (the photo's perspective) is shared out in proportion."""
    fit, _ = cv2.estimateAffinePartial2D(a.astype(np.float32), b.astype(np.float32))
    if fit is None:
        return (1 - t) * a + t * b
    angle = float(np.arctan2(fit[1, 0], fit[0, 0]))
    scale = float(np.hypot(fit[0, 0], fit[1, 0]))
    if abs(angle) < 1e-3 or scale <= 0:
        return (1 - t) * a + t * b
    pivot = np.linalg.solve(np.eye(2) - fit[:, :2], fit[:, 2])
    moved = pivot + (scale**t) * (a - pivot) @ rotation(t * angle).T
    rest = b - (pivot + scale * (a - pivot) @ rotation(angle).T)
    return moved + t * rest


def _turn(quad: np.ndarray) -> float:
    """The angle (radians) of a quad's top edge in the photo."""
    edge = quad[1] - quad[0]
    return float(np.arctan2(edge[1], edge[0]))


def _turns_along_arc(quads: list[np.ndarray], steps: np.ndarray, width: float) -> bool:
    """Do the cards, in the hand's order, turn as they step the way cards fanned on an arc do:
    each step turning the same way, by ``FAN_MIN_TURN`` to ``FAN_MAX_TURN`` radians per card
    width moved, all within ``FAN_TURN_SPREAD`` of each other (an arc turns evenly along its
    length)? Cards lying apart turn at random; two reports of one card are no step."""
    turns = np.array([_turn(q) for q in quads])
    change = (np.diff(turns) + np.pi) % (2 * np.pi) - np.pi
    real = steps >= tuning.FAN_MIN_STEP * width
    if real.sum() < 2:
        return False
    rate = change[real] / steps[real] * width  # radians per card width moved
    if not ((rate > 0).all() or (rate < 0).all()):
        return False
    size = np.abs(rate)
    if size.min() < tuning.FAN_MIN_TURN or size.max() > tuning.FAN_MAX_TURN:
        return False
    return bool(size.max() <= tuning.FAN_TURN_SPREAD * size.min())


def _even_step(gaps: np.ndarray, width: float) -> float | None:
    """A step, at most ``FAN_MAX_STEP`` of a card's width and at least ``FAN_MIN_EVEN_STEP``,
    that every gap is a whole number of (within ``FAN_STEP_TOLERANCE``), or None: a gap split
    into as few steps as can be (the fewest cards missing), the gaps tried in the hand's
    order."""
    for count in range(1, int(gaps.max() / (tuning.FAN_MIN_EVEN_STEP * width)) + 1):
        for gap in gaps:
            step = float(gap) / count
            if not tuning.FAN_MIN_EVEN_STEP * width <= step <= tuning.FAN_MAX_STEP * width:
                continue
            ratio = gaps / step
            if (np.abs(ratio - np.round(ratio)) <= tuning.FAN_STEP_TOLERANCE).all():
                return step
    return None


def _layered_pair(cards: list[Card]) -> bool:
    """Do two named cards lie one partly over the other (a hand's cards, not cards apart)?"""
    return any(
        tuning.HAND_MIN_IOU < quad_iou(a.corners, b.corners) < tuning.LAYERED_MAX_IOU
        and a.name != b.name
        for i, a in enumerate(cards)
        for b in cards[i + 1 :]
    )


def _density(points: np.ndarray, quad: np.ndarray, mask: np.ndarray, scale: float) -> float:
    """The photo's features (``points``, work px) per 10,000 work px over the part of the card
    at ``quad`` where ``mask`` is set."""
    shown = np.count_nonzero(mask) / mask.size * _area(quad) * scale * scale
    if shown <= 0 or len(points) == 0:
        return 0.0
    inside = _shown_voters(Votes(points, np.zeros(len(points), np.int64)), quad, mask, scale)
    return len(inside) / shown * 10000.0


def _fan_order(quads: list[np.ndarray]) -> list[int]:
    """The quads' order along the hand's left-to-right direction (the mean of their top edges,
    as :func:`vision.layout.fan_sequence` reads a hand)."""
    right = left_to_right(quads)
    if right is None:
        right = np.array([1.0, 0.0])
    along = np.array([np.asarray(q, np.float64).reshape(4, 2).mean(axis=0) @ right for q in quads])
    return [int(i) for i in np.argsort(along, kind="stable")]


def _turned_with_hand(quads: list[np.ndarray]) -> list[np.ndarray]:
    """The quads with their corners in the hand's own order: one whose top edge points against
    the hand's left-to-right direction (a card lying upside down among the others; the Remix
    rules turn a transformed card so) is taken from its far corner, so that stepping from card
    to card moves along the fan and does not spin the quad half a turn."""
    right = left_to_right(quads)
    if right is None:
        return quads
    return [np.roll(q, 2, axis=0) if float((q[1] - q[0]) @ right) < 0 else q for q in quads]


def _on_photo(quad: np.ndarray, photo: Photo) -> bool:
    width, height = photo.size
    return bool(((quad >= 0) & (quad < np.array([width, height]))).all())


def _name_guess(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    points: np.ndarray,
    quad: np.ndarray,
    named: list[Card],
    accept: float,
    between: bool,
    hand: list[np.ndarray],
    stacked: list[np.ndarray] | None = None,
) -> Card | UnknownCard | None:
    """A card guessed at ``quad`` named from the part the named cards lying over it leave
    showing; or reported unknown when that part holds a card's features: votes for a name no
    named card has or a card print's crowd of the photo's features (``points``), ``between``
    two cards of the ``hand``; past its ends, a crowd on the part no card of the hand covers
    (there the hand's last card, whichever way it lies, must not pass for the guess); else
    None."""
    # Who lies over a guess is less sure than over a found card (its quad is interpolated):
    # it is named under the cards that outvote it in the shared part, else under every card
    # with votes there.
    crowded = between or (
        _density(points, quad, shown_mask(quad, hand), photo.scale) >= tuning.FAN_SHOWN_MIN_DENSITY
    )
    if not crowded:
        return None  # bare table past the hand's end: nothing to name (and no naming's cost)
    over = [c.corners for c in _covering(quad, None, named, votes, gallery, photo.scale)]
    loose = [c.corners for c in _covering(quad, None, named, votes, gallery, photo.scale, True)]
    coverings = [over]
    for more in (loose, stacked):
        if more is not None and not any(_same_quads(more, seen) for seen in coverings):
            coverings.append(more)
    mask = shown_mask(quad, over)
    naming: Naming | None = None
    # The guess is the hand's way up; a card lying upside down in it (the Remix rules turn a
    # transformed card so) shows its far corner where its neighbours show their top-left one,
    # and lines up only half a turn round. The pick list is that of the way up that lines up
    # more.
    for way_up in (quad, np.roll(quad, 2, axis=0)):
        this_way: Naming | None = None
        for covering in coverings:
            card, found = _named_under(photo, gallery, votes, way_up, covering, named, accept)
            this_way = this_way or found
            if card is not None:
                return card
        if this_way is not None and (naming is None or this_way.inliers > naming.inliers):
            naming = this_way
    if float(np.count_nonzero(mask)) < tuning.LAYER_MIN_SHOWN * mask.size:
        return None
    voters = _shown_voters(votes, quad, mask, photo.scale)
    own = _most_votes(_tally(voters, gallery), gallery, {c.name for c in named})
    by_votes = between and own >= tuning.LAYER_MIN_SHOWN_VOTERS
    if between and not by_votes:
        crowded = _density(points, quad, mask, photo.scale) >= tuning.FAN_SHOWN_MIN_DENSITY
    if not (by_votes or crowded):
        return None
    polygon = _shown_polygon(quad, mask)
    scores = naming.scores if naming is not None else {}
    return UnknownCard(
        quad,
        reason_for(photo.image, quad),
        candidate_list(scores),
        visible=None if polygon is None else polygon.astype(np.float32),
    )


def _named_under(
    photo: Photo,
    gallery: Gallery,
    votes: Votes,
    quad: np.ndarray,
    covering: list[np.ndarray],
    named: list[Card],
    accept: float,
) -> tuple[Card | None, Naming | None]:
    """The card at ``quad`` named from the part the quads of ``covering`` leave showing (at
    least ``LAYER_MIN_SHOWN`` of it), with the look's second opinion there; a name no card of
    ``named`` has.
    Returns the card (or None) and the naming (None when nothing lined up)."""
    shown = shown_mask(quad, covering)
    if float(np.count_nonzero(shown)) < tuning.LAYER_MIN_SHOWN * shown.size:
        return None, None
    found = _name_in(photo, gallery, votes, quad, shown)
    if found is None:
        return None, None
    _shown_second_opinion(photo.image, quad, found, gallery, shown)
    if (
        found.confidence >= accept
        and found.inliers >= tuning.MIN_NAME_INLIERS
        and all(c.name != found.name for c in named)
    ):
        refined = refined_corners(quad, found)
        return card_from(found, quad if refined is None else refined), found
    return None, found


def _same_quads(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


def _name_in(
    photo: Photo, gallery: Gallery, votes: Votes, quad: np.ndarray, mask: np.ndarray
) -> Naming | None:
    """The best naming of the card at ``quad`` from its features where ``mask`` is set,
    shortlisted by the votes and the word index of that part."""
    features, by_descriptors = _shown_part_features(photo, gallery, quad, mask)
    voters = _shown_voters(votes, quad, mask, photo.scale)
    counts = np.bincount(voters) if len(voters) else np.zeros(1, np.int64)
    voted = [int(e) for e in np.argsort(-counts)[: tuning.VOTE_SHORTLIST]]
    shortlist = [
        *[e for e in voted if counts[e] >= tuning.VOTES_FOR_SHORTLIST],
        *by_descriptors,
    ]
    return name_card_features(features, gallery, shortlist) if shortlist else None


def layering(votes: Votes, gallery: Gallery, scale: float) -> Callable[[Card, Card], bool | None]:
    """Which of two overlapping named cards lies on top, by :func:`lies_over` (None: the
    shared part's features tell neither way), for :func:`vision.appearance.last_word`."""

    def over(a: Card, b: Card) -> bool | None:
        if lies_over(a.corners, a.name, b.corners, b.name, votes, gallery, scale):
            return True
        if lies_over(b.corners, b.name, a.corners, a.name, votes, gallery, scale):
            return False
        return None

    return over


def keep_covered(
    reports: list[UnknownCard], cards: list[Card], votes: Votes, gallery: Gallery, scale: float
) -> None:
    """Give each unknown card that named cards lie over its ``visible`` part, so that the named
    neighbours holding its centre do not explain it away (:func:`vision.result.report_explained`):
    a card of a fan whose name its look denied is still a card."""
    for report in reports:
        over = _covering(report.corners, None, cards, votes, gallery, scale)
        if over:
            report.visible = _visible_polygon(report.corners, over)
