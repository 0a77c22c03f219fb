"""Frames: what a camera hands back, and the checks and turns every frame goes through.

A frame is an H x W x 3 uint8 numpy array in **BGR** order, as OpenCV wants. Everything that can
go wrong with one is a :class:`CameraError` with a sentence a player can read.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")

#: Why an image file's bytes cannot be trusted (a JPEG or PNG cut short), or None. Decoders read
#: a file cut short with only a warning, the missing part flat grey; the check that knows the
#: formats' structure lives with the recogniser (``vision.photo.photo_damage``), which ``device``
#: may not import, so the display hands it to the cameras that read files.
DamageCheck = Callable[[bytes], "str | None"]


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


#: Larger images are refused before decoding, whatever the format: 40 megapixels is 120 MB as
#: BGR; a camera module gives 12, a phone up to ~50 at full resolution. ``vision.pixels`` holds
#: the same limit for the recogniser (``device`` may not import ``vision``; a test checks they
#: agree).
MAX_IMAGE_PIXELS = 40_000_000


def limit_opencv() -> None:
    """Tell OpenCV the limit (``OPENCV_IO_MAX_IMAGE_PIXELS``: it then refuses, after reading a
    header and before allocating, any picture above it, in every decoder). OpenCV reads the
    variable when it loads, so this runs when ``device.frames`` is imported, before the local
    ``import cv2`` of :func:`read_image` and the webcam; a lower value already set is kept."""
    try:
        current = int(os.environ.get("OPENCV_IO_MAX_IMAGE_PIXELS", "") or MAX_IMAGE_PIXELS)
    except ValueError:
        current = MAX_IMAGE_PIXELS
    limit = min(current, MAX_IMAGE_PIXELS) if current > 0 else MAX_IMAGE_PIXELS
    os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] = str(limit)


limit_opencv()


def image_file_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) read from the header of a PNG, JPEG, GIF, BMP, TIFF, WebP or PNM file
    without decoding it, else None (OpenCV's own limit then still holds). Give it the whole
    file: a JPEG's frame header may sit behind any amount of APP segments."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(width), abs(height)
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    if data[:4] in (b"II*\0", b"MM\0*"):
        return _tiff_size(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    if len(data) > 3 and data[:1] == b"P" and data[1:2] in b"123456" and data[2:3].isspace():
        fields = data[2:256].split(None, 3)  # PNM: P6 <width> <height> ...
        if len(fields) >= 2 and fields[0].isdigit() and fields[1].isdigit():
            return int(fields[0]), int(fields[1])
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """Walk the segments to the frame header (SOFn)."""
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


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """ImageWidth and ImageLength of the first directory (the page OpenCV decodes)."""
    order = "<" if data[:2] == b"II" else ">"
    if len(data) < 8:
        return None
    (at,) = struct.unpack(order + "I", data[4:8])
    if at + 2 > len(data):
        return None
    (count,) = struct.unpack(order + "H", data[at : at + 2])
    values: dict[int, int] = {}
    for i in range(count):
        entry = data[at + 2 + 12 * i : at + 14 + 12 * i]
        if len(entry) < 12:
            break
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag in (256, 257):
            if kind == 3:  # SHORT
                values[tag] = struct.unpack(order + "H", entry[8:10])[0]
            elif kind == 4:  # LONG
                values[tag] = struct.unpack(order + "I", entry[8:12])[0]
    if 256 in values and 257 in values:
        return values[256], values[257]
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return width, height
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def check_image_size(data: bytes, source: str) -> None:
    """Raise CameraError when the header announces an image too large to decode safely."""
    size = image_file_size(data)
    if size is not None and size[0] * size[1] > MAX_IMAGE_PIXELS:
        raise CameraError(too_large(source, f"{size[0]} x {size[1]} pixels"))


def too_large(source: str, size: str = "larger than that") -> str:
    return (
        f"{source} is {size}; images above {MAX_IMAGE_PIXELS // 1_000_000} megapixels are "
        f"refused (make it smaller)"
    )


def read_image(path: Path, damage: DamageCheck | None = None) -> np.ndarray:
    """Read an image file as BGR, or raise CameraError naming the file (``damage``: the check
    that refuses a file cut short, before it decodes half grey)."""
    import cv2  # local: ~0.1 s CPU on a PC, more on a Pi; not before the first screen

    if not path.is_file():
        raise CameraError(f"no image file at {path}")
    data = np.fromfile(str(path), dtype=np.uint8)
    raw = data.tobytes()
    check_image_size(raw, path.name)
    problem = damage(raw) if damage is not None else None
    if problem is not None:
        raise CameraError(f"{path.name} is damaged ({problem}): copy or take it again")
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error as error:  # OpenCV's own pixel limit (limit_opencv), or a broken file
        if "MAX_IMAGE_PIXELS" in str(error):
            raise CameraError(too_large(path.name)) from None
        image = None
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
