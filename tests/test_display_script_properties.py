"""Property tests: any script text or config text gives steps/a config or a clear error
naming a line - never another exception."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from device.config import ConfigError, parse_config
from display.script import ScriptError, parse_script

WORDS = st.sampled_from(
    [
        "press",
        "hold",
        "advance",
        "camera",
        "shot",
        "type",
        "ok",
        "seat1",
        "seat9",
        "left",
        "2",
        "-1",
        "nan",
        "1e9",
        "x.png",
        "#",
        "",
        "  ",
        "\t",
        "ünïcode",
    ]
)
LINES = st.lists(st.lists(WORDS, max_size=4).map(" ".join), max_size=8).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(LINES | st.text(max_size=200))
def test_script_parser_never_fails_unclearly(text: str):
    try:
        steps = parse_script(text, Path("/nonexistent/s.txt"))
    except ScriptError as error:
        assert str(error).startswith("/nonexistent/s.txt line ")
    else:
        for step in steps:
            assert step.verb in ("press", "hold", "advance", "shot", "type")


KEYS = st.sampled_from(
    [
        "screen",
        "pins",
        "seats",
        "buttons",
        "camera",
        "keyboard",
        "width",
        "count",
        "seat_1",
        "led_bar",
        "backend",
        "ok",
        "fps",
        "hold_time",
        "buzzer_type",
        "bogus",
    ]
)
VALUES = st.sampled_from(
    ["5", "99", "-1", "false", "true", '"x"', "[4, 23]", "[]", "1.5", '"tonal"', '["a"]', "{}"]
)
TOML = st.lists(st.tuples(KEYS, st.lists(st.tuples(KEYS, VALUES), max_size=4)), max_size=4).map(
    lambda tables: "\n".join(
        f"[{table}]\n" + "\n".join(f"{k} = {v}" for k, v in entries) for table, entries in tables
    )
)


@settings(max_examples=300, deadline=None)
@given(TOML | st.text(max_size=200))
def test_config_parser_gives_a_config_or_a_located_error(text: str):
    try:
        config = parse_config(text, Path("c.toml"))
    except ConfigError as error:
        assert str(error).startswith("c.toml")
    else:
        assert 1 <= config.seat_count <= 5
