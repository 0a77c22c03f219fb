"""The hardware test: every button lights up and beeps when pressed, the LED bar sweeps, the
status LED blinks, SHUTTER takes one photo and shows it. Hold BACK to leave (BACK itself is a
button under test).

The photo is taken on the app's background worker, as in the games: a camera takes 2-4 s on a
Pi, and meanwhile the screen keeps drawing, the beep stops on time and the other buttons can
still be tested.
"""

from __future__ import annotations

import math
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from display import ui
from display.actions import SEAT_ACTIONS, Action
from display.screen import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App

SWEEP_SECONDS = 2.0  # one LED-bar fill from empty to full
NAV_ACTIONS = (Action.LEFT, Action.RIGHT, Action.OK, Action.BACK, Action.SHUTTER)
# A different tone per button so a player can hear which one the device saw.
TONES = {action: 440.0 * 2 ** (i / 12) for i, action in enumerate([*SEAT_ACTIONS, *NAV_ACTIONS])}
LIT_SECONDS = 0.6  # a pressed box stays lit this long after a quick press
PHOTO_BOX = (264, 194)  # the shown photo fits this
TAKING_PHOTO = "Taking a photo…"


def snap(app: App) -> tuple[np.ndarray | None, tuple[int, int], str | None]:
    """On the worker: (a thumbnail small enough to show at once, the photo's size, None), or
    (None, (0, 0), the camera's problem)."""
    image, error = app.capture()
    if image is None:
        return None, (0, 0), error
    height, width = image.shape[:2]
    # Every n-th pixel, so the UI thread scales a thumbnail, not a 12-megapixel photo.
    step = max(1, math.floor(min(width / PHOTO_BOX[0], height / PHOTO_BOX[1])))
    return np.ascontiguousarray(image[::step, ::step]), (width, height), None


@register_screen
class HardwareTestScreen(Screen):
    kind = "hardware_test"
    title = "Hardware test"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.counts: dict[str, int] = {}
        self.last_press: dict[str, float] = {}
        self.photo: pygame.Surface | None = None
        self.photo_note = "Press SHUTTER to take a photo"
        self.photo_ok: bool | None = None
        self.started = app.clock.now()
        self._photo_job: Future[Any] | None = None

    def seats(self) -> tuple[Action, ...]:
        return SEAT_ACTIONS[: self.app.config.seat_count]

    def on_show(self) -> None:
        self.app.hardware.blink_status(1.0)

    def on_hide(self) -> None:
        self.app.hardware.outputs_off()

    def handle(self, action: Action) -> None:
        self.counts[action.value] = self.counts.get(action.value, 0) + 1
        self.last_press[action.value] = self.app.clock.now()
        self.app.hardware.beep(TONES[action], 0.12)
        if action is Action.SHUTTER:
            self.take_photo()

    def take_photo(self) -> None:
        if self._photo_job is not None:
            return  # one photo at a time; the note already says it is being taken
        self.photo_note, self.photo_ok = TAKING_PHOTO, None
        app = self.app
        self._photo_job = app.run_job(lambda: snap(app))
        if self._photo_job.done():  # scripts and tests: taken inline
            self._photo_taken()

    def _photo_taken(self) -> None:
        assert self._photo_job is not None
        thumbnail, (width, height), error = self._photo_job.result()
        self._photo_job = None
        if thumbnail is None:
            self.photo = None
            self.photo_ok = False
            self.photo_note = f"Camera problem: {error}"
            return
        self.photo = ui.image_surface(thumbnail, PHOTO_BOX)
        self.photo_ok = True
        self.photo_note = f"Photo OK: {width} x {height} from {self.app.camera.name}"

    def update(self, now: float) -> None:
        phase = ((now - self.started) % SWEEP_SECONDS) / SWEEP_SECONDS
        self.app.hardware.set_bar(phase)
        if self._photo_job is not None and self._photo_job.done():
            self._photo_taken()
            self.app.save()

    def _lit(self, action: Action) -> bool:
        if self.app.hardware.is_pressed(action.value.lower()):
            return True
        pressed_at = self.last_press.get(action.value)
        return pressed_at is not None and self.app.clock.now() - pressed_at < LIT_SECONDS

    def _button_box(self, surface: pygame.Surface, action: Action, rect: pygame.Rect) -> None:
        lit = self._lit(action)
        count = self.counts.get(action.value, 0)
        ui.panel(surface, rect, ui.ACCENT if lit else ui.PANEL, border=ui.TEXT if lit else ui.DIM)
        fg = ui.ACCENT_TEXT if lit else ui.TEXT
        label = action.label if action.seat is None else f"SEAT {action.seat}"
        ui.text(surface, label, (rect.centerx, rect.top + 8), 20, fg, "midtop", rect.width - 4)
        ui.text(surface, f"x{count}", (rect.centerx, rect.bottom - 6), ui.MEDIUM, fg, "midbottom")

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        photo_w = 280
        left_w = width - photo_w - 3 * ui.MARGIN
        x0, y0 = ui.MARGIN, 16
        box_w = (left_w - 4 * 8) // 5
        box_h = 78
        for row, actions in enumerate((self.seats(), NAV_ACTIONS)):
            for col, action in enumerate(actions):
                rect = pygame.Rect(x0 + col * (box_w + 8), y0 + row * (box_h + 12), box_w, box_h)
                self._button_box(surface, action, rect)
        y = y0 + 2 * (box_h + 12) + 6
        hardware = self.app.hardware
        lines = [
            f"LED bar: sweeping, now {round(hardware.bar_value * 100)}%",
            "Status LED: blinking" if hardware.status is not None else "Status LED: not wired",
            "Buzzer: a tone on every press" + (" (muted in Settings)" if hardware.muted else ""),
        ]
        if hardware.encoder is not None:
            lines.append(f"Encoder: {hardware.encoder.steps:+d} steps")
        for line in lines:
            ui.text(surface, line, (x0, y), 26, ui.TEXT, max_width=left_w)
            y += 30
        frame = pygame.Rect(width - photo_w - ui.MARGIN, y0, photo_w, 210)
        ui.panel(surface, frame, ui.PANEL, border=ui.DIM)
        if self.photo is not None:
            surface.blit(self.photo, self.photo.get_rect(center=frame.center))
        elif self._photo_job is not None:
            for line, dy in (("Taking", -28), ("a photo…", 28)):
                ui.text(
                    surface, line, (frame.centerx, frame.centery + dy), ui.MEDIUM, ui.INFO, "center"
                )
        else:
            ui.text(surface, "SHUTTER", frame.center, ui.LARGE, ui.DIM, anchor="center")
        note_color = ui.TEXT if self.photo_ok is None else (ui.GOOD if self.photo_ok else ui.BAD)
        ui.paragraph(
            surface,
            self.photo_note,
            pygame.Rect(frame.left, frame.bottom + 8, photo_w, height - frame.bottom - 8),
            24,
            note_color,
        )

    def legend(self) -> list[LegendItem]:
        return [("Any button", "Beep"), (Action.SHUTTER, "Photo"), ("Hold BACK", "Exit")]

    def snapshot(self) -> dict[str, Any]:
        return {
            "counts": dict(self.counts),
            "photo_note": self.photo_note,
            "photo_ok": self.photo_ok,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.counts = {str(k): int(v) for k, v in data.get("counts", {}).items()}
        if data.get("photo_ok"):
            screen.photo_note = "Press SHUTTER to take a photo (the last one is not kept)"
        return screen
