"""Player-facing settings, kept in the state store (namespace ``settings``).

Unlike the config file (what is wired where), these are choices made at the table with the
buttons: sound on/off, the status LED on/off and the table's name.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from device.hardware import Hardware
    from display.store import Store

NAMESPACE = "settings"


@dataclass
class Settings:
    sound: bool = True
    status_led: bool = True
    table_name: str = ""  # shown in the home screen's title bar ("Tablekeeper - Friday club")


def load(store: Store) -> Settings:
    stored = store.get(NAMESPACE, "values", {}) or {}
    defaults = asdict(Settings())
    values = {}
    for key, default in defaults.items():
        value = stored.get(key, default)
        values[key] = value if isinstance(value, type(default)) else default
    return Settings(**values)


def save(store: Store, hardware: Hardware, settings: Settings) -> None:
    store.put(NAMESPACE, "values", asdict(settings))
    apply(hardware, settings)


def apply(hardware: Hardware, settings: Settings) -> None:
    """Make the hardware follow the settings."""
    hardware.muted = not settings.sound
    hardware.status_enabled = settings.status_led
