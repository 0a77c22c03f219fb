"""The Raspberry Pi camera through picamera2, with a deadline on every call.

picamera2 comes from apt (``python3-picamera2``, a venv made with ``--system-site-packages``) and
is imported at the first photo, never at start-up (1-3 s on a Pi 4). Anything that goes wrong -
the import (picamera2 missing, or built on another numpy), no camera on the cable, a driver that
stops answering - is a :class:`CameraError` with a sentence, never a crash and never a hang:
each call to the camera runs under a :class:`Deadline` of ``timeout`` seconds.

Focus: the camera sits at a fixed height, so the lens is set once when the camera starts - a
fixed ``lens_position`` (dioptres, found once with :func:`device.focus.calibrate_focus`), else
continuous autofocus where the module has it. No autofocus cycle runs before a photo.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from device.deadline import Deadline, Stalled
from device.frames import CameraError, CameraStalled, as_bgr

# libcamera's AfMode control values (control_ids_core.yaml): Manual, Auto, Continuous.
AF_MANUAL = 0
AF_CONTINUOUS = 2
#: How many frames to wait for the lens to reach a new position before photographing anyway.
LENS_SETTLE_FRAMES = 8
LENS_TOLERANCE = 0.05  # dioptres


def import_picamera2() -> Any:
    """A new ``picamera2.Picamera2()``; every failure is a CameraError saying what to do."""
    try:
        from picamera2 import Picamera2  # local: 1-3 s on a Pi 4, paid at the first photo
    except ImportError as error:
        raise CameraError(
            "picamera2 is not installed (apt install python3-picamera2, and a venv made "
            "with --system-site-packages)"
        ) from error
    except Exception as error:  # e.g. "numpy.dtype size changed": apt's build, the venv's numpy
        raise CameraError(
            f"picamera2 does not load ({type(error).__name__}: {error}); on Bookworm the venv "
            "needs numpy<2 (systemd/install.sh pins it; `tablekeeper doctor` checks it)"
        ) from error
    try:
        return Picamera2()
    except Exception as error:  # IndexError/RuntimeError: no camera connected, or one in use
        raise CameraError(f"no Pi camera found: {error}") from error


class Picamera2Camera:
    """Stills at ``width`` x ``height`` in RGB888 (B,G,R byte order, as OpenCV wants)."""

    def __init__(
        self,
        width: int,
        height: int,
        autofocus: bool = True,
        *,
        lens_position: float | None = None,
        timeout: float = 5.0,
        open_backend: Callable[[], Any] = import_picamera2,
        settle_seconds: float = 0.5,
    ) -> None:
        self.size = (width, height)
        self.autofocus = autofocus
        self.lens_position = lens_position
        self.timeout = timeout
        self.name = "Pi camera"
        self._open_backend = open_backend
        self._settle_seconds = settle_seconds
        self._camera: Any = None
        self._left_open: list[Any] = []  # cameras that could not be closed while a call was stuck
        self._deadline = Deadline("the Pi camera")
        self.has_autofocus = False
        self.lens_limits: tuple[float, float] | None = None

    # -- calls under the deadline ---------------------------------------------------------------
    def _call(self, what: str, work: Callable[[], Any], seconds: float | None = None) -> Any:
        try:
            return self._deadline.call(work, seconds or self.timeout, what)
        except Stalled as error:
            raise CameraStalled(f"{error}; check the camera's ribbon cable") from None

    def _open(self) -> Any:
        # Opening includes importing picamera2 (1-3 s on a Pi 4): it gets three times as long.
        camera = self._call("opening the camera", self._open_backend, 3 * self.timeout)
        try:
            self._call("configuring the camera", lambda: self._configure(camera))
            self._call("starting the camera", camera.start)
        except CameraError:
            self._abandon(camera)
            raise
        except Exception as error:
            self._abandon(camera)
            raise CameraError(f"the Pi camera would not start: {error}") from error
        time.sleep(self._settle_seconds)  # the first frames are dark while exposure settles
        return camera

    def _configure(self, camera: Any) -> None:
        config = camera.create_still_configuration(main={"size": self.size, "format": "RGB888"})
        camera.configure(config)
        controls = camera.camera_controls
        self.has_autofocus = "AfMode" in controls
        limits = controls.get("LensPosition")
        self.lens_limits = (float(limits[0]), float(limits[1])) if limits else None
        focus = self._focus_controls()
        if focus:
            camera.set_controls(focus)

    def _focus_controls(self) -> dict[str, Any]:
        """Set once at start: the fixed lens position, else continuous autofocus, else nothing
        (a fixed-focus module such as the v2)."""
        if not self.has_autofocus:
            return {}
        if self.lens_position is not None:
            return {"AfMode": AF_MANUAL, "LensPosition": self._clamped(self.lens_position)}
        if self.autofocus:
            return {"AfMode": AF_CONTINUOUS}
        return {}

    def _clamped(self, position: float) -> float:
        if self.lens_limits is None:
            return position
        return max(self.lens_limits[0], min(self.lens_limits[1], position))

    def _ensure_open(self) -> Any:
        if self._camera is None:
            while self._left_open and not self._deadline.stuck:
                self._abandon(self._left_open.pop())  # else libcamera says "in use"
            self._camera = self._open()
        return self._camera

    # -- the Camera protocol --------------------------------------------------------------------
    def capture(self) -> np.ndarray:
        camera = self._ensure_open()
        try:
            # RGB888 arrays are laid out B,G,R: exactly OpenCV's order, so no conversion.
            frame = self._call("taking a picture", lambda: camera.capture_array("main"))
        except CameraError:
            self.close()
            raise
        except Exception as error:
            self.close()
            raise CameraError(f"the Pi camera failed to take a picture: {error}") from error
        return as_bgr(frame, self.name)

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            self._abandon(camera)

    # -- focus (for the one-off calibration) ----------------------------------------------------
    def lens_range(self) -> tuple[float, float] | None:
        """(nearest, farthest) lens positions in dioptres; None for a fixed-focus module."""
        self._ensure_open()
        return self.lens_limits if self.has_autofocus else None

    def focus_at(self, position: float) -> float:
        """Move the lens to ``position`` (manual focus) and wait until the frames show it;
        returns the position the camera reports."""
        camera = self._ensure_open()
        target = self._clamped(position)
        self._call(
            "moving the lens",
            lambda: camera.set_controls({"AfMode": AF_MANUAL, "LensPosition": target}),
        )
        reached = target
        for _ in range(LENS_SETTLE_FRAMES):
            metadata = self._call("reading the lens position", camera.capture_metadata)
            reached = float(metadata.get("LensPosition", target))
            if abs(reached - target) <= LENS_TOLERANCE:
                break
        return reached

    # -- closing --------------------------------------------------------------------------------
    def _abandon(self, camera: Any) -> None:
        """Stop and close ``camera`` if it answers; while a call is stuck in the driver, keep it
        to close before the next open (closing now would only queue behind the stuck call)."""
        if self._deadline.stuck:
            self._left_open.append(camera)
            return

        def stop_and_close() -> None:
            try:
                camera.stop()
            finally:
                camera.close()

        try:
            self._call("closing the camera", stop_and_close)
        except Exception:  # closing is best effort; the camera is forgotten either way
            pass
