"""Captured photos, kept as JPEG files in ``<state dir>/photos`` so that a screen showing a photo
can be rebuilt after a power cut (its snapshot names the file, not the pixels)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from display.app import App

PHOTO_DIR = "photos"
JPEG_QUALITY = 92
MAX_KEPT = 40  # older photos are deleted when more than this many pile up


def photo_dir(app: App) -> Path:
    return Path(app.store.state_dir) / PHOTO_DIR


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "photo"


def save_photo(app: App, image: np.ndarray, name: str) -> str:
    """Write ``image`` (BGR) as ``<name>-<n>.jpg``; returns the file name (for snapshots)."""
    import cv2  # start-up time: OpenCV loads at the first photo, not with the appliance

    folder = photo_dir(app)
    folder.mkdir(parents=True, exist_ok=True)
    existing = sorted(folder.glob("*.jpg"), key=lambda p: p.stat().st_mtime)
    for old in existing[: max(0, len(existing) - MAX_KEPT)]:
        old.unlink(missing_ok=True)
    number = 1 + max(
        (int(m.group(1)) for p in existing if (m := re.search(r"-(\d+)\.jpg$", p.name))), default=0
    )
    filename = f"{_safe(name)}-{number}.jpg"
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise OSError("could not encode the photo")
    temporary = folder / (filename + ".tmp")
    with open(temporary, "wb") as handle:
        handle.write(data.tobytes())
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, folder / filename)
    return filename


def photo_exists(app: App, filename: str | None) -> bool:
    """The photo's file is still there (cheap: no decoding, for restoring a screen)."""
    return bool(filename) and (photo_dir(app) / str(filename)).is_file()


def load_photo(app: App, filename: str | None) -> np.ndarray | None:
    """The saved photo, or None when it is gone (the screen then asks for a new one)."""
    if not filename:
        return None
    # start-up time: OpenCV loads at the first photo, not with the appliance
    from vision import VisionError, read_photo

    path = photo_dir(app) / filename
    if not path.is_file():
        return None
    try:
        # read_photo refuses a file cut short (cv2.imread would hand back a half-grey picture)
        image = read_photo(path)
    except (OSError, VisionError):
        return None
    return image if image.size else None
