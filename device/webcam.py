"""A USB webcam through OpenCV (V4L2), with a deadline on every call."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from device.deadline import Deadline, Stalled
from device.frames import CameraError, CameraStalled, as_bgr

_OPENCV_LOG_ERRORS_ONLY = 2  # OpenCV's LOG_LEVEL_ERROR, the same number in 4.x and 5.x


@contextmanager
def _opencv_warnings_silenced(cv2: Any) -> Iterator[None]:
    """OpenCV prints "[ WARN:0] ... can't open camera by index" on a missing camera; our
    CameraError already says it in words, so the owner should not see both (doctor, journal)."""
    logging = getattr(cv2.utils, "logging", None)  # OpenCV 5 keeps the calls here,
    owner = logging if logging is not None and hasattr(logging, "setLogLevel") else cv2
    if not hasattr(owner, "setLogLevel"):  # 4.x keeps them on cv2 itself
        yield
        return
    before = owner.getLogLevel()
    owner.setLogLevel(_OPENCV_LOG_ERRORS_ONLY)
    try:
        yield
    finally:
        owner.setLogLevel(before)


class OpenCVCamera:
    """A USB webcam (V4L2). Opened lazily on the first capture, so a missing one is a message."""

    def __init__(self, index: int = 0, width: int = 0, height: int = 0, timeout: float = 5.0):
        self.index = index
        self.size = (width, height)
        self.timeout = timeout
        self.name = f"USB camera /dev/video{index}"
        self._capture: Any = None
        self._deadline = Deadline(f"the {self.name}")

    def _call(self, what: str, work: Any) -> Any:
        try:
            return self._deadline.call(work, self.timeout, what)
        except Stalled as error:
            raise CameraStalled(f"{error}; is it still plugged in?") from None

    def _open(self) -> Any:
        import cv2  # local: ~0.1 s CPU on a PC, more on a Pi; not before the first screen

        with _opencv_warnings_silenced(cv2):
            capture = cv2.VideoCapture(self.index, cv2.CAP_V4L2)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"cannot open {self.name}: is it plugged in?")
        if self.size[0] and self.size[1]:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return capture

    def _read(self, capture: Any) -> tuple[bool, Any]:
        # The driver buffers a few frames; drop stale ones so the photo is of *now*.
        for _ in range(2):
            capture.grab()
        return capture.read()

    def capture(self) -> np.ndarray:
        try:
            if self._capture is None:
                self._capture = self._call("opening the camera", self._open)
            capture = self._capture
            ok, frame = self._call("taking a picture", lambda: self._read(capture))
        except CameraError:
            self.close()
            raise
        except Exception as error:  # cv2.error and the like: still only a message
            self.close()
            raise CameraError(f"{self.name} failed: {error}") from error
        if not ok:
            self.close()
            raise CameraError(f"{self.name} gave no picture")
        return as_bgr(frame, self.name)

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None and not self._deadline.stuck:
            try:
                self._call("closing the camera", capture.release)
            except CameraError:
                pass  # it is forgotten either way
