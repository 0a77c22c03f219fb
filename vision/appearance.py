"""The look's verdicts on a name: a second opinion where the features are unsure, and the last
word on every named card.

A card that is not enrolled but shares the rules text and frame of its cycle with an enrolled
card lines up enough features to be named; its art still differs, and its look says so.
Looks are not used for galleries under ``LOOK_MIN_GALLERY`` references (their "typical card"
means little).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

import vision.tuning as tuning
from vision.gallery import Gallery
from vision.geometry import CARD_H, CARD_W, in_quad, quad_iou, rectify
from vision.look import card_look, cell_score_bounds, look_cells, look_residuals, look_vectors
from vision.result import REASON_NOT_IN_GALLERY, Card, UnknownCard, layered
from vision.timing import part

#: Does the first card lie over the second where they overlap? None: cannot tell.
Layering = Callable[[Card, Card], bool | None]


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
    """Which gallery entries carry ``name`` (a mask over the entries; ``name`` must be one of
    them). Its number looked up, not the entries walked for it: ~12 times a fanned photo."""
    number = gallery.name_number(name)
    if number is None:
        raise IndexError(f"no gallery entry is named {name!r}")
    return np.asarray(gallery.name_ids == number)


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


def cell_scores(patch: np.ndarray, gallery: Gallery) -> np.ndarray:
    """The card's look correlated with every reference's, cell by cell (entries x 12)."""
    cells = gallery.look_cells()
    mine = look_cells(look_residuals(card_look(patch)[None], gallery.typical_look()))[0]
    return np.asarray(np.einsum("ecd,cd->ec", cells, mine))


@dataclass
class CellScores:
    """A card's look correlated with every reference's, cell by cell (entries x 12, as
    :func:`cell_scores`): exact in the rows marked ``exact`` - its own name's references, and
    any other a verdict found could matter - and an upper bound in the rest
    (:func:`vision.look.cell_score_bounds`). A verdict on a name (:func:`look_disowns`) turns
    on whether another name's reference beats the name's own; one whose bound cannot is never
    worked out (of seed 2026's cards 85 % need no other reference exactly, ~7 a card on
    average, not 372). ``own``: the card's look cells (12 x D)."""

    scores: np.ndarray
    exact: np.ndarray
    own: np.ndarray

    def make_exact(self, rows: np.ndarray, gallery: Gallery) -> None:
        """Work out the exact correlations of the references ``rows`` (entry numbers): the
        same figures as :func:`cell_scores` (the same products, a row at a time)."""
        todo = rows[~self.exact[rows]]
        if len(todo):
            self.scores[todo] = np.einsum("ecd,cd->ec", gallery.look_cells()[todo], self.own)
            self.exact[todo] = True


def cards_cell_scores(
    patches: Sequence[np.ndarray], gallery: Gallery, names: Sequence[str]
) -> list[CellScores]:
    """:class:`CellScores` of several cards (``patches``, named ``names``), their looks compared
    with the gallery's typical card and bounded in one go: a photo's cards are judged together
    (:func:`last_word`). Exact for each card's own name's references; the bounds take 0.25 ms
    for 7 cards where the exact figures took 2.5 ms (both stacks)."""
    if not patches:
        return []
    looks = np.stack([card_look(patch) for patch in patches])
    mine = look_cells(look_residuals(looks, gallery.typical_look()))
    bounds = cell_score_bounds(mine, gallery.look_cell_basis())
    made = []
    for own, bound, name in zip(mine, bounds, names, strict=True):
        scores = CellScores(bound, np.zeros(len(bound), bool), own)
        scores.make_exact(np.flatnonzero(_named(gallery, name)), gallery)
        made.append(scores)
    return made


def _median_cell(per_cell: np.ndarray) -> np.ndarray:
    """Per reference, the median of its cells' scores (entries x cells): ``np.median(per_cell,
    axis=1)``, the very figures (the middle one, or the mean of the middle two, of each row
    sorted; cells' scores are never NaN), without np.median's checks and partition set-up for
    a dozen cells a row: 113 -> 65 us (default stack), 134 -> 69 us (Pi's numpy 1.24), ~10
    times a fanned photo."""
    cells = per_cell.shape[1]
    ordered = np.sort(per_cell, axis=1)
    if cells % 2:
        return np.asarray(ordered[:, cells // 2])
    return np.asarray(ordered[:, cells // 2 - 1 : cells // 2 + 1].mean(axis=1))


def look_disowns(
    patch: np.ndarray,
    gallery: Gallery,
    name: str,
    *,
    shared_layout: bool = False,
    visible: np.ndarray | None = None,
    per_cell: np.ndarray | CellScores | None = None,
) -> bool:
    """Does the card's look, compared cell by cell (the median of 12 cells, so half the card
    may be covered or glared), deny the name? Yes when it is not close to the named reference,
    or closer to a reference of another name. With ``shared_layout`` (another name lined up
    nearly as many inliers: see :func:`shares_layout`) the look must also be close to
    the named reference, not just closer to it than to the others. ``visible``: a mask over
    the 12 cells, those no other card covers (:func:`visible_cells`). ``per_cell``: the
    card's cell scores, exact (:func:`cell_scores`) or bounded (:class:`CellScores`: the
    references whose bound could beat the name's own are worked out first, the verdict is
    the same)."""
    if len(gallery) < tuning.LOOK_MIN_GALLERY:
        return False
    same = _named(gallery, name)
    if same.all():
        return False
    bounded: CellScores | None = None
    if isinstance(per_cell, CellScores):
        bounded = per_cell
        bounded.make_exact(np.flatnonzero(same), gallery)
        table = bounded.scores
    else:
        table = cell_scores(patch, gallery) if per_cell is None else per_cell
    enough = visible is not None and int(visible.sum()) >= tuning.LOOK_MIN_VISIBLE_CELLS
    shown = visible if enough else None
    scores = _median_cell(table if shown is None else table[:, shown])
    similarity = float(scores[same].max())
    if similarity < tuning.LOOK_MIN_CELLS_SIMILARITY:
        return True
    if bounded is not None:
        # Only a reference whose bound beats the name's own can: those are worked out.
        unsure = np.flatnonzero(~same & ~bounded.exact & (scores > similarity))
        if len(unsure):
            bounded.make_exact(unsure, gallery)
            rows = bounded.scores[unsure]
            scores[unsure] = _median_cell(rows if shown is None else rows[:, shown])
    if float(scores[~same].max()) > similarity:
        return True
    return shared_layout and similarity < tuning.LOOK_SHARED_MIN_CELLS_SIMILARITY


def shares_layout(card: Card) -> bool:
    """Did another name line up most of the inliers the card's own name did (at least
    ``LOOK_SHARED_RIVAL_SHARE`` of them)? Then what the features saw is mostly what the two
    share - a cycle's frame and word-for-word rules text - and the name rests on the art, which
    only the look can judge (cards that are not enrolled, sharing the rules text of enrolled
    ones, were named at 77 inliers against 61 and at 67 against 45)."""
    return card.rival_inliers >= tuning.LOOK_SHARED_RIVAL_SHARE * card.inliers


def cell_centres_on_card() -> np.ndarray:
    """Where the centres of a card's 12 look cells (row by row) lie on the upright card, as
    shares of its width and height."""
    rows, cols = tuning.LOOK_CELLS
    cell_h, cell_w = tuning.LOOK_CELL
    look_w, look_h = tuning.LOOK_SIZE
    margin = tuning.LOOK_MARGIN
    return np.array(
        [
            [(margin + (c + 0.5) * cell_w) / look_w, (margin + (r + 0.5) * cell_h) / look_h]
            for r in range(rows)
            for c in range(cols)
        ],
        np.float32,
    )


def shown_look_similarities(
    patch: np.ndarray, gallery: Gallery, name: str, visible: np.ndarray
) -> tuple[float, float] | None:
    """:func:`look_similarities` on the cells that show (``visible``, a mask over the 12, at
    least ``LOOK_MIN_VISIBLE_CELLS`` of them): the median cell's correlation with the closest
    reference named ``name`` and with the closest of any other name; None when too few cells
    show or the gallery cannot tell."""
    if len(gallery) < tuning.LOOK_MIN_GALLERY or int(visible.sum()) < tuning.LOOK_MIN_VISIBLE_CELLS:
        return None
    with part("look"):
        scores = _median_cell(cell_scores(patch, gallery)[:, visible])
        same = _named(gallery, name)
        if same.all():
            return None
        return float(scores[same].max()), float(scores[~same].max())


def _cell_centres(card: Card) -> np.ndarray:
    """Where the centres of the card's 12 look cells (row by row) lie in the photo."""
    centres = cell_centres_on_card()
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_photo = cv2.getPerspectiveTransform(unit, card.corners.astype(np.float32))
    return np.asarray(cv2.perspectiveTransform(centres[None], to_photo)[0])


def _own_cells(per_cell: np.ndarray, gallery: Gallery, name: str) -> np.ndarray:
    """Per cell, the look's best correlation with a reference of ``name``."""
    return np.asarray(per_cell[_named(gallery, name)].max(axis=0))


def visible_cells(
    cards: list[Card], own: list[np.ndarray | None], over: Layering | None = None
) -> list[np.ndarray | None]:
    """Per card, which of its 12 look cells no card lying over it covers (None: nothing
    covers it). Of two cards in layers (:func:`vision.result.layered`), the one on top is the
    one ``over`` says (the photo's features in the shared part: :func:`vision.layers.lies_over`)
    or, when it cannot tell, the one whose own look holds up better where they overlap (``own``:
    each card's per-cell correlation with its name, :func:`_own_cells`)."""
    covered: list[np.ndarray | None] = [None] * len(cards)
    judged = [i for i, cells in enumerate(own) if cells is not None]
    if len(judged) < 2:
        return covered
    # Every judged card's quad tested against all judged cards' cell centres in one call, not
    # two calls a pair (a fan of 7: 7 calls, not 42): 0.95 -> 0.60 ms a fan photo on the Pi.
    centres = np.concatenate([_cell_centres(cards[i]) for i in judged])
    row = {i: r for r, i in enumerate(judged)}
    covers = {i: in_quad(centres, cards[i].corners).reshape(len(judged), -1) for i in judged}
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            b = cards[j]
            own_a, own_b = own[i], own[j]
            if own_a is None or own_b is None or not layered(a, b):
                continue
            a_under_b = covers[j][row[i]]
            b_under_a = covers[i][row[j]]
            if not a_under_b.any() and not b_under_a.any():
                continue
            floor = tuning.LOOK_MIN_CELLS_SIMILARITY
            score_a = float(own_a[a_under_b].mean()) if a_under_b.any() else floor
            score_b = float(own_b[b_under_a].mean()) if b_under_a.any() else floor
            a_on_top = None if over is None else over(a, b)
            if a_on_top is None:
                a_on_top = score_a >= score_b
            lower, mask = (j, b_under_a) if a_on_top else (i, a_under_b)
            previous = covered[lower]
            covered[lower] = mask if previous is None else (previous | mask)
    return [None if c is None else ~c for c in covered]


def in_a_hand(card: Card, cards: list[Card], unknown: Sequence[UnknownCard] = ()) -> bool:
    """Does the card lie partly under or over another named card (a fan, a crowded hand), or
    under or over a card reported unknown (a fan's neighbour nobody could name, which hides
    the card's part under it just as well)?"""
    return any(
        other is not card
        and layered(card, other)
        and quad_iou(card.corners, other.corners) > tuning.HAND_MIN_IOU
        for other in cards
    ) or any(
        tuning.HAND_MIN_IOU < quad_iou(card.corners, report.corners) < tuning.LAYERED_MAX_IOU
        for report in unknown
    )


def _fan_strip(shows: np.ndarray | None) -> np.ndarray:
    """The cells a fanned card always shows: its left column (top-left corner, the title's
    start, the art's and text's left edge), less any a named card covers. A card in a hand
    whose right part lies under a card nobody found is judged there."""
    rows, cols = tuning.LOOK_CELLS
    strip = np.zeros(rows * cols, bool)
    strip[::cols] = True
    return strip if shows is None else strip & shows


def _disowned_beside_reports(
    patch: np.ndarray,
    gallery: Gallery,
    card: Card,
    shows: np.ndarray | None,
    scored: CellScores,
    unknown: Sequence[UnknownCard],
) -> bool:
    """Does the look deny the name of a card in a hand on the cells that show and that no
    card reported unknown lying partly over or under it covers (a fan's neighbour nobody could
    name hides the card's part under it as a named one does)? With no such report, yes: the
    other judgements stand."""
    centres = _cell_centres(card)
    hidden = np.zeros(len(centres), bool)
    for report in unknown:
        if tuning.HAND_MIN_IOU < quad_iou(card.corners, report.corners) < tuning.LAYERED_MAX_IOU:
            hidden |= in_quad(centres, report.corners)
    if not hidden.any():
        return True
    visible = ~hidden if shows is None else shows & ~hidden
    return look_disowns(
        patch,
        gallery,
        card.name,
        shared_layout=shares_layout(card),
        visible=visible,
        per_cell=scored,
    )


def last_word(
    image: np.ndarray,
    gallery: Gallery,
    cards: list[Card],
    unknown: list[UnknownCard],
    over: Layering | None = None,
) -> tuple[list[Card], list[UnknownCard]]:
    """Every named card whose look denies its name is reported unknown instead, its name
    first in the pick-list. A card partly under another (a fan: it overlaps another named
    card) is judged on the cells that show (:func:`visible_cells`), and failing that on its
    left column (:func:`_fan_strip`). ``over``: which of two overlapping cards lies on top,
    when the caller can tell (see :func:`visible_cells`)."""
    patches = [look_patch(image, card.corners) for card in cards]
    # Every card's look is judged (look_disowns) when the gallery is big enough to judge by.
    per_cells: list[CellScores | None] = [None] * len(cards)
    if len(gallery) >= tuning.LOOK_MIN_GALLERY:
        with part("look"):
            per_cells = list(cards_cell_scores(patches, gallery, [card.name for card in cards]))
    own: list[np.ndarray | None] = [None] * len(cards)
    scores: list[CellScores | None] = [None] * len(cards)  # of the cards in a hand
    if len(gallery) >= tuning.LOOK_MIN_GALLERY and len(gallery.names) > 1:
        with part("look"):
            for i, (card, per_cell) in enumerate(zip(cards, per_cells, strict=True)):
                if per_cell is not None and in_a_hand(card, cards, unknown):
                    scores[i] = per_cell
                    own[i] = _own_cells(per_cell.scores, gallery, card.name)
    visible = visible_cells(cards, own, over)
    kept: list[Card] = []
    disowned: list[UnknownCard] = []
    for card, patch, shows, scored, per_cell in zip(
        cards, patches, visible, scores, per_cells, strict=True
    ):
        shared = shares_layout(card)
        if look_disowns(
            patch, gallery, card.name, shared_layout=shared, visible=shows, per_cell=per_cell
        ) and (
            scored is None
            or look_disowns(
                patch,
                gallery,
                card.name,
                shared_layout=shared,
                visible=_fan_strip(shows),
                per_cell=scored,
            )
            and _disowned_beside_reports(patch, gallery, card, shows, scored, unknown)
        ):
            disowned.append(UnknownCard(card.corners, REASON_NOT_IN_GALLERY, card.candidates))
        else:
            kept.append(card)
    return kept, unknown + disowned
