"""The photo as the pipeline sees it: the full image for naming, a work copy for finding."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

import vision.tuning as tuning
from vision.detect import find_card_quads, padding_box
from vision.features import to_gray
from vision.photometry import balance, balance_tables
from vision.pixels import MAX_IMAGE_PIXELS
from vision.result import DamagedPhotoError, VisionError


@dataclass(frozen=True)
class Photo:
    """``image``: the full photo (BGR), rectified from when naming; ``work``: a copy at most
    ``WORK_LONG_SIDE`` px long, searched when finding; ``gray``: the work copy in grey;
    ``scale``: work pixels per photo pixel (<= 1); ``padding``: the picture inside any padding
    canvas (x0, y0, x1, y1), work pixels."""

    image: np.ndarray
    work: np.ndarray
    gray: np.ndarray
    scale: float
    padding: tuple[int, int, int, int]

    @classmethod
    def of(cls, image: np.ndarray) -> Photo:
        """Check and prepare ``image``; VisionError when it cannot be used at all."""
        if image is None or not isinstance(image, np.ndarray) or image.size == 0:
            raise VisionError("empty image")
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        full_h, full_w = image.shape[:2]
        if min(full_h, full_w) < tuning.MIN_PHOTO_SIDE:
            raise VisionError(f"image too small ({full_w}x{full_h})")
        scale = min(1.0, tuning.WORK_LONG_SIDE / max(full_h, full_w))
        work = image
        if scale < 1.0:
            work = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        # The light taken out once, for every step (vision.photometry).
        padding = padding_box(work)
        tables = balance_tables(work, padding)
        work = balance(work, tables)
        image = work if scale == 1.0 else balance(image, tables)
        return cls(image, work, to_gray(work), scale, padding)

    @property
    def size(self) -> tuple[int, int]:
        """Width, height of the full photo."""
        return self.image.shape[1], self.image.shape[0]

    @property
    def work_size(self) -> tuple[int, int]:
        return self.work.shape[1], self.work.shape[0]

    def outlines(self) -> list[np.ndarray]:
        """Card-shaped outlines in photo pixels (searched on the work copy: they need no more
        detail)."""
        quads = find_card_quads(self.work, padding=self.padding)
        return [(q / self.scale).astype(np.float32) for q in quads]


# -- reading a photo file ---------------------------------------------------------------------
_JPEG_START = b"\xff\xd8"
_JPEG_END = 0xD9
_JPEG_SCAN = 0xDA
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_END = b"IEND\xaeB`\x82"  # the last chunk's type and its (fixed) checksum


def photo_damage(data: bytes) -> str | None:
    """Why an encoded photo cannot be trusted, or None. A JPEG or PNG cut short decodes with only
    a warning (the missing part flat grey or white), so the file's structure is checked first: a
    JPEG must reach its end marker, a PNG its last chunk. Other formats are left to the decoder."""
    if data[:2] == _JPEG_START:
        return None if _jpeg_reaches_end(data) else "it ends early"
    if data[:8] == _PNG_SIGNATURE:
        return None if _PNG_END in data else "it ends early"
    return None


def _jpeg_reaches_end(data: bytes) -> bool:
    """Walk the JPEG's segments (skipping each scan's entropy-coded data, where 0xFF bytes are
    stuffed as FF 00 and restart markers are FF D0-D7) until the end marker or the data's end.
    A structure this walk does not understand is left to the decoder (True)."""
    raw = np.frombuffer(data, np.uint8)
    follow = raw[1:]
    at_ff = np.flatnonzero(raw[:-1] == 0xFF)
    after = follow[at_ff]
    markers = at_ff[(after != 0) & (after != 0xFF) & ((after < 0xD0) | (after > 0xD7))]
    pos = 2
    while pos + 1 < len(data):
        if data[pos] != 0xFF:
            return True  # not a segment boundary: unknown structure
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
        elif marker == _JPEG_END:
            return True
        elif 0xD0 <= marker <= 0xD7 or marker == 0x01:  # markers without a length
            pos += 2
        elif pos + 4 > len(data):
            return False
        else:
            pos += 2 + int.from_bytes(data[pos + 2 : pos + 4], "big")
            if marker == _JPEG_SCAN:  # entropy-coded data up to the next real marker
                nxt = int(np.searchsorted(markers, pos))
                if nxt == len(markers):
                    return False
                pos = int(markers[nxt])
    return False


def decode_photo(data: bytes) -> np.ndarray:
    """An encoded photo (JPEG, PNG...) as BGR; DamagedPhotoError when the file was cut short,
    VisionError when it is no image."""
    problem = photo_damage(data)
    if problem is not None:
        raise DamagedPhotoError(problem)
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    except cv2.error as error:  # OpenCV's pixel limit (vision.pixels) or a decoder failure
        if "MAX_IMAGE_PIXELS" in str(error):
            raise VisionError(
                f"the image is larger than {MAX_IMAGE_PIXELS // 1_000_000} megapixels; "
                f"refused before decoding (make it smaller)"
            ) from None
        raise VisionError(f"not a readable image ({str(error).strip().splitlines()[-1]})") from None
    if image is None or image.size == 0:
        raise VisionError("not a readable image")
    return image


def read_photo(path: str | Path) -> np.ndarray:
    """:func:`decode_photo` of a file (OSError when it cannot be opened)."""
    return decode_photo(Path(path).read_bytes())
