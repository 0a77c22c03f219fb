"""The home screen: the three games, card enrolment, the hardware test and settings.

``HOME_ENTRIES`` is the list shown. Each entry names the screen *kind* it opens; when no screen
of that kind is registered (its module is not written yet, or failed to import) the entry says
so and cannot be opened. To add an entry, append a :class:`HomeEntry`; to make an existing one
live, register a screen with its kind (see ``display/screen.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from display import settings, ui
from display.actions import Action
from display.screen import SCREENS, LegendItem, register_screen
from display.widgets.menu import MenuScreen


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
class HomeScreen(MenuScreen):
    kind = "home"
    title = "Tablekeeper"
    blurb_bottom = 10

    @property
    def entries(self) -> list[HomeEntry]:
        return list(HOME_ENTRIES)

    def available(self, entry: HomeEntry) -> bool:
        return entry.kind in SCREENS

    def note(self, entry: HomeEntry) -> str:
        if self.available(entry):
            return ""
        # a game's screens live in display/screens/<kind>/ (or display/screens/<kind>.py)
        broken = [m for m in self.app.load_errors if entry.kind in m.split(".")[2:]]
        return "broken" if broken else "coming"

    def rows(self) -> list[tuple[str, str, str]]:
        return [(entry.kind, entry.title, self.note(entry)) for entry in self.entries]

    def on_show(self) -> None:
        self.app.hardware.outputs_off()

    def update(self, now: float) -> None:
        name = settings.load(self.app.store).table_name
        self.title = f"Tablekeeper - {name}" if name else "Tablekeeper"

    def handle(self, action: Action) -> None:
        if action is not Action.BACK:  # already home
            super().handle(action)

    def handle_hold(self, action: Action) -> None:
        pass  # already home

    def open(self, key: str) -> None:
        entry = next(entry for entry in self.entries if entry.kind == key)
        cls = SCREENS.get(entry.kind)
        if cls is None:
            why = self.note(entry)
            if why == "broken":
                self.app.toast(f"{entry.title} failed to load; see the log.")
            else:
                self.app.toast(f"{entry.title} is coming in a later version.")
            return
        self.app.push(cls(self.app))

    def menu_items(self, rows: list[tuple[str, str, str]]) -> list[ui.MenuItem]:
        return [ui.MenuItem(label, note, kind in SCREENS) for kind, label, note in rows]

    def draw_top(self, surface: pygame.Surface) -> int:
        return 14

    def list_bottom(self, height: int) -> int:
        return height - 52

    def blurb_text(self) -> str:
        return self.entries[self.selected].blurb

    def legend(self) -> list[LegendItem]:
        return [((Action.LEFT, Action.RIGHT), "Choose"), (Action.OK, "Open")]
