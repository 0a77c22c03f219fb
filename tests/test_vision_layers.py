"""Cards lying in layers (vision.layers): which card lies over which, the part of a card that
shows, a fan's card its features missed found again between its neighbours, and cards down a
column (a Mixtape's) never taken for a fan with gaps."""

from __future__ import annotations

import numpy as np
import pytest

import vision.tuning as tuning
from tests.galleries import generated_gallery
from vision import identify
from vision.features import photo_features
from vision.find import Votes, find_hypotheses
from vision.gallery import Gallery
from vision.geometry import CARD_H, CARD_W, quad_iou
from vision.layers import fill_fan_gaps, lies_over, shown_mask
from vision.name import region_memo
from vision.photo import Photo
from vision.result import Card
from vision.synth import render_card_face
from vision.synth_hands import compose_hand

NAMES = [f"Card {i:02d}" for i in range(16)]


@pytest.fixture(scope="module")
def gallery() -> Gallery:
    return generated_gallery(NAMES)


def box(x: float, y: float, w: float = 100.0, h: float = 140.0) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_the_card_on_top_is_the_one_the_shared_part_votes_for(gallery: Gallery) -> None:
    under, over = box(0, 0), box(50, 0)  # over covers under's right half
    shared = np.array([[60.0, 20.0], [70.0, 60.0], [90.0, 100.0], [80.0, 130.0]], np.float32)
    a, b = 0, 1
    votes = Votes(shared, np.array([b, b, b, a], np.int64))
    name_a, name_b = gallery.entries[a].name, gallery.entries[b].name
    assert lies_over(over, name_b, under, name_a, votes, gallery, 1.0)
    assert not lies_over(under, name_a, over, name_b, votes, gallery, 1.0)
    # too few votes tell nothing: neither lies over the other
    few = Votes(shared[:2], np.array([b, b], np.int64))
    assert not lies_over(over, name_b, under, name_a, few, gallery, 1.0)
    assert not lies_over(under, name_a, over, name_b, few, gallery, 1.0)


def test_the_part_that_shows_stops_short_of_the_card_over_it() -> None:
    mask = shown_mask(box(0, 0), [box(50, -10, 100, 160)])
    assert mask.shape == (CARD_H, CARD_W)
    left = mask[:, : CARD_W // 2 - tuning.LAYER_EDGE_PX - 2]
    right = mask[:, CARD_W // 2 :]
    assert left.all() and not right.any()
    assert shown_mask(box(0, 0), []).all()  # nothing over it: all of it shows


def test_a_card_the_fan_search_missed_is_found_between_its_neighbours(gallery: Gallery) -> None:
    hand = NAMES[3:9]
    scene = compose_hand(
        [render_card_face(n, 0) for n in hand], np.random.default_rng(5), layout="fan"
    )
    result = identify(scene.image, gallery)
    assert sorted(c.name for c in result.cards) == sorted(hand)
    middle = hand[2]
    without = [c for c in result.cards if c.name != middle]
    photo = Photo.of(scene.image)
    with region_memo():
        points, descriptors = photo_features(photo.gray, tuning.PHOTO_FEATURES)
        _, votes = find_hypotheses(points, descriptors, gallery, photo.work_size)
        cards, unknown = fill_fan_gaps(photo, gallery, votes, points, without, [], 0.5)
    (found,) = [c for c in cards if c not in without]
    assert found.name == middle and not unknown
    assert quad_iou(found.corners, scene.cards[2].corners) > 0.8


def test_cards_down_a_column_are_no_fan_with_gaps(gallery: Gallery) -> None:
    # Two columns of a tape, each card over the lower half of the one above; a card short in
    # each column. Nothing may be guessed: no step runs along the cards' left-to-right.
    column = [box(x, y) for x in (100.0, 400.0) for y in (100.0, 150.0, 250.0)]
    cards = [Card(NAMES[i], 1.0, quad, entry=i) for i, quad in enumerate(column)]
    photo = Photo.of(np.full((700, 700, 3), 90, np.uint8))
    votes = Votes(np.zeros((0, 2), np.float32), np.zeros(0, np.int64))
    # print's features all down the columns: a card guessed in a column's gap would be reported
    rng = np.random.default_rng(1)
    points = np.concatenate(
        [rng.uniform(quad[0], quad[2], size=(300, 2)) for quad in column]
    ).astype(np.float32)
    named, unknown = fill_fan_gaps(photo, gallery, votes, points, cards, [], 0.5)
    assert named == cards and unknown == []
