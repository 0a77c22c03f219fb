"""Shared drawing helpers: one look for every screen, readable from across the table.

Everything is laid out on a logical canvas 480 pixels tall (800x480 on the official 7" panel,
wider on 16:9 screens; SDL scales it to the real display). Sizes below are in those pixels.

Rules of thumb the helpers follow: large bold type (nothing under ``SMALL``), light text on a
near-black background, and colour never the only signal - the selected menu row has a bright
bar *and* a ``>`` marker; good/bad results say so in words too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pygame

from display.actions import Action

# -- sizes ------------------------------------------------------------------------------------
LOGICAL_HEIGHT = 480
HEADER_H = 52
LEGEND_H = 64
MARGIN = 24

# Type is sized for a player 60 cm from a 7-inch 800x480 panel (0.193 mm a pixel): nothing a
# player must read has capitals under ~3.9 mm (about 22 arcminutes). pygame's bundled font draws
# capitals of 21 px (4.05 mm) at SMALL = 42 and 24 px (4.6 mm) at MEDIUM = 48; at the old
# SMALL = 28 they were 15 px (2.9 mm). Cut words, not sizes. tests/test_ui.py measures them.
HUGE = 140  # the timer digits
BIG = 80
LARGE = 60
MEDIUM = 48
SMALL = 42  # the smallest type a player must read, on any screen

# -- colours (high contrast on near-black) ----------------------------------------------------
BACKGROUND = (12, 12, 16)
PANEL = (34, 36, 44)
TEXT = (245, 245, 245)
DIM = (170, 172, 180)
ACCENT = (255, 200, 40)  # selection, highlights
ACCENT_TEXT = (12, 12, 16)  # text on the accent colour
GOOD = (80, 210, 110)
BAD = (255, 90, 80)
INFO = (90, 180, 255)
HEADER = (28, 30, 38)
LEGEND = (28, 30, 38)
KEYCAP = (235, 235, 235)

_fonts: dict[int, pygame.font.Font] = {}


def font(size: int) -> pygame.font.Font:
    """The UI font (pygame's bundled bold sans, identical on every machine) at ``size`` px."""
    cached = _fonts.get(size)
    if cached is None:
        if not pygame.font.get_init():
            pygame.font.init()
        cached = pygame.font.Font(None, int(size * 1.0))
        _fonts[size] = cached
    return cached


def text(
    surface: pygame.Surface,
    content: str,
    pos: tuple[int, int],
    size: int = MEDIUM,
    color: tuple[int, int, int] = TEXT,
    anchor: str = "topleft",
    max_width: int | None = None,
) -> pygame.Rect:
    """Draw one line of text; ``anchor`` is a pygame.Rect attribute (center, midtop...).

    With ``max_width`` the text is shortened with "..." to fit. Returns the drawn rect.
    """
    face = font(size)
    if max_width is not None:
        content = fit(content, size, max_width)
    image = face.render(content, True, color)
    rect = image.get_rect(**{anchor: pos})
    surface.blit(image, rect)
    return rect


def text_width(content: str, size: int) -> int:
    return font(size).size(content)[0]


def fit(content: str, size: int, max_width: int) -> str:
    """``content`` shortened with "..." so it is at most ``max_width`` wide."""
    if text_width(content, size) <= max_width:
        return content
    while content and text_width(content + "...", size) > max_width:
        content = content[:-1]
    return content.rstrip() + "..."


def wrap(content: str, size: int, width: int) -> list[str]:
    """Break ``content`` into lines no wider than ``width`` (explicit newlines kept)."""
    lines: list[str] = []
    for paragraph in content.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = words[0]
        for word in words[1:]:
            candidate = f"{line} {word}"
            if text_width(candidate, size) <= width:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def paragraph(
    surface: pygame.Surface,
    content: str,
    rect: pygame.Rect,
    size: int = SMALL,
    color: tuple[int, int, int] = TEXT,
    align: str = "left",
) -> int:
    """Draw wrapped text inside ``rect`` (clipped at its bottom); returns the y after it."""
    line_h = font(size).get_linesize()
    y = rect.top
    for line in wrap(content, size, rect.width):
        if y + line_h > rect.bottom:
            break
        if align == "center":
            text(surface, line, (rect.centerx, y), size, color, anchor="midtop")
        else:
            text(surface, line, (rect.left, y), size, color)
        y += line_h
    return y


def panel(
    surface: pygame.Surface,
    rect: pygame.Rect,
    color: tuple[int, int, int] = PANEL,
    border: tuple[int, int, int] | None = None,
) -> None:
    pygame.draw.rect(surface, color, rect, border_radius=10)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width=3, border_radius=10)


@dataclass
class MenuItem:
    label: str
    note: str = ""  # right-aligned, dim ("coming", "3 players"...)
    enabled: bool = True


def menu(
    surface: pygame.Surface,
    items: Sequence[MenuItem],
    selected: int,
    rect: pygame.Rect,
    size: int = MEDIUM,
    row_gap: int = 8,
    highlight: bool = True,
    top_row: bool = False,
) -> list[pygame.Rect]:
    """A vertical list; the selected row is a bright bar with a ``>`` marker (``highlight``
    False: drawn like the others). Scrolls to keep the selection visible (``top_row``: as the
    first row shown). Returns the rect of each visible row (for taps; others get empty).
    A list longer than the area gets a scroll bar at its right edge instead of "more below"
    words, which would need a line of their own and collided with the line under the list."""
    row_h = font(size).get_linesize() + 16
    visible = max(1, (rect.height + row_gap) // (row_h + row_gap))
    first = min(max(0, selected - visible + 1), max(0, len(items) - visible))
    if top_row:
        first = min(selected, max(0, len(items) - visible))
    if len(items) > visible:
        scroll_bar(surface, rect, first, visible, len(items))
        rect = pygame.Rect(rect.left, rect.top, rect.width - SCROLL_BAR_W - 8, rect.height)
    rows: list[pygame.Rect] = [pygame.Rect(0, 0, 0, 0)] * len(items)
    for slot, index in enumerate(range(first, min(len(items), first + visible))):
        item = items[index]
        row = pygame.Rect(rect.left, rect.top + slot * (row_h + row_gap), rect.width, row_h)
        rows[index] = row
        chosen = highlight and index == selected
        if chosen:
            pygame.draw.rect(surface, ACCENT, row, border_radius=8)
        else:
            pygame.draw.rect(surface, PANEL, row, border_radius=8)
        fg = ACCENT_TEXT if chosen else (TEXT if item.enabled else DIM)
        marker = ">" if chosen else " "
        text(surface, marker, (row.left + 14, row.centery), size, fg, anchor="midleft")
        note_w = 0
        if item.note:
            note_size = SMALL
            note_rect = text(
                surface,
                item.note,
                (row.right - 16, row.centery),
                note_size,
                ACCENT_TEXT if chosen else DIM,
                anchor="midright",
            )
            note_w = note_rect.width + 24
        text(
            surface,
            item.label,
            (row.left + 46, row.centery),
            size,
            fg,
            anchor="midleft",
            max_width=row.width - 62 - note_w,
        )
    return rows


SCROLL_BAR_W = 12


def scroll_bar(
    surface: pygame.Surface, area: pygame.Rect, first: int, shown: int, total: int
) -> None:
    """A track down the right edge of ``area`` with a thumb as long as the shown share of the
    list, placed where the shown rows are: rows hidden above or below are seen at a glance."""
    track = pygame.Rect(area.right - SCROLL_BAR_W, area.top, SCROLL_BAR_W, area.height)
    pygame.draw.rect(surface, PANEL, track, border_radius=SCROLL_BAR_W // 2)
    thumb_h = max(SCROLL_BAR_W * 2, track.height * shown // max(1, total))
    travel = track.height - thumb_h
    hidden = max(1, total - shown)
    thumb = pygame.Rect(track.left, track.top + travel * first // hidden, SCROLL_BAR_W, thumb_h)
    pygame.draw.rect(surface, DIM, thumb, border_radius=SCROLL_BAR_W // 2)


def progress_bar(
    surface: pygame.Surface,
    rect: pygame.Rect,
    fraction: float,
    color: tuple[int, int, int] = ACCENT,
) -> None:
    pygame.draw.rect(surface, PANEL, rect, border_radius=6)
    filled = rect.copy()
    filled.width = int(rect.width * max(0.0, min(1.0, fraction)))
    if filled.width > 0:
        pygame.draw.rect(surface, color, filled, border_radius=6)
    pygame.draw.rect(surface, DIM, rect, width=2, border_radius=6)


def key_label(key: Action | tuple[Action, ...] | str) -> str:
    """The label of a legend key: "OK", "LEFT/RIGHT", "SEAT 1-5"..."""
    if isinstance(key, str):
        return key
    if isinstance(key, Action):
        return key.label
    if set(key) == {Action.LEFT, Action.RIGHT}:
        return "< >"  # the knob (or the two buttons): as the "< value >" the screens draw
    seats = [a.seat for a in key if a.seat is not None]
    if len(seats) == len(key) and len(seats) > 1 and seats == list(range(seats[0], seats[-1] + 1)):
        return f"SEAT {seats[0]}-{seats[-1]}"
    return "/".join(a.label for a in key)


def keycap(
    surface: pygame.Surface, label: str, pos: tuple[int, int], size: int = SMALL
) -> pygame.Rect:
    """A button name drawn as a light key cap (midleft at ``pos``); returns its rect."""
    face = font(size)
    image = face.render(label, True, ACCENT_TEXT)
    cap = image.get_rect()
    cap.inflate_ip(16, 8)
    cap.midleft = pos
    pygame.draw.rect(surface, KEYCAP, cap, border_radius=6)
    surface.blit(image, image.get_rect(center=cap.center))
    return cap


def legend_item_width(key: Action | tuple[Action, ...] | str, meaning: str) -> int:
    """The width one legend item takes: key cap, its meaning and the gap after it."""
    return text_width(key_label(key), SMALL) + 16 + 10 + text_width(meaning, SMALL) + LEGEND_GAP


LEGEND_GAP = 28  # between two legend items; a legend that needs it closes up to LEGEND_GAP_MIN
LEGEND_GAP_MIN = 12


def legend_width(items: Sequence[tuple[Action | tuple[Action, ...] | str, str]]) -> int:
    """The width :func:`legend_bar` needs to show every item (on one line)."""
    return 12 + sum(legend_item_width(key, meaning) for key, meaning in items)


def legend_bar(
    surface: pygame.Surface,
    items: Sequence[tuple[Action | tuple[Action, ...] | str, str]],
    rect: pygame.Rect,
    hints: dict[Action, str] | None = None,
) -> list[tuple[pygame.Rect, tuple[Action, ...]]]:
    """Draw "[OK] Start  [BACK] Home" along ``rect``; returns (rect, actions) tap targets.

    ``hints`` (simulated mode) adds the keyboard key under each button name, e.g. "Enter".
    Items that do not fit are dropped from the right (put the important ones first).
    """
    pygame.draw.rect(surface, LEGEND, rect)
    pygame.draw.line(surface, DIM, rect.topleft, rect.topright, 2)
    targets: list[tuple[pygame.Rect, tuple[Action, ...]]] = []
    x = rect.left + 12
    gap = LEGEND_GAP
    if legend_width(items) - LEGEND_GAP > rect.width - 12 and len(items) > 1:
        closer = (legend_width(items) - LEGEND_GAP - rect.width + 12) // (len(items) - 1) + 1
        gap = max(LEGEND_GAP_MIN, LEGEND_GAP - closer)
    cy = rect.centery - (7 if hints else 0)
    for key, meaning in items:
        label = key_label(key)
        cap_w = text_width(label, SMALL) + 16
        if x + legend_item_width(key, meaning) - LEGEND_GAP > rect.right - 12:  # 12 px margin
            break
        cap = keycap(surface, label, (x, cy))
        words = text(surface, meaning, (cap.right + 10, cy), SMALL, TEXT, anchor="midleft")
        actions: tuple[Action, ...] = ()
        if isinstance(key, Action):
            actions = (key,)
        elif isinstance(key, tuple):
            actions = key
        if hints and actions:
            hint = "/".join(hints[a] for a in actions if a in hints)
            if hint:
                hint_face = font(20)
                image = hint_face.render(fit(hint, 20, cap_w + 40), True, DIM)
                surface.blit(image, image.get_rect(midtop=(cap.centerx, cap.bottom + 2)))
        area = pygame.Rect(x, rect.top, words.right - x + 10, rect.height)
        targets.append((area, actions))
        x = words.right + gap
    return targets


def header_bar(
    surface: pygame.Surface, title: str, rect: pygame.Rect, right_width: int = 0
) -> None:
    """The title bar; ``right_width`` pixels on the right are left free (simulation panel)."""
    pygame.draw.rect(surface, HEADER, rect)
    pygame.draw.line(surface, DIM, rect.bottomleft, rect.bottomright, 2)
    text(
        surface,
        title,
        (rect.left + MARGIN, rect.centery),
        MEDIUM,
        TEXT,
        anchor="midleft",
        max_width=rect.width - 2 * MARGIN - right_width,
    )


def message_box(
    surface: pygame.Surface,
    heading: str,
    body: str,
    color: tuple[int, int, int] = BAD,
) -> None:
    """A framed message filling the content area (errors, notices)."""
    area = surface.get_rect().inflate(-2 * MARGIN, -2 * MARGIN)
    panel(surface, area, PANEL, border=color)
    inner = area.inflate(-2 * MARGIN, -2 * MARGIN)
    y = text(surface, heading, inner.topleft, LARGE, color, max_width=inner.width).bottom + 12
    paragraph(surface, body, pygame.Rect(inner.left, y, inner.width, inner.bottom - y), SMALL)


def image_surface(image: object, max_size: tuple[int, int]) -> pygame.Surface:
    """A BGR numpy image (as cameras and vision give) as a pygame surface fitting ``max_size``,
    aspect ratio kept."""
    array = np.asarray(image)
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    rgb = np.ascontiguousarray(array[:, :, 2::-1])  # BGR -> RGB
    height, width = rgb.shape[:2]
    surface = pygame.image.frombuffer(rgb.tobytes(), (width, height), "RGB")
    scale = min(max_size[0] / width, max_size[1] / height)
    size = (max(1, int(width * scale)), max(1, int(height * scale)))
    return pygame.transform.smoothscale(surface, size)
