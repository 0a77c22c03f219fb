"""The one object the app talks to for buttons, encoder, LED bar, status LED and buzzer.

Both backends are the same gpiozero classes; only the pin factory differs:

* real: gpiozero's default factory (lgpio on a Pi 5 / Bookworm) on the configured BCM pins;
* simulated: ``MockFactory(pin_class=MockPWMPin)`` (PWM-capable, so PWMLED, TonalBuzzer and a
  PWM LEDBarGraph work). :mod:`device.simulated` presses, releases and turns the inputs by
  driving those mock pins low/high (buttons are pull-up, pressed = low), so gpiozero's own
  Button and RotaryEncoder code decides what happened, exactly as with real wires.

Inputs come out of :meth:`Hardware.poll` as :class:`InputEvent` values named by the action keys of
the config (``"seat_1"`` .. ``"shutter"``; the display layer maps them to its Action enum). They
are queued because real gpiozero callbacks run on gpiozero's own threads.

Outputs are driven on the caller's clock (``now`` callable), not on gpiozero's background blink
threads, so a scripted run with a fake clock sees the buzzer stop and the status LED blink
deterministically. Call :meth:`Hardware.update` once a frame.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from gpiozero import (
    LED,
    PWMLED,
    Button,
    Buzzer,
    Device,
    LEDBarGraph,
    RotaryEncoder,
    TonalBuzzer,
)

from device.config import ACTION_KEYS, Config
from device.pins import (
    PinProblem,
    describe_pin_error,
    pin_label,
    pin_trouble,
    simulated_pin_factory,
)

log = logging.getLogger(__name__)


class HardwareError(Exception):
    """No GPIO at all (no pin library, no GPIO chip). A busy or invalid pin is not an error:
    that part is left out and listed in :attr:`Hardware.problems`."""


def part_name(action_key: str) -> str:
    """ "seat_1" -> "SEAT 1", as players and the About page call the part."""
    return action_key.upper().replace("_", " ")


@dataclass(frozen=True)
class InputEvent:
    """``kind`` is "press" or "release"; ``name`` an action key such as "seat_1" or "ok"."""

    kind: str
    name: str


class Hardware:
    """Buttons, encoder, LED bar, status LED and buzzer built from :class:`Config`."""

    def __init__(
        self,
        config: Config,
        *,
        simulated: bool,
        now: Callable[[], float],
        pin_factory: Any = None,
    ) -> None:
        self.config = config
        self.simulated = simulated
        self._now = now
        self._events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
        # A mock factory we made ourselves is reset on close (pins and reservations), so the
        # next Hardware in the same process - tests, the demo's scripts - starts clean.
        self._owns_factory = pin_factory is None and simulated
        if self._owns_factory:
            pin_factory = simulated_pin_factory()
        elif pin_factory is None:
            try:  # no GPIO at all (a PC, a missing pin library) stops the launch with a reason
                Device.ensure_pin_factory()
            except Exception as error:
                raise HardwareError(f"cannot set up the GPIO devices: {error}") from error
            pin_factory = Device.pin_factory
        self.pin_factory = pin_factory
        self.buttons: dict[str, Button] = {}
        self.encoder: RotaryEncoder | None = None
        self.bar: LEDBarGraph | None = None
        self.status: PWMLED | None = None
        self.buzzer: TonalBuzzer | Buzzer | None = None
        #: The LED in each seat button (``pins.seat_leds``), SEAT 1's first; None = not working.
        self.seat_lights: list[LED | None] = []
        #: Parts that could not be set up (a busy or invalid pin): the rest runs without them.
        self.problems: list[PinProblem] = []
        self._devices: list[Any] = []
        self._buzz_until: float | None = None
        self._tone_hz: float | None = None
        self._blink_period: float | None = None
        self._status_level = 0.0
        self._held_beeps: list[tuple[float, float]] | None = None  # see hold_beeps()
        #: Player settings: a muted buzzer stays silent; a disabled status LED stays dark.
        self.muted = False
        self.status_enabled = True
        self._build()
        for problem in self.problems:
            log.warning("%s", problem.sentence())

    # -- construction -------------------------------------------------------------------------
    def _attempt(self, part: str, pins: tuple[int, ...], make: Callable[[], Any]) -> Any:
        """``make()``'s device, or None with a :class:`PinProblem` saying which pin and why.

        Each pin is tried on its own first: the pin libraries do not always say which pin of a
        part failed, and a device that fails half-built keeps its pins reserved.
        """
        troubles = {pin: pin_trouble(pin, self.pin_factory) for pin in pins}
        bad = {pin: why for pin, why in troubles.items() if why is not None}
        if bad:
            self.problems.append(PinProblem(part, tuple(bad), "; ".join(bad.values())))
            return None
        try:
            device = make()
        except Exception as error:  # gpiozero raises many kinds: busy pin, bad pin, no PWM
            if len(pins) == 1:
                reason = describe_pin_error(pins[0], error)
            else:
                labels = ", ".join(pin_label(pin) for pin in pins)
                reason = f"{labels}: {type(error).__name__}: {error}"
            self.problems.append(PinProblem(part, pins, reason))
            return None
        self._devices.append(device)
        return device

    def _button(self, pin: int) -> Button:
        timing = self.config.buttons
        return Button(
            pin,
            pull_up=True,
            bounce_time=timing.bounce_time or None,
            hold_time=timing.hold_time,
            pin_factory=self.pin_factory,
        )

    def _build(self) -> None:
        pins = self.config.pins
        for name in ACTION_KEYS:
            pin = pins.buttons[name]
            if pin is None or (name.startswith("seat_") and int(name[5:]) > self.config.seat_count):
                continue
            button = self._attempt(part_name(name), (pin,), partial(self._button, pin))
            if button is not None:
                self._wire_button(button, name)
                self.buttons[name] = button
        if pins.encoder_a is not None and pins.encoder_b is not None:
            a, b = pins.encoder_a, pins.encoder_b
            self.encoder = self._attempt(
                "ENCODER",
                (a, b),
                lambda: RotaryEncoder(a, b, max_steps=0, pin_factory=self.pin_factory),
            )
            if self.encoder is not None:
                self.encoder.when_rotated_clockwise = lambda: self._tap("right")
                self.encoder.when_rotated_counter_clockwise = lambda: self._tap("left")
        if pins.encoder_button is not None:
            push_pin = pins.encoder_button
            push = self._attempt("ENCODER PUSH", (push_pin,), lambda: self._button(push_pin))
            if push is not None:
                self._wire_button(push, "ok")
                self.buttons["encoder_button"] = push
        self._build_outputs()

    def _build_outputs(self) -> None:
        pins, factory = self.config.pins, self.pin_factory
        if pins.led_bar:
            self._build_bar(pins.led_bar)
        if pins.status_led is not None:
            status_pin = pins.status_led
            self.status = self._attempt(
                "STATUS LED", (status_pin,), lambda: PWMLED(status_pin, pin_factory=factory)
            )
        if pins.buzzer is not None:
            buzzer_pin = pins.buzzer
            make: Callable[[], Any] = (
                partial(TonalBuzzer, buzzer_pin, octaves=3, pin_factory=factory)
                if pins.buzzer_type == "tonal"
                else partial(Buzzer, buzzer_pin, pin_factory=factory)
            )
            self.buzzer = self._attempt("BUZZER", (buzzer_pin,), make)
        for seat, pin in enumerate(pins.seat_leds, start=1):
            self.seat_lights.append(
                self._attempt(f"SEAT {seat} LED", (pin,), partial(LED, pin, pin_factory=factory))
            )

    def _build_bar(self, bar_pins: tuple[int, ...]) -> None:
        """The LED bar on every pin that works: a busy pin leaves one LED out, not the bar."""
        factory = self.pin_factory
        self.bar = self._attempt(
            "LED BAR", bar_pins, lambda: LEDBarGraph(*bar_pins, pwm=True, pin_factory=factory)
        )
        if self.bar is not None or not self.problems:
            return
        problem = self.problems[-1]
        usable = tuple(pin for pin in bar_pins if pin not in problem.pins)
        if not usable or len(usable) == len(bar_pins):
            return
        self.bar = self._attempt(
            "LED BAR", usable, lambda: LEDBarGraph(*usable, pwm=True, pin_factory=factory)
        )
        if self.bar is not None:
            effect = f"runs on {len(usable)} of its {len(bar_pins)} LEDs"
            self.problems[-1] = PinProblem(problem.part, problem.pins, problem.reason, effect)

    def _wire_button(self, button: Button, name: str) -> None:
        button.when_pressed = lambda: self._events.put(InputEvent("press", name))
        button.when_released = lambda: self._events.put(InputEvent("release", name))
        self._devices.append(button)

    def _tap(self, name: str) -> None:
        # An encoder detent is a complete press: the app sees press + release at once.
        self._events.put(InputEvent("press", name))
        self._events.put(InputEvent("release", name))

    # -- inputs -------------------------------------------------------------------------------
    def poll(self) -> list[InputEvent]:
        """Everything that happened on the inputs since the last call, in order."""
        events = []
        while True:
            try:
                events.append(self._events.get_nowait())
            except queue.Empty:
                return events

    def inputs(self) -> list[str]:
        """Action keys that some input produces (buttons, encoder directions, push switch)."""
        names = {name for name in self.buttons if name != "encoder_button"}
        if self.encoder is not None:
            names |= {"left", "right"}
        if "encoder_button" in self.buttons:
            names.add("ok")
        return [name for name in ACTION_KEYS if name in names]

    def is_pressed(self, name: str) -> bool:
        button = self.button_for(name)
        return bool(button is not None and button.is_pressed)

    def button_for(self, name: str) -> Button | None:
        """The button behind action key ``name`` (OK may be the encoder's push switch)."""
        if name in self.buttons:
            return self.buttons[name]
        if name == "ok":
            return self.buttons.get("encoder_button")
        return None

    # -- outputs ------------------------------------------------------------------------------
    def set_bar(self, fraction: float) -> None:
        """Light the LED bar to ``fraction`` (0..1); the last LED dims for the partial part."""
        if self.bar is not None:
            self.bar.value = max(0.0, min(1.0, fraction))

    @property
    def bar_value(self) -> float:
        return float(self.bar.value) if self.bar is not None else 0.0

    @property
    def bar_levels(self) -> list[float]:
        """Brightness of each LED of the bar, first LED first."""
        return [float(led.value) for led in self.bar] if self.bar is not None else []

    def set_seat_leds(self, seats: Iterable[int]) -> None:
        """Light the LEDs of the seat buttons numbered in ``seats`` (1 = SEAT 1), the others
        dark. Seats without an LED (``pins.seat_leds`` shorter, or none) are skipped."""
        lit = set(seats)
        for seat, light in enumerate(self.seat_lights, start=1):
            if light is not None:
                light.value = seat in lit

    @property
    def seat_leds(self) -> list[bool]:
        """Whether each seat button's LED is lit, SEAT 1's first (empty: none fitted)."""
        return [bool(light is not None and light.value) for light in self.seat_lights]

    def set_status(self, level: float) -> None:
        """Status LED steady at ``level`` (0 = off, 1 = full)."""
        self._blink_period = None
        self._status_level = max(0.0, min(1.0, level))
        if self.status is not None:
            self.status.value = self._status_level if self.status_enabled else 0.0

    def blink_status(self, period: float = 1.0) -> None:
        """Status LED blinks (on for half of ``period``), driven by :meth:`update`."""
        self._blink_period = max(0.05, period)
        self.update()

    @property
    def status_value(self) -> float:
        return float(self.status.value) if self.status is not None else self._status_level

    def beep(self, tone_hz: float = 880.0, seconds: float = 0.15) -> None:
        """Sound the buzzer for ``seconds`` (of the app's clock); an active buzzer ignores tone."""
        if self.buzzer is None or self.muted:
            return
        if self._held_beeps is not None:
            self._held_beeps.append((tone_hz, seconds))
            return
        if isinstance(self.buzzer, TonalBuzzer):
            low = self.buzzer.min_tone.frequency
            high = self.buzzer.max_tone.frequency
            tone = max(low, min(high, tone_hz))
            self.buzzer.play(tone)
            self._tone_hz = tone
        else:
            self.buzzer.on()
            self._tone_hz = None
        self._buzz_until = self._now() + seconds

    def hold_beeps(self) -> None:
        """Keep the next beeps back instead of sounding them, until :meth:`take_held_beeps`:
        the app sounds the beep that acknowledges a press only once the press is saved."""
        self._held_beeps = []

    def take_held_beeps(self) -> list[tuple[float, float]]:
        """The beeps kept back since :meth:`hold_beeps` as (tone_hz, seconds); beeps sound
        again at once from now on."""
        held, self._held_beeps = self._held_beeps or [], None
        return held

    def silence(self) -> None:
        if self._held_beeps is not None:
            self._held_beeps.clear()  # a beep silenced before it sounded never sounds
        if self.buzzer is not None:
            if isinstance(self.buzzer, TonalBuzzer):
                self.buzzer.stop()
            else:
                self.buzzer.off()
        self._buzz_until = None
        self._tone_hz = None

    @property
    def buzzing(self) -> bool:
        return self._buzz_until is not None

    @property
    def tone_hz(self) -> float | None:
        """The tone being played (None when silent or for an active buzzer)."""
        return self._tone_hz

    def outputs_off(self) -> None:
        """Bar and seat LEDs dark, status LED off, buzzer silent."""
        self.set_bar(0.0)
        self.set_seat_leds(())
        self.set_status(0.0)
        self.silence()

    def update(self, now: float | None = None) -> None:
        """Advance time-driven outputs (end of a beep, status blink). Call once a frame."""
        now = self._now() if now is None else now
        if self._buzz_until is not None and now >= self._buzz_until:
            self.silence()
        if self._blink_period is not None and self.status is not None:
            lit = (now % self._blink_period) < self._blink_period / 2
            self.status.value = 1.0 if lit and self.status_enabled else 0.0
        if self.simulated:
            self._trim_mock_history()

    def _trim_mock_history(self) -> None:
        """gpiozero's MockPin keeps every state change it ever had (``pin.states``, for its own
        test assertions): a simulated appliance left running for hours would grow by megabytes
        (LED bar, PWM status LED, buzzer). Keep only the latest few."""
        for pin in getattr(self.pin_factory, "pins", {}).values():
            states = getattr(pin, "states", None)
            if isinstance(states, list) and len(states) > 64:
                del states[:-8]

    def close(self) -> None:
        # gpiozero's Button.close() joins its hold thread, which only notices the stop request
        # on its next 0.1 s poll: 0.1 s per button, close to a second per app. Signalling all of
        # them first (stop, then wake) lets every thread finish at once.
        for device in self._devices:
            thread = getattr(device, "_hold_thread", None)
            if thread is not None:
                thread.stopping.set()
                thread.holding.set()
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:  # closing is best effort; a half-built device may refuse
                pass
        self._devices.clear()
        self.buttons.clear()
        self.seat_lights.clear()
        if self._owns_factory:
            self.pin_factory.reset()

    def describe(self) -> list[str]:
        """One line per wired input/output with BCM and header pin, for the About page; parts
        left out (a busy or invalid pin) say so at the end."""
        pins = self.config.pins
        lines = [
            f"{part_name(name)}: {pin_label(pins.buttons[name])}"
            for name in self.buttons
            if name in pins.buttons
        ]
        if self.encoder is not None:
            lines.append(f"ENCODER A: {pin_label(pins.encoder_a)}")
            lines.append(f"ENCODER B: {pin_label(pins.encoder_b)}")
        if pins.encoder_button is not None:
            lines.append(f"ENCODER PUSH: {pin_label(pins.encoder_button)}")
        for index, pin in enumerate(pins.led_bar, start=1):
            lines.append(f"BAR LED {index}: {pin_label(pin)}")
        for seat, pin in enumerate(pins.seat_leds, start=1):
            lines.append(f"SEAT {seat} LED: {pin_label(pin)}")
        if pins.status_led is not None:
            lines.append(f"STATUS LED: {pin_label(pins.status_led)}")
        if pins.buzzer is not None:
            lines.append(f"BUZZER ({pins.buzzer_type}): {pin_label(pins.buzzer)}")
        return lines + [problem.sentence() for problem in self.problems]


__all__ = ["Hardware", "HardwareError", "InputEvent", "PinProblem", "part_name"]
