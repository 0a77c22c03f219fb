"""The photo as the pipeline sees it: the full image for naming, a work copy for finding."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

import vision.tuning as tuning
from vision.detect import find_card_quads, padding_box
from vision.features import to_gray
from vision.photometry import balance, balance_tables
from vision.result import VisionError


@dataclass(frozen=True)
class Photo:
    """``image``: the full photo (BGR), rectified from when naming; ``work``: a copy at most
    ``WORK_LONG_SIDE`` px long, searched when finding; ``gray``: the work copy in grey;
    ``scale``: work pixels per photo pixel (<= 1)."""

    image: np.ndarray
    work: np.ndarray
    gray: np.ndarray
    scale: float

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
        tables = balance_tables(work, padding_box(work))
        work = balance(work, tables)
        image = work if scale == 1.0 else balance(image, tables)
        return cls(image, work, to_gray(work), scale)

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
        return [(q / self.scale).astype(np.float32) for q in find_card_quads(self.work)]
