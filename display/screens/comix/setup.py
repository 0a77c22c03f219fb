"""Co-Mix: the table set-up (players, names, rounds, board, timers) and the names, clockwise."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.comix.common import (
    STORYTELLER_CHOICES,
    TIMER_CHOICES,
    go_to_phase,
    save_settings,
    settings,
)
from display.widgets.keyboard import KeyboardScreen, remember_names
from games.comix import Game, SetupError, TableSetup, team_table
from games.comix.table import BOARD_PANELS, MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from display.app import App


def default_names(count: int) -> list[str]:
    return [f"Player {seat}" for seat in range(1, count + 1)]


def teams_note(count: int) -> str:
    teams, solos = team_table(count)
    if not teams:
        return "everyone plays alone"
    pairs = [f"{2 * i + 1}+{2 * i + 2}" for i in range(teams)]
    solo = f", seat {count} alone" if solos else ""
    return "seats " + ", ".join(pairs) + solo


@register_screen
class SetupScreen(Screen):
    """Players, names, rounds, board, sand timer and storyteller timer; then Start.

    Turn (LEFT/RIGHT) to choose a row, push (OK) to change it: a value row then shows
    ``< value >`` and LEFT/RIGHT change it until OK again. Names open their own screen.
    """

    kind = "comix.setup"
    title = "Co-Mix - new game"
    takes_text = False

    ROWS = ("players", "names", "teams", "rounds", "panels", "timer", "storyteller", "start")

    def __init__(self, app: App) -> None:
        super().__init__(app)
        chosen = settings(app)
        self.count = 4
        self.names = default_names(MAX_PLAYERS)
        self.rounds = 3
        self.panels = 6
        self.timer = int(chosen["timer_seconds"])
        self.storyteller = int(chosen["storyteller_seconds"])
        self.selected = 0
        self.editing = False
        self.error = ""
        self._rows: list[pygame.Rect] = []

    # -- values -------------------------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        return self.names[: self.count]

    def value_text(self, row: str) -> str:
        if row == "players":
            return str(self.count)
        if row == "names":
            return self.names_note()
        if row == "teams":
            return teams_note(self.count)
        if row == "rounds":
            return str(self.rounds)
        if row == "panels":
            return f"{self.panels} panels"
        if row == "timer":
            return f"{self.timer} s"
        if row == "storyteller":
            return f"{self.storyteller} s" if self.storyteller else "off"
        return ""

    def names_note(self) -> str:
        """The names beside "Names", as many as fit beside the label, the rest counted
        ("Ann, Ben, Cat, Dan +2"): a long list must never run over the label."""
        room = self.app.size[0] - 2 * ui.MARGIN - 62 - 24 - ui.text_width("Names", ui.MEDIUM) - 20
        players = self.players
        for shown in range(len(players), 0, -1):
            rest = len(players) - shown
            note = ", ".join(players[:shown]) + (f" +{rest}" if rest else "")
            if ui.text_width(note, ui.SMALL) <= room:
                return note
        return f"{len(players)} players"

    def step(self, row: str, delta: int) -> None:
        def cycle(options: tuple[int, ...] | list[int], current: int) -> int:
            index = options.index(current) if current in options else 0
            return options[(index + delta) % len(options)]

        if row == "players":
            self.count = cycle(list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), self.count)
        elif row == "rounds":
            self.rounds = cycle([1, 2, 3, 4, 5], self.rounds)
        elif row == "panels":
            self.panels = cycle(BOARD_PANELS, self.panels)
        elif row == "timer":
            self.timer = cycle(TIMER_CHOICES, self.timer)
        elif row == "storyteller":
            self.storyteller = cycle(STORYTELLER_CHOICES, self.storyteller)

    # -- input --------------------------------------------------------------------------------
    def handle(self, action: Action) -> None:
        row = self.ROWS[self.selected]
        self.error = ""
        if self.editing:
            if action in (Action.LEFT, Action.RIGHT):
                self.step(row, -1 if action is Action.LEFT else 1)
            elif action in (Action.OK, Action.BACK):
                self.editing = False
            return
        if action is Action.LEFT:
            self.selected = (self.selected - 1) % len(self.ROWS)
        elif action is Action.RIGHT:
            self.selected = (self.selected + 1) % len(self.ROWS)
        elif action is Action.OK:
            self.activate(row)
        elif action is Action.BACK:
            self.app.pop()

    def activate(self, row: str) -> None:
        if row == "names":
            self.app.push(NamesScreen(self.app, self.names, self.count), purpose="names")
        elif row == "teams":
            self.app.toast("Team mates sit next to each other: " + teams_note(self.count) + ".")
        elif row == "start":
            self.start()
        else:
            self.editing = True

    def handle_tap(self, x: int, y: int) -> bool:
        for index, rect in enumerate(self._rows):
            if rect.collidepoint(x, y):
                row = self.ROWS[index]
                if self.editing and index == self.selected:
                    self.step(row, -1 if x < rect.centerx else 1)
                elif index == self.selected:
                    self.activate(row)
                else:
                    self.editing = False
                    self.selected = index
                return True
        return False

    def set_names(self, names: list[str]) -> None:
        self.names = list(names) + default_names(MAX_PLAYERS)[len(names) :]

    def on_result(self, purpose: str, result: Any) -> None:
        """The names screen closed with every seat's name."""
        if isinstance(result, list):
            self.set_names([str(name) for name in result][:MAX_PLAYERS])

    def start(self) -> None:
        try:
            setup = TableSetup.create(self.players, rounds=self.rounds, panels=self.panels)
        except SetupError as error:
            self.error = str(error)
            return
        seed = int(self.app.clock.now() * 1000) % (2**31)
        # next time, seat by seat, the keyboard offers these names first
        defaults = default_names(MAX_PLAYERS)
        remember_names(self.app, [name for name in self.players if name not in defaults])
        save_settings(
            self.app, {"timer_seconds": self.timer, "storyteller_seconds": self.storyteller}
        )
        go_to_phase(self.app, Game.new(setup, seed))

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        labels = {
            "players": "Players",
            "names": "Names",
            "teams": "Teams",
            "rounds": "Rounds",
            "panels": "Board",
            "timer": "Sand timer",
            "storyteller": "Storyteller timer",
            "start": "Start the game",
        }
        items = []
        for index, row in enumerate(self.ROWS[:-1]):
            value = self.value_text(row)
            if self.editing and index == self.selected:
                value = f"<  {value}  >"
            items.append(ui.MenuItem(labels[row], value))
        # "Start the game" is pinned under the list: always in sight, whatever is scrolled
        start_index = len(self.ROWS) - 1
        row_h = ui.font(ui.MEDIUM).get_linesize() + 16
        start_top = height - (64 if self.error else 8) - row_h
        start = pygame.Rect(ui.MARGIN, start_top, width - 2 * ui.MARGIN, row_h)
        area = pygame.Rect(ui.MARGIN, 8, width - 2 * ui.MARGIN, start.top - 12 - 8)
        on_list = self.selected < start_index  # on Start: the list stays scrolled to its end
        chosen = self.selected if on_list else start_index - 1
        self._rows = ui.menu(surface, items, chosen, area, ui.MEDIUM, row_gap=6, highlight=on_list)
        on_start = 0 if self.selected == start_index else -1
        ui.menu(surface, [ui.MenuItem(labels["start"], "")], on_start, start, ui.MEDIUM)
        if on_start < 0:
            pygame.draw.rect(surface, ui.GOOD, start, width=3, border_radius=8)
        self._rows.append(start)
        if self.error:
            ui.paragraph(
                surface,
                self.error,
                pygame.Rect(ui.MARGIN, height - 60, width - 2 * ui.MARGIN, 58),
                ui.SMALL,
                ui.BAD,
            )

    def legend(self) -> list[LegendItem]:
        if self.editing:
            return [((Action.LEFT, Action.RIGHT), "Change"), (Action.OK, "Done")]
        row = self.ROWS[self.selected]
        verb = {"names": "Edit names", "start": "Start", "teams": "Explain"}.get(row, "Change")
        return [((Action.LEFT, Action.RIGHT), "Choose"), (Action.OK, verb), (Action.BACK, "Back")]

    def snapshot(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "names": self.names,
            "rounds": self.rounds,
            "panels": self.panels,
            "timer": self.timer,
            "storyteller": self.storyteller,
            "selected": self.selected,
            "editing": self.editing,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.count = int(data.get("count", 4))
        screen.set_names([str(n) for n in data.get("names", [])][:MAX_PLAYERS])
        screen.rounds = int(data.get("rounds", 3))
        screen.panels = int(data.get("panels", 6))
        screen.timer = int(data.get("timer", screen.timer))
        screen.storyteller = int(data.get("storyteller", screen.storyteller))
        screen.selected = int(data.get("selected", 0))
        screen.editing = bool(data.get("editing", False))
        return screen


@register_screen
class NamesScreen(Screen):
    """One row per seat, clockwise. OK opens the keyboard for that seat, and the name typed there
    names it and moves on to the next seat; typed text (a USB keyboard or a script's ``type``)
    opens the keyboard with that text, so Enter (OK) then takes it. BACK or "Done" closes the
    screen with every name."""

    kind = "comix.names"
    title = "Co-Mix - names, clockwise"
    takes_text = True

    def __init__(self, app: App, names: list[str] | None = None, count: int = 4) -> None:
        super().__init__(app)
        self.names = list(names or default_names(MAX_PLAYERS))
        self.count = count
        self.selected = 0
        self._rows: list[pygame.Rect] = []

    def handle(self, action: Action) -> None:
        rows = self.count + 1  # the seats, then "Done"
        if action is Action.LEFT:
            self.selected = (self.selected - 1) % rows
        elif action is Action.RIGHT:
            self.selected = (self.selected + 1) % rows
        elif action is Action.OK:
            if self.selected == self.count:
                self.close()
            else:
                self.ask_name()
        elif action is Action.BACK:
            self.close()

    def ask_name(self, typed: str = "") -> None:
        if self.selected >= self.count:
            self.selected = 0
        prompt = f"Name for seat {self.selected + 1}"
        seated = [n for seat, n in enumerate(self.names[: self.count]) if seat != self.selected]
        keyboard = KeyboardScreen(
            self.app,
            prompt,
            limit=MAX_NAME_LENGTH,
            title=f"Co-Mix - {prompt}",
            names=True,
            exclude=seated,
        )
        self.app.push(keyboard, purpose=f"seat:{self.selected}")
        if typed:
            keyboard.handle_text(typed)

    def handle_text(self, text: str) -> None:
        self.ask_name(text)

    def on_result(self, purpose: str, result: Any) -> None:
        """A seat's name from the keyboard (``seat:N``; a keyboard saved by an older version has
        no purpose and names the selected seat)."""
        name = " ".join(result.split())[:MAX_NAME_LENGTH] if isinstance(result, str) else ""
        if not name:
            return
        seat = int(purpose[5:]) if purpose.startswith("seat:") else self.selected
        if seat >= self.count:
            return
        self.names[seat] = name
        self.selected = min(seat + 1, self.count)

    def handle_tap(self, x: int, y: int) -> bool:
        for index, row in enumerate(self._rows):
            if row.collidepoint(x, y):
                self.selected = index
                self.handle(Action.OK)
                return True
        return False

    def close(self) -> None:
        self.dismiss(list(self.names))

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        items = [
            ui.MenuItem(self.names[seat], f"seat {seat + 1}") for seat in range(self.count)
        ] + [ui.MenuItem("Done", "")]
        area = pygame.Rect(ui.MARGIN, 12, width - 2 * ui.MARGIN, height - 24)
        self._rows = ui.menu(surface, items, self.selected, area, ui.MEDIUM, row_gap=6)

    def legend(self) -> list[LegendItem]:
        verb = "Done" if self.selected == self.count else "Type name"
        return [((Action.LEFT, Action.RIGHT), "Seat"), (Action.OK, verb), (Action.BACK, "Done")]

    def snapshot(self) -> dict[str, Any]:
        return {"names": self.names, "count": self.count, "selected": self.selected}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, [str(n) for n in data.get("names", [])], int(data.get("count", 4)))
        screen.selected = int(data.get("selected", 0))
        return screen
