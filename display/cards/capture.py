"""Taking a photo and reading it, as plain data for the screens (runs on the background worker).

:func:`capture_and_read` takes a photo with the app's camera, reads it against a gallery, keeps
it in the state directory and shrinks a copy to screen size; every failure is a sentence for the
screen. :func:`preview_from_file` reads a kept photo back (a screen restored after a restart).
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from display.cards.photos import load_photo, save_photo
from display.cards.reading import Reading, card_quads, read_photo

if TYPE_CHECKING:
    from display.app import App


def shrink(image: np.ndarray, max_size: tuple[int, int]) -> np.ndarray:
    """``image`` made no larger than ``max_size`` (aspect kept): done on the background worker,
    so the UI thread only scales a screen-sized picture (a camera still is megapixels)."""
    import cv2  # start-up time: OpenCV loads at the first photo, not with the appliance

    height, width = image.shape[:2]
    scale = min(max_size[0] / width, max_size[1] / height)
    if scale >= 1:
        return image
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


@dataclass
class PhotoRead:
    """What :func:`capture_and_read` gives back to the UI thread."""

    error: str = ""
    reading: Reading | None = None
    no_photo: bool = False  # the camera gave nothing: the cards may be entered by hand
    photo: str | None = None  # the saved file (for snapshots)
    preview: np.ndarray | None = None  # the photo shrunk to screen size
    full_size: tuple[int, int] = (0, 0)
    outlines: list[np.ndarray] = field(default_factory=list)  # card outlines, if asked for


def capture_and_read(
    app: App,
    gallery: Callable[[], Any] | None,
    layout: str = "rows",
    keep_as: str | None = None,
    outlines: bool = False,
) -> PhotoRead:
    """Take a photo, read it against ``gallery()`` (None: do not read it), find the card
    ``outlines`` if asked, keep it as ``<keep_as>-<n>.jpg`` (None: not kept). Runs on the
    background worker; every failure is a sentence for the screen (in strict runs an unexpected
    one is raised)."""
    from vision.recognize import VisionError  # start-up time: vision loads OpenCV

    tick = time.perf_counter()
    image, problem = app.capture()
    captured = time.perf_counter() - tick
    if image is None:
        return PhotoRead(f"No photo: {problem}", no_photo=True)
    outcome = PhotoRead(full_size=(image.shape[1], image.shape[0]))
    if gallery is not None:
        try:
            cards = gallery()
        except Exception as error:  # a damaged gallery is a message, not a crash
            return PhotoRead(str(error))
        if len(cards) == 0:
            return PhotoRead("No cards are enrolled yet: enrol the deck first (home, Enrol cards).")
        try:
            outcome.reading = read_photo(image, cards, layout)
        except VisionError as error:  # its advice says what to do: retake
            return PhotoRead(f"{error.advice} Press SHUTTER.")
        except Exception as error:
            if app.strict:
                raise
            traceback.print_exc(file=sys.stderr)
            return PhotoRead(f"The recogniser failed ({error}). Press SHUTTER to try again.")
    if outlines:
        outcome.outlines = card_quads(image)
    tick = time.perf_counter()
    if keep_as is not None:
        outcome.photo = save_photo(app, image, keep_as)
    saved = time.perf_counter()
    outcome.preview = shrink(image, app.size)
    if outcome.reading is not None:  # where the time went, for `bench flows`
        steps = outcome.reading.steps
        steps["capture"] = captured
        steps["save"] = saved - tick
        steps["decode"] = steps.get("decode", 0.0) + time.perf_counter() - saved  # the preview
    return outcome


def preview_from_file(app: App, photo: str) -> PhotoRead | None:
    """A kept photo read back and made screen-sized (on the background worker); None if gone."""
    image = load_photo(app, photo)
    if image is None:
        return None
    return PhotoRead(photo=photo, preview=shrink(image, app.size), full_size=image.shape[1::-1])
