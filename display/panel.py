"""Between the app's canvas and the panel: the ``[screen] rotate`` turn, and touches mapped back.

The app draws on its logical canvas (480 high, landscape as the players see it) whatever the
panel. Without a desktop SDL ignores the panel's own rotation setting (Touch Display 2 is a
720x1280 portrait panel), so the turn happens here: :meth:`Panel.present` turns the canvas
clockwise by ``rotate`` degrees and fits it into the window, and :meth:`Panel.to_logical` takes a
window position (a mouse click, a finger) back to the canvas pixel under it.

The window is opened at :attr:`Panel.turned` size with ``pygame.SCALED``, so SDL scales it to the
panel and normalises finger positions over it; the fit below only matters for a window of another
size (then bands are left on the sides, as SDL leaves them).

At start the panel SDL reports completes ``[screen]`` (:func:`fit_screen_to_panel`): "auto" size
follows the panel, and a portrait panel with rotate "auto" is turned to landscape; a scale that is
not a whole number is filtered linearly (:func:`scale_quality`).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pygame

from device.config import RIGHT_ANGLES, ScreenConfig


class Panel:
    """A canvas of ``logical`` size shown turned clockwise by ``rotate`` degrees in a window of
    ``size`` pixels (default: the turned canvas, one window pixel per canvas pixel)."""

    def __init__(
        self, logical: tuple[int, int], rotate: int = 0, size: tuple[int, int] | None = None
    ) -> None:
        if rotate not in RIGHT_ANGLES:
            raise ValueError(f"rotate must be 0, 90, 180 or 270, not {rotate!r}")
        self.logical = logical
        self.rotate = rotate
        width, height = logical
        self.turned = (height, width) if rotate in (90, 270) else (width, height)
        self.size = size if size is not None else self.turned
        scale = min(self.size[0] / self.turned[0], self.size[1] / self.turned[1])
        fitted_w, fitted_h = (round(side * scale) for side in self.turned)
        self.fitted = pygame.Rect(
            (self.size[0] - fitted_w) // 2, (self.size[1] - fitted_h) // 2, fitted_w, fitted_h
        )
        # Per axis, as the picture is scaled to whole pixels (853 x 1.5 = 1279.5 -> 1280).
        self.scale_x = fitted_w / self.turned[0]
        self.scale_y = fitted_h / self.turned[1]

    @property
    def direct(self) -> bool:
        """True when the window shows the canvas as it is: the app may draw on the window."""
        return self.rotate == 0 and self.size == self.logical

    # -- drawing ------------------------------------------------------------------------------
    def present(self, canvas: pygame.Surface, window: pygame.Surface) -> None:
        """Show ``canvas`` on ``window``: turned clockwise, scaled to fit, centred."""
        turned = pygame.transform.rotate(canvas, -self.rotate) if self.rotate else canvas
        if self.fitted.size != self.size:
            window.fill((0, 0, 0))  # the bands beside the picture
        if self.fitted.size != turned.get_size():
            turned = pygame.transform.scale(turned, self.fitted.size)
        window.blit(turned, self.fitted.topleft)

    # -- positions ----------------------------------------------------------------------------
    def to_window(self, x: float, y: float) -> tuple[float, float]:
        """Where the canvas point (x, y) shows on the window (continuous coordinates: a pixel
        (x, y) covers x..x+1, y..y+1, so pass x + 0.5 for its centre)."""
        width, height = self.logical
        turned_x, turned_y = {
            0: (x, y),
            90: (height - y, x),
            180: (width - x, height - y),
            270: (y, width - x),
        }[self.rotate]
        return (
            self.fitted.left + turned_x * self.scale_x,
            self.fitted.top + turned_y * self.scale_y,
        )

    def to_logical(self, window_x: float, window_y: float) -> tuple[int, int]:
        """The canvas pixel shown at a window position; a position in the bands beside the
        picture goes to the nearest edge pixel."""
        width, height = self.logical
        turned_x = (window_x - self.fitted.left) / self.scale_x
        turned_y = (window_y - self.fitted.top) / self.scale_y
        x, y = {
            0: (turned_x, turned_y),
            90: (turned_y, height - turned_x),
            180: (width - turned_x, height - turned_y),
            270: (width - turned_y, turned_x),
        }[self.rotate]
        return (
            min(max(math.floor(x), 0), width - 1),
            min(max(math.floor(y), 0), height - 1),
        )

    def click_to_logical(self, pos: tuple[int, int]) -> tuple[int, int]:
        """The canvas pixel under a mouse click at window pixel ``pos``."""
        return self.to_logical(pos[0] + 0.5, pos[1] + 0.5)

    def finger_to_logical(self, x: float, y: float) -> tuple[int, int]:
        """The canvas pixel under a finger at SDL's normalised position (0..1 over the window)."""
        return self.to_logical(x * self.size[0], y * self.size[1])


# -- the panel found at start ---------------------------------------------------------------------
#: The turn a portrait panel gets when ``[screen] rotate`` is "auto" (Touch Display 2 is 720x1280
#: portrait; set 270 in the config if it is mounted the other way round).
PORTRAIT_TURN = 90


def fit_screen_to_panel(
    screen: ScreenConfig, panel: tuple[int, int] | None
) -> tuple[ScreenConfig, list[str]]:
    """``screen`` completed by the panel SDL reports at start (its desktop mode, the panel's own
    pixels): "auto" width/height become the panel's, and with rotate "auto" a portrait panel is
    turned to landscape. Returns it with one line per change, for the start-up log."""
    if panel is None:
        return screen, []
    notes = []
    if screen.auto_size:
        screen = replace(screen, width=panel[0], height=panel[1])
        notes.append(f"panel {panel[0]}x{panel[1]} (its own pixels, as the display reports them)")
    if screen.auto_rotate and screen.height > screen.width:
        screen = replace(screen, rotate=PORTRAIT_TURN)
        notes.append(
            f"a portrait panel: turned to landscape (rotate {PORTRAIT_TURN}; set [screen] "
            "rotate = 270 if the picture is upside down)"
        )
    return screen, notes


def scale_quality(turned: tuple[int, int], panel: tuple[int, int]) -> str:
    """SDL's scaling filter for a ``turned`` canvas shown full screen on ``panel``: "nearest"
    for a whole-number scale (sharp), "linear" for any other. The 480-high canvas on Touch
    Display 2 is scaled 1.5x: nearest-neighbour doubles every other row and column, so strokes
    of the same font come out one or two pixels wide; linear filtering keeps them even."""
    scale = min(panel[0] / turned[0], panel[1] / turned[1])
    return "nearest" if abs(scale - round(scale)) < 0.01 else "linear"
