"""What the app draws around every screen besides the header and legend bars (``display/ui.py``):
the simulation panel and the toasts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from display import ui

if TYPE_CHECKING:
    from device.hardware import Hardware


def sim_panel(surface: pygame.Surface, hardware: Hardware, panel_w: int) -> None:
    """Mirror of the LED bar, status LED, seat button LEDs (if fitted) and buzzer at the
    header's right end (simulated mode only)."""
    width = surface.get_width()
    area = pygame.Rect(width - panel_w, 4, panel_w - 6, ui.HEADER_H - 8)
    pygame.draw.rect(surface, ui.BACKGROUND, area, border_radius=6)
    pygame.draw.rect(surface, ui.DIM, area, width=1, border_radius=6)
    x = area.left + 8
    levels = hardware.bar_levels
    if levels:
        seg_w = max(6, min(14, (150 - 2 * len(levels)) // len(levels)))
        for level in levels:
            cell = pygame.Rect(x, area.top + 8, seg_w, area.height - 16)
            glow = int(60 + 195 * level)
            pygame.draw.rect(surface, (glow, int(glow * 0.78), 30) if level > 0 else ui.PANEL, cell)
            pygame.draw.rect(surface, ui.DIM, cell, width=1)
            x += seg_w + 2
    x += 10
    status = hardware.status_value
    pygame.draw.circle(surface, ui.GOOD if status > 0 else ui.PANEL, (x + 10, area.centery), 9)
    pygame.draw.circle(surface, ui.DIM, (x + 10, area.centery), 9, width=1)
    x += 26
    seats = hardware.seat_leds  # LEDs in the seat buttons, when the config has them
    for lit in seats:
        pygame.draw.circle(surface, ui.ACCENT if lit else ui.PANEL, (x + 5, area.centery), 5)
        pygame.draw.circle(surface, ui.DIM, (x + 5, area.centery), 5, width=1)
        x += 12
    if seats:
        x += 6
    if hardware.buzzing:
        tone = hardware.tone_hz
        label = f"BZ {tone:.0f}" if tone else "BZ on"
        ui.text(surface, label, (x, area.centery), 22, ui.ACCENT, anchor="midleft")
    else:
        ui.text(surface, "BZ -", (x, area.centery), 22, ui.DIM, anchor="midleft")


def toast(surface: pygame.Surface, content: str) -> None:
    """A short message in place of the legend bar for its few seconds, so that it never covers
    what the screen shows (two lines at most; the keys come back when it goes)."""
    width, height = surface.get_size()
    box = pygame.Rect(0, height - ui.LEGEND_H, width, ui.LEGEND_H)
    lines = ui.wrap(content, ui.SMALL, width - 32)
    if len(lines) > 2:
        lines = [lines[0], ui.fit(" ".join(lines[1:]), ui.SMALL, width - 32)]
    line_h = ui.font(ui.SMALL).get_linesize()
    pygame.draw.rect(surface, ui.HEADER, box)
    pygame.draw.rect(surface, ui.INFO, (box.left, box.top, box.width, 3))
    top = box.centery - line_h * len(lines) // 2 + 1
    for i, line in enumerate(lines):
        ui.text(surface, line, (box.centerx, top + i * line_h), ui.SMALL, anchor="midtop")


def banner(surface: pygame.Surface, content: str) -> pygame.Rect:
    """A lasting warning over the top of the screen (the state is not being saved): it stays
    while the trouble lasts, over the header, and leaves the legend's keys visible."""
    width, _height = surface.get_size()
    lines = ui.wrap(content, ui.SMALL, width - 32)
    if len(lines) > 2:
        lines = [lines[0], ui.fit(" ".join(lines[1:]), ui.SMALL, width - 32)]
    line_h = ui.font(ui.SMALL).get_linesize()
    box = pygame.Rect(0, 0, width, max(ui.HEADER_H, line_h * len(lines) + 12))
    pygame.draw.rect(surface, ui.HEADER, box)
    pygame.draw.rect(surface, ui.BAD, (box.left, box.bottom - 4, box.width, 4))
    for i, line in enumerate(lines):
        ui.text(surface, line, (box.centerx, box.top + 4 + i * line_h), ui.SMALL, ui.BAD, "midtop")
    return box
