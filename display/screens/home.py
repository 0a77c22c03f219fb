"""The home screen: the three games, card enrolment, the hardware test and settings.

``HOME_ENTRIES`` is the list shown. Each entry names the screen *kind* it opens; when no screen
of that kind is registered (its module is not written yet, or failed to import) the entry says
so and cannot be opened. To add an entry, append a :class:`HomeEntry`; to make an existing one
live, register a screen with its kind (see ``display/screens/base.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screens.base import SCREENS, LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App


@dataclass(frozen=True)
class HomeEntry:
    title: str
    blurb: str
    kind: str


HOME_ENTRIES: list[HomeEntry] = [
    HomeEntry("Co-Mix", "Sand timer, secret review ballots, consensus scores", "comix"),
    HomeEntry(
        "I Made You a Mixtape", "Photograph a mixtape and score it; Otto plays solo", "mixtape"
    ),
    HomeEntry("Marvel: Remix", "Photograph a final hand: best legal score, explained", "remix"),
    HomeEntry("Enrol cards", "Teach the camera your cards", "enrol"),
    HomeEntry("Hardware test", "Buttons, LED bar, buzzer and camera", "hardware_test"),
    HomeEntry("Settings", "Sound, status LED, table name, about", "settings"),
]


@register_screen
class HomeScreen(Screen):
    kind = "home"
    title = "Tablekeeper"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.selected = 0
        self._rows: list[pygame.Rect] = []

    @property
    def entries(self) -> list[HomeEntry]:
        return list(HOME_ENTRIES)

    def available(self, entry: HomeEntry) -> bool:
        return entry.kind in SCREENS

    def note(self, entry: HomeEntry) -> str:
        if self.available(entry):
            return ""
        broken = [m for m in self.app.load_errors if m.rsplit(".", 1)[-1] == entry.kind]
        return "broken" if broken else "coming"

    def on_show(self) -> None:
        self.app.hardware.outputs_off()

    def update(self, now: float) -> None:
        from display import settings

        name = settings.load(self.app).table_name
        self.title = f"Tablekeeper - {name}" if name else "Tablekeeper"

    def handle(self, action: Action) -> None:
        count = len(self.entries)
        if action is Action.LEFT:
            self.selected = (self.selected - 1) % count
        elif action is Action.RIGHT:
            self.selected = (self.selected + 1) % count
        elif action is Action.OK:
            self.open(self.entries[self.selected])

    def handle_hold(self, action: Action) -> None:
        pass  # already home

    def handle_tap(self, x: int, y: int) -> bool:
        for index, row in enumerate(self._rows):
            if row.collidepoint(x, y):
                if index == self.selected:
                    self.open(self.entries[index])
                self.selected = index
                return True
        return False

    def open(self, entry: HomeEntry) -> None:
        cls = SCREENS.get(entry.kind)
        if cls is None:
            why = self.note(entry)
            if why == "broken":
                self.app.toast(f"{entry.title} failed to load; see the log.")
            else:
                self.app.toast(f"{entry.title} is coming in a later version.")
            return
        self.app.push(cls(self.app))

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        entries = self.entries
        self.selected = min(self.selected, len(entries) - 1)
        items = [ui.MenuItem(e.title, self.note(e), self.available(e)) for e in entries]
        list_rect = pygame.Rect(ui.MARGIN, 14, width - 2 * ui.MARGIN, height - 14 - 52)
        self._rows = ui.menu(surface, items, self.selected, list_rect, ui.MEDIUM, row_gap=6)
        blurb = entries[self.selected].blurb
        ui.text(
            surface,
            blurb,
            (width // 2, height - 10),
            ui.SMALL,
            ui.DIM,
            anchor="midbottom",
            max_width=width - 2 * ui.MARGIN,
        )

    def legend(self) -> list[LegendItem]:
        return [((Action.LEFT, Action.RIGHT), "Choose"), (Action.OK, "Open")]

    def snapshot(self) -> dict[str, Any]:
        return {"selected": self.selected}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.selected = int(data.get("selected", 0))
        return screen
