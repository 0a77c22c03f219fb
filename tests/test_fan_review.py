"""The photo review of a fanned hand, through the real Remix hand screen: each card is outlined
round the part of it that shows (its strip, up to the card lying over it), never along edges
that run under its neighbours, and its number sits on that part. The recogniser gives each
covered card its visible part (``visible``), which the reading keeps and saves."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pygame
import pytest
from flowkit import shots_dir, sim_app

from display import ui
from display.actions import Action
from display.cards.reading import ReadCard, Reading
from display.checks.scenes import enrol_directly
from display.widgets.photo_view import STATUS_COLOURS
from games.remix import default_catalogue
from vision.synth import render_card_face
from vision.synth_hands import compose_hand

NAMES = {card.id: card.name for card in default_catalogue()}
HAND = ["MR02", "MR06", "MR13", "MR30", "MR41", "MR63", "MR77"]
LIST_W = 300  # the review's list beside the photo (PhotoReviewScreen.draw)
TAG_W, TAG_H = 24, 22  # half a number tag's box on screen, with room (a "7" in ui.SMALL)


@pytest.fixture(scope="module")
def remix_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("remix-fan-review-state")
    enrol_directly(state, "remix", NAMES)
    return state


@pytest.fixture
def fan() -> Any:
    faces = [render_card_face(NAMES[i]) for i in HAND]
    return compose_hand(faces, np.random.default_rng(2), layout="fan", table="felt")


@pytest.fixture
def review(tmp_path: Path, remix_state: Path, fan: Any) -> Iterator[tuple[Any, Any]]:
    """The Remix hand screen after SHUTTER on the fan photo (read inline)."""
    from display.screens.remix.table import RemixHandScreen

    state = tmp_path / "state"
    shutil.copytree(remix_state, state)
    with sim_app(state) as app:
        app.camera.queue_image(fan.image)
        screen = RemixHandScreen(app, "Ann")
        app.push(screen)
        app.press(Action.SHUTTER)
        app.render()  # the reading lands; the next frame draws it
        yield app, screen


def _truth_shown(fan: Any, index: int, shape: tuple[int, int]) -> np.ndarray:
    """Where card ``index`` of the generated fan shows: its quad less the cards laid after it."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(fan.cards[index].corners).astype(np.int32)], 255)
    for later in fan.cards[index + 1 :]:
        cv2.fillPoly(mask, [np.round(later.corners).astype(np.int32)], 0)
    return mask


def _polygon_mask(points: list[list[float]], shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(points)).astype(np.int32)], 255)
    return mask


def _matching_card(card: ReadCard, fan: Any) -> int:
    """The generated card whose quad the read card's corners cover best."""
    centre = np.asarray(card.center, np.float32)
    distances = [float(np.linalg.norm(c.corners.mean(axis=0) - centre)) for c in fan.cards]
    return int(np.argmin(distances))


def test_every_covered_card_reads_with_the_part_that_shows(review: Any, fan: Any) -> None:
    _, screen = review
    reading: Reading = screen.reading
    assert sorted(c.name for c in reading.cards if c.name) == sorted(NAMES[i] for i in HAND)
    height, width = fan.image.shape[:2]
    covered = 0
    for card in reading.cards:
        index = _matching_card(card, fan)
        if index == len(fan.cards) - 1:
            assert card.visible == []  # the top card shows whole: its corners are its outline
            continue
        covered += 1
        truth = _truth_shown(fan, index, (height, width)) > 0
        read = _polygon_mask(card.visible, (height, width)) > 0
        overlap = float((truth & read).sum()) / float((truth | read).sum())
        assert overlap > 0.8, (card.name, overlap)
        # the number goes on the strip that shows, not on the card over it
        x, y = card.label_point
        assert truth[int(y), int(x)], card.name
    assert covered == len(HAND) - 1
    # the part that shows is kept with the reading (a restart redraws it)
    again = Reading.from_json(reading.to_json())
    assert [c.visible for c in again.cards] == [
        [[round(x, 1), round(y, 1)] for x, y in c.visible] for c in reading.cards
    ]


# The review draws the photo at (12, 8) of the content area under the header.
PHOTO_AT = np.array([12.0, 8.0 + ui.HEADER_H])


def _screen_points(points: np.ndarray, view: Any) -> np.ndarray:
    return np.asarray(points, np.float64) * view.scale + PHOTO_AT


def _along(quad: np.ndarray, step: float = 2.0) -> np.ndarray:
    """Points every ``step`` px along a closed polygon's edges."""
    out: list[np.ndarray] = []
    for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        count = max(2, int(np.linalg.norm(b - a) / step))
        out.extend(a + (b - a) * t for t in np.linspace(0, 1, count, endpoint=False))
    return np.asarray(out)


def _coloured_near(surface: pygame.Surface, x: float, y: float, colour: Any, reach: int) -> bool:
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            px, py = int(round(x)) + dx, int(round(y)) + dy
            if 0 <= px < surface.get_width() and 0 <= py < surface.get_height():
                if tuple(surface.get_at((px, py)))[:3] == tuple(colour):
                    return True
    return False


def test_the_review_outlines_only_what_shows(review: Any, tmp_path: Path) -> None:
    app, screen = review
    surface = app.render()
    shots = shots_dir(tmp_path, "fan-review")
    shots.mkdir(parents=True, exist_ok=True)
    app.screenshot(shots / "fan-review.png")
    width, height = surface.get_size()
    content_h = height - ui.HEADER_H - ui.LEGEND_H
    view = screen.pane.view(screen.photo, (width - LIST_W - 3 * 12, content_h - 16))
    assert view is not None
    cards: list[ReadCard] = screen.cards
    # Drawn outlines and number tags, on screen: what may carry a card's colour.
    allowed = np.zeros((height, width), np.uint8)
    for card in cards:
        outline = _screen_points(np.asarray(card.outline), view)
        cv2.polylines(allowed, [np.round(outline).astype(np.int32)], True, 255, 9)
        lx, ly = _screen_points(np.asarray([card.label_point]), view)[0]
        tag = ((int(lx) - TAG_W, int(ly) - TAG_H), (int(lx) + TAG_W, int(ly) + TAG_H))
        cv2.rectangle(allowed, tag[0], tag[1], 255, -1)
    drawn_missing = 0
    drawn_total = 0
    under = 0
    for card in cards:
        colour = STATUS_COLOURS[card.status]
        # every edge of the part that shows is drawn ...
        for x, y in _along(_screen_points(np.asarray(card.outline), view), 6.0):
            if allowed[int(y), int(x)] and not _near_label(card, cards, view, x, y):
                drawn_total += 1
                drawn_missing += not _coloured_near(surface, x, y, colour, 2)
        # ... and no edge of the whole card runs under the cards lying over it
        for x, y in _along(_screen_points(np.asarray(card.corners), view), 2.0):
            if allowed[int(y), int(x)]:
                continue
            under += 1
            assert not _coloured_near(surface, x, y, colour, 1), (card.name, x, y)
    assert drawn_total > 100 and drawn_missing <= 0.05 * drawn_total
    assert under > 60  # the whole cards' outlines would run there: the check means something


def _near_label(card: ReadCard, cards: list[ReadCard], view: Any, x: float, y: float) -> bool:
    """Is the screen point under a number tag (drawn over the outlines)?"""
    for other in cards:
        lx, ly = _screen_points(np.asarray([other.label_point]), view)[0]
        if abs(x - lx) < TAG_W and abs(y - ly) < TAG_H:
            return True
    return False
