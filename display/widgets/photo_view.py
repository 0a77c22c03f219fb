"""The photo with what the recogniser saw drawn over it: an outline and a number per card (the
screen lists the names beside the photo, by number, at a size a player reads). A card other
cards lie over (a fanned hand) is outlined round the part that shows, its number in the middle
of that part. Colour is never
the only signal: doubtful cards say "?" and unknown ones "??" beside their number, and the
selected card gets a thicker outline and a marker."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pygame

from display import ui
from display.cards.reading import DOUBTFUL, OK, UNKNOWN, ReadCard

STATUS_COLOURS = {OK: ui.GOOD, DOUBTFUL: ui.ACCENT, UNKNOWN: ui.BAD}


class PhotoView:
    """A photo scaled once to fit an area, with card outlines drawn on request. ``full_width``:
    the width of the photo the outlines were found in, when ``image`` is a smaller copy."""

    def __init__(
        self, image: np.ndarray, max_size: tuple[int, int], full_width: int | None = None
    ) -> None:
        self.surface = ui.image_surface(image, max_size)
        self.scale = self.surface.get_width() / (full_width or image.shape[1])

    def draw(
        self,
        target: pygame.Surface,
        topleft: tuple[int, int],
        cards: Sequence[ReadCard],
        selected: int | None = None,
    ) -> pygame.Rect:
        area = target.blit(self.surface, topleft)
        ox, oy = topleft
        for index, card in enumerate(cards):
            # A fanned card is outlined round the part that shows, not under its neighbours.
            points = [(ox + x * self.scale, oy + y * self.scale) for x, y in card.outline]
            if len(points) < 3:
                continue
            colour = STATUS_COLOURS[card.status]
            chosen = index == selected
            pygame.draw.polygon(target, colour, points, width=5 if chosen else 3)
            lx, ly = card.label_point
            cx, cy = ox + lx * self.scale, oy + ly * self.scale
            tag = {OK: "", DOUBTFUL: " ?", UNKNOWN: " ??"}[card.status]
            number = f"{'>' if chosen else ''}{index + 1}{tag}"
            self._label(target, number, (int(cx), int(cy)), ui.SMALL, colour, chosen)
        return area

    @staticmethod
    def _label(
        target: pygame.Surface,
        content: str,
        center: tuple[int, int],
        size: int,
        colour: tuple[int, int, int],
        chosen: bool,
    ) -> None:
        image = ui.font(size).render(content, True, ui.ACCENT_TEXT if chosen else ui.TEXT)
        box = image.get_rect(center=center).inflate(10, 4)
        pygame.draw.rect(target, colour if chosen else ui.BACKGROUND, box, border_radius=5)
        pygame.draw.rect(target, colour, box, width=2, border_radius=5)
        target.blit(image, image.get_rect(center=box.center))
