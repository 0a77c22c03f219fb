"""Find and name every card in a table photo: the pipeline.

Each step is named after the function it calls (one module, one job) and timed under that name
(``result.timings``), in this order:

1. ``features`` (:func:`vision.features.photo_features`): ORB features of the work copy.
2. ``find`` (:func:`vision.find.find_hypotheses`): the features vote for references in the
   gallery's word index (the strongest first; a weaker one not on a card they fit beyond
   doubt lying alone); the most-voted are fitted into card hypotheses.
3. ``name`` (:func:`vision.name.name_hypotheses`): each hypothesis is rectified from the full
   photo and named against a shortlist, feature by feature at the same position on the card.
4. ``second_look`` (:func:`vision.relook.second_look`): a steep photo is flattened by a named
   card's perspective and searched again, where the first look saw a card it did not name.
5. ``shown_naming`` (:func:`vision.layers.name_visible_parts`): a card found but named weakly
   that lies partly under named cards (a fan) is named again from the part that shows, or
   reported unknown when that part holds its own features.
6. ``outlines`` (:meth:`vision.photo.Photo.outlines`, :mod:`vision.detect`): card-shaped
   colour-edge outlines.
7. ``outline_naming`` (:func:`vision.outlines.name_outlines`, :func:`vision.unknown.report_weak`):
   outlines no named card explains are named the same way, or reported unknown with a reason
   (:mod:`vision.unknown`), as are cards found but named too weakly. When only outlines named
   cards, ``second_look`` runs again from them (:func:`vision.relook.second_look_from_outlines`).
8. ``last_look`` (:func:`vision.relook.last_look`): a more sensitive search where nothing is
   named yet. The outlines of smeared cards wait for it (it may name them) and are reported
   unknown after it.
9. ``leftovers`` (:func:`vision.leftovers.leftover_regions`,
   :func:`vision.outlines.name_leftovers`): crowds of features that no card or unknown
   explains become card windows on the table plane, named at a stricter bar or reported
   unknown (no card silently missed).
10. ``last_word`` (:func:`vision.appearance.last_word`): the card's look has the last word on
    every name; unknowns that overlap are merged (:func:`vision.unknown.merged`).
11. ``layers`` (:func:`vision.layers.visible_parts`): which card lies over which, and the part
    of each card that shows (``visible``), for drawing a fanned hand.

Every threshold is in :mod:`vision.tuning`.
"""

from __future__ import annotations

import time

import numpy as np

import vision.tuning as tuning
from vision.appearance import last_word
from vision.features import ranked_photo_features
from vision.find import find_hypotheses
from vision.gallery import Gallery
from vision.layers import (
    fill_fan_gaps,
    keep_covered,
    layering,
    name_visible_parts,
    visible_parts,
)
from vision.leftovers import leftover_regions
from vision.name import name_hypotheses, region_memo
from vision.outlines import name_leftovers, name_outlines
from vision.photo import Photo
from vision.relook import last_look, second_look, second_look_from_outlines
from vision.result import Identification, VisionError, dedupe_cards, report_explained
from vision.timing import profiling
from vision.unknown import merged, report_weak

__all__ = ["Identification", "VisionError", "identify"]


def identify(
    image: np.ndarray, gallery: Gallery, *, accept: float = tuning.ACCEPT_CONFIDENCE
) -> Identification:
    """Find and name every card in ``image`` (BGR) against ``gallery``."""
    start = time.perf_counter()
    photo = Photo.of(image)
    with profiling() as clock, region_memo():
        with clock.step("features", "find"):
            points, descriptors, strength = ranked_photo_features(photo.gray, tuning.PHOTO_FEATURES)
        with clock.step("find", "find"):
            hypotheses, votes = find_hypotheses(
                points, descriptors, gallery, photo.work_size, strength
            )
        with clock.step("name", "name"):
            named, weak = name_hypotheses(
                photo.image,
                photo.scale,
                gallery,
                hypotheses,
                accept,
                photo_points=(points, descriptors, strength),
                votes=votes,
            )
        with clock.step("second_look", "find"):
            more, more_weak = second_look(photo, gallery, named, hypotheses, accept, points)
            cards = dedupe_cards(named + more)
        with clock.step("shown_naming", "name"):
            cards, weak, shown_unknown = name_visible_parts(
                photo, gallery, votes, weak + more_weak, cards, accept
            )
        with clock.step("outlines", "outline"):
            quads = photo.outlines()
        with clock.step("outline_naming", "outline"):
            cards, unknown, smeared = name_outlines(photo, gallery, votes, quads, cards, accept)
            unknown = report_weak(photo.image, weak, cards, shown_unknown + unknown)
        if not named and cards:
            with clock.step("second_look", "find"):
                cards, unknown = second_look_from_outlines(photo, gallery, cards, unknown, accept)
        with clock.step("last_look", "find"):
            cards, unknown = last_look(photo, gallery, cards, unknown, accept, points, votes)
            unknown += [u for u in smeared if not report_explained(u, cards)]
        with clock.step("leftovers", "outline"):
            regions = leftover_regions(points, photo.work_size, photo.scale, cards, unknown)
            cards, unknown = name_leftovers(photo, gallery, votes, regions, cards, unknown, accept)
        with clock.step("fan_gaps", "name"):
            cards, unknown = fill_fan_gaps(photo, gallery, votes, points, cards, unknown, accept)
        with clock.step("last_word", "look"):
            over = layering(votes, gallery, photo.scale)
            reported = len(unknown)
            cards, unknown = last_word(photo.image, gallery, cards, unknown, over)
            keep_covered(unknown[reported:], cards, votes, gallery, photo.scale)
            unknown = merged(unknown, cards)
        with clock.step("layers", "look"):
            visible_parts(cards, unknown, votes, gallery, photo.scale)
    cards.sort(key=lambda c: (c.center[1], c.center[0]))
    seconds = time.perf_counter() - start
    return Identification(
        cards, unknown, seconds, photo.size, clock.steps, clock.parts, clock.step_cpu
    )
