"""One-off focus calibration: the lens position that gives the sharpest table.

The camera sits at a fixed height over the table, so the right focus never changes: find it once
(cards on the table, ``tablekeeper focus``), put the reported ``lens_position`` under
``[camera]``, and every photo is taken at once with the lens already there - no autofocus cycle
(0.3-1.5 s) before each one.

The search sweeps the lens over its whole range, then twice more around the sharpest position
with finer steps. Sharpness is the variance of the Laplacian of the picture's middle, the usual
contrast-detection focus measure (it grows with fine detail: card text and edges).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from device.frames import CameraError


class FocusableCamera(Protocol):
    """What calibration needs; :class:`~device.picamera.Picamera2Camera` provides it."""

    @property
    def name(self) -> str: ...

    def lens_range(self) -> tuple[float, float] | None: ...

    def focus_at(self, position: float) -> float: ...

    def capture(self) -> np.ndarray: ...


def sharpness(image: np.ndarray) -> float:
    """Variance of the 4-neighbour Laplacian over the middle half of a grey version of ``image``
    (every second pixel: enough for a focus measure, four times faster on a Pi)."""
    grey = image.astype(np.float32)
    if grey.ndim == 3:
        grey = grey.mean(axis=2)
    height, width = grey.shape
    middle = grey[height // 4 : height - height // 4 : 2, width // 4 : width - width // 4 : 2]
    if middle.shape[0] < 3 or middle.shape[1] < 3:
        return 0.0
    laplacian = (
        4 * middle[1:-1, 1:-1]
        - middle[:-2, 1:-1]
        - middle[2:, 1:-1]
        - middle[1:-1, :-2]
        - middle[1:-1, 2:]
    )
    return float(laplacian.var())


@dataclass(frozen=True)
class FocusReport:
    """The sharpest lens position found, and every position tried."""

    best: float  # dioptres (1 / metres)
    samples: tuple[tuple[float, float], ...]  # (lens position, sharpness), in the order tried
    lens_range: tuple[float, float]
    seconds: float

    @property
    def distance_cm(self) -> float | None:
        """The distance in focus at :attr:`best` (None at infinity)."""
        return 100.0 / self.best if self.best > 0 else None

    @property
    def config_line(self) -> str:
        return f"lens_position = {self.best:.2f}"

    def sentence(self) -> str:
        distance = self.distance_cm
        where = f"about {distance:.0f} cm away" if distance is not None else "far away"
        return (
            f"Sharpest at lens position {self.best:.2f} (in focus {where}), from "
            f"{len(self.samples)} photos in {self.seconds:.1f} s. Put `{self.config_line}` "
            "under [camera] in the config and restart."
        )


#: The sharpest photo must be this much sharper than the blurriest, or nothing was in view.
MIN_CONTRAST = 1.3


def calibrate_focus(
    camera: FocusableCamera,
    coarse_steps: int = 13,
    fine_steps: int = 7,
    clock: Callable[[], float] = time.monotonic,
) -> FocusReport:
    """Sweep the lens and return the sharpest position; CameraError for a fixed-focus module
    or when no position is clearly sharper (nothing with detail under the camera)."""
    started = clock()
    limits = camera.lens_range()
    if limits is None:
        raise CameraError(
            f"{camera.name} has no focus motor (fixed focus): there is nothing to calibrate"
        )
    low, high = limits
    samples: dict[float, float] = {}

    def measure(positions: np.ndarray) -> None:
        for position in positions:
            key = round(float(position), 3)
            if key not in samples:
                camera.focus_at(key)
                samples[key] = sharpness(camera.capture())

    step = (high - low) / max(1, coarse_steps - 1)
    measure(np.linspace(low, high, coarse_steps))
    for _ in range(2):  # finer, around the sharpest so far
        best = max(samples, key=samples.__getitem__)
        around = np.linspace(max(low, best - step), min(high, best + step), fine_steps)
        measure(around)
        step = 2 * step / max(1, fine_steps - 1)
    values = list(samples.values())
    if max(values) < MIN_CONTRAST * max(min(values), 1e-6):
        raise CameraError(
            "every lens position gives an equally blurred picture: put a few cards under the "
            "camera (text and edges to focus on) and try again"
        )
    best = max(samples, key=samples.__getitem__)
    return FocusReport(
        best=best,
        samples=tuple(samples.items()),
        lens_range=(low, high),
        seconds=clock() - started,
    )
