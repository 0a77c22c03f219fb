"""The appliance configuration: pins, screen, seats, buttons, camera and keyboard map.

Defaults are built in (``DEFAULT_CONFIG_TOML`` below is both the documentation and the
defaults). A TOML file overrides any part of it; :func:`config_path` says where that file is
looked for. Every problem in a file is reported as a :class:`ConfigError` naming the file, the
line and the key, e.g. ``config.toml line 7: pins.back: pin 5 is already used by pins.seat_1``.

Pins are BCM GPIO numbers (what gpiozero means by a bare integer). ``false`` means "not wired".
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

DEFAULT_CONFIG_TOML = """\
# Tablekeeper configuration. Every key is optional; these are the built-in defaults.

[screen]
width = "auto"       # the panel's own pixels (7" touchscreen: 800x480; Touch Display 2: 720x1280);
height = "auto"      # "auto": as the display reports them (simulated mode: an 800x480 window)
rotate = "auto"      # 0 | 90 | 180 | 270: turn the picture (and touches) clockwise by this much;
                     # "auto": a portrait panel (Touch Display 2) is turned to landscape (90),
                     # a landscape one is not. SDL ignores the panel's own rotation setting
                     # without a desktop: leave the kernel's rotation (video=...,rotate=) and
                     # the touch overlays' invx/invy/swapxy out, or the turn happens twice
fullscreen = true    # real hardware only; simulated mode always opens a window
fps = 30

[seats]
count = 5            # seat buttons in use, 1..5 (one per story/seat)

[buttons]
bounce_time = 0.03   # seconds (gpiozero Button bounce_time)
hold_time = 1.5      # seconds a button is held before it counts as a hold

[pins]
# BCM GPIO numbers; false = not wired. Buttons connect the pin to ground (internal pull-up).
seat_1 = 5
seat_2 = 6
seat_3 = 13
seat_4 = 19
seat_5 = 26
left = false         # navigation buttons: optional when the rotary encoder is fitted
right = false
ok = false
back = 16
shutter = 20
encoder_a = 17       # rotary encoder: turning = LEFT/RIGHT, pushing = OK
encoder_b = 27
encoder_button = 22
led_bar = [4, 23, 24, 25, 21, 9, 10, 11]   # the sand-timer bar graph, first LED first
seat_leds = []       # LEDs in the seat buttons (illuminated buttons), SEAT 1's first, at most 5;
                     # the sand timer lights the seats still scripting. [] = none fitted
status_led = 12
buzzer = 18
buzzer_type = "tonal"    # "tonal" (passive piezo, TonalBuzzer) or "active" (Buzzer)

[camera]
backend = "auto"     # auto | picamera2 | opencv | folder | none
width = 2304         # still size (Camera Module 3 2304x1296 mode)
height = 1296
lens_position = false  # fixed focus in dioptres (1 / metres), as `tablekeeper focus` reports it;
                       # false = continuous autofocus where the module has it
autofocus = true     # without lens_position: keep the module focusing by itself (false = leave it)
timeout = 5.0        # seconds one camera call may take before it is reported as stalled
                     # (opening the camera, picamera2's import included, gets 3 times as long)
rotate = 0           # 0 | 90 | 180 | 270: turn every photo clockwise (180: camera upside down)
flip = "none"        # none | horizontal | vertical: mirror every photo, after turning it
device_index = 0     # opencv: /dev/videoN
folder = ""          # folder backend: images are returned in name order, round and round

[keyboard]
# pygame key names (simulated mode and a USB keyboard on the Pi); a list gives several keys.
seat_1 = "1"
seat_2 = "2"
seat_3 = "3"
seat_4 = "4"
seat_5 = "5"
left = "left"
right = "right"
ok = ["return", "space"]
back = ["backspace", "escape"]
shutter = "c"
"""

ACTION_KEYS = (
    "seat_1",
    "seat_2",
    "seat_3",
    "seat_4",
    "seat_5",
    "left",
    "right",
    "ok",
    "back",
    "shutter",
)
SEAT_KEYS = tuple(name for name in ACTION_KEYS if name.startswith("seat_"))
CAMERA_BACKENDS = ("auto", "picamera2", "opencv", "folder", "none")
RIGHT_ANGLES = (0, 90, 180, 270)
AUTO = "auto"
#: The screen size when ``[screen] width/height`` are "auto" and no display reports one (a
#: simulated window, scripted runs): the 7-inch touchscreen's.
FALLBACK_SCREEN = (800, 480)
#: Tables whose bad values are replaced by the default at start-up (reported, not fatal): none of
#: them decides what a GPIO pin drives. [pins] mistakes stay fatal: the defaults could drive a
#: pin that is wired to something else.
FORGIVING_TABLES = ("screen", "seats", "buttons", "camera", "keyboard")
FLIPS = ("none", "horizontal", "vertical")
BCM_PINS = range(0, 28)


T = TypeVar("T")


class ConfigError(Exception):
    """A bad configuration file; the message names the file, line and key."""


@dataclass(frozen=True)
class ScreenConfig:
    width: int  # the panel's own pixels, as the video driver opens it
    height: int
    fullscreen: bool
    fps: int
    rotate: int = 0  # clockwise degrees: 0, 90, 180 or 270
    auto_size: bool = False  # width/height "auto": follow the panel (display/panel.py)
    auto_rotate: bool = False  # rotate "auto": a portrait panel is turned to landscape

    @property
    def drawing_size(self) -> tuple[int, int]:
        """(width, height) of the picture as the players see it: a quarter turn swaps them."""
        if self.rotate in (90, 270):
            return self.height, self.width
        return self.width, self.height


@dataclass(frozen=True)
class ButtonConfig:
    bounce_time: float
    hold_time: float


@dataclass(frozen=True)
class PinConfig:
    """BCM pin numbers; None = not wired."""

    buttons: dict[str, int | None]  # action key ("seat_1".."shutter") -> pin
    encoder_a: int | None
    encoder_b: int | None
    encoder_button: int | None
    led_bar: tuple[int, ...]
    status_led: int | None
    buzzer: int | None
    buzzer_type: str
    seat_leds: tuple[int, ...] = ()  # the LED in each seat button, SEAT 1's first

    @property
    def has_encoder(self) -> bool:
        return self.encoder_a is not None and self.encoder_b is not None

    def assigned(self, seat_count: int = 5) -> list[tuple[str, int]]:
        """(config key, pin) for every wired pin, in config order; seats above ``seat_count``
        are left out."""
        keys: list[tuple[str, int | None]] = [
            (f"pins.{name}", pin)
            for name, pin in self.buttons.items()
            if not name.startswith("seat_") or int(name[5:]) <= seat_count
        ]
        keys += [
            ("pins.encoder_a", self.encoder_a),
            ("pins.encoder_b", self.encoder_b),
            ("pins.encoder_button", self.encoder_button),
        ]
        keys += [("pins.led_bar", pin) for pin in self.led_bar]
        keys += [("pins.seat_leds", pin) for pin in self.seat_leds]
        keys += [("pins.status_led", self.status_led), ("pins.buzzer", self.buzzer)]
        return [(key, pin) for key, pin in keys if pin is not None]


@dataclass(frozen=True)
class CameraConfig:
    backend: str
    width: int
    height: int
    autofocus: bool
    device_index: int
    folder: str
    lens_position: float | None = None  # dioptres; None = autofocus (or the module's fixed focus)
    timeout: float = 5.0  # seconds per camera call
    rotate: int = 0  # clockwise degrees applied to every photo
    flip: str = "none"  # mirror after turning: none | horizontal | vertical


@dataclass(frozen=True)
class Config:
    screen: ScreenConfig
    seat_count: int
    buttons: ButtonConfig
    pins: PinConfig
    camera: CameraConfig
    keyboard: dict[str, tuple[str, ...]]  # action key -> key names
    source: Path | None = None
    key_lines: dict[str, int] = field(default_factory=dict)
    #: Bad values replaced by their defaults (lenient reading, shown at start-up), one line each:
    #: "config.toml line 12: screen.rotate: expected 0, 90, 180 or 270 ..., got 45 — using 0".
    problems: tuple[str, ...] = ()

    def where(self, key: str) -> str:
        """'config.toml line 12: keyboard.ok' for messages about a key (the file if known)."""
        line = self.key_lines.get(key)
        if self.source is None or line is None:
            return key
        return f"{self.source} line {line}: {key}"


def config_path(environ: dict[str, str] | None = None) -> Path:
    """$TABLEKEEPER_CONFIG, else $XDG_CONFIG_HOME/tablekeeper/config.toml, else ~/.config/..."""
    env = os.environ if environ is None else environ
    if env.get("TABLEKEEPER_CONFIG"):
        return Path(env["TABLEKEEPER_CONFIG"])
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tablekeeper" / "config.toml"


def _key_lines(text: str) -> dict[str, int]:
    """Map 'table.key' -> 1-based line number, by a line scan (tomllib keeps no positions)."""
    lines: dict[str, int] = {}
    table = ""
    header = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-\" ]+?)\s*\]\s*(#.*)?$")
    assignment = re.compile(r"^\s*([A-Za-z0-9_\-\"]+)\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        match = header.match(line)
        if match:
            table = match.group(1).replace('"', "").replace(" ", "")
            lines.setdefault(table, number)
            continue
        match = assignment.match(line)
        if match:
            key = match.group(1).strip('"')
            lines.setdefault(f"{table}.{key}" if table else key, number)
    return lines


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


class _Reader:
    """Typed access to the merged table, with errors that point at the user's file."""

    def __init__(
        self,
        data: dict[str, Any],
        source: Path | None,
        lines: dict[str, int],
        defaults: dict[str, Any] | None = None,
    ):
        self.data = data
        self.source = source
        self.lines = lines
        #: Lenient reading: the defaults a bad value in a FORGIVING_TABLES key falls back to.
        self.defaults = defaults
        self.problems: list[str] = []

    def forgive(self, key: str, read: Callable[[str], T]) -> T:
        """``read(key)``; when lenient and the key is in a forgiving table, a bad value is
        noted in :attr:`problems` and the default is read instead."""
        try:
            return read(key)
        except ConfigError as error:
            table, name = key.split(".")
            if self.defaults is None or table not in FORGIVING_TABLES:
                raise
            default = self.defaults[table][name]
            self.problems.append(f"{error} — using {_toml_value(default)}")
            self.data[table][name] = default
            return read(key)

    def integer_or_auto(self, key: str, low: int, high: int) -> int | None:
        """None for "auto", else a whole number in low..high."""
        if self.get(key) == AUTO:
            return None
        value = self.get(key)
        if isinstance(value, str):
            raise self.fail(key, f'expected a whole number or "auto", got {value!r}')
        return self.integer(key, low, high)

    def right_angle_or_auto(self, key: str) -> int | None:
        if self.get(key) == AUTO:
            return None
        value = self.get(key)
        if isinstance(value, bool) or value not in RIGHT_ANGLES:
            raise self.fail(
                key, f'expected 0, 90, 180 or 270 (degrees clockwise) or "auto", got {value!r}'
            )
        return int(value)

    def fail(self, key: str, message: str) -> ConfigError:
        line = self.lines.get(key)
        if self.source is not None and line is not None:
            return ConfigError(f"{self.source} line {line}: {key}: {message}")
        if self.source is not None:
            return ConfigError(f"{self.source}: {key}: {message}")
        return ConfigError(f"{key}: {message}")

    def get(self, key: str) -> Any:
        table, name = key.split(".")
        return self.data[table][name]

    def integer(self, key: str, low: int, high: int) -> int:
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"expected a whole number, got {value!r}")
        if not low <= value <= high:
            raise self.fail(key, f"{value} is out of range {low}..{high}")
        return value

    def number(self, key: str, low: float, high: float) -> float:
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"expected a number, got {value!r}")
        if not low <= value <= high:
            raise self.fail(key, f"{value} is out of range {low}..{high}")
        return float(value)

    def boolean(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {value!r}")
        return value

    def choice(self, key: str, choices: tuple[str, ...]) -> str:
        value = self.get(key)
        if value not in choices:
            raise self.fail(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return str(value)

    def string(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str):
            raise self.fail(key, f"expected a string, got {value!r}")
        return value

    def right_angle(self, key: str) -> int:
        value = self.get(key)
        if isinstance(value, bool) or value not in RIGHT_ANGLES:
            raise self.fail(key, f"expected 0, 90, 180 or 270 (degrees clockwise), got {value!r}")
        return int(value)

    def number_or_false(self, key: str, low: float, high: float) -> float | None:
        if self.get(key) is False:
            return None
        return self.number(key, low, high)

    def pin(self, key: str) -> int | None:
        value = self.get(key)
        if value is False:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_PINS:
            raise self.fail(key, f"expected a BCM pin number 0..27 or false, got {value!r}")
        return value

    def pin_list(self, key: str) -> tuple[int, ...]:
        value = self.get(key)
        if value is False:
            return ()
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v in BCM_PINS for v in value
        ):
            raise self.fail(key, f"expected a list of BCM pin numbers 0..27, got {value!r}")
        return tuple(value)

    def keys(self, key: str) -> tuple[str, ...]:
        value = self.get(key)
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(key, f"expected a key name or a list of key names, got {value!r}")
        return tuple(value)


def _check_known_keys(defaults: dict[str, Any], user: dict[str, Any], reader: _Reader) -> None:
    """Unknown sections and keys are errors; when reading leniently, those outside [pins] are
    noted and left out instead (a mistyped [pins] key may hide a pin the owner meant to move)."""
    lenient = reader.defaults is not None
    for table, content in list(user.items()):
        if table not in defaults:
            error = reader.fail(table, f"unknown section [{table}] (known: {', '.join(defaults)})")
            if not lenient:
                raise error
            reader.problems.append(f"{error} — ignored")
            reader.data.pop(table, None)
            continue
        if not isinstance(content, dict):
            raise reader.fail(table, f"[{table}] must be a table")
        for name in list(content):
            if name not in defaults[table]:
                known = ", ".join(defaults[table])
                error = reader.fail(f"{table}.{name}", f"unknown key (known in [{table}]: {known})")
                if not lenient or table not in FORGIVING_TABLES:
                    raise error
                reader.problems.append(f"{error} — ignored")
                reader.data[table].pop(name, None)


def _toml_value(value: Any) -> str:
    """A default as the config file would spell it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return str(value)


def parse_config(text: str = "", source: Path | None = None, lenient: bool = False) -> Config:
    """Defaults overridden by ``text`` (TOML). Raises ConfigError naming key and line.

    ``lenient`` (the appliance starting): a bad value in a forgiving table (screen, seats,
    buttons, camera, keyboard) is replaced by its default and noted in ``Config.problems``, so
    the table sees the mistake on the screen instead of a dead panel; [pins] mistakes and a file
    that is not TOML still raise."""
    defaults = tomllib.loads(DEFAULT_CONFIG_TOML)
    try:
        user = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # tomllib's message already ends with "(at line N, column M)".
        raise ConfigError(f"{source or 'config'}: not valid TOML: {error}") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise ConfigError(
            f"{source or 'config'}: not a config file (tables or arrays nested too deeply)"
        ) from None
    except ValueError:  # Python's guard against huge integers (sys.get_int_max_str_digits)
        raise ConfigError(
            f"{source or 'config'}: a number is far too long (thousands of digits)"
        ) from None
    lines = _key_lines(text)
    reader = _Reader(
        _merge(defaults, user),
        source,
        lines,
        tomllib.loads(DEFAULT_CONFIG_TOML) if lenient else None,
    )
    _check_known_keys(defaults, user, reader)
    seat_count = reader.forgive("seats.count", lambda key: reader.integer(key, 1, 5))
    buttons = ButtonConfig(
        bounce_time=reader.forgive("buttons.bounce_time", lambda k: reader.number(k, 0.0, 1.0)),
        hold_time=reader.forgive("buttons.hold_time", lambda k: reader.number(k, 0.2, 30.0)),
    )
    return Config(
        screen=_screen(reader),
        seat_count=seat_count,
        buttons=buttons,
        pins=_pins(reader, seat_count),
        camera=_camera(reader),
        keyboard={name: reader.forgive(f"keyboard.{name}", reader.keys) for name in ACTION_KEYS},
        source=source,
        key_lines=lines,
        problems=tuple(reader.problems),
    )


def _screen(reader: _Reader) -> ScreenConfig:
    width = reader.forgive("screen.width", lambda key: reader.integer_or_auto(key, 320, 7680))
    height = reader.forgive("screen.height", lambda key: reader.integer_or_auto(key, 240, 4320))
    auto_size = width is None and height is None
    # Only one of them given (an older file): the other keeps the 7-inch panel's number.
    width = FALLBACK_SCREEN[0] if width is None else width
    height = FALLBACK_SCREEN[1] if height is None else height
    rotate = reader.forgive("screen.rotate", reader.right_angle_or_auto)
    return ScreenConfig(
        width=width,
        height=height,
        fullscreen=reader.forgive("screen.fullscreen", reader.boolean),
        fps=reader.forgive("screen.fps", lambda key: reader.integer(key, 5, 240)),
        rotate=0 if rotate is None else rotate,
        auto_size=auto_size,
        auto_rotate=rotate is None,
    )


def _pins(reader: _Reader, seat_count: int) -> PinConfig:
    pins = PinConfig(
        buttons={name: reader.pin(f"pins.{name}") for name in ACTION_KEYS},
        encoder_a=reader.pin("pins.encoder_a"),
        encoder_b=reader.pin("pins.encoder_b"),
        encoder_button=reader.pin("pins.encoder_button"),
        led_bar=reader.pin_list("pins.led_bar"),
        status_led=reader.pin("pins.status_led"),
        buzzer=reader.pin("pins.buzzer"),
        buzzer_type=reader.choice("pins.buzzer_type", ("tonal", "active")),
        seat_leds=reader.pin_list("pins.seat_leds"),
    )
    if len(pins.seat_leds) > len(SEAT_KEYS):
        raise reader.fail("pins.seat_leds", f"at most {len(SEAT_KEYS)} pins, one per seat button")
    if (pins.encoder_a is None) != (pins.encoder_b is None):
        key = "pins.encoder_b" if pins.encoder_b is None else "pins.encoder_a"
        raise reader.fail(key, "the rotary encoder needs both encoder_a and encoder_b")
    _check_pins_unique(pins, reader)
    _check_navigation(pins, seat_count, reader)
    return pins


def _camera(reader: _Reader) -> CameraConfig:
    f = reader.forgive
    return CameraConfig(
        backend=f("camera.backend", lambda key: reader.choice(key, CAMERA_BACKENDS)),
        width=f("camera.width", lambda key: reader.integer(key, 64, 10000)),
        height=f("camera.height", lambda key: reader.integer(key, 64, 10000)),
        autofocus=f("camera.autofocus", reader.boolean),
        device_index=f("camera.device_index", lambda key: reader.integer(key, 0, 63)),
        folder=f("camera.folder", reader.string),
        # libcamera's LensPosition is in dioptres: 0 = infinity, 10 = 10 cm.
        lens_position=f("camera.lens_position", lambda key: reader.number_or_false(key, 0.0, 32.0)),
        timeout=f("camera.timeout", lambda key: reader.number(key, 0.5, 120.0)),
        rotate=f("camera.rotate", reader.right_angle),
        flip=f("camera.flip", lambda key: reader.choice(key, FLIPS)),
    )


def _check_pins_unique(pins: PinConfig, reader: _Reader) -> None:
    owners: dict[int, str] = {}
    for key, pin in pins.assigned():
        if pin in owners:
            raise reader.fail(key, f"pin {pin} is already used by {owners[pin]}")
        owners[pin] = key


def _check_navigation(pins: PinConfig, seat_count: int, reader: _Reader) -> None:
    """The appliance is unusable without a way to move, choose and go back."""
    has = pins.buttons
    if not pins.has_encoder and (has["left"] is None or has["right"] is None):
        raise reader.fail("pins.left", "wire LEFT and RIGHT buttons or a rotary encoder")
    if pins.encoder_button is None and has["ok"] is None:
        raise reader.fail("pins.ok", "wire an OK button or the encoder's push switch")
    if has["back"] is None:
        raise reader.fail("pins.back", "a BACK button is required")


def load_config(
    path: Path | None = None, environ: dict[str, str] | None = None, lenient: bool = False
) -> Config:
    """Read the config file if it exists (``path`` or :func:`config_path`), else the defaults.
    ``lenient``: see :func:`parse_config`."""
    explicit = path is not None
    path = path if path is not None else config_path(environ)
    if not path.exists():
        if explicit:
            raise ConfigError(f"{path}: no such config file")
        return parse_config("")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    return parse_config(text, source=path, lenient=lenient)
