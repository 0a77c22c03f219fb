"""Errors a table can see, and the panel found at start.

- A bad value in a forgiving part of the config is replaced by its default and shown on the
  screen at start (and in the log); a [pins] mistake still stops the start.
- After CAMERA_STALLS_BEFORE_RESTART stalled camera calls in a row the appliance says so over
  every screen, notes why, and ends its loop with a failure status (systemd starts it again); the
  next start says why it restarted.
- Touch Display 2 with the default config: the 720x1280 portrait panel SDL reports comes up
  landscape, its logical size follows, a finger lands where it is; 1.5x is filtered linearly.
- Rotation the kernel or firmware applies too is found in the boot files.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pygame
import pytest

from device.bootrotation import boot_rotations, rotation_warning
from device.camera import CameraStalled, FunctionCamera
from device.config import ConfigError, load_config, parse_config
from display.actions import Action
from display.app import CAMERA_STALLS_BEFORE_RESTART, EXIT_CAMERA_STALLED, RESTART_NOTICE_SECONDS
from display.clock import FakeClock
from display.launch import RunOptions, build_app
from display.panel import fit_screen_to_panel, scale_quality

pytestmark = pytest.mark.usefixtures("isolated_app")


# -- a bad config value ---------------------------------------------------------------------------
BAD_CONFIG = """\
# my table
[seats]
count = 4

[buttons]
hold_time = 1.5

[screen]
fps = 30

# the panel is mounted sideways
rotate = 45
"""


def test_a_bad_screen_value_is_shown_on_the_screen_and_the_default_used(tmp_path: Path, capsys):
    config = tmp_path / "config.toml"
    config.write_text(BAD_CONFIG)
    options = RunOptions(simulated=True, state_dir=tmp_path / "state", config=config)
    app = build_app(options, FakeClock())
    try:
        expected = (
            f"{config} line 12: screen.rotate: expected 0, 90, 180 or 270 (degrees clockwise) "
            'or "auto", got 45 — using "auto"'
        )
        assert app.config.problems == (expected,)
        assert app.config.seat_count == 4  # the rest of the file is read as written
        assert app.config.screen.rotate == 0 and app.config.screen.auto_rotate
        assert app.top.kind == "message"
        assert app.top.heading == "Check the config file" and app.top.body == expected
        assert expected in capsys.readouterr().err  # and in the journal
        app.render()
        app.press(Action.OK)  # read, closed
        assert app.top.kind == "home"
    finally:
        app.close()


def test_forgiving_reading_leaves_out_unknown_keys_but_never_forgives_pins(tmp_path: Path):
    config = _write(tmp_path / "config.toml", '[camera]\nbackend = "webcam"\nzoom = 2\n')
    unknown, backend = load_config(config, lenient=True).problems
    assert "line 3: camera.zoom: unknown key" in unknown and unknown.endswith("— ignored")
    assert backend.endswith(
        "line 2: camera.backend: expected one of auto, picamera2, opencv, folder, none, got "
        "'webcam' — using \"auto\""
    )
    with pytest.raises(ConfigError, match="line 3: camera.zoom: unknown key"):
        load_config(config)  # `tablekeeper config FILE` and doctor stay strict
    # [pins] mistakes could drive a pin wired to something else; a file that is not TOML says
    # nothing reliable at all: both still stop the start.
    for text in ("[pins]\nback = 5\n", "[pins]\nseat1 = 5\n", "not toml ["):
        with pytest.raises(ConfigError):
            load_config(_write(tmp_path / "pins.toml", text), lenient=True)


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_a_scripted_run_stays_strict(tmp_path: Path):
    from display.launch import LaunchError

    config = _write(tmp_path / "config.toml", "[screen]\nrotate = 45\n")
    options = RunOptions(simulated=True, state_dir=tmp_path / "state", config=config)
    with pytest.raises(LaunchError, match="screen.rotate"):
        build_app(options, FakeClock(), strict=True)


# -- a camera that stalls -------------------------------------------------------------------------
def test_camera_stalls_in_a_row_end_the_process_and_the_next_start_says_why(tmp_path: Path):
    calls: list[int] = []

    def stalled() -> np.ndarray:
        calls.append(1)
        raise CameraStalled("the Pi camera did not answer within 5 s (taking a photo)")

    state = tmp_path / "state"
    clock = FakeClock()
    app = build_app(RunOptions(simulated=True, state_dir=state), clock)
    app.camera = FunctionCamera(stalled)
    try:
        home = pygame.surfarray.array3d(app.render()).copy()
        for _ in range(CAMERA_STALLS_BEFORE_RESTART - 1):
            image, problem = app.capture()
            assert image is None and "did not answer" in (problem or "")
        app.update()
        assert app.running and app.restart_reason is None  # not yet: it may come back
        app.capture()
        assert app.restart_reason is not None
        assert f"stalled {CAMERA_STALLS_BEFORE_RESTART} times in a row" in app.restart_reason
        app.update()  # the UI thread notes it and starts the countdown
        assert (state / "last-crash.json").is_file()
        notice = pygame.surfarray.array3d(app.render())
        changed = np.any(notice != home, axis=2).mean()
        assert changed > 0.3  # the notice covers the screen, whatever screen was showing
        assert app.running
        clock.advance(RESTART_NOTICE_SECONDS / 2)
        app.update()
        assert app.running  # the table is told for a few seconds...
        clock.advance(RESTART_NOTICE_SECONDS)
        app.update()
        assert not app.running and app.exit_code == EXIT_CAMERA_STALLED  # ...then it exits
    finally:
        app.close()
    again = build_app(RunOptions(simulated=True, state_dir=state), FakeClock())
    try:
        assert again.top.kind == "message" and again.top.heading == "Restarted"
        assert (
            "Last error: CameraStalled: the camera stalled 3 times in a row (the Pi camera "
            "did not answer within 5 s (taking a photo)), so the appliance restarted to free "
            "it." in again.top.body
        )
    finally:
        again.close()


def test_a_photo_between_stalls_starts_the_count_again(tmp_path: Path):
    answers = iter(["stall", "stall", "photo", "stall", "stall"])

    def camera() -> np.ndarray:
        if next(answers) == "stall":
            raise CameraStalled("stuck")
        return np.zeros((40, 60, 3), np.uint8)

    app = build_app(RunOptions(simulated=True, state_dir=tmp_path / "state"), FakeClock())
    app.camera = FunctionCamera(camera)
    try:
        for _ in range(5):
            app.capture()
        assert app.camera_stalls == 2 and app.restart_reason is None
    finally:
        app.close()


# -- Touch Display 2 out of the box ---------------------------------------------------------------
def test_touch_display_2_with_the_default_config_comes_up_landscape_with_touches_mapped(
    tmp_path: Path,
):
    """No [screen] settings at all; SDL reports the 720x1280 portrait panel."""
    options = RunOptions(simulated=True, state_dir=tmp_path / "state", panel_size=(720, 1280))
    app = build_app(options, FakeClock(), True)
    try:
        screen = app.config.screen
        assert (screen.width, screen.height, screen.rotate) == (720, 1280, 90)
        assert app.size == (853, 480)  # landscape for the players, 480 high
        assert app.panel.turned == (480, 853)  # what SCALED stretches over the portrait panel
        window = pygame.Surface(app.panel.turned)
        app.attach_window(window)
        canvas = app.render()
        app.present()
        header = canvas.get_at((400, 10))
        assert window.get_at((480 - 10, 400)) == header  # the header runs down the right side
        ok = next(area for area, actions in app._legend_targets if actions == (Action.OK,))
        x, y = ok.center
        for kind in (pygame.FINGERDOWN, pygame.FINGERUP):  # SDL: normalised over the window
            event = pygame.event.Event(
                kind,
                touch_id=1,
                finger_id=1,
                x=(480 - y - 0.5) / 480,
                y=(x + 0.5) / 853,
                dx=0,
                dy=0,
            )
            app.handle_pygame_event(event)
        assert app.top.kind == "comix"  # OK on home opens the highlighted game
    finally:
        app.close()


def test_what_the_panel_decides_and_what_the_config_keeps():
    auto = parse_config("").screen
    assert fit_screen_to_panel(auto, None) == (auto, [])  # a window: the 800x480 fallback
    landscape, notes = fit_screen_to_panel(auto, (800, 480))
    assert (landscape.width, landscape.height, landscape.rotate) == (800, 480, 0) and notes
    mounted = parse_config("[screen]\nrotate = 270\n").screen
    turned, _ = fit_screen_to_panel(mounted, (720, 1280))
    assert turned.rotate == 270  # the owner's turn is kept
    fixed = parse_config("[screen]\nwidth = 800\nheight = 480\nrotate = 0\n").screen
    assert fit_screen_to_panel(fixed, (720, 1280))[0] == fixed  # set by hand: left alone


@pytest.mark.parametrize(
    ("turned", "panel", "quality"),
    [
        ((480, 853), (720, 1280), "linear"),  # Touch Display 2: 1.5x
        ((800, 480), (800, 480), "nearest"),  # the 7-inch panel: 1x
        ((853, 480), (1920, 1080), "linear"),  # HDMI 1080p: 2.25x
        ((640, 480), (1280, 960), "nearest"),  # 2x
    ],
)
def test_a_scale_that_is_not_whole_is_filtered_linearly(turned, panel, quality):
    assert scale_quality(turned, panel) == quality


# -- the kernel's or firmware's own rotation ------------------------------------------------------
def test_boot_rotations_are_found_with_their_file_and_line(tmp_path: Path):
    cmdline = _write(
        tmp_path / "cmdline",
        "console=tty1 root=PARTUUID=1 video=DSI-1:720x1280@60,rotate=270 quiet\n",
    )
    config_txt = _write(
        tmp_path / "config.txt",
        "dtoverlay=vc4-kms-v3d\n# dtoverlay=vc4-kms-dsi-ili9881-7inch,invx\n"
        "dtoverlay=vc4-kms-dsi-ili9881-7inch,invx,invy\nlcd_rotate=2\ndisplay_lcd_rotate=0\n"
        "dtoverlay=vc4-kms-dsi-7inch,rotation=0\n",
    )
    found = boot_rotations(cmdline, [tmp_path / "missing.txt", config_txt])
    assert found == [
        f"{cmdline}: video=DSI-1:720x1280@60,rotate=270",
        f"{config_txt} line 3: dtoverlay=vc4-kms-dsi-ili9881-7inch,invx,invy",
        f"{config_txt} line 4: lcd_rotate=2",
    ]
    warning = rotation_warning(found)
    assert warning is not None and "turned twice" in warning and "\n" not in warning
    assert boot_rotations(_write(tmp_path / "plain", "console=tty1 quiet\n"), []) == []
    assert rotation_warning([]) is None


# -- a config that cannot be used at all, on the real panel ---------------------------------------
def test_a_pins_mistake_on_the_real_panel_is_shown_there(tmp_path: Path, monkeypatch, capsys):
    from display import launch
    from display.cli import main

    config = _write(tmp_path / "config.toml", "[pins]\nback = 5\n")
    shown: list[tuple[str, Path]] = []

    def show(message: str, path: Path) -> int:
        shown.append((message, path))
        return 1

    monkeypatch.setattr(launch, "show_until_config_changes", show)
    monkeypatch.setattr(launch, "boot_rotations", lambda: [])
    monkeypatch.setattr("display.cli.COMMAND_MODULES", ["display.commands.app"])
    code = main(["run", "--config", str(config), "--state-dir", str(tmp_path / "state")])
    assert code == 1  # systemd starts it again once the file is fixed
    ((message, path),) = shown
    assert path == config and "line 2: pins.back: pin 5 is already used by pins.seat_1" in message


def test_the_config_mistake_screen_waits_for_the_file_to_change(tmp_path: Path):
    import threading

    from display.launch import show_until_config_changes

    config = _write(tmp_path / "config.toml", "[pins]\nback = 5\n")

    def fix_it() -> None:
        config.write_text("[pins]\nback = 16\n")
        future = config.stat().st_mtime + 5  # a coarse file-system clock still sees a change
        os.utime(config, (future, future))

    timer = threading.Timer(0.3, fix_it)
    timer.start()
    started = time.monotonic()
    try:
        assert show_until_config_changes("pins.back: ...", config, 0.05, max_seconds=10) == 1
    finally:
        timer.cancel()
    assert 0.3 <= time.monotonic() - started < 5  # until the edit, not the 10 s limit
    assert "back = 16" in config.read_text()
