"""Card recognition: find, rectify and name every card in a table photo (OpenCV + numpy only).

The public API, for the appliance and the games' screens::

    from vision import Gallery, identify

    gallery = Gallery.load("gallery/")           # or Gallery("gallery/") to start one
    gallery.enroll("Overlord", card_image)        # one upright card image (scan or crop)
    gallery.save()

    result = identify(photo_bgr, gallery)         # -> Identification
    for card in result.cards:                     # named cards, confidence >= accept threshold
        card.name, card.confidence, card.corners, card.center, card.orientation
        card.candidates                           # closest names, for a pick-list
    for unknown in result.unknown:                # card-shaped, not named: corners + reason
        unknown.reason                            # "not in gallery" | "too blurred"
    result.seconds, result.to_json()

    image = read_photo("table.jpg")               # VisionError / DamagedPhotoError (cut short);
                                                  # error.advice is the sentence for the table

Layout helpers (:mod:`vision.layout`): ``reading_order`` / ``reading_sequence`` (rows) and
``two_columns`` (a Mixtape's Trk A / Trk B). Synthetic cards, tables and photos with exact
ground truth for tests and the simulated camera: :mod:`vision.synth`.

Inside, :func:`identify` (:mod:`vision.recognize`) is a pipeline of timed steps over modules
with one job each: ``find``, ``name``, ``relook``, ``outlines``, ``unknown``, ``appearance``
(the look's verdicts), on ``geometry``, ``plane``, ``features``, ``look``, ``detect`` (edges)
and ``gallery``; every threshold lives in :mod:`vision.tuning` with its calibration note.
"""

# First: OpenCV reads its pixel limit once, when it loads (vision.pixels).
from vision.pixels import MAX_IMAGE_PIXELS  # isort: skip

from vision.annotate import annotate
from vision.gallery import Gallery, GalleryError
from vision.layout import reading_order, reading_sequence, two_columns
from vision.photo import decode_photo, read_photo
from vision.recognize import identify
from vision.result import (
    REASON_NOT_IN_GALLERY,
    REASON_TOO_BLURRED,
    Candidate,
    Card,
    DamagedPhotoError,
    Identification,
    UnknownCard,
    VisionError,
)
from vision.tuning import ACCEPT_CONFIDENCE

__all__ = [
    "ACCEPT_CONFIDENCE",
    "MAX_IMAGE_PIXELS",
    "REASON_NOT_IN_GALLERY",
    "REASON_TOO_BLURRED",
    "Candidate",
    "Card",
    "DamagedPhotoError",
    "Gallery",
    "GalleryError",
    "Identification",
    "UnknownCard",
    "VisionError",
    "annotate",
    "decode_photo",
    "identify",
    "read_photo",
    "reading_order",
    "reading_sequence",
    "two_columns",
]
