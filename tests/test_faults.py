"""Faults at the table, on the injected clock and the mock pins: a camera that is gone (raises,
returns None, returns a black frame), a seat button stuck down, a bouncing button, two seat
buttons at once, the encoder spun fast; and a loop that stops (a capture that never returns):
the watchdog stops being fed, the unit is restarted and resumes where it was."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from device import simulated
from device.camera import CameraError
from display.app import App
from display.checks.scenarios import FOUR, comix_setup
from display.clock import FakeClock
from display.launch import RunOptions, build_app, run_script
from display.script import ScriptRunner, parse_script
from games.comix import Game

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[App, FakeClock]]:
    clock = FakeClock()
    built = build_app(RunOptions(simulated=True, state_dir=tmp_path / "state"), clock, strict=True)
    try:
        yield built, clock
    finally:
        built.close()


def play(app: App, clock: FakeClock, lines: list[str]) -> None:
    ScriptRunner(app, clock, None, None).run(parse_script("\n".join(lines)))


def comix(app: App) -> Game:
    return Game.from_json(app.store.get("comix", "game"))


def to_scripting(app: App, clock: FakeClock) -> None:
    play(app, clock, [*comix_setup(FOUR, rounds=1), "press ok"])
    assert app.top.kind == "comix.scripting"


def settle(app: App, clock: FakeClock, seconds: float = 0.1) -> None:
    ScriptRunner(app, clock, None, None).advance(seconds)


# -- buttons ----------------------------------------------------------------------------------
def test_a_bouncing_seat_button_counts_once(app: tuple[App, FakeClock]) -> None:
    shell, clock = app
    to_scripting(shell, clock)
    pin = shell.hardware.buttons["seat_1"].pin
    for _ in range(6):  # contacts chattering within a millisecond (real time: gpiozero's bounce)
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    settle(shell, clock)
    pin.drive_high()
    settle(shell, clock)
    # one press: Ann done (a second press within 2 s would have taken it back)
    assert comix(shell).round.scripting.done_order == ["Ann"]


def test_a_stuck_seat_button_fires_once_and_the_others_still_work(
    app: tuple[App, FakeClock],
) -> None:
    shell, clock = app
    to_scripting(shell, clock)
    simulated.press(shell.hardware, "seat_1")  # and never released
    settle(shell, clock, 30)
    play(shell, clock, ["press seat2", "advance 5", "press seat3"])
    settle(shell, clock, 70)  # the sand runs out with the button still down
    scripting = comix(shell).round.scripting
    assert scripting.done_order == ["Ann", "Ben", "Cat"] and scripting.timed_out
    assert shell.top.kind == "comix.scripting"
    play(shell, clock, ["press ok"])  # the table goes on to storytelling
    assert shell.top.kind == "comix.storytelling"
    simulated.release(shell.hardware, "seat_1")


def test_two_seat_buttons_at_the_same_moment(app: tuple[App, FakeClock]) -> None:
    shell, clock = app
    to_scripting(shell, clock)
    simulated.press(shell.hardware, "seat_3")
    simulated.press(shell.hardware, "seat_2")  # before the app looks at the inputs again
    settle(shell, clock)
    simulated.release(shell.hardware, "seat_3")
    simulated.release(shell.hardware, "seat_2")
    settle(shell, clock)
    scripting = comix(shell).round.scripting
    assert scripting.done_order == ["Cat", "Ben"]
    snapshot = shell.top.snapshot()["timer"]
    assert snapshot["running"] and snapshot["remaining"] == pytest.approx(89.9, abs=0.11)


def test_the_encoder_spun_fast_loses_no_detent(app: tuple[App, FakeClock]) -> None:
    shell, clock = app
    if shell.hardware.encoder is None:
        pytest.skip("the default config has no encoder")  # pragma: no cover - it has one
    entries = len(shell.top.snapshot().get("entries", [])) or None
    start = shell.top.snapshot().get("selected", 0)
    simulated.turn(shell.hardware, 37)  # many detents between two frames
    simulated.turn(shell.hardware, -12)
    settle(shell, clock)
    from display.screens.home import HOME_ENTRIES

    count = entries or len(HOME_ENTRIES)
    assert shell.top.kind == "home"
    assert shell.top.snapshot()["selected"] == (start + 25) % count


# -- the camera ---------------------------------------------------------------------------------
class FaultyCamera:
    name = "test camera"

    def __init__(self, fault: str) -> None:
        self.fault = fault

    def capture(self) -> Any:
        if self.fault == "unplugged":
            raise CameraError("the camera is not connected")
        if self.fault == "driver":
            raise RuntimeError("mmal: failed to enable the camera")
        if self.fault == "none":
            return None
        return np.zeros((960, 1280, 3), np.uint8)  # black frame: a covered lens

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from display.checks.scenarios import REMIX_HANDS, _remix_names
    from display.checks.scenes import enrol_directly

    names = _remix_names()
    state = tmp_path_factory.mktemp("enrolled")
    enrol_directly(state, "remix", {i: names[i] for i in REMIX_HANDS["Ann"]})
    return state


@pytest.mark.parametrize("fault", ["unplugged", "driver", "none", "black"])
def test_a_camera_fault_is_a_message_then_a_retry_works(
    fault: str, enrolled: Path, tmp_path: Path
) -> None:
    import shutil

    from display.checks.scenarios import REMIX_HANDS, _remix_names
    from display.checks.scenes import scene, write

    state = tmp_path / "state"
    shutil.copytree(enrolled, state)
    clock = FakeClock()
    shell = build_app(RunOptions(simulated=True, state_dir=state), clock, strict=True)
    try:
        camera = shell.camera
        inner = camera.inner  # type: ignore[attr-defined]
        camera.inner = FaultyCamera(fault)  # type: ignore[attr-defined]
        lines = ["press right", "press right", "press ok", "press ok", "press ok", "type Ann"]
        lines += ["press ok"]  # Enter on the keyboard: the name is taken
        play(shell, clock, [*lines, "press shutter", "press shutter"])  # and once more
        screen: Any = shell.top
        assert screen.kind == "remix.hand"
        assert screen.error and "None" not in screen.error  # a sentence, not a repr
        message = screen.error
        shell.render()  # the message is drawn (no exception)
        if fault != "black":  # no photo at all: the cards can be entered by hand
            names = _remix_names()
            first, second = (names[i] for i in REMIX_HANDS["Ann"][:2])
            play(shell, clock, ["press ok", f"type {first}", "press ok"])  # "add a card"
            assert shell.top.kind == "remix.hand"
            review: Any = shell.top
            to_add = (len(review.cards) - review.selected) % review.row_count()  # the "add" row
            play(
                shell, clock, ["press right"] * to_add + ["press ok", f"type {second}", "press ok"]
            )
            screen = shell.top
            assert [card.name for card in screen.cards] == [first, second]
        camera.inner = inner  # plugged back in: the retry works (a new photo replaces all)
        names = _remix_names()
        photo = write(tmp_path / "ann.jpg", scene([names[i] for i in REMIX_HANDS["Ann"]], 31))
        camera.queue_file(photo)  # type: ignore[attr-defined]
        play(shell, clock, ["press shutter"])
        screen = shell.top
        assert not screen.error and len(screen.cards) == 7
        print(fault, "->", message)
    finally:
        shell.close()


# -- a blocked loop and the watchdog -------------------------------------------------------------
def _child(state: Path, notify: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.update(NOTIFY_SOCKET=str(notify), WATCHDOG_USEC="600000", PYTHONPATH=str(ROOT))
    env.pop("WATCHDOG_PID", None)
    command = [sys.executable, "-m", "display", "run", "--sim", "--state-dir", str(state)]
    command += ["--exit-after-frames", "100000"]  # a window on the dummy driver, ~an hour
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _messages(
    sock: socket.socket, seconds: float, enough: Callable[[list[str]], bool] = lambda m: False
) -> list[str]:
    """Datagrams received within ``seconds`` (or until ``enough`` says so)."""
    out: list[str] = []
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0 and not enough(out):
        sock.settimeout(left)
        try:
            out.append(sock.recv(4096).decode())
        except TimeoutError:
            break
    return out


def _ready_and_fed(messages: list[str]) -> bool:
    return any("READY=1" in m for m in messages) and sum("WATCHDOG=1" in m for m in messages) >= 2


def test_a_blocked_loop_starves_the_watchdog_and_the_restart_resumes(tmp_path: Path) -> None:
    state = tmp_path / "state"
    script = tmp_path / "start.txt"
    script.write_text("\n".join([*comix_setup(FOUR, rounds=1), "press ok", "press seat2"]) + "\n")
    run_script(RunOptions(simulated=True, script=script, state_dir=state))
    notify = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    child = _child(state, notify)
    try:
        first = _messages(sock, 60, _ready_and_fed)
        ready = [m for m in first if "READY=1" in m]
        assert ready and "Co-Mix" in ready[0]  # resumed on the sand timer of the saved game
        assert sum("WATCHDOG=1" in m for m in first) >= 2  # fed while the loop runs
    finally:
        # the loop blocks (a capture that never returns): no more pings...
        child.send_signal(signal.SIGSTOP)
    try:
        assert not any("WATCHDOG=1" in m for m in _messages(sock, 1.5))
        # ...so systemd (WatchdogSec) kills it and Restart= starts it again
        child.kill()
        child.wait(10)
        again = _child(state, notify)
        try:
            messages = _messages(sock, 60, _ready_and_fed)
            ready = [m for m in messages if "READY=1" in m]
            assert ready and "Co-Mix" in ready[0]
        finally:
            again.terminate()
            again.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
        sock.close()
    from display.store import Store

    store = Store(state)
    try:
        game = Game.from_json(store.get("comix", "game"))
        assert game.round.scripting.done_order == ["Ben"]  # nothing lost across the restarts
    finally:
        store.close()
