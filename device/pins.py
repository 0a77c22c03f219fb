"""GPIO pins by number: header positions, labels, the simulated pin factory.

Pins are BCM GPIO numbers, as gpiozero means a bare integer. This module knows nothing about
buttons or LEDs; :mod:`device.hardware` builds those on the pins and :mod:`device.simulated`
drives the mock ones.
"""

from __future__ import annotations

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
