"""Simulated input: press, release and turn the inputs of a simulated :class:`Hardware`.

Each call drives the gpiozero mock pins behind an action key, as a finger on a real button would
(buttons are pull-up: pressed = pin low), so gpiozero's own Button and RotaryEncoder code decides
what happened and the events come out of :meth:`Hardware.poll` exactly as on the Pi. This is the
keyboard's path in ``--sim``, the scripts' ``press``/``hold`` and the tests'; the production
:class:`Hardware` has no simulated entry points of its own.
"""

from __future__ import annotations

from device.hardware import Hardware

# Quadrature sequences (A, B levels; 1 = high/idle) for one detent of the encoder, as gpiozero's
# RotaryEncoder decodes them: A falls first = clockwise.
CLOCKWISE = ((0, 1), (0, 0), (1, 0), (1, 1))
COUNTER_CLOCKWISE = ((1, 0), (0, 0), (0, 1), (1, 1))


def _require_simulated(hardware: Hardware) -> None:
    if not hardware.simulated:
        raise RuntimeError("simulated input on real hardware")


def press(hardware: Hardware, name: str) -> None:
    """Press the input behind action key ``name`` (drives its mock pin low).

    LEFT/RIGHT without buttons of their own turn the encoder one detent instead. KeyError when
    nothing is wired for ``name``.
    """
    _require_simulated(hardware)
    button = hardware.button_for(name)
    if button is not None:
        button.pin.drive_low()
        return
    if name in ("left", "right") and hardware.encoder is not None:
        turn(hardware, 1 if name == "right" else -1)
        return
    raise KeyError(f"no input is wired for {name!r}")


def release(hardware: Hardware, name: str) -> None:
    """Release the input behind ``name`` (drives its mock pin high); an encoder direction has
    nothing to release."""
    _require_simulated(hardware)
    button = hardware.button_for(name)
    if button is not None:
        button.pin.drive_high()
    elif not (name in ("left", "right") and hardware.encoder is not None):
        raise KeyError(f"no input is wired for {name!r}")


def turn(hardware: Hardware, detents: int) -> None:
    """Turn the encoder ``detents`` steps; positive = clockwise (RIGHT)."""
    _require_simulated(hardware)
    if hardware.encoder is None:
        raise KeyError("no rotary encoder is wired")
    pin_a, pin_b = hardware.encoder.a.pin, hardware.encoder.b.pin
    sequence = CLOCKWISE if detents > 0 else COUNTER_CLOCKWISE
    for _ in range(abs(detents)):
        for level_a, level_b in sequence:
            pin_a.drive_high() if level_a else pin_a.drive_low()
            pin_b.drive_high() if level_b else pin_b.drive_low()


__all__ = ["CLOCKWISE", "COUNTER_CLOCKWISE", "press", "release", "turn"]
