"""gpiozero devices on mock pins: button presses, the encoder, LED bar, status LED, buzzer."""

from __future__ import annotations

import pytest
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from device import simulated
from device.config import parse_config
from device.hardware import Hardware, HardwareError, InputEvent
from device.pins import simulated_pin_factory


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t


@pytest.fixture
def factory():
    made = simulated_pin_factory()
    yield made
    made.reset()
    if Device.pin_factory is not None:
        Device.pin_factory.reset()


@pytest.fixture
def clock():
    return Clock()


def make(factory, clock, text: str = "") -> Hardware:
    return Hardware(parse_config(text), simulated=True, now=clock.now, pin_factory=factory)


def test_mock_pin_press_and_release_come_out_as_events(factory, clock):
    hardware = make(factory, clock)
    pin = factory.pin(5)  # seat_1 by default
    pin.drive_low()
    assert hardware.is_pressed("seat_1")
    pin.drive_high()
    assert hardware.poll() == [InputEvent("press", "seat_1"), InputEvent("release", "seat_1")]
    assert hardware.poll() == []


def test_sim_press_goes_through_the_mock_pin(factory, clock):
    hardware = make(factory, clock)
    simulated.press(hardware, "shutter")
    assert factory.pin(20).state == 0  # pulled low, as a real button to ground
    assert hardware.buttons["shutter"].is_pressed
    simulated.release(hardware, "shutter")
    assert factory.pin(20).state == 1
    assert [e.kind for e in hardware.poll()] == ["press", "release"]


def test_encoder_turns_both_ways_and_push_is_ok(factory, clock):
    hardware = make(factory, clock)
    simulated.turn(hardware, 3)
    assert hardware.encoder is not None and hardware.encoder.steps == 3
    simulated.turn(hardware, -1)
    assert hardware.encoder.steps == 2
    names = [e.name for e in hardware.poll() if e.kind == "press"]
    assert names == ["right", "right", "right", "left"]
    simulated.press(hardware, "ok")  # the encoder's push switch
    simulated.release(hardware, "ok")
    assert hardware.poll() == [InputEvent("press", "ok"), InputEvent("release", "ok")]


def test_encoder_driven_pin_by_pin_like_a_real_one(factory, clock):
    hardware = make(factory, clock)
    a, b = factory.pin(17), factory.pin(27)
    for level_a, level_b in ((0, 1), (0, 0), (1, 0), (1, 1)):  # one clockwise detent
        a.drive_low() if level_a == 0 else a.drive_high()
        b.drive_low() if level_b == 0 else b.drive_high()
    assert [e.name for e in hardware.poll()] == ["right", "right"]  # press + release


def test_navigation_buttons_instead_of_encoder(factory, clock):
    text = "[pins]\nleft = 2\nright = 3\nok = 14\nencoder_a = false\nencoder_b = false\n"
    hardware = make(factory, clock, text)
    assert hardware.encoder is None
    simulated.press(hardware, "left")
    simulated.release(hardware, "left")
    assert hardware.poll()[0] == InputEvent("press", "left")
    with pytest.raises(KeyError):
        simulated.turn(hardware, 1)


def test_unwired_input_is_a_key_error(factory, clock):
    hardware = make(factory, clock, "[seats]\ncount = 2\n")
    assert "seat_3" not in hardware.inputs()
    with pytest.raises(KeyError):
        simulated.press(hardware, "seat_3")


def test_led_bar_shows_a_fraction(factory, clock):
    hardware = make(factory, clock)
    hardware.set_bar(0.5)
    assert hardware.bar_levels == [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    assert factory.pin(4).state == 1 and factory.pin(21).state == 0
    hardware.set_bar(0.3)  # 2.4 LEDs: the third glows at 40 %
    assert hardware.bar_levels[:3] == pytest.approx([1.0, 1.0, 0.4])
    hardware.set_bar(2.0)
    assert hardware.bar_value == 1.0


def test_beep_plays_a_tone_and_stops_on_the_callers_clock(factory, clock):
    hardware = make(factory, clock)
    hardware.beep(440, 0.2)
    assert hardware.buzzing and hardware.tone_hz == pytest.approx(440)
    assert factory.pin(18).frequency == pytest.approx(440)
    clock.t += 0.1
    hardware.update()
    assert hardware.buzzing
    clock.t += 0.15
    hardware.update()
    assert not hardware.buzzing
    assert factory.pin(18).state == 0


def test_active_buzzer_and_mute(factory, clock):
    hardware = make(factory, clock, '[pins]\nbuzzer_type = "active"\n')
    hardware.beep(440, 1.0)
    assert hardware.buzzing and hardware.tone_hz is None and factory.pin(18).state == 1
    hardware.silence()
    hardware.muted = True
    hardware.beep()
    assert not hardware.buzzing and factory.pin(18).state == 0


def test_status_led_blinks_on_the_callers_clock(factory, clock):
    hardware = make(factory, clock)
    clock.t = 10.0
    hardware.blink_status(1.0)
    assert hardware.status_value == 1.0
    clock.t = 10.6
    hardware.update()
    assert hardware.status_value == 0.0
    hardware.status_enabled = False
    clock.t = 11.1
    hardware.update()
    assert hardware.status_value == 0.0
    hardware.outputs_off()
    assert hardware.bar_value == 0 and not hardware.buzzing


def test_close_resets_an_owned_mock_factory(clock):
    first = Hardware(parse_config(), simulated=True, now=clock.now)
    first.close()
    second = Hardware(parse_config(), simulated=True, now=clock.now)  # same pins, no conflict
    simulated.press(second, "seat_2")
    assert second.poll()[0].name == "seat_2"
    second.close()


def test_describe_lists_pins_with_header_numbers(factory, clock):
    lines = make(factory, clock).describe()
    assert "SEAT 1: GPIO5 (pin 29)" in lines
    assert "BUZZER (tonal): GPIO18 (pin 12)" in lines


def test_simulated_input_refuses_real_hardware(factory, clock):
    hardware = Hardware(parse_config(), simulated=False, now=clock.now, pin_factory=factory)
    try:
        with pytest.raises(RuntimeError, match="real hardware"):
            simulated.press(hardware, "seat_1")
        assert not hasattr(hardware, "sim_press")  # no simulated entry points on Hardware
    finally:
        hardware.close()


def test_the_package_face_exports_what_the_app_uses():
    import device

    for name in device.__all__:
        assert getattr(device, name) is not None, name
    assert device.Hardware is Hardware and device.simulated is simulated


class error(Exception):  # noqa: N801 - named as lgpio names its exception
    """What lgpio raises when the kernel (an SPI driver) holds a line."""


class KernelHeldPin(MockPWMPin):
    """A mock pin that the kernel holds, as an SPI touch HAT's driver holds GPIO 7-11, 17, 25."""

    held: frozenset[int] = frozenset()

    def __init__(self, factory, info, **kwargs):
        if int(info.name[4:]) in self.held:
            raise error("'GPIO busy'")
        super().__init__(factory, info, **kwargs)


def test_a_pin_reserved_by_another_device_disables_only_that_input(factory, clock, caplog):
    other = Button(17, pin_factory=factory)  # someone else has the encoder's A pin
    hardware = make(factory, clock)
    assert hardware.encoder is None
    assert [p.part for p in hardware.problems] == ["ENCODER"]
    problem = hardware.problems[0]
    assert problem.pins == (17,)
    assert problem.sentence() == (
        "ENCODER disabled: GPIO17 (pin 11) is already used by another device"
    )
    assert problem.sentence() in caplog.text  # and in the log
    # Everything else starts and works.
    simulated.press(hardware, "seat_1")
    simulated.release(hardware, "seat_1")
    simulated.press(hardware, "ok")  # the encoder's push switch is on its own pin
    assert [e.name for e in hardware.poll()] == ["seat_1", "seat_1", "ok"]
    assert "left" not in hardware.inputs() and "ok" in hardware.inputs()
    with pytest.raises(KeyError):
        simulated.turn(hardware, 1)
    assert problem.sentence() in hardware.describe()
    hardware.close()
    other.close()


def test_an_spi_touch_hat_leaves_out_its_pins_and_the_appliance_starts(clock):
    KernelHeldPin.held = frozenset({7, 8, 9, 10, 11, 17, 25})
    factory = MockFactory(pin_class=KernelHeldPin)
    try:
        hardware = Hardware(parse_config(), simulated=True, now=clock.now, pin_factory=factory)
        parts = {p.part: p for p in hardware.problems}
        assert set(parts) == {"ENCODER", "LED BAR"}
        assert parts["ENCODER"].pins == (17,)
        assert "busy" in parts["ENCODER"].reason and "SPI touch screen" in parts["ENCODER"].reason
        # The bar runs on the LEDs whose pins are free (4, 23, 24, 21), not on none.
        assert parts["LED BAR"].pins == (25, 9, 10, 11)
        assert parts["LED BAR"].effect == "runs on 4 of its 8 LEDs"
        hardware.set_bar(1.0)
        assert hardware.bar_levels == [1.0, 1.0, 1.0, 1.0]
        assert "seat_5" in hardware.inputs() and hardware.buzzer is not None
        hardware.close()
    finally:
        factory.reset()
        KernelHeldPin.held = frozenset()


def test_no_gpio_at_all_is_still_a_hardware_error(clock, monkeypatch):
    def no_factory():
        raise ImportError("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    with pytest.raises(HardwareError, match="cannot set up the GPIO devices"):
        Hardware(parse_config(), simulated=False, now=clock.now)


def test_seat_button_leds_light_the_seats_named(factory, clock):
    hardware = make(factory, clock, "[pins]\nseat_leds = [2, 3, 7]\n")  # three of five seats
    assert hardware.seat_leds == [False, False, False]
    hardware.set_seat_leds([1, 3, 5])  # SEAT 5 has no LED: nothing to light
    assert hardware.seat_leds == [True, False, True]
    assert [factory.pin(pin).state for pin in (2, 3, 7)] == [1, 0, 1]
    hardware.set_seat_leds([2])
    assert [factory.pin(pin).state for pin in (2, 3, 7)] == [0, 1, 0]
    assert "SEAT 2 LED: GPIO3 (pin 5)" in hardware.describe()
    hardware.outputs_off()
    assert hardware.seat_leds == [False, False, False] and factory.pin(3).state == 0


def test_no_seat_leds_by_default(factory, clock):
    hardware = make(factory, clock)
    hardware.set_seat_leds([1, 2])  # nothing fitted: nothing happens
    assert hardware.seat_leds == []


def test_a_busy_seat_led_pin_leaves_out_only_that_led(factory, clock):
    from gpiozero import LED

    taken = LED(7, pin_factory=factory)
    try:
        hardware = make(factory, clock, "[pins]\nseat_leds = [2, 7]\n")
        hardware.set_seat_leds([1, 2])
        assert hardware.seat_leds == [True, False]
        assert [problem.part for problem in hardware.problems] == ["SEAT 2 LED"]
    finally:
        taken.close()
