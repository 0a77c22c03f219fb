"""Frames: what a camera hands back, and the checks and turns every frame goes through.

A frame is an H x W x 3 uint8 numpy array in **BGR** order, as OpenCV wants. Everything that can
go wrong with one is a :class:`CameraError` with a sentence a player can read.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


class CameraError(Exception):
    """A capture that failed, with a message meant for the screen."""


class CameraStalled(CameraError):
    """The camera did not answer within its deadline (or an earlier call is still stuck): only
    a new process frees it (display/app.py restarts the appliance after a few in a row)."""


def as_bgr(image: Any, source: str) -> np.ndarray:
    """Check a frame is H x W x 3 uint8 (grey is widened, BGRA is cut to BGR)."""
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise CameraError(f"{source} returned no image")
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise CameraError(f"{source} returned an image of shape {image.shape}, not colour")
    if image.shape[2] == 4:
        image = image[:, :, :3]
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(image)


#: Larger images are refused before decoding: 20000 x 20000 pixels would need 1.2 GB as BGR
#: and many seconds of a Pi's time. Camera modules give 12 Mpx, phones up to ~50.
MAX_IMAGE_PIXELS = 80_000_000


def image_file_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) read from a PNG, JPEG, GIF or BMP header without decoding, else None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    if data[:2] == b"\xff\xd8":  # JPEG: walk the segments to the frame header (SOFn)
        at = 2
        while at + 9 <= len(data):
            if data[at] != 0xFF:
                return None
            marker = data[at + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                at += 1 if marker == 0xFF else 2
                continue
            length = struct.unpack(">H", data[at + 2 : at + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", data[at + 5 : at + 9])
                return width, height
            at += 2 + length
    return None


def check_image_size(data: bytes, source: str) -> None:
    """Raise CameraError when the header announces an image too large to decode safely."""
    size = image_file_size(data)
    if size is not None and size[0] * size[1] > MAX_IMAGE_PIXELS:
        raise CameraError(
            f"{source} is {size[0]} x {size[1]} pixels; images above "
            f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels are refused (make it smaller)"
        )


def read_image(path: Path) -> np.ndarray:
    """Read an image file as BGR, or raise CameraError naming the file."""
    import cv2  # local: ~0.1 s CPU on a PC, more on a Pi; not before the first screen

    if not path.is_file():
        raise CameraError(f"no image file at {path}")
    data = np.fromfile(str(path), dtype=np.uint8)
    check_image_size(data[:65536].tobytes(), path.name)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise CameraError(f"{path.name} is not an image this camera can read")
    return as_bgr(image, path.name)


def orient(image: np.ndarray, rotate: int = 0, flip: str = "none") -> np.ndarray:
    """Turn ``image`` clockwise by ``rotate`` degrees (0/90/180/270), then mirror it
    (``flip`` none/horizontal/vertical): how a camera mounted turned or seen through a mirror is
    put right, so cards keep their left-to-right order on the table."""
    if rotate not in (0, 90, 180, 270):
        raise ValueError(f"rotate must be 0, 90, 180 or 270, not {rotate!r}")
    if flip not in ("none", "horizontal", "vertical"):
        raise ValueError(f"flip must be none, horizontal or vertical, not {flip!r}")
    turned = np.rot90(image, k=-(rotate // 90)) if rotate else image
    if flip == "horizontal":
        turned = turned[:, ::-1]
    elif flip == "vertical":
        turned = turned[::-1]
    return turned if turned is image else np.ascontiguousarray(turned)
