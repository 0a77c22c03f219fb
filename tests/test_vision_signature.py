"""A card's whole-card signature (vision.features.global_descriptor): its shrink to the
signature's size averages the same areas as OpenCV's INTER_AREA, in two cheaper passes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.features as features
import vision.tuning as tuning
from vision.geometry import CARD_H, CARD_W


def _card(seed: int = 7) -> np.ndarray:
    """A card-sized picture with detail at every scale (noise blurred a little)."""
    rng = np.random.default_rng(seed)
    noise = rng.integers(0, 256, (CARD_H, CARD_W, 3), np.uint8)
    return cv2.GaussianBlur(noise, (0, 0), 1.2)


def test_area_shrink_matches_inter_area_within_a_grey_level() -> None:
    card = _card()
    ours = features.area_shrink(card, tuning.SIGNATURE_SIZE)
    opencv = cv2.resize(card, tuning.SIGNATURE_SIZE, interpolation=cv2.INTER_AREA)
    assert ours.shape == opencv.shape and ours.dtype == np.uint8
    difference = np.abs(ours.astype(np.int16) - opencv)
    assert int(difference.max()) <= 1
    assert float((difference > 0).mean()) < 0.01


def test_signature_shrinks_columns_first_by_the_whole_number_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """336 columns to 24 is 14 to one: averaged first (OpenCV's fast path), then the rows."""
    asked: list[tuple[int, int]] = []
    resize = cv2.resize

    def recording(image: np.ndarray, size: tuple[int, int], *args, **kwargs) -> np.ndarray:
        asked.append((size[0], size[1]))
        return resize(image, size, *args, **kwargs)

    monkeypatch.setattr(features.cv2, "resize", recording)
    features.global_descriptor(_card())
    width, height = tuning.SIGNATURE_SIZE
    assert asked[:2] == [(width, CARD_H), (width, height)]


def test_area_shrink_falls_back_when_the_width_does_not_divide() -> None:
    card = _card()[:, :335]
    ours = features.area_shrink(card, tuning.SIGNATURE_SIZE)
    assert np.array_equal(
        ours, cv2.resize(card, tuning.SIGNATURE_SIZE, interpolation=cv2.INTER_AREA)
    )
