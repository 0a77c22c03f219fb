"""Scripted runs: one action per line, driving the real screens through the mock pins.

Grammar (``#`` starts a comment, blank lines are ignored)::

    press NAME            seat1..seat5, left, right, ok, back, shutter (press and release)
    hold NAME SECONDS     press, let the app clock run SECONDS, release (holds fire on the way)
    advance SECONDS       move the injected clock (the app updates every 0.1 s of it)
    camera PATH           the next capture returns this image (relative to the script's folder)
    shot NAME             write NAME.png to the screenshots folder
    type TEXT             give TEXT (rest of the line) to the screen, if it takes text

The whole script is checked before anything runs; every problem names the file and the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from device import simulated
from display.actions import Action

if TYPE_CHECKING:
    from device.camera import ScriptedCamera
    from display.app import App
    from display.clock import FakeClock

ACTIONS = ("press", "hold", "advance", "camera", "shot", "type")
UPDATE_STEP = 0.1  # seconds of app clock between updates during advance/hold
MAX_SECONDS = 24 * 3600


class ScriptError(Exception):
    """A bad script line; the message starts with "FILE line N:"."""


@dataclass(frozen=True)
class Step:
    line: int
    verb: str
    action: Action | None = None
    seconds: float = 0.0
    path: Path | None = None
    text: str = ""


def _seconds(value: str, where: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise ScriptError(f"{where}: {value!r} is not a number of seconds") from None
    if not 0 <= seconds <= MAX_SECONDS or seconds != seconds:
        raise ScriptError(f"{where}: seconds must be between 0 and {MAX_SECONDS}")
    return seconds


def _action(value: str, where: str) -> Action:
    try:
        return Action.from_script_name(value)
    except KeyError:
        names = ", ".join(a.script_name for a in Action)
        raise ScriptError(f"{where}: unknown button {value!r} (buttons: {names})") from None


def parse_script(text: str, source: Path | str = "script") -> list[Step]:
    """Parse a script; relative camera paths are resolved against the script's folder."""
    base = Path(source).parent if isinstance(source, Path) else Path.cwd()
    steps: list[Step] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source} line {number}"
        verb, _, rest = line.partition(" ")
        rest = rest.strip()
        args = rest.split()
        if verb not in ACTIONS:
            raise ScriptError(f"{where}: unknown action {verb!r} (actions: {', '.join(ACTIONS)})")
        if verb == "type":
            if not rest:
                raise ScriptError(f"{where}: type needs the text to type")
            steps.append(Step(number, verb, text=rest))
            continue
        if verb in ("press", "advance", "camera", "shot") and len(args) != 1 and verb != "camera":
            raise ScriptError(f"{where}: {verb} takes exactly one argument")
        if verb == "press":
            steps.append(Step(number, verb, action=_action(args[0], where)))
        elif verb == "hold":
            if len(args) != 2:
                raise ScriptError(f"{where}: hold takes a button and seconds: hold ok 2")
            steps.append(
                Step(number, verb, action=_action(args[0], where), seconds=_seconds(args[1], where))
            )
        elif verb == "advance":
            steps.append(Step(number, verb, seconds=_seconds(args[0], where)))
        elif verb == "camera":
            if not rest:
                raise ScriptError(f"{where}: camera needs an image path")
            path = Path(rest).expanduser()
            if not path.is_absolute():
                candidate = base / path
                path = candidate if candidate.exists() else Path.cwd() / path
            if not path.is_file():
                raise ScriptError(f"{where}: no image file at {rest}")
            steps.append(Step(number, verb, path=path))
        elif verb == "shot":
            name = args[0]
            if "/" in name or "\\" in name or name.startswith("."):
                raise ScriptError(f"{where}: shot takes a plain file name, got {name!r}")
            steps.append(Step(number, verb, text=name.removesuffix(".png")))
    return steps


def load_script(path: Path) -> list[Step]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ScriptError(f"cannot read script {path}: {error}") from None
    return parse_script(text, path)


class ScriptObserver(Protocol):
    """What a development harness may watch in a scripted run (``display/checks/child.py``)."""

    def step_started(self, index: int, step: Step) -> None:
        """Step ``index`` (0-based) of the script is about to be played."""

    def updated(self) -> None:
        """The app has just run one update (a tick of the clock, or after an input)."""


class ScriptRunner:
    """Plays steps into a simulated :class:`App` whose clock is a :class:`FakeClock`."""

    def __init__(
        self,
        app: App,
        clock: FakeClock,
        camera: ScriptedCamera | None,
        screenshots: Path | None,
        source: Path | str = "script",
        observer: ScriptObserver | None = None,
    ) -> None:
        self.app = app
        self.clock = clock
        self.camera = camera
        self.screenshots = screenshots
        self.source = source
        self.observer = observer
        self.shots: list[Path] = []

    def update(self) -> None:
        self.app.update()
        if self.observer is not None:
            self.observer.updated()

    def advance(self, seconds: float) -> None:
        remaining = seconds
        while remaining > 1e-9:
            step = min(UPDATE_STEP, remaining)
            self.clock.advance(step)
            remaining -= step
            self.update()

    def run(self, steps: list[Step]) -> None:
        self.update()
        for index, step in enumerate(steps):
            if self.observer is not None:
                self.observer.step_started(index, step)
            self.play(step)

    def play(self, step: Step) -> None:
        app = self.app
        where = f"{self.source} line {step.line}"
        if step.verb in ("press", "hold"):
            assert step.action is not None
            name = step.action.value.lower()
            try:
                simulated.press(app.hardware, name)
            except KeyError:
                raise ScriptError(
                    f"{where}: {step.action.script_name} is not wired in the config"
                ) from None
            self.update()
            if step.verb == "hold":
                self.advance(step.seconds)
            simulated.release(app.hardware, name)
            self.update()
        elif step.verb == "advance":
            self.advance(step.seconds)
        elif step.verb == "camera":
            if self.camera is None:
                raise ScriptError(f"{where}: this run has no scriptable camera")
            assert step.path is not None
            self.camera.queue_file(step.path)
        elif step.verb == "shot":
            if self.screenshots is not None:
                self.screenshots.mkdir(parents=True, exist_ok=True)
                path = self.screenshots / f"{step.text}.png"
                app.screenshot(path)
                self.shots.append(path)
        elif step.verb == "type":
            if not app.type_text(step.text):
                raise ScriptError(f"{where}: the screen '{app.top.kind}' does not take typed text")
            self.update()
