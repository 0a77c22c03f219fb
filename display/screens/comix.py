"""Co-Mix on the appliance, part 1: the start menu, the table set-up, names and the on-screen
keyboard. The rest of the game is in ``comix_play`` (title, sand timer, storytelling),
``comix_ballot`` (the private review ballot box) and ``comix_reveal`` (reveal and podium).

Flow: home -> ``comix`` (continue / new game) -> ``comix.setup`` -> the phase screens, each
replacing the previous one (``comix_common.go_to_phase``); BACK from any phase screen returns to
the ``comix`` menu with the game saved, and "Continue" picks it up where it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.comix_common import (
    STORYTELLER_CHOICES,
    TIMER_CHOICES,
    go_to_phase,
    load_game,
    phase_screen,
    save_settings,
    settings,
)
from display.screens.menu import MenuScreen
from games.comix import Game, SetupError, TableSetup, team_table
from games.comix.game import OVER
from games.comix.table import BOARD_PANELS, MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from display.app import App

PHASE_WORDS = {
    "title": "choosing the title",
    "scripting": "scripting",
    "storytelling": "storytelling",
    "reviewing": "reviewing",
    "reveal": "the reveal",
}


@register_screen
class ComixMenuScreen(MenuScreen):
    """Continue the saved game, start a new one, or see the last game's podium."""

    kind = "comix"
    title = "Co-Mix"
    menu_size = ui.LARGE
    row_gap = 8
    back_label = "Home"

    def entries(self) -> list[tuple[str, str, str]]:
        """(label, note, what) rows."""
        game = load_game(self.app)
        rows = []
        if game is not None and game.phase != OVER:
            note = f"round {game.round.number} of {game.setup.rounds}, {PHASE_WORDS[game.phase]}"
            rows.append(("Continue the game", note, "continue"))
        rows.append(("New game", "3 to 10 players", "new"))
        if game is not None and game.phase == OVER:
            rows.append(("Last game's podium", ", ".join(game.winners()), "continue"))
        return rows

    def rows(self) -> list[tuple[str, str, str]]:
        return [(what, label, note) for label, note, what in self.entries()]

    def on_show(self) -> None:
        self.app.hardware.outputs_off()

    def open(self, key: str) -> None:
        if key == "new":
            self.app.push(SetupScreen(self.app))
            return
        game = load_game(self.app)
        if game is not None:
            self.app.push(phase_screen(self.app, game))

    def draw_top(self, surface: pygame.Surface) -> int:
        return 20

    def list_bottom(self, height: int) -> int:
        return height - 100

    def draw_bottom(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        ui.paragraph(
            surface,
            "Tell stories with Panel cards, review them in secret, score on consensus. "
            "Tablekeeper keeps the sand timer, the ballot box and the score track.",
            pygame.Rect(ui.MARGIN, height - 96, width - 2 * ui.MARGIN, 90),
            ui.SMALL,
            ui.DIM,
        )


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
            return ", ".join(self.players)
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
            self.app.push(NamesScreen(self.app, self.names, self.count))
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
        """Called by the names screen when it closes."""
        self.names = list(names) + default_names(MAX_PLAYERS)[len(names) :]

    def start(self) -> None:
        try:
            setup = TableSetup.create(self.players, rounds=self.rounds, panels=self.panels)
        except SetupError as error:
            self.error = str(error)
            return
        seed = int(self.app.clock.now() * 1000) % (2**31)
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
        for index, row in enumerate(self.ROWS):
            value = self.value_text(row)
            if self.editing and index == self.selected:
                value = f"<  {value}  >"
            items.append(ui.MenuItem(labels[row], value))
        bottom = height - (64 if self.error else 24)
        area = pygame.Rect(ui.MARGIN, 28, width - 2 * ui.MARGIN, bottom - 28)
        self._rows = ui.menu(surface, items, self.selected, area, ui.MEDIUM, row_gap=6)
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
    """One row per seat, clockwise. OK opens the keyboard for that seat; typed text (a USB
    keyboard or a script's ``type``) names the selected seat and moves on to the next."""

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
                self.app.push(KeyboardScreen(self.app, f"Name for seat {self.selected + 1}"))
        elif action is Action.BACK:
            self.close()

    def handle_text(self, text: str) -> None:
        name = " ".join(text.split())[:MAX_NAME_LENGTH]
        if not name:
            return
        if self.selected >= self.count:
            self.selected = 0
        self.names[self.selected] = name
        self.selected = min(self.selected + 1, self.count)

    def handle_tap(self, x: int, y: int) -> bool:
        for index, row in enumerate(self._rows):
            if row.collidepoint(x, y):
                self.selected = index
                self.handle(Action.OK)
                return True
        return False

    def close(self) -> None:
        self.app.pop()
        setup = self.app.top
        if isinstance(setup, SetupScreen):
            setup.set_names(self.names)

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


KEYS = list("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + ["-", "'", "SPACE", "DEL", "DONE"]
KEY_COLUMNS = 9


@register_screen
class KeyboardScreen(Screen):
    """An on-screen keyboard for the buttons-only appliance: LEFT/RIGHT move over the keys, OK
    types one, taps type directly. DONE gives the text to the screen below (``handle_text``)."""

    kind = "comix.keyboard"
    takes_text = True

    def __init__(self, app: App, prompt: str = "Type", text: str = "", limit: int = 0) -> None:
        super().__init__(app)
        self.prompt = prompt
        self.title = f"Co-Mix - {prompt}"
        self.text = text
        self.limit = limit or MAX_NAME_LENGTH
        self.cursor = 0
        self._keys: list[pygame.Rect] = []

    def press_key(self, key: str) -> None:
        if key == "DONE":
            self.finish()
        elif key == "DEL":
            self.text = self.text[:-1]
        elif len(self.text) < self.limit:
            letter = " " if key == "SPACE" else key
            if self.text and self.text[-1] != " " and letter.isalpha():
                letter = letter.lower()  # "ANN" typed key by key reads as "Ann"
            self.text += letter

    def finish(self) -> None:
        text = self.text.strip()
        self.app.pop()
        if text and self.app.top.takes_text:
            self.app.top.handle_text(text)

    def handle(self, action: Action) -> None:
        if action is Action.LEFT:
            self.cursor = (self.cursor - 1) % len(KEYS)
        elif action is Action.RIGHT:
            self.cursor = (self.cursor + 1) % len(KEYS)
        elif action is Action.OK:
            self.press_key(KEYS[self.cursor])
        elif action is Action.BACK:
            self.app.pop()

    def handle_text(self, text: str) -> None:
        self.text = (self.text + text)[: self.limit]
        self.finish()

    def handle_tap(self, x: int, y: int) -> bool:
        for index, rect in enumerate(self._keys):
            if rect.collidepoint(x, y):
                self.cursor = index
                self.press_key(KEYS[index])
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        field = pygame.Rect(ui.MARGIN, 10, width - 2 * ui.MARGIN, 62)
        ui.panel(surface, field, ui.PANEL, border=ui.ACCENT)
        ui.text(
            surface,
            self.text + "_",
            (field.left + 16, field.centery),
            ui.LARGE,
            anchor="midleft",
            max_width=field.width - 32,
        )
        top = field.bottom + 12
        rows = (len(KEYS) + KEY_COLUMNS - 1) // KEY_COLUMNS
        key_w = (width - 2 * ui.MARGIN) // KEY_COLUMNS
        key_h = min(66, (height - top - 6) // rows)
        self._keys = []
        for index, key in enumerate(KEYS):
            row, column = divmod(index, KEY_COLUMNS)
            rect = pygame.Rect(ui.MARGIN + column * key_w, top + row * key_h, key_w - 6, key_h - 6)
            if key in ("SPACE", "DEL", "DONE"):
                rect.width = key_w * 2 - 6
                rect.left = ui.MARGIN + (column + index - KEYS.index("SPACE")) * key_w
            chosen = index == self.cursor
            ui.panel(surface, rect, ui.ACCENT if chosen else ui.PANEL)
            size = ui.MEDIUM if len(key) == 1 else ui.SMALL
            ui.text(
                surface,
                key,
                rect.center,
                size,
                ui.ACCENT_TEXT if chosen else ui.TEXT,
                anchor="center",
            )
            self._keys.append(rect)

    def legend(self) -> list[LegendItem]:
        return [((Action.LEFT, Action.RIGHT), "Key"), (Action.OK, "Type"), (Action.BACK, "Cancel")]

    def snapshot(self) -> dict[str, Any]:
        return {
            "prompt": self.prompt,
            "text": self.text,
            "limit": self.limit,
            "cursor": self.cursor,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(
            app, data.get("prompt", "Type"), data.get("text", ""), int(data.get("limit", 0))
        )
        screen.cursor = int(data.get("cursor", 0))
        return screen
