"""What the device tells the app at start: parts left out (a busy pin) and the last failure are
shown as messages, and the appliance starts anyway."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero import Button

from device.camera import NoCamera
from device.config import parse_config
from device.hardware import Hardware
from device.pins import simulated_pin_factory
from display.actions import Action
from display.app import App
from display.clock import FakeClock
from display.launch import LaunchError, RunOptions, build_app, run
from display.store import Store


def start(tmp_path: Path, hardware: Hardware, clock: FakeClock) -> App:
    app = App(
        config=hardware.config,
        hardware=hardware,
        camera=NoCamera(),
        store=Store(tmp_path),
        clock=clock,
        simulated=True,
    )
    app.start()
    return app


def test_a_busy_pin_starts_the_appliance_with_a_wiring_message(tmp_path: Path):
    factory = simulated_pin_factory()
    clock = FakeClock()
    try:
        other = Button(17, pin_factory=factory)  # e.g. an SPI touch HAT's pen interrupt
        hardware = Hardware(parse_config(), simulated=True, now=clock.now, pin_factory=factory)
        app = start(tmp_path, hardware, clock)
        assert app.top.kind == "message" and app.top.heading == "Wiring problem"
        assert "ENCODER disabled: GPIO17 (pin 11) is already used" in app.top.body
        app.close()
        other.close()
    finally:
        factory.reset()


def test_the_last_failure_is_shown_once_on_the_next_start(tmp_path: Path):
    (tmp_path / "last-exit").write_text("result=watchdog\ncode=killed\nstatus=ABRT\nwhen=1\n")
    app = build_app(RunOptions(simulated=True, state_dir=tmp_path), clock=FakeClock())
    try:
        assert app.top.kind == "message" and app.top.heading == "Restarted"
        assert "watchdog restarted it" in app.top.body
        app.press(Action.OK)  # read and closed
    finally:
        app.close()
    again = build_app(RunOptions(simulated=True, state_dir=tmp_path), clock=FakeClock())
    try:
        assert again.top.kind != "message" or again.top.heading != "Restarted"
    finally:
        again.close()


def test_a_crash_of_the_run_is_noted_for_the_next_start(tmp_path: Path, monkeypatch):
    def crash(options: RunOptions) -> int:
        raise RuntimeError("the loop broke")

    monkeypatch.setattr("display.launch.run_interactive", crash)
    with pytest.raises(RuntimeError):
        run(RunOptions(simulated=True, state_dir=tmp_path))
    app = build_app(RunOptions(simulated=True, state_dir=tmp_path), clock=FakeClock())
    try:
        assert "Last error: RuntimeError: the loop broke" in app.top.body
    finally:
        app.close()

    def refuse(options: RunOptions) -> int:
        raise LaunchError("bad config")  # the person's to fix: not a crash

    monkeypatch.setattr("display.launch.run_interactive", refuse)
    with pytest.raises(LaunchError):
        run(RunOptions(simulated=True, state_dir=tmp_path))
    assert not (tmp_path / "last-crash.json").exists()
