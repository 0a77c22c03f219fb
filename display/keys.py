"""The keyboard in simulated mode: ``[keyboard]`` key names -> pygame key codes -> Actions.

``tablekeeper config`` uses :func:`build_keymap` to check a config file's key names without
starting the appliance.
"""

from __future__ import annotations

import pygame

from device.config import Config, ConfigError
from display.actions import Action


def key_code(name: str) -> int | None:
    """pygame key code for a key name ("a", "1", "return", "left", "f1"), or None."""
    for attribute in (f"K_{name}", f"K_{name.upper()}", f"K_{name.lower()}"):
        code = getattr(pygame, attribute, None)
        if isinstance(code, int):
            return code
    return None


def build_keymap(config: Config) -> dict[int, Action]:
    """pygame key code -> Action from ``[keyboard]``; ConfigError naming the line if a key
    name is unknown."""
    keymap: dict[int, Action] = {}
    for name, keys in config.keyboard.items():
        for key in keys:
            code = key_code(key)
            if code is None:
                raise ConfigError(
                    f"{config.where(f'keyboard.{name}')}: unknown key name {key!r} "
                    "(pygame key names: a, 1, return, space, left, escape, f1...)"
                )
            keymap[code] = Action(name.upper())
    return keymap


def pretty_key(name: str) -> str:
    """A key name as printed under a legend item: "return" -> "Enter"."""
    special = {"return": "Enter", "space": "Space", "backspace": "Bksp", "escape": "Esc"}
    return special.get(name.lower(), name.upper() if len(name) == 1 else name.capitalize())


def key_hints(config: Config) -> dict[Action, str]:
    """Action -> its first keyboard key, for the legend bar in simulated mode."""
    return {
        Action(name.upper()): pretty_key(keys[0]) for name, keys in config.keyboard.items() if keys
    }
