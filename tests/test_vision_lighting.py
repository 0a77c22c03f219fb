"""Any light (issue 14, section 1): every lighting condition of the bench's benchmark set, on
real photos (the shared dataset) and on a generated scene, names every card and none wrongly.
The full table is `tablekeeper bench vision --real ../shared/datasets/real-cards --lighting`."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import Gallery, identify
from vision.detect import padding_box
from vision.gallery import name_from_filename
from vision.geometry import inside
from vision.lighting import BENCHMARK, Light
from vision.synth import compose_scene, render_card_face

NAMES = [f"Lit {i:02d}" for i in range(12)]
PHOTOS = ["IMG_5982.jpg", "IMG_5985.jpg"]  # 3 real cards, both named in every condition


@pytest.fixture(scope="module")
def generated_gallery() -> Gallery:
    g = Gallery()
    for name in NAMES:
        g.enroll(name, render_card_face(name, 0), source="generated")
    return g


@pytest.fixture(scope="module")
def lit_gallery(real_cards: Path) -> Gallery:
    """The photographed cards' scans among every fifth other scan of the shared gallery."""
    files = sorted((real_cards / "gallery").glob("*.jpg"))
    wanted = [f for f in files if "Hauntwoods" in name_from_filename(f)]
    wanted += [f for f in files if f not in wanted][::5]
    g = Gallery()
    g.enroll_files(wanted)
    return g


@pytest.mark.parametrize("light", BENCHMARK, ids=[light.name for light in BENCHMARK])
def test_every_light_names_a_generated_table(generated_gallery: Gallery, light: Light) -> None:
    names = NAMES[:5]
    faces = [render_card_face(n, 0) for n in names]
    scene = compose_scene(faces, np.random.default_rng(17), difficulty="medium", table="wood")
    result = identify(light.apply(scene.image, seed=17), generated_gallery)
    for truth in scene.cards:
        named = [c for c in result.cards if inside(truth.center, c.corners)]
        assert [c.name for c in named] == [names[truth.index]], light.name
    assert len(result.cards) == len(names)


@pytest.mark.parametrize("light", BENCHMARK, ids=[light.name for light in BENCHMARK])
def test_every_light_names_the_real_photos(
    real_cards: Path, lit_gallery: Gallery, light: Light
) -> None:
    with (real_cards / "labels.csv").open(encoding="utf-8") as handle:
        labels = list(csv.DictReader(handle))
    for number, photo in enumerate(PHOTOS):
        image = cv2.imread(str(real_cards / "photos" / photo))
        scale = 1640 / max(image.shape[:2])
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        lit = light.apply(image, seed=number, region=padding_box(image))
        result = identify(lit, lit_gallery)
        truth = Counter(r["card"] for r in labels if r["photo"] == photo)
        assert Counter(c.name for c in result.cards) == truth, (light.name, photo)


@pytest.mark.parametrize("split", [True, False])
def test_the_balance_maps_each_colour_channel_through_its_own_table(
    split: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A photo under a warm cast is stretched channel by channel: each channel's value goes
    through that channel's table (blue, green and red stretched differently), and a photo at
    full range already is left as it is. The same bytes whichever way this OpenCV is faster
    at (channels split, or one three-channel look-up)."""
    import vision.photometry as photometry
    from vision.photometry import balance, balance_tables

    monkeypatch.setattr(photometry, "_SPLIT_LOOK_UP_IS_FAST", split)

    scene = compose_scene([render_card_face("Card 001", 0)], np.random.default_rng(2)).image
    warm = Light("warm", tint=(0.6, 0.85, 1.15)).apply(scene)
    tables = balance_tables(warm)
    assert tables is not None and tables.shape == (256, 1, 3)
    assert not np.array_equal(tables[:, 0, 0], tables[:, 0, 2])
    out = balance(warm, tables)
    for c in range(3):
        assert np.array_equal(out[:, :, c], tables[warm[:, :, c], 0, c])
    full = np.tile(np.arange(256, dtype=np.uint8), (3, 1)).T.reshape(16, 16, 3)
    assert balance(full, balance_tables(full)) is full
