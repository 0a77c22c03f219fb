"""``[screen] rotate``: the canvas turned clockwise onto the panel, and touches on the panel taken
back to the canvas pixel under them, for each of the four turns; then the real app on Touch
Display 2 (720x1280 portrait) turned to landscape, tapped by a finger."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest

from display.actions import Action
from display.clock import FakeClock
from display.launch import RunOptions, build_app
from display.panel import Panel

RED = (255, 0, 0)
CANVAS = (800, 480)
POINT = (10, 20)  # a canvas pixel near the top-left corner


def red_pixels(surface: pygame.Surface) -> list[tuple[int, int]]:
    pixels = pygame.surfarray.array3d(surface)
    xs, ys = np.nonzero(np.all(pixels == RED, axis=2))
    return sorted(zip(xs.tolist(), ys.tolist(), strict=True))


def canvas_with_point(point: tuple[int, int] = POINT) -> pygame.Surface:
    canvas = pygame.Surface(CANVAS)
    canvas.set_at(point, RED)
    return canvas


@pytest.mark.parametrize(
    ("rotate", "panel_size", "where"),
    [
        (0, (800, 480), (10, 20)),
        (90, (480, 800), (459, 10)),  # the canvas's top edge runs down the panel's right side
        (180, (800, 480), (789, 459)),
        (270, (480, 800), (20, 789)),  # ...down its left side, read from the bottom
    ],
)
def test_a_point_shows_where_the_turn_puts_it_and_a_finger_there_finds_it(
    rotate: int, panel_size: tuple[int, int], where: tuple[int, int]
):
    panel = Panel(CANVAS, rotate)
    assert panel.turned == panel_size
    window = pygame.Surface(panel_size)
    panel.present(canvas_with_point(), window)
    assert red_pixels(window) == [where]
    x, y = where
    finger = ((x + 0.5) / panel_size[0], (y + 0.5) / panel_size[1])
    assert panel.finger_to_logical(*finger) == POINT
    assert panel.click_to_logical(where) == POINT
    # The corners of the window are the corners of the canvas, turned.
    corners = {panel.finger_to_logical(fx, fy) for fx in (0.0, 0.999) for fy in (0.0, 0.999)}
    assert corners == {(0, 0), (799, 0), (0, 479), (799, 479)}


def test_touch_display_2_turned_to_landscape_scales_the_canvas_to_fill_it():
    """720x1280 portrait, rotate = 90: the 853x480 canvas turned and scaled by 1.5."""
    panel = Panel((853, 480), 90, (720, 1280))
    canvas = pygame.Surface((853, 480))
    canvas.set_at((100, 50), RED)
    window = pygame.Surface((720, 1280))
    panel.present(canvas, window)
    shown = red_pixels(window)
    # Turned, the pixel is at (479 - 50, 100) = (429, 100); times 1.5: x 643.5..645, y 150..151.5.
    assert {x for x, _ in shown} <= {643, 644} and {y for _, y in shown} <= {150, 151}
    assert (644, 150) in shown
    for x, y in shown:
        assert panel.finger_to_logical((x + 0.5) / 720, (y + 0.5) / 1280) == (100, 50)


def test_a_window_of_another_shape_gets_bands_and_touches_in_them_go_to_the_edge():
    panel = Panel(CANVAS, 0, (800, 800))  # the picture fills 800x480 in the middle
    assert panel.fitted == pygame.Rect(0, 160, 800, 480)
    window = pygame.Surface((800, 800))
    window.fill((9, 9, 9))
    panel.present(canvas_with_point(), window)
    assert red_pixels(window) == [(10, 180)]
    assert window.get_at((400, 10))[:3] == (0, 0, 0)  # the band is black
    assert panel.click_to_logical((10, 180)) == POINT
    assert panel.click_to_logical((400, 10)) == (400, 0)


def test_only_right_angles_turn():
    with pytest.raises(ValueError, match="0, 90, 180 or 270"):
        Panel(CANVAS, 45)


# -- the app on a turned panel -------------------------------------------------------------------
pytestmark = pytest.mark.usefixtures("isolated_app")


def test_the_app_on_touch_display_2_turned_shows_the_header_on_the_right_and_takes_a_finger(
    tmp_path: Path,
):
    config = tmp_path / "tablekeeper.toml"
    config.write_text("[screen]\nwidth = 720\nheight = 1280\nrotate = 90\n", encoding="utf-8")
    options = RunOptions(simulated=True, state_dir=tmp_path / "state", config=config)
    app = build_app(options, FakeClock(), True)
    try:
        assert app.size == (853, 480)  # players see landscape
        assert app.panel.turned == (480, 853)  # the window SDL scales to the portrait panel
        window = pygame.Surface((720, 1280))  # the panel's own pixels
        app.attach_window(window)
        assert app.surface is not window  # drawn on the canvas, turned onto the window
        canvas = app.render()
        app.present()
        header = canvas.get_at((400, 10))  # the header bar, at the top of the canvas...
        assert window.get_at((round((480 - 10) * 1.5), round(400 * 1.5))) == header
        assert header != canvas.get_at((400, 240))  # ...(not the colour of the content)
        # A finger on the legend's OK key: canvas (x, y) is panel ((480 - y) * 1.5, x * 1.5).
        x, y = next(area for area, actions in app._legend_targets if actions == (Action.OK,)).center
        assert app.top.kind == "home"
        for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
            event = pygame.event.Event(
                kind, touch_id=1, finger_id=1, x=(480 - y) * 1.5 / 720, y=x * 1.5 / 1280, dx=0, dy=0
            )
            app.handle_pygame_event(event)
        assert app.top.kind == "comix"  # OK on home opens the highlighted game
    finally:
        app.close()


@pytest.mark.parametrize(
    ("rotate", "panel", "to_panel"),
    [
        (0, (800, 480), lambda x, y: (x, y)),
        (90, (480, 800), lambda x, y: (480 - y, x)),
        (180, (800, 480), lambda x, y: (800 - x, 480 - y)),
        (270, (480, 800), lambda x, y: (y, 800 - x)),
    ],
)
def test_a_finger_taps_the_legend_with_each_rotation(tmp_path: Path, rotate, panel, to_panel):
    """The 7-inch panel mounted each way round ([screen] width/height are its own pixels)."""
    config = tmp_path / "tablekeeper.toml"
    width, height = panel
    config.write_text(
        f"[screen]\nwidth = {width}\nheight = {height}\nrotate = {rotate}\n", encoding="utf-8"
    )
    options = RunOptions(simulated=True, state_dir=tmp_path / "state", config=config)
    app = build_app(options, FakeClock(), True)
    try:
        assert app.size == (800, 480)
        app.attach_window(pygame.Surface(panel))
        app.render()
        ok = next(area for area, actions in app._legend_targets if actions == (Action.OK,))
        panel_x, panel_y = to_panel(ok.centerx + 0.5, ok.centery + 0.5)
        for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
            event = pygame.event.Event(
                kind, touch_id=1, finger_id=1, x=panel_x / width, y=panel_y / height, dx=0, dy=0
            )
            app.handle_pygame_event(event)
        assert app.top.kind == "comix"
    finally:
        app.close()
