"""The synthetic scene maker and the layout helpers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.layout import reading_order, reading_sequence, two_columns
from vision.synth import TABLE_KINDS, compose_scene, make_table, render_card_face


def test_card_faces_are_deterministic_distinct_and_feature_rich() -> None:
    a = render_card_face("Alpha", 0)
    assert a.shape == (468, 336, 3) and a.dtype == np.uint8
    assert np.array_equal(a, render_card_face("Alpha", 0))
    b = render_card_face("Bravo", 0)
    assert np.abs(a.astype(int) - b.astype(int)).mean() > 20
    reprint = render_card_face("Alpha", 1)
    assert np.abs(a.astype(int) - reprint.astype(int)).mean() > 20
    keypoints = cv2.ORB_create(500).detect(cv2.cvtColor(a, cv2.COLOR_BGR2GRAY), None)
    assert len(keypoints) > 300
    small = render_card_face("Alpha", 0, size=(168, 234))
    assert small.shape == (234, 168, 3)


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_tables(kind: str) -> None:
    table = make_table(160, 120, kind, np.random.default_rng(0))
    assert table.shape == (120, 160, 3) and table.dtype == np.uint8
    assert table.std() > 1.0
    with pytest.raises(ValueError):
        make_table(10, 10, "marble", np.random.default_rng(0))


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_scene_truth_marks_where_each_card_lies(difficulty: str) -> None:
    faces = [render_card_face(f"Card {i}", 0) for i in range(4)]
    scene = compose_scene(faces, np.random.default_rng(5), difficulty=difficulty, size=(800, 600))
    assert scene.image.shape == (600, 800, 3)
    assert sorted(c.index for c in scene.cards) == [0, 1, 2, 3]
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    for card in scene.cards:
        corners = card.corners
        assert corners.shape == (4, 2)
        # Warp the photographed card back upright: it must look like its face.
        dst = np.array([[0, 0], [84, 0], [84, 117], [0, 117]], np.float32)
        h = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
        back = cv2.warpPerspective(gray, h, (84, 117))
        face = cv2.resize(cv2.cvtColor(faces[card.index], cv2.COLOR_BGR2GRAY), (84, 117))
        others = [
            cv2.resize(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), (84, 117))
            for i, f in enumerate(faces)
            if i != card.index
        ]

        def corr(x: np.ndarray, y: np.ndarray) -> float:
            return float(np.corrcoef(x.ravel(), y.ravel())[0, 1])

        assert corr(back, face) > 0.5
        assert corr(back, face) > max(corr(back, o) for o in others)


def test_scene_layouts_give_known_order() -> None:
    faces = [render_card_face(f"Card {i}", 0) for i in range(6)]
    rows = compose_scene(faces, np.random.default_rng(1), layout="rows")
    assert [c.index for c in reading_sequence(rows.cards)] == list(range(6))
    cols = compose_scene(faces, np.random.default_rng(2), layout="columns", difficulty="medium")
    left, right = two_columns(cols.cards)
    assert [c.index for c in left] == [0, 1, 2]
    assert [c.index for c in right] == [3, 4, 5]


def test_layout_helpers_on_plain_points() -> None:
    points = [(210, 52), (10, 48), (110, 55), (15, 200), (120, 190)]
    assert reading_order(points) == [[(10, 48), (110, 55), (210, 52)], [(15, 200), (120, 190)]]
    left, right = two_columns([(400, 10), (12, 300), (10, 20), (405, 320), (398, 160)])
    assert left == [(10, 20), (12, 300)]
    assert right == [(400, 10), (398, 160), (405, 320)]
    assert two_columns([]) == ([], [])
    assert two_columns([(5, 5)]) == ([(5, 5)], [])
