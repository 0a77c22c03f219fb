"""Player-facing settings, kept in the state store (namespace ``settings``).

Unlike the config file (what is wired where), these are choices made at the table with the
buttons: sound on/off and the status LED on/off.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from display.app import App

NAMESPACE = "settings"


@dataclass
class Settings:
    sound: bool = True
    status_led: bool = True


def load(app: App) -> Settings:
    stored = app.store.get(NAMESPACE, "values", {}) or {}
    defaults = asdict(Settings())
    values = {key: stored.get(key, value) for key, value in defaults.items()}
    return Settings(**{k: bool(v) for k, v in values.items()})


def save(app: App, settings: Settings) -> None:
    app.store.put(NAMESPACE, "values", asdict(settings))
    apply(app, settings)


def apply(app: App, settings: Settings | None = None) -> None:
    """Make the hardware follow the settings."""
    settings = settings or load(app)
    app.hardware.muted = not settings.sound
    app.hardware.status_enabled = settings.status_led
