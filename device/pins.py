"""GPIO pins by number: header positions, labels, the simulated pin factory, and why a pin
cannot be claimed.

Pins are BCM GPIO numbers, as gpiozero means a bare integer. This module knows nothing about
buttons or LEDs; :mod:`device.hardware` builds those on the pins and :mod:`device.simulated`
drives the mock ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpiozero import GPIOPinInUse, InputDevice, PinInvalidPin
from gpiozero.pins.mock import MockFactory, MockPWMPin

# BCM GPIO number -> physical pin of the 40-pin header (all Pis since the B+).
HEADER_PIN = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip


def pin_label(pin: int | None) -> str:
    """ "GPIO5 (pin 29)"."""
    if pin is None:
        return "not wired"
    header = HEADER_PIN.get(pin)
    return f"GPIO{pin} (pin {header})" if header is not None else f"GPIO{pin}"


def simulated_pin_factory() -> MockFactory:
    """A fresh PWM-capable mock factory, so PWMLED, TonalBuzzer and a PWM LEDBarGraph work
    (a plain MockPin raises PinPWMUnsupported). gpiozero's mock pins and their reservations are
    class-level: call ``reset()`` between uses."""
    return MockFactory(pin_class=MockPWMPin)


#: Pins an SPI touch screen HAT (ADS7846/XPT2046 style) claims: SPI0 (7-11), pen IRQ 17, 25.
SPI_TOUCH_PINS = frozenset({7, 8, 9, 10, 11, 17, 25})


@dataclass(frozen=True)
class PinProblem:
    """A part of the wiring that could not be set up; the rest of the appliance runs.

    ``part`` is what a player would call it ("ENCODER", "SEAT 2", "LED BAR"), ``pins`` the pins
    at fault, ``effect`` what it means ("disabled", "runs on 6 of its 8 LEDs") and ``reason``
    why, one sentence per pin.
    """

    part: str
    pins: tuple[int, ...]
    reason: str
    effect: str = "disabled"

    def sentence(self) -> str:
        return f"{self.part} {self.effect}: {self.reason}"


def describe_pin_error(pin: int, error: BaseException) -> str:
    """Why ``pin`` could not be claimed, in words: busy, already used, or not a GPIO here."""
    label = pin_label(pin)
    text = str(error)
    if isinstance(error, GPIOPinInUse):
        return f"{label} is already used by another device"
    if "busy" in text.lower():  # lgpio: 'GPIO busy' (the kernel or another program has it)
        hint = (
            " (an SPI touch screen uses GPIO 7-11, 17 and 25: move this part to a free pin)"
            if pin in SPI_TOUCH_PINS
            else ""
        )
        return f"{label} is busy: the kernel or another program holds it{hint}"
    if isinstance(error, PinInvalidPin):
        return f"{label} is not a usable GPIO on this board"
    return f"{label} cannot be used ({type(error).__name__}: {text})"


def pin_trouble(pin: int, factory: Any) -> str | None:
    """None when ``pin`` can be claimed right now, else why not. The pin is claimed as an input
    with its pull-up (as buttons use it; harmless for an LED or buzzer, and the only pull GPIO 2
    and 3 allow) and released again."""
    try:
        probe = InputDevice(pin, pull_up=True, pin_factory=factory)
    except Exception as error:  # gpiozero and the pin libraries raise many kinds
        return describe_pin_error(pin, error)
    probe.close()
    return None
