"""The shell: mock-pin presses and keys reach screens, holds, taps, the LED bar following a
timer on the injected clock, persistence across restarts, and failures shown, not crashed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest
from gpiozero import Device

from device import simulated
from device.camera import FunctionCamera
from display import ui
from display.actions import Action
from display.app import SIM_PANEL_W, App
from display.clock import FakeClock
from display.launch import LaunchError, RunOptions, build_app
from display.screen import LegendItem, Screen, register_screen
from display.store import Store
from display.widgets.keyboard import KeyboardScreen


@register_screen
class TimerScreen(Screen):
    """A 90-second sand timer, as a game screen would write one (test only)."""

    kind = "test_timer"
    title = "Timer"
    LENGTH = 90.0

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.remaining = self.LENGTH
        self.running = False
        self.last: float | None = None
        self.actions: list[str] = []

    def handle(self, action: Action) -> None:
        self.actions.append(action.value)
        if action is Action.OK:
            self.running = not self.running
        elif action is Action.BACK:
            self.app.pop()

    def update(self, now: float) -> None:
        if self.running and self.last is not None:
            self.remaining = max(0.0, self.remaining - (now - self.last))
        self.last = now
        self.app.hardware.set_bar(self.remaining / self.LENGTH)

    def draw(self, surface: pygame.Surface) -> None:
        ui.text(
            surface, f"{self.remaining:.0f}", surface.get_rect().center, ui.HUGE, anchor="center"
        )

    def legend(self) -> list[LegendItem]:
        return [(Action.OK, "Start/stop"), (Action.BACK, "Back")]

    def snapshot(self) -> dict[str, Any]:
        return {"remaining": self.remaining, "running": self.running, "actions": self.actions}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.remaining = data["remaining"]
        screen.running = data["running"]
        screen.actions = data["actions"]
        return screen


@register_screen
class BrokenScreen(Screen):
    kind = "test_broken"

    def handle(self, action: Action) -> None:
        raise ValueError("a bug in a game screen")


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.reset()


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


def start(state: Path, clock: FakeClock | None = None, strict: bool = True, **kw: Any) -> App:
    return build_app(
        RunOptions(simulated=True, state_dir=state, **kw), clock or FakeClock(), strict
    )


def press(app: App, name: str) -> None:
    simulated.press(app.hardware, name)
    app.update()
    simulated.release(app.hardware, name)
    app.update()


def test_starts_on_home_with_the_games_listed(state: Path):
    app = start(state)
    try:
        assert app.top.kind == "home"
        titles = [e.title for e in app.top.entries]  # type: ignore[attr-defined]
        assert titles[:3] == ["Co-Mix", "I Made You a Mixtape", "Marvel: Remix"]
        assert "Enrol cards" in titles and "Settings" in titles
    finally:
        app.close()


def test_mock_pin_presses_reach_the_screen(state: Path):
    app = start(state)
    try:
        app.push(TimerScreen(app))
        for name in ("seat_1", "seat_5", "shutter", "ok"):
            press(app, name)
        # The encoder (default navigation) turned by its A/B pins gives LEFT and RIGHT.
        simulated.turn(app.hardware, 1)
        simulated.turn(app.hardware, -2)
        app.update()
        assert app.top.actions == [  # type: ignore[attr-defined]
            "SEAT_1",
            "SEAT_5",
            "SHUTTER",
            "OK",
            "RIGHT",
            "LEFT",
            "LEFT",
        ]
    finally:
        app.close()


def test_keyboard_keys_become_mock_pin_presses(state: Path):
    app = start(state)
    try:
        app.push(TimerScreen(app))
        down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0, unicode="2")
        app.handle_pygame_event(down)
        assert app.hardware.buttons["seat_2"].is_pressed  # the pin itself went low
        app.handle_pygame_event(pygame.event.Event(pygame.KEYUP, key=pygame.K_2, mod=0))
        app.update()
        assert not app.hardware.buttons["seat_2"].is_pressed
        assert app.top.actions == ["SEAT_2"]  # type: ignore[attr-defined]
    finally:
        app.close()


def test_led_bar_follows_the_timer_on_the_injected_clock(state: Path):
    clock = FakeClock()
    app = start(state, clock)
    try:
        app.push(TimerScreen(app))
        press(app, "ok")  # start
        for _ in range(450):  # 45 s in 0.1 s frames, no real waiting
            clock.advance(0.1)
            app.update()
        assert app.hardware.bar_value == pytest.approx(0.5, abs=0.01)
        assert app.hardware.bar_levels[:4] == [1.0] * 4 and app.hardware.bar_levels[4] < 0.1
        clock.advance(60)
        app.update()
        assert app.hardware.bar_value == 0.0
    finally:
        app.close()


def test_hold_back_goes_home(state: Path):
    clock = FakeClock()
    app = start(state, clock)
    try:
        app.push(TimerScreen(app))
        app.push(TimerScreen(app))
        simulated.press(app.hardware, "back")
        app.update()  # the press itself pops one screen
        assert len(app.screens) == 2
        clock.advance(app.config.buttons.hold_time + 0.1)
        app.update()  # the hold goes home
        simulated.release(app.hardware, "back")
        app.update()
        assert [s.kind for s in app.screens] == ["home"]
    finally:
        app.close()


def test_home_opens_entries_and_unbuilt_ones_say_coming(state: Path, monkeypatch):
    from display.screens import home

    entries = [
        home.HomeEntry("Hardware test", "", "hardware_test"),
        home.HomeEntry("Chess", "not a screen anyone built", "test_not_built"),
    ]
    monkeypatch.setattr(home, "HOME_ENTRIES", entries)
    app = start(state)
    try:
        press(app, "right")
        assert app.top.note(entries[1]) == "coming"  # type: ignore[attr-defined]
        press(app, "ok")
        assert app.top.kind == "home" and "coming" in app._toasts[-1][0]
        press(app, "left")
        press(app, "ok")
        assert app.top.kind == "hardware_test"
    finally:
        app.close()


def test_state_survives_a_restart(state: Path):
    clock = FakeClock()
    app = start(state, clock)
    app.push(TimerScreen(app))
    press(app, "ok")
    clock.advance(30)
    app.update()
    press(app, "seat_3")
    app.hardware.close()  # simulate a power cut: no app.close(), nothing saved on the way out
    app.store.db.close()

    again = start(state)
    try:
        assert [s.kind for s in again.screens] == ["home", "test_timer"]
        timer = again.top
        assert timer.remaining == pytest.approx(60, abs=0.2)  # type: ignore[attr-defined]
        assert timer.actions == ["OK", "SEAT_3"]  # type: ignore[attr-defined]
    finally:
        again.close()


def test_unknown_saved_screen_is_dropped_with_a_message(state: Path):
    start(state).close()
    store = Store(state)
    store.save_stack(
        [{"kind": "home", "snapshot": {}}, {"kind": "from_the_future", "snapshot": {}}]
    )
    store.close()
    again = start(state)
    try:
        assert [s.kind for s in again.screens] == ["home", "message"]
        assert "from_the_future" in again.top.body  # type: ignore[attr-defined]
    finally:
        again.close()


def test_corrupt_state_is_reported_on_screen(state: Path):
    state.mkdir(parents=True)
    (state / "state.db").write_bytes(b"garbage" * 500)
    app = start(state)
    try:
        assert app.top.kind == "message"
        assert "moved to" in app.top.body  # type: ignore[attr-defined]
        press(app, "ok")
        assert app.top.kind == "home"
    finally:
        app.close()


def test_newer_state_refuses_to_start(state: Path):
    app = start(state)
    app.store.db.execute("PRAGMA user_version = 99")
    app.close()
    with pytest.raises(LaunchError, match="newer Tablekeeper"):
        start(state)


def test_a_crashing_screen_becomes_a_message_when_not_strict(state: Path):
    app = start(state, strict=False)
    try:
        app.push(BrokenScreen(app))
        press(app, "ok")
        assert app.top.kind == "message"
        assert "a bug in a game screen" in app.top.body  # type: ignore[attr-defined]
    finally:
        app.close()


def test_camera_failure_is_a_message(state: Path):
    app = start(state)
    try:

        def broken() -> np.ndarray:
            raise OSError("cable unplugged")

        app.camera = FunctionCamera(broken, "test camera")
        image, error = app.capture()
        assert image is None and error is not None and "cable unplugged" in error
        for _ in range(4):
            press(app, "right")
        press(app, "ok")
        press(app, "shutter")
        assert "cable unplugged" in app.top.photo_note  # type: ignore[attr-defined]
        app.render()
    finally:
        app.close()


def test_legend_taps_press_buttons(state: Path):
    app = start(state)
    try:
        app.push(TimerScreen(app))
        app.render()
        target = next(area for area, actions in app._legend_targets if actions == (Action.OK,))
        app.handle_pygame_event(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=target.center)
        )
        assert app.top.actions == ["OK"]  # type: ignore[attr-defined]
    finally:
        app.close()


def test_render_sizes_and_sim_panel(state: Path, tmp_path: Path):
    config = tmp_path / "wide.toml"
    config.write_text("[screen]\nwidth = 1280\nheight = 720\n")
    app = start(state, config=config)
    try:
        assert app.size == (853, 480)  # 16:9 canvas, 480 high, scaled by SDL to 1280x720
        app.hardware.set_bar(1.0)
        surface = app.render()
        # The simulation panel's first LED cell is lit (bright yellow-ish).
        x = surface.get_width() - SIM_PANEL_W + 8 + 3
        r, g, b, _ = surface.get_at((x, 20))
        assert r > 200 and g > 150 and b < 100
    finally:
        app.close()


def test_settings_mute_the_buzzer_and_persist(state: Path):
    app = start(state)
    try:
        for _ in range(5):
            press(app, "right")
        press(app, "ok")
        assert app.top.kind == "settings"
        press(app, "ok")  # sound off
        assert app.hardware.muted
        app.hardware.beep()
        assert not app.hardware.buzzing
    finally:
        app.close()
    again = start(state)
    try:
        assert again.hardware.muted
    finally:
        again.close()


def test_bad_keyboard_map_names_the_key(state: Path, tmp_path: Path):
    config = tmp_path / "keys.toml"
    config.write_text('[keyboard]\nok = "entr"\n')
    with pytest.raises(LaunchError, match=r"line 2: keyboard.ok: unknown key name 'entr'"):
        start(state, config=config)


@register_screen
class AskNameScreen(Screen):
    kind = "test_ask_name"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.answers: list[tuple[str, Any]] = []

    def handle(self, action: Action) -> None:
        if action is Action.OK:
            self.app.push(KeyboardScreen(self.app, "Seat 1 name"), purpose="name")

    def on_result(self, purpose: str, result: Any) -> None:
        self.answers.append((purpose, result))


def test_the_keyboard_by_buttons_by_keys_and_by_typed_text(state: Path):
    app = start(state)
    try:
        asker = AskNameScreen(app)
        app.push(asker)
        press(app, "ok")
        assert app.top.kind == "keyboard"
        press(app, "right")  # B
        press(app, "ok")
        press(app, "left")  # A
        press(app, "ok")
        assert app.top.text == "Ba"  # type: ignore[attr-defined]  (key by key: "Ba", not "BA")
        # Keyboard: printable keys type (even "1", which is SEAT 1's key), Enter finishes.
        for key, char in ((pygame.K_1, "1"), (pygame.K_c, "c")):
            app.handle_pygame_event(
                pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char)
            )
            app.handle_pygame_event(pygame.event.Event(pygame.KEYUP, key=key, mod=0))
        app.update()
        assert app.top.text == "Ba1c"  # type: ignore[attr-defined]
        app.render()
        app.handle_pygame_event(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")
        )
        app.handle_pygame_event(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0))
        app.update()
        assert app.top is asker and asker.answers == [("name", "Ba1c")]
        # Typed text (the script's `type`) then OK; SHUTTER is Done too.
        press(app, "ok")
        assert app.type_text("Zoe")
        press(app, "ok")
        press(app, "ok")
        assert app.type_text("Al")
        press(app, "shutter")
        assert asker.answers[1:] == [("name", "Zoe"), ("name", "Al")]
    finally:
        app.close()


def test_back_on_the_keyboard_deletes_and_cancels_only_an_empty_field(state: Path):
    app = start(state)
    try:
        asker = AskNameScreen(app)
        app.push(asker)
        press(app, "ok")
        app.type_text("Ann")
        press(app, "back")
        assert app.top.kind == "keyboard" and app.top.text == "An"  # type: ignore[attr-defined]
        assert [label for _, label in app.top.legend()][2] == "Delete"
        press(app, "back")
        press(app, "back")
        assert app.top.kind == "keyboard" and app.top.text == ""  # type: ignore[attr-defined]
        assert [label for _, label in app.top.legend()][2] == "Cancel"
        press(app, "back")  # empty: cancelled
        assert app.top is asker and asker.answers == [("name", None)]
    finally:
        app.close()


def test_a_question_survives_a_restart(state: Path):
    app = start(state)
    app.push(AskNameScreen(app))
    press(app, "ok")
    app.type_text("Half a na")
    app.save()
    app.close()
    again = start(state)
    try:
        assert again.top.kind == "keyboard" and again.top.text == "Half a na"  # type: ignore[attr-defined]
        assert again.top.purpose == "name"
        press(again, "ok")
        assert again.top.answers == [("name", "Half a na")]  # type: ignore[attr-defined]
    finally:
        again.close()


def test_jobs_run_inline_in_scripts_and_in_a_thread_in_the_appliance(state: Path):
    import threading

    app = start(state)
    try:
        job = app.run_job(lambda: threading.current_thread().name)
        assert job.done() and job.result() == threading.main_thread().name
        failed = app.run_job(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            failed.result()
        app.jobs_inline = False
        threaded = app.run_job(lambda: threading.current_thread().name)
        assert threaded.result(timeout=5).startswith("tablekeeper-job")
    finally:
        app.close()


@register_screen
class UnsavableScreen(Screen):
    kind = "test_unsavable"

    def snapshot(self) -> dict[str, Any]:
        return {"not json": object()}


def test_a_screen_that_cannot_be_saved_keeps_the_last_good_stack(state: Path):
    app = start(state, strict=False)
    try:
        app.push(TimerScreen(app))
        app.save()
        app.push(UnsavableScreen(app))
        press(app, "seat_1")  # must not raise
        assert [e["kind"] for e in app.store.load_stack()] == ["home", "test_timer"]
    finally:
        app.pop()
        app.close()


def test_a_game_whose_screens_failed_to_load_says_broken(state: Path, monkeypatch):
    from display.screen import SCREENS
    from display.screens.home import HOME_ENTRIES

    app = start(state)
    try:
        monkeypatch.delitem(SCREENS, "comix")
        app.load_errors = {"display.screens.comix.ballot": "ImportError: something"}
        comix = next(entry for entry in HOME_ENTRIES if entry.kind == "comix")
        mixtape = next(entry for entry in HOME_ENTRIES if entry.kind == "mixtape")
        assert app.top.note(comix) == "broken"  # type: ignore[attr-defined]
        assert app.top.note(mixtape) == ""  # type: ignore[attr-defined]
    finally:
        app.close()


def test_a_toast_never_covers_the_screen(state: Path):
    """A toast takes the legend bar's place for its seconds: every content pixel stays as it
    was, and the keys come back when it goes."""
    clock = FakeClock()
    app = start(state, clock)
    try:
        width, height = app.surface.get_size()
        content = pygame.Rect(0, ui.HEADER_H, width, height - ui.HEADER_H - ui.LEGEND_H)
        legend = pygame.Rect(0, height - ui.LEGEND_H, width, ui.LEGEND_H)
        plain = app.render().copy()
        app.toast("Nothing to undo. " * 6)  # longer than two lines: shortened, not spilled
        shown = app.render().copy()
        assert pygame.image.tobytes(shown.subsurface(content), "RGB") == pygame.image.tobytes(
            plain.subsurface(content), "RGB"
        )
        assert pygame.image.tobytes(shown.subsurface(legend), "RGB") != pygame.image.tobytes(
            plain.subsurface(legend), "RGB"
        )
        clock.advance(10)
        app.update()
        gone = app.render()
        assert pygame.image.tobytes(gone.subsurface(legend), "RGB") == pygame.image.tobytes(
            plain.subsurface(legend), "RGB"
        )
    finally:
        app.close()


def test_a_press_beeps_only_once_it_is_on_the_disk(state: Path):
    """The appliance's store writes behind: the screen answers a press at once, the beep that
    acknowledges it waits for its commit."""
    import threading

    from display.screen import SCREENS

    app = start(state, strict=False)
    try:
        assert app.store.write_behind
        app.push(SCREENS["hardware_test"](app))
        app.save()
        assert app.store.flush(5)
        inside, release = threading.Event(), threading.Event()

        def slow_card(store: Store) -> None:
            inside.set()
            release.wait(10)

        app.store.observers.append(slow_card)
        press(app, "ok")
        assert inside.wait(5)  # the press's commit is on its way
        assert app.top.counts == {"OK": 1}  # type: ignore[attr-defined]  # drawn at once
        app.update()
        assert not app.hardware.buzzing
        release.set()
        assert app.store.flush(5)
        app.update()
        assert app.hardware.buzzing
    finally:
        release.set()
        app.close()


def test_a_write_behind_commit_that_fails_is_shown(state: Path):
    app = start(state, strict=False)
    try:
        assert app.store.flush(5)
        app.store.db.execute("PRAGMA query_only = ON")  # a read-only card
        press(app, "right")
        assert app.store.flush(5)
        app.update()
        assert app._toasts and app._toasts[-1][0].startswith(f"Could not save to {app.store.path}")
        app.store.db.execute("PRAGMA query_only = OFF")
    finally:
        app.close()
