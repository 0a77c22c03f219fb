"""Settings: sound, status LED, the table's name, clearing saved games, and an About page
(version, paths, wiring). Choices are kept in the state store (see ``display/settings.py``)."""

from __future__ import annotations

from importlib import metadata
from typing import TYPE_CHECKING, Any

import pygame

from display import settings, ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.widgets.confirm import ConfirmScreen, Saved, UndoOffer, keep_for_undo
from display.widgets.keyboard import KeyboardScreen
from display.widgets.menu import MenuScreen

if TYPE_CHECKING:
    from display.app import App

ITEMS = ("sound", "status_led", "table_name", "clear", "about")
KEEP_NAMESPACES = {settings.NAMESPACE}  # "clear saved games" keeps the settings themselves


def saved_games(app: App) -> list[tuple[str, str]]:
    """Every store entry "clear saved games" deletes: all but the settings."""
    dump = app.store.dump()["data"]
    return [
        (namespace, key)
        for namespace, entries in dump.items()
        if namespace not in KEEP_NAMESPACES
        for key in entries
    ]


def clear_saved_games(app: App) -> Saved:
    """Delete every store entry except the settings; returns what was deleted (for undo)."""
    entries = saved_games(app)
    saved = keep_for_undo(app, entries)
    for namespace, key in entries:
        app.store.delete(namespace, key)
    return saved


@register_screen
class SettingsScreen(MenuScreen):
    """Sound, status LED, the table's name, clearing saved games (with undo), About: the
    menu widget's rows, moves, taps and undo offer; OK changes the chosen setting."""

    kind = "settings"
    title = "Settings"

    def rows(self) -> list[tuple[str, str, str]]:
        current = settings.load(self.app.store)
        on_off = {True: "ON", False: "OFF"}
        labels = {
            "sound": ("Sound", on_off[current.sound]),
            "status_led": ("Status LED", on_off[current.status_led]),
            "table_name": ("Table name", current.table_name or "none"),
            "clear": ("Clear saved games", ""),
            "about": ("About this Tablekeeper", ""),
        }
        return [(item, *labels[item]) for item in ITEMS]

    def open(self, key: str) -> None:
        self.choose(key)

    def choose(self, item: str) -> None:
        current = settings.load(self.app.store)
        if item == "sound":
            current.sound = not current.sound
            settings.save(self.app.store, self.app.hardware, current)
            self.app.hardware.beep(880, 0.1)  # audible confirmation when switched on
        elif item == "status_led":
            current.status_led = not current.status_led
            settings.save(self.app.store, self.app.hardware, current)
        elif item == "table_name":
            keyboard = KeyboardScreen(self.app, "Name of this table", current.table_name, limit=24)
            self.app.push(keyboard, purpose="table_name")
        elif item == "clear":
            count = len(saved_games(self.app))
            if not count:
                self.app.toast("There are no saved games to clear.")
                return
            body = "Scores, ballots and games in progress are deleted. Settings stay."
            confirm = ConfirmScreen(
                self.app, "Clear all saved games?", body, "Clear all", "Keep all"
            )
            self.app.push(confirm, purpose="clear")
        elif item == "about":
            self.app.push(AboutScreen(self.app))

    def on_result(self, purpose: str, result: Any) -> None:
        """The table's name from the keyboard ("" or cancelled on an emptied field: no name);
        "clear saved games" confirmed (by a hold of OK)."""
        if purpose == "clear" and result:
            self.undo = UndoOffer.start(
                self.app, "Saved games cleared.", clear_saved_games(self.app)
            )
        elif purpose == "table_name":
            current = settings.load(self.app.store)
            current.table_name = result or ""
            settings.save(self.app.store, self.app.hardware, current)

    def legend(self) -> list[LegendItem]:
        return [
            (key, "Change" if key is Action.OK else meaning) for key, meaning in super().legend()
        ]

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = super().restore(app, data)
        assert isinstance(screen, SettingsScreen)
        screen.selected %= len(ITEMS)
        return screen


def version() -> str:
    try:
        return metadata.version("tablekeeper")
    except metadata.PackageNotFoundError:
        return "unknown"


@register_screen
class AboutScreen(Screen):
    kind = "about"
    title = "About"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.page = 0

    def pages(self) -> list[tuple[str, list[str]]]:
        app = self.app
        config_source = str(app.config.source) if app.config.source else "built-in defaults"
        mode = "simulated (keyboard, mock pins)" if app.simulated else "real GPIO"
        general = [
            f"Tablekeeper {version()}",
            f"Hardware: {mode}",
            f"Camera: {app.camera.name}",
            f"Seats: {app.config.seat_count}",
            f"Config: {config_source}",
            f"State: {app.store.path}",
        ]
        return [("About", general), ("Wiring (BCM pins)", app.hardware.describe())]

    def handle(self, action: Action) -> None:
        if action in (Action.LEFT, Action.RIGHT):
            step = 1 if action is Action.RIGHT else -1
            self.page = (self.page + step) % len(self.pages())
        elif action in (Action.BACK, Action.OK):
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        pages = self.pages()
        heading, lines = pages[self.page % len(pages)]
        ui.text(surface, heading, (ui.MARGIN, 12), ui.MEDIUM, ui.ACCENT)
        ui.text(
            surface,
            f"page {self.page % len(pages) + 1} of {len(pages)}",
            (width - ui.MARGIN, 16),
            24,
            ui.DIM,
            anchor="topright",
        )
        size = 24
        step = ui.font(size).get_linesize() + 2
        per_column = max(1, (height - 56) // step)
        columns = 1 if len(lines) <= per_column else 2
        column_w = (width - 2 * ui.MARGIN) // columns
        for index, line in enumerate(lines[: per_column * columns]):
            column, row = divmod(index, per_column)
            x = ui.MARGIN + column * column_w
            ui.text(surface, line, (x, 56 + row * step), size, max_width=column_w - 12)

    def legend(self) -> list[LegendItem]:
        return [((Action.LEFT, Action.RIGHT), "Page"), (Action.BACK, "Back")]

    def snapshot(self) -> dict[str, Any]:
        return {"page": self.page}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.page = int(data.get("page", 0))
        return screen
