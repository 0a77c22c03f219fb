"""Other light on the same table: exposure, colour casts, a dark room, a lamp's falloff.

Each :class:`Light` turns a photo (BGR uint8) into the photo the camera would have taken under
that light, for the lighting suite of ``tablekeeper bench vision --lighting`` and the tests:

- *exposure* x k multiplies pixel values (clipped at white), as the table in issue 14 was
  measured: in linear light that is k^2.2, a harsher test than a camera's exposure step;
- a *colour cast* is the light of a black body at ``kelvin`` seen by a camera whose white
  balance is fixed at 5000 K (no automatic white balance): per-channel gains from the
  Planckian locus (Kang et al. 2002) in linear sRGB, luminance kept;
- *noise*: sensor noise of a dark room at high gain (read noise plus shot noise, grey
  levels), after which the camera writes a JPEG again;
- *falloff*: one lamp above the table off to one side (inverse square and cosine law), the
  far corner at ``falloff`` of the brightest point.

Two sets of conditions: :data:`BENCHMARK` (issue 14's list, reported in the README) and
:data:`TUNING` (other temperatures, exposures, noise levels and lamp positions), so the
recogniser is tuned on lights the benchmark does not use and checked on the benchmark's.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import cv2
import numpy as np

CAMERA_KELVIN = 5000.0  # the fixed white balance of a camera without automatic balance
GAMMA = 2.2
_XYZ_TO_SRGB = np.array(
    [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]
)


def _planck_xy(kelvin: float) -> tuple[float, float]:
    """CIE 1931 chromaticity of a black body (Kang et al. 2002, 1667-25000 K)."""
    t = float(np.clip(kelvin, 1667.0, 25000.0))
    if t <= 4000:
        x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    else:
        x = -3.0258469e9 / t**3 + 2.1070379e6 / t**2 + 0.2226347e3 / t + 0.240390
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    elif t <= 4000:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    else:
        y = 3.0817580 * x**3 - 5.87338670 * x**2 + 3.75112997 * x - 0.37001483
    return x, y


def _linear_rgb(kelvin: float) -> np.ndarray:
    x, y = _planck_xy(kelvin)
    return np.asarray(_XYZ_TO_SRGB @ np.array([x / y, 1.0, (1.0 - x - y) / y]))


def cast_gains(kelvin: float) -> np.ndarray:
    """Per-channel gains on pixel values (B, G, R) of light at ``kelvin`` through a camera
    balanced for CAMERA_KELVIN, luminance kept."""
    gains = _linear_rgb(kelvin) / _linear_rgb(CAMERA_KELVIN)
    gains /= 0.2126 * gains[0] + 0.7152 * gains[1] + 0.0722 * gains[2]
    return np.asarray(gains[::-1] ** (1.0 / GAMMA), np.float32)  # RGB -> BGR, encoded


@dataclass(frozen=True)
class Light:
    """One lighting condition (see the module docstring for the model of each part)."""

    name: str
    exposure: float = 1.0
    kelvin: float | None = None
    tint: tuple[float, float, float] | None = None  # extra B, G, R gains (a fluorescent tube)
    noise: float = 0.0  # read noise sigma, grey levels (0: no noise, no JPEG again)
    falloff: float = 1.0  # the darkest corner's share of the brightest point
    lamp: tuple[float, float] = (-0.3, -0.2)  # lamp position, picture widths/heights

    def gains(self) -> np.ndarray:
        gains = np.full(3, self.exposure, np.float32)
        if self.kelvin is not None:
            gains *= cast_gains(self.kelvin)
        if self.tint is not None:
            gains *= np.asarray(self.tint, np.float32)
        return gains

    def apply(
        self, image: np.ndarray, seed: int = 0, region: tuple[int, int, int, int] | None = None
    ) -> np.ndarray:
        """``image`` (BGR uint8) under this light. ``region`` (x0, y0, x1, y1): light only
        that part (a phone photo padded onto a canvas: the padding was added after the shot);
        ``seed`` makes the sensor noise repeatable."""
        if region is not None:
            x0, y0, x1, y1 = region
            out = image.copy()
            out[y0:y1, x0:x1] = self.apply(image[y0:y1, x0:x1], seed)
            return out
        img = image.astype(np.float32) * self.gains()
        if self.falloff < 1.0:
            img *= self._falloff_map(image.shape[1], image.shape[0])[..., None]
        if self.noise > 0:
            rng = np.random.default_rng(zlib.crc32(f"{self.name}/{seed}".encode()))
            sigma = np.sqrt(self.noise**2 + 0.12 * np.clip(img, 0, 255))
            img += rng.standard_normal(img.shape).astype(np.float32) * sigma
        out = np.clip(img + 0.5, 0, 255).astype(np.uint8)
        if self.noise > 0:  # the camera writes its noisy frame as a JPEG
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 90])
            decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
            if decoded is not None:
                out = decoded
        return out

    def _falloff_map(self, width: int, height: int) -> np.ndarray:
        """Light of one lamp at ``lamp`` (in picture sizes) at a height that leaves the far
        corner at ``falloff`` of the brightest point: (h^2 / (h^2 + d^2))^1.5."""
        lx, ly = self.lamp[0] * width, self.lamp[1] * height
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        d2 = (xx - lx) ** 2 + (yy - ly) ** 2
        far2, near2 = float(d2.max()), float(d2.min())
        # Solve (h2 + near2) / (h2 + far2) = falloff^(2/3) for the lamp's height squared.
        k = self.falloff ** (2.0 / 3.0)
        h2 = max(1.0, (k * far2 - near2) / (1.0 - k))
        light = (h2 / (h2 + d2)) ** 1.5
        return np.asarray(light / light.max(), np.float32)


BENCHMARK: tuple[Light, ...] = (
    Light("exposure x0.35", exposure=0.35),
    Light("exposure x0.5", exposure=0.5),
    Light("exposure x0.7", exposure=0.7),
    Light("exposure x1.0", exposure=1.0),
    Light("exposure x1.3", exposure=1.3),
    Light("2700 K lamp", kelvin=2700),
    Light("4000 K daylight", kelvin=4000),
    Light("6500 K daylight", kelvin=6500),
    Light("dark room", exposure=0.4, noise=3.0),
    Light("uneven (lamp)", falloff=0.35),
    Light("issue's warm cast", tint=(0.6, 0.85, 1.15)),  # B x0.6, G x0.85, R x1.15 as measured
)

TUNING: tuple[Light, ...] = (
    Light("exposure x0.3", exposure=0.3),
    Light("exposure x0.42", exposure=0.42),
    Light("exposure x0.6", exposure=0.6),
    Light("exposure x0.85", exposure=0.85),
    Light("exposure x1.15", exposure=1.15),
    Light("exposure x1.5", exposure=1.5),
    Light("2200 K candle", kelvin=2200),
    Light("3200 K halogen", kelvin=3200),
    Light("8000 K shade", kelvin=8000),
    Light("fluorescent", tint=(1.0, 1.12, 0.9)),
    Light("warm and dim", exposure=0.6, kelvin=2900),
    Light("darker room", exposure=0.3, noise=5.0),
    Light("lamp at the side", falloff=0.45, lamp=(1.2, 0.5)),
    Light("warm lamp falloff", kelvin=3000, falloff=0.5, lamp=(0.5, -0.4)),
)
