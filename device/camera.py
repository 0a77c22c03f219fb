"""The camera seam: one small protocol, several backends.

A camera is anything with ``capture() -> numpy.ndarray`` (H x W x 3, uint8, **BGR** as OpenCV
wants) and ``close()``. Every failure is raised as :class:`CameraError` with a sentence a player
can read; the display layer shows it on screen and carries on.

Backends:

* :class:`~device.picamera.Picamera2Camera` - the Pi camera through picamera2 (apt
  ``python3-picamera2``), imported at the first photo; a deadline on every call; a fixed lens
  position or continuous autofocus, set once.
* :class:`~device.webcam.OpenCVCamera` - a USB webcam through ``cv2.VideoCapture``.
* :class:`FolderCamera` - image files from a folder in name order, round and round.
* :class:`FunctionCamera` - any function returning an image (the display layer plugs the
  synthetic scene maker from ``vision/`` in here; ``device`` does not import ``vision``).
* :class:`NoCamera` - nothing fitted: every capture explains that.
* :class:`ScriptedCamera` - wraps another camera; images queued with :meth:`queue_file` are
  returned first (the script's ``camera PATH``).
* :class:`OrientedCamera` - wraps a real camera and turns/mirrors its photos as
  ``[camera] rotate``/``flip`` say, so a camera mounted upside down keeps the cards' order.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from device.config import CameraConfig
from device.frames import (
    IMAGE_SUFFIXES,
    MAX_IMAGE_PIXELS,
    CameraError,
    CameraStalled,
    DamageCheck,
    as_bgr,
    check_image_size,
    image_file_size,
    orient,
    read_image,
)
from device.picamera import Picamera2Camera
from device.webcam import OpenCVCamera


@runtime_checkable
class Camera(Protocol):
    @property
    def name(self) -> str: ...

    def capture(self) -> np.ndarray: ...

    def close(self) -> None: ...


class NoCamera:
    """No camera fitted or configured."""

    name = "no camera"

    def __init__(self, reason: str = "no camera is configured") -> None:
        self.reason = reason

    def capture(self) -> np.ndarray:
        raise CameraError(self.reason)

    def close(self) -> None:
        pass


class FolderCamera:
    """Returns the image files of a folder in name order, then starts again (``damage``: see
    :data:`DamageCheck`)."""

    def __init__(self, folder: Path, damage: DamageCheck | None = None) -> None:
        self.folder = Path(folder)
        self.name = f"folder {self.folder}"
        self._index = 0
        self._damage = damage

    def files(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def capture(self) -> np.ndarray:
        files = self.files()
        if not files:
            raise CameraError(f"no images in {self.folder}")
        path = files[self._index % len(files)]
        self._index += 1
        return read_image(path, self._damage)

    def close(self) -> None:
        pass


class FunctionCamera:
    """Wraps a function returning an image (e.g. a synthetic scene)."""

    def __init__(self, make_image: Callable[[], Any], name: str = "synthetic scenes") -> None:
        self._make_image = make_image
        self.name = name

    def capture(self) -> np.ndarray:
        try:
            image = self._make_image()
        except CameraError:
            raise
        except Exception as error:  # a scene generator bug must not take the appliance down
            raise CameraError(f"{self.name} failed: {error}") from error
        return as_bgr(image, self.name)

    def close(self) -> None:
        pass


class ScriptedCamera:
    """Images queued with :meth:`queue_file` / :meth:`queue_image` come first, then ``inner``
    (``damage``: see :data:`DamageCheck`)."""

    def __init__(self, inner: Camera, damage: DamageCheck | None = None) -> None:
        self.inner = inner
        self._queued: deque[np.ndarray | Path] = deque()
        self._damage = damage

    @property
    def name(self) -> str:
        return self.inner.name

    def queue_file(self, path: Path) -> None:
        self._queued.append(Path(path))

    def queue_image(self, image: np.ndarray) -> None:
        self._queued.append(image)

    def capture(self) -> np.ndarray:
        if self._queued:
            item = self._queued.popleft()
            if isinstance(item, Path):
                return read_image(item, self._damage)
            return as_bgr(item, "queued image")
        return self.inner.capture()

    def close(self) -> None:
        self.inner.close()


class OrientedCamera:
    """``inner``'s photos turned clockwise by ``rotate`` degrees, then mirrored (``flip``)."""

    def __init__(self, inner: Camera, rotate: int = 0, flip: str = "none") -> None:
        orient(np.zeros((1, 1, 3), np.uint8), rotate, flip)  # ValueError now, not at a photo
        self.inner = inner
        self.rotate = rotate
        self.flip = flip

    @property
    def name(self) -> str:
        return self.inner.name

    def capture(self) -> np.ndarray:
        return orient(self.inner.capture(), self.rotate, self.flip)

    def close(self) -> None:
        self.inner.close()


def module_installed(name: str) -> bool:
    """Whether ``import name`` would find the module, without importing it (importing picamera2
    costs 1-3 s on a Pi 4: that belongs to the first photo, not to start-up)."""
    if name in sys.modules:
        return sys.modules[name] is not None  # None = blocked, as tests do
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _backend(config: CameraConfig, damage: DamageCheck | None) -> Camera:
    backend = config.backend
    if backend == "auto":
        backend = "picamera2" if module_installed("picamera2") else "opencv"
    if backend == "picamera2":
        return Picamera2Camera(
            config.width,
            config.height,
            config.autofocus,
            lens_position=config.lens_position,
            timeout=config.timeout,
        )
    if backend == "opencv":
        return OpenCVCamera(config.device_index, config.width, config.height, config.timeout)
    if backend == "folder":
        if not config.folder:
            return NoCamera("camera.backend is folder but camera.folder is empty")
        return FolderCamera(Path(config.folder).expanduser(), damage)
    return NoCamera()


def camera_from_config(config: CameraConfig, damage: DamageCheck | None = None) -> Camera:
    """Build the configured real camera. ``auto`` = picamera2 if installed, else a webcam
    (``damage``: the check a folder camera's files go through, :data:`DamageCheck`).

    Nothing is opened here (the first capture opens the camera), and nothing raises: a camera
    that cannot be built is a :class:`NoCamera` that says why at every capture.
    """
    try:
        camera = _backend(config, damage)
        if config.rotate or config.flip != "none":
            camera = OrientedCamera(camera, config.rotate, config.flip)
    except Exception as error:  # the appliance starts whatever the camera does
        return NoCamera(f"the camera could not be set up: {error}")
    return camera


__all__ = [
    "IMAGE_SUFFIXES",
    "MAX_IMAGE_PIXELS",
    "Camera",
    "CameraError",
    "CameraStalled",
    "DamageCheck",
    "FolderCamera",
    "FunctionCamera",
    "NoCamera",
    "OpenCVCamera",
    "OrientedCamera",
    "Picamera2Camera",
    "ScriptedCamera",
    "camera_from_config",
    "check_image_size",
    "image_file_size",
    "module_installed",
    "orient",
    "read_image",
]
