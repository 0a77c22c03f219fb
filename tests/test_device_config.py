"""The TOML config: defaults, overrides, and errors that name the key and the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.config import ConfigError, config_path, load_config, parse_config


def test_defaults_are_complete_and_usable():
    config = parse_config("")
    assert config.seat_count == 5
    assert config.screen.width == 800 and config.screen.height == 480
    assert config.pins.buttons["seat_1"] == 5
    assert config.pins.buttons["left"] is None  # the encoder does LEFT/RIGHT by default
    assert config.pins.has_encoder
    assert len(config.pins.led_bar) == 8
    assert config.pins.seat_leds == ()  # no LEDs in the seat buttons unless the file says so
    assert config.keyboard["ok"] == ("return", "space")


def test_file_overrides_only_what_it_names(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text(
        "[seats]\ncount = 3\n\n[pins]\nleft = 2\nright = 3\nencoder_a = false\n"
        'encoder_b = false\n\n[keyboard]\nshutter = ["c", "p"]\n'
    )
    config = load_config(path)
    assert config.seat_count == 3
    assert config.pins.buttons["left"] == 2
    assert not config.pins.has_encoder
    assert config.pins.buttons["back"] == 16  # untouched default
    assert config.keyboard["shutter"] == ("c", "p")
    assert config.source == path


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[pins]\n# comment\nseat_1 = 99\n", "line 3: pins.seat_1: expected a BCM pin"),
        ("[pins]\nback = 5\n", "line 2: pins.back: pin 5 is already used by pins.seat_1"),
        ('[screen]\nwidth = 800\nfps = "fast"\n', "line 3: screen.fps: expected a whole number"),
        ("[seats]\ncount = 7\n", "line 2: seats.count: 7 is out of range 1..5"),
        ("[pins]\nseat1 = 5\n", "line 2: pins.seat1: unknown key"),
        ("[colours]\nbg = 1\n", "line 1: colours: unknown section"),
        ('[camera]\nbackend = "webcam"\n', "line 2: camera.backend: expected one of auto"),
        ("[keyboard]\nok = 13\n", "line 2: keyboard.ok: expected a key name"),
        ("[pins]\nencoder_b = false\n", "line 2: pins.encoder_b: the rotary encoder needs both"),
        ("[pins]\nencoder_a = false\nencoder_b = false\n", "pins.left: wire LEFT and RIGHT"),
        ('[pins]\nled_bar = [4, "x"]\n', "line 2: pins.led_bar: expected a list of BCM pin"),
        ("[pins]\nseat_leds = [2, 3, 7, 8, 14, 15]\n", "line 2: pins.seat_leds: at most 5 pins"),
        ("[pins]\nseat_leds = [2, 5]\n", "pins.seat_leds: pin 5 is already used by pins.seat_1"),
        ("[screen]\nrotate = 45\n", "line 2: screen.rotate: expected 0, 90, 180 or 270"),
        ("[screen]\nrotate = true\n", "line 2: screen.rotate: expected 0, 90, 180 or 270"),
        ("[camera]\nrotate = -90\n", "line 2: camera.rotate: expected 0, 90, 180 or 270"),
        ('[camera]\nflip = "both"\n', "line 2: camera.flip: expected one of none, horizontal"),
        ("[camera]\nlens_position = 40\n", "line 2: camera.lens_position: 40 is out of range"),
        ("[camera]\nlens_position = true\n", "line 2: camera.lens_position: expected a number"),
        ("[camera]\ntimeout = 0\n", "line 2: camera.timeout: 0 is out of range 0.5..120"),
    ],
)
def test_errors_name_file_line_and_key(tmp_path: Path, text: str, expected: str):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(str(path))
    assert expected in message


def test_toml_syntax_error_gives_the_line(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text("[pins]\nseat_1 = = 5\n")
    with pytest.raises(ConfigError, match=r"not valid TOML: .*line 2"):
        load_config(path)


def test_missing_explicit_file_is_an_error_but_missing_default_is_not(tmp_path: Path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.toml")
    config = load_config(environ={"XDG_CONFIG_HOME": str(tmp_path)})
    assert config.source is None


def test_config_location_follows_xdg_and_override(tmp_path: Path):
    assert config_path({"XDG_CONFIG_HOME": "/x"}) == Path("/x/tablekeeper/config.toml")
    assert config_path({"TABLEKEEPER_CONFIG": "/y.toml", "XDG_CONFIG_HOME": "/x"}) == Path(
        "/y.toml"
    )
    (tmp_path / "tablekeeper").mkdir()
    (tmp_path / "tablekeeper" / "config.toml").write_text("[seats]\ncount = 4\n")
    assert load_config(environ={"XDG_CONFIG_HOME": str(tmp_path)}).seat_count == 4


def test_rotation_and_camera_keys():
    config = parse_config(
        "[screen]\nwidth = 720\nheight = 1280\nrotate = 90\n\n[camera]\nrotate = 180\n"
        'flip = "horizontal"\nlens_position = 3.25\ntimeout = 2.5\n'
    )
    assert config.screen.rotate == 90
    assert config.screen.drawing_size == (1280, 720)  # Touch Display 2 turned to landscape
    camera = config.camera
    assert (camera.rotate, camera.flip, camera.lens_position, camera.timeout) == (
        180,
        "horizontal",
        3.25,
        2.5,
    )
    defaults = parse_config()
    assert defaults.screen.rotate == 0 and defaults.screen.drawing_size == (800, 480)
    assert defaults.camera.lens_position is None  # autofocus unless a position is set
    assert (defaults.camera.rotate, defaults.camera.flip, defaults.camera.timeout) == (
        0,
        "none",
        5.0,
    )
    assert parse_config("[camera]\nlens_position = false\n").camera.lens_position is None


def test_assigned_pins_follow_the_file_and_the_seat_count():
    pins = parse_config("[seats]\ncount = 2\n").pins
    keys = [key for key, _ in pins.assigned(2)]
    assert keys[:3] == ["pins.seat_1", "pins.seat_2", "pins.back"]
    assert "pins.seat_3" not in keys and keys.count("pins.led_bar") == 8
    assert len(pins.assigned()) == len(keys) + 3
