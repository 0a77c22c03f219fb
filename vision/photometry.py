"""Taking the light out: every stage compares images normalised the same way, so a warm lamp,
a dim room or a bright window changes what the camera recorded but not what is compared.

- :func:`balance` - the whole photo, once: per colour channel, a linear stretch that maps
  the photo's dark and bright ends (low / high percentiles inside any padding) to black and
  white. This undoes exposure and a colour cast together (a per-channel gain is exactly what
  a lamp's colour or a camera's fixed white balance does to raw values), before finding,
  outlines and naming. A "white patch" balance rather than a grey-world one: a table is often
  strongly coloured (wood), while almost every card has white or near-white parts.
- :func:`stretch` - one card's grey image, before its features are taken (references and
  rectified cards alike): the card's own range to full range, so ORB's corner threshold means
  the same on a dim card as on a bright one, and a lamp's falloff across the table (a
  different exposure for each card) is taken out card by card.
- :func:`standard_look` - one card's look, per channel: zero mean and unit spread, so looks
  are compared by their pattern of colour, not by their brightness or tint.
"""

from __future__ import annotations

import cv2
import numpy as np

import vision.tuning as tuning


def channel_range(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per channel, the low and high percentiles of ``image`` (uint8, BGR or grey), from a
    histogram of a sample of its pixels."""
    step = max(1, int(np.sqrt(image.shape[0] * image.shape[1] / tuning.BALANCE_SAMPLES)))
    channels = image.shape[2] if image.ndim == 3 else 1
    sample = np.ascontiguousarray(image[::step, ::step]).reshape(-1, channels)
    low_share, high_share = (p / 100.0 for p in tuning.BALANCE_PERCENTILES)
    low = np.zeros(channels, np.float32)
    high = np.zeros(channels, np.float32)
    for c in range(channels):
        cumulative = np.cumsum(np.bincount(sample[:, c], minlength=256))
        total = float(cumulative[-1])
        low[c] = float(np.searchsorted(cumulative, low_share * total, side="right"))
        high[c] = float(np.searchsorted(cumulative, high_share * total, side="left"))
    return low, high


def balance_tables(
    image: np.ndarray, box: tuple[int, int, int, int] | None = None
) -> np.ndarray | None:
    """Per-channel look-up tables (256 x 1 x 3 uint8) that stretch the photo inside ``box``
    (x0, y0, x1, y1) to full range; None when it is full range already (nothing to do)."""
    x0, y0, x1, y1 = box if box is not None else (0, 0, image.shape[1], image.shape[0])
    region = image[y0:y1, x0:x1]
    if region.size == 0 or region.ndim != 3:
        return None
    low, high = channel_range(region)
    span = np.maximum(high - low, tuning.BALANCE_MIN_SPAN)
    gain = np.minimum(255.0 / span, tuning.BALANCE_MAX_GAIN)
    if np.all(np.abs(gain - 1.0) < tuning.BALANCE_IGNORE) and np.all(low < 8):
        return None
    levels = np.arange(256, dtype=np.float32)[:, None]
    tables = np.clip((levels - low[None, :]) * gain[None, :] + 0.5, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(tables.reshape(256, 1, 3))


# How a colour photo is best put through its three tables (the same bytes either way), by the
# OpenCV in use. Each photo's balance, median inside identify over seed 2026's fan, cloth,
# clutter and small family photos, the two ways alternating photo by photo: OpenCV 5.1 splits,
# looks up and merges in 4.7 ms (its three-channel look-up 5.3); OpenCV 4.11 (the Pi's) the
# other way round, 7.2 ms split against 5.2 ms in one three-channel look-up.
_SPLIT_LOOK_UP_IS_FAST = int(cv2.__version__.split(".")[0]) >= 5


def balance(image: np.ndarray, tables: np.ndarray | None) -> np.ndarray:
    """``image`` through the tables of :func:`balance_tables` (unchanged when None).

    A colour photo goes through one table per channel: split and merged again, or in one
    three-channel look-up, whichever is faster on this OpenCV (:data:`_SPLIT_LOOK_UP_IS_FAST`;
    the same bytes)."""
    if tables is None:
        return image
    if image.ndim == 3 and image.shape[2] == tables.shape[-1] == 3 and _SPLIT_LOOK_UP_IS_FAST:
        channels = cv2.split(image)
        return cv2.merge([cv2.LUT(c, tables[:, :, i].copy()) for i, c in enumerate(channels)])
    return cv2.LUT(image, tables)


def stretch(gray: np.ndarray) -> np.ndarray:
    """A card's grey image with its own low / high percentiles stretched to black and white
    (gain capped, so a blank card does not become noise)."""
    low, high = channel_range(gray)
    span = max(float(high[0] - low[0]), tuning.BALANCE_MIN_SPAN)
    gain = min(255.0 / span, tuning.STRETCH_MAX_GAIN)
    if abs(gain - 1.0) < tuning.BALANCE_IGNORE and low[0] < 8:
        return gray
    return cv2.convertScaleAbs(gray, alpha=gain, beta=-float(low[0]) * gain)


def standard_look(looks: np.ndarray) -> np.ndarray:
    """Looks (K x H x W x 3, any dtype) with each channel of each look at zero mean and unit
    spread (float32).

    ``x.mean`` and ``x.std`` spelt out as numpy works them (the same sums, in the same order,
    divided the same way: the very bits), with the mean taken and subtracted once, not three
    times: 7 looks 0.89 -> 0.58 ms (default stack), 0.99 -> 0.65 ms (Pi's numpy 1.24); a
    gallery's 372 looks 46 -> 31 ms."""
    x = looks.astype(np.float32)
    count = x.shape[1] * x.shape[2]
    mean = np.add.reduce(x, axis=(1, 2), keepdims=True) / count
    centred = x - mean
    spread = np.sqrt(np.add.reduce(centred * centred, axis=(1, 2), keepdims=True) / count)
    return np.asarray(centred / (spread + tuning.LOOK_SPREAD_FLOOR), np.float32)
