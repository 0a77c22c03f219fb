"""Reading a photo on the command line, for the commands that score one (the flows without a
screen; each game's command formats its own score):

    tablekeeper remix score --photo PHOTO --gallery DIR [--loki-draw CARD] [--json]
    tablekeeper mixtape score --deck FILE --photo PHOTO --gallery DIR [--json]

The photo is read with the same code as the appliance (:func:`display.cards.reading.read_photo`).
A card the recogniser cannot name is not guessed: the command refuses to score (exit 2) and lists
every unknown card with where it lies in the photo, why, and the closest names. A card named with
a confidence under ``DOUBT_BELOW`` is scored but reported as doubtful (the JSON carries every
card's confidence). The JSON is the scorer's own JSON plus a ``photo`` object::

    "photo": {"file", "seconds", "cards": [{"name", "id", "confidence", "doubtful", "center",
              "column"}]}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from display.cards.reading import DOUBT_BELOW, Reading, read_photo
from display.cli import CliError
from display.widgets.words import count


def read(photo: Path, gallery_dir: Path, layout: str) -> Reading:
    """Read ``photo`` against the gallery in ``gallery_dir``; every problem is a CliError."""
    # start-up time: OpenCV, numpy and the recogniser load only for a command given a photo
    import numpy as np

    from device.camera import CameraError, check_image_size
    from vision.gallery import Gallery, GalleryError
    from vision.photo import decode_photo
    from vision.recognize import VisionError

    if not photo.is_file():
        raise CliError(f"{photo}: no such photo")
    data = np.fromfile(str(photo), dtype=np.uint8)
    try:
        check_image_size(data.tobytes(), str(photo))  # before decoding 20000 x 20000
    except CameraError as error:
        raise CliError(str(error)) from None
    try:
        image = decode_photo(data.tobytes())  # refuses a file cut short, by name
    except VisionError as error:
        raise CliError(f"{photo}: {error}") from None
    try:
        gallery = Gallery.load(gallery_dir)
    except (GalleryError, OSError) as error:
        raise CliError(f"{gallery_dir}: not a card gallery ({error})") from None
    if len(gallery) == 0:
        raise CliError(f"{gallery_dir}: the gallery is empty; enrol the cards first")
    try:
        reading = read_photo(image, gallery, layout)
    except VisionError as error:
        raise CliError(f"{photo}: {error}") from None
    if not reading.cards:
        raise CliError(f"{photo}: no cards found in the photo")
    unknown = [(i, c) for i, c in enumerate(reading.cards) if c.name is None]
    if unknown:
        parts = []
        for index, card in unknown:
            x, y = card.center
            closest = ", ".join(name for name, _ in card.candidates[:3]) or "none"
            parts.append(
                f"card {index + 1} at ({x:.0f}, {y:.0f}): {card.reason or 'unknown'} "
                f"(closest: {closest})"
            )
        raise CliError(
            f"{photo}: {count(len(unknown), 'card')} not recognised, not scoring: "
            + "; ".join(parts)
        )
    return reading


def photo_json(photo: Path, reading: Reading, ids: list[str]) -> dict[str, Any]:
    return {
        "file": str(photo),
        "seconds": round(reading.seconds, 3),
        "cards": [
            {
                "name": card.name,
                "id": card_id,
                "confidence": round(card.confidence, 3),
                "doubtful": card.confidence < DOUBT_BELOW,
                "center": [round(v, 1) for v in card.center],
                "column": card.column or None,
            }
            for card, card_id in zip(reading.cards, ids, strict=True)
        ],
    }


def doubt_lines(reading: Reading) -> list[str]:
    return [
        f"note: {c.name} read with confidence {c.confidence:.0%} (doubtful; check it)"
        for c in reading.cards
        if c.confidence < DOUBT_BELOW
    ]
