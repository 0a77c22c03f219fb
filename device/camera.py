"""The camera seam: one small protocol, several backends.

A camera is anything with ``capture() -> numpy.ndarray`` (H x W x 3, uint8, **BGR** as OpenCV
wants) and ``close()``. Every failure is raised as :class:`CameraError` with a sentence a player
can read; the display layer shows it on screen and carries on.

Backends:

* :class:`Picamera2Camera` - the Pi camera through picamera2 (apt ``python3-picamera2``), stills
  at a configured size in RGB888 (which is B,G,R byte order: no swap), autofocus where the module
  has it. picamera2 is imported only when this backend is opened.
* :class:`OpenCVCamera` - a USB webcam through ``cv2.VideoCapture(index, cv2.CAP_V4L2)``.
* :class:`FolderCamera` - image files from a folder in name order, round and round.
* :class:`FunctionCamera` - any function returning an image (the display layer plugs the
  synthetic scene maker from ``vision/`` in here; ``device`` does not import ``vision``).
* :class:`NoCamera` - nothing fitted: every capture explains that.
* :class:`ScriptedCamera` - wraps another camera; images queued with :meth:`queue_file` are
  returned first (the script's ``camera PATH``).
"""

from __future__ import annotations

import importlib.util
import struct
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from device.config import CameraConfig

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


class CameraError(Exception):
    """A capture that failed, with a message meant for the screen."""


@runtime_checkable
class Camera(Protocol):
    @property
    def name(self) -> str: ...

    def capture(self) -> np.ndarray: ...

    def close(self) -> None: ...


def _as_bgr(image: Any, source: str) -> np.ndarray:
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
    return _as_bgr(image, path.name)


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
    """Returns the image files of a folder in name order, then starts again."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.name = f"folder {self.folder}"
        self._index = 0

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
        return read_image(path)

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
        return _as_bgr(image, self.name)

    def close(self) -> None:
        pass


class ScriptedCamera:
    """Images queued with :meth:`queue_file` / :meth:`queue_image` come first, then ``inner``."""

    def __init__(self, inner: Camera) -> None:
        self.inner = inner
        self._queued: deque[np.ndarray | Path] = deque()

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
                return read_image(item)
            return _as_bgr(item, "queued image")
        return self.inner.capture()

    def close(self) -> None:
        self.inner.close()


class OpenCVCamera:
    """A USB webcam (V4L2). Opened lazily on the first capture, so a missing one is a message."""

    def __init__(self, index: int = 0, width: int = 0, height: int = 0) -> None:
        self.index = index
        self.size = (width, height)
        self.name = f"USB camera /dev/video{index}"
        self._capture: Any = None

    def _open(self) -> Any:
        import cv2  # local: ~0.1 s CPU on a PC, more on a Pi; not before the first screen

        capture = cv2.VideoCapture(self.index, cv2.CAP_V4L2)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"cannot open {self.name}: is it plugged in?")
        if self.size[0] and self.size[1]:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return capture

    def capture(self) -> np.ndarray:
        if self._capture is None:
            self._capture = self._open()
        # The driver buffers a few frames; drop stale ones so the photo is of *now*.
        for _ in range(2):
            self._capture.grab()
        ok, frame = self._capture.read()
        if not ok:
            self.close()
            raise CameraError(f"{self.name} gave no picture")
        return _as_bgr(frame, self.name)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class Picamera2Camera:
    """The Raspberry Pi camera through picamera2 (documented Picamera2 API, imported lazily)."""

    def __init__(self, width: int, height: int, autofocus: bool = True) -> None:
        self.size = (width, height)
        self.autofocus = autofocus
        self.name = "Pi camera"
        self._camera: Any = None
        self._has_autofocus = False

    def _open(self) -> Any:
        try:
            from picamera2 import Picamera2  # local: 1-3 s on a Pi 4, paid at the first photo
        except ImportError as error:
            raise CameraError(
                "picamera2 is not installed (apt install python3-picamera2, and a venv made "
                "with --system-site-packages)"
            ) from error
        try:
            camera = Picamera2()
        except Exception as error:  # IndexError/RuntimeError when no camera is connected
            raise CameraError(f"no Pi camera found: {error}") from error
        try:
            config = camera.create_still_configuration(main={"size": self.size, "format": "RGB888"})
            camera.configure(config)
            self._has_autofocus = "AfMode" in camera.camera_controls
            if self.autofocus and self._has_autofocus:
                from libcamera import controls  # local: comes with picamera2, same cost

                camera.set_controls({"AfMode": controls.AfModeEnum.Continuous})
            camera.start()
            # The first frames after start are dark while exposure settles.
            time.sleep(0.5)
        except Exception as error:
            camera.close()
            raise CameraError(f"the Pi camera would not start: {error}") from error
        return camera

    def capture(self) -> np.ndarray:
        if self._camera is None:
            self._camera = self._open()
        try:
            if self.autofocus and self._has_autofocus:
                self._camera.autofocus_cycle()
            # RGB888 arrays are laid out B,G,R: exactly OpenCV's order, so no conversion.
            frame = self._camera.capture_array("main")
        except Exception as error:
            self.close()
            raise CameraError(f"the Pi camera failed to take a picture: {error}") from error
        return _as_bgr(frame, self.name)

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            finally:
                self._camera = None


def module_installed(name: str) -> bool:
    """Whether ``import name`` would find the module, without importing it (importing picamera2
    costs 1-3 s on a Pi 4: that belongs to the first photo, not to start-up)."""
    if name in sys.modules:
        return sys.modules[name] is not None  # None = blocked, as tests do
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def camera_from_config(config: CameraConfig) -> Camera:
    """Build the configured real camera. ``auto`` = picamera2 if installed, else a webcam."""
    backend = config.backend
    if backend == "auto":
        backend = "picamera2" if module_installed("picamera2") else "opencv"
    if backend == "picamera2":
        return Picamera2Camera(config.width, config.height, config.autofocus)
    if backend == "opencv":
        return OpenCVCamera(config.device_index, config.width, config.height)
    if backend == "folder":
        if not config.folder:
            return NoCamera("camera.backend is folder but camera.folder is empty")
        return FolderCamera(Path(config.folder).expanduser())
    return NoCamera()
