"""The hardware test takes its photo on the background worker: with a slow camera the screen
keeps drawing (and counting presses) while "Taking a photo…" shows, then the photo arrives; a
camera problem still ends as its message."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from device import simulated
from device.camera import FunctionCamera
from display.app import App
from display.clock import FakeClock
from display.launch import RunOptions, build_app
from display.screens.hardware_test import TAKING_PHOTO, HardwareTestScreen

pytestmark = pytest.mark.usefixtures("isolated_app")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    app = build_app(RunOptions(simulated=True, state_dir=tmp_path / "state"), FakeClock(), True)
    app.jobs_inline = False  # as in the appliance: jobs on the worker thread
    yield app
    app.close()


def press(app: App, name: str) -> None:
    simulated.press(app.hardware, name)
    app.update()
    simulated.release(app.hardware, name)
    app.update()


def frame(app: App) -> None:
    """One pass of the loop (the fake clock moves a frame on)."""
    assert isinstance(app.clock, FakeClock)
    app.clock.advance(1 / 30)
    app.update()
    app.render()


def test_a_slow_camera_does_not_stop_the_screen_and_the_photo_arrives(app: App):
    let_go = threading.Event()

    def slow_photo() -> np.ndarray:
        assert let_go.wait(10), "the test never let the camera finish"
        image = np.zeros((2592, 4608, 3), np.uint8)
        image[:, :, 2] = 200  # red, in BGR
        return image

    app.camera = FunctionCamera(slow_photo, "slow camera")
    screen = HardwareTestScreen(app)
    app.push(screen)
    press(app, "shutter")
    frames = app.frames
    for _ in range(30):  # the camera is still busy: the loop goes on
        frame(app)
    assert app.frames == frames + 30
    assert screen.photo_note == TAKING_PHOTO and screen.photo is None
    press(app, "seat_2")  # the other buttons can still be tested meanwhile
    assert screen.counts["SEAT_2"] == 1
    press(app, "shutter")  # a second SHUTTER while busy does not queue another photo
    assert screen.photo_note == TAKING_PHOTO
    let_go.set()
    deadline = time.monotonic() + 10
    while screen.photo_note == TAKING_PHOTO and time.monotonic() < deadline:
        frame(app)
        time.sleep(0.01)
    assert screen.photo_note == "Photo OK: 4608 x 2592 from slow camera"
    assert screen.photo_ok and screen.photo is not None
    width, height = screen.photo.get_size()
    assert width <= 264 and height <= 194 and max(width / 264, height / 194) > 0.95
    red, green, blue, _ = screen.photo.get_at((width // 2, height // 2))
    assert red > 190 and green < 10 and blue < 10  # the photo, not a placeholder
    assert app.store.load_stack()[-1]["snapshot"]["photo_ok"] is True  # saved once it landed


def test_a_camera_problem_still_ends_as_its_message(app: App):
    def broken() -> np.ndarray:
        raise OSError("cable unplugged")

    app.camera = FunctionCamera(broken, "test camera")
    screen = HardwareTestScreen(app)
    app.push(screen)
    press(app, "shutter")
    deadline = time.monotonic() + 10
    while screen.photo_note == TAKING_PHOTO and time.monotonic() < deadline:
        frame(app)
        time.sleep(0.01)
    assert "Camera problem" in screen.photo_note and "cable unplugged" in screen.photo_note
    assert screen.photo_ok is False
    app.render()
