"""The hourglass the Co-Mix sand timer draws: the sand shown by *area*, so what is seen is
the time left (sand drawn by height would show its square)."""

from __future__ import annotations

import math

import pygame

from display import ui


def sand_depths(fraction: float, bulb: float, half: float, neck: float) -> tuple[float, float]:
    """How deep the sand stands in each bulb so that its *area* is right: ``(top, pile)``.

    A bulb is a trapezoid ``bulb`` high, ``2 * half`` wide at its open end and ``2 * neck`` at
    the neck. ``top`` is the depth of the sand above the neck in the upper bulb (its area is
    ``fraction`` of a bulb's), ``pile`` the height of the pile in the lower bulb (the rest).
    Sand drawn by height instead would show the square of the time left: at 0:41 of 1:30 a
    top bulb filled to 46 % of its height holds only a quarter of its area.
    """
    fraction = max(0.0, min(1.0, fraction))
    slope = (half - neck) / bulb  # how much the half-width grows per pixel away from the neck
    full = bulb * (half + neck) / 2  # half a bulb's area (half-widths throughout)
    if slope <= 0:  # a straight tube: area is proportional to height
        return bulb * fraction, bulb * (1 - fraction)
    # upper bulb: neck * d + slope * d^2 / 2 = fraction * full
    top = (math.sqrt(neck * neck + 2 * slope * fraction * full) - neck) / slope
    # lower bulb, from its wide bottom: half * p - slope * p^2 / 2 = (1 - fraction) * full
    under = max(0.0, half * half - 2 * slope * (1 - fraction) * full)
    pile = (half - math.sqrt(under)) / slope
    return min(bulb, top), min(bulb, pile)


def draw_hourglass(
    surface: pygame.Surface, rect: pygame.Rect, fraction: float, colour: tuple[int, int, int]
) -> None:
    """An hourglass whose top bulb holds ``fraction`` of the sand and bottom bulb the rest,
    by area (:func:`sand_depths`), so the sand seen is the time left."""
    cx, top, bottom, mid = rect.centerx, rect.top, rect.bottom, rect.centery
    half = rect.width // 2
    neck = 6
    upper = [(cx - half, top), (cx + half, top), (cx + neck, mid), (cx - neck, mid)]
    lower = [(cx - neck, mid), (cx + neck, mid), (cx + half, bottom), (cx - half, bottom)]
    fraction = max(0.0, min(1.0, fraction))
    bulb = mid - top
    slope = (half - neck) / bulb
    depth, pile = sand_depths(fraction, bulb, half, neck)
    # top bulb: the sand sits on the neck, its surface ``depth`` above it
    if depth > 0:
        width_at = neck + slope * depth
        sand_top = [
            (cx - width_at, mid - depth),
            (cx + width_at, mid - depth),
            (cx + neck, mid),
            (cx - neck, mid),
        ]
        pygame.draw.polygon(surface, colour, sand_top)
    # bottom bulb: a pile growing from the bottom
    if pile > 0:
        surface_y = bottom - pile
        width_at = half - slope * pile
        sand_bottom = [
            (cx - width_at, surface_y),
            (cx + width_at, surface_y),
            (cx + half, bottom),
            (cx - half, bottom),
        ]
        pygame.draw.polygon(surface, colour, sand_bottom)
        if 0 < fraction < 1:
            pygame.draw.line(surface, colour, (cx, mid), (cx, surface_y), 3)
    pygame.draw.polygon(surface, ui.TEXT, upper, width=3)
    pygame.draw.polygon(surface, ui.TEXT, lower, width=3)
    # the frame's end plates sit just outside the bulbs, so they hide no sand
    pygame.draw.rect(surface, ui.TEXT, (cx - half - 8, top - 6, 2 * half + 16, 6))
    pygame.draw.rect(surface, ui.TEXT, (cx - half - 8, bottom, 2 * half + 16, 6))
