"""The type scale is readable at the table: capitals of at least ~3.9 mm on a 7-inch 800x480
panel (154.2 mm wide) seen from 60 cm, for every size a player must read."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from display import ui

MM_PER_PIXEL = 154.2 / 800  # the 7-inch panel's width over its 800 pixels


@pytest.mark.parametrize("size", [ui.SMALL, ui.MEDIUM, ui.LARGE, ui.BIG, ui.HUGE])
def test_capitals_are_at_least_3_9_mm(size: int) -> None:
    capital = ui.font(size).render("H", True, (255, 255, 255)).get_bounding_rect()
    assert capital.height * MM_PER_PIXEL >= 3.9


def test_the_old_small_size_was_too_small() -> None:  # the measure itself tells sizes apart
    pygame.font.init()
    capital = ui.font(28).render("H", True, (255, 255, 255)).get_bounding_rect()
    assert capital.height * MM_PER_PIXEL < 3.0
