"""Co-Mix: the start menu - continue the saved game, start a new one, a rematch of the finished
one (same players, names, rounds and board), or see the last podium."""

from __future__ import annotations

from typing import Any

import pygame

from display import ui
from display.screen import register_screen
from display.screens.comix.common import (
    GAME_KEY,
    NAMESPACE,
    TIMER_KEY,
    clock_text,
    load_game,
    load_last_game,
    phase_screen,
    rematch,
)
from display.screens.comix.reveal import PodiumScreen
from display.screens.comix.setup import SetupScreen
from display.widgets.confirm import ConfirmScreen, UndoOffer, keep_for_undo
from display.widgets.menu import MenuScreen
from games.comix.game import OVER, SCRIPTING

ENDED_GAME_KEY = "ended_game"  # a game in progress ended to set up a new one

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
            note = f"round {game.round.number} of {game.setup.rounds}"
            room = self.app.size[0] - 2 * ui.MARGIN - 62 - 24  # the row, less its marks
            phase = f"{note}, {PHASE_WORDS[game.phase]}"
            if (
                ui.text_width("Continue the game", self.menu_size) + ui.text_width(phase, ui.SMALL)
                <= room
            ):
                note = phase  # the phase too, where the label still shows whole
            away = self.app.store.get(NAMESPACE, TIMER_KEY)
            if game.phase == SCRIPTING and away and away.get("paused"):
                note = f"sand PAUSED {clock_text(float(away.get('remaining', 0.0)))}"
            rows.append(("Continue the game", note, "continue"))
        rows.append(("New game", "3 to 10 players", "new"))
        if game is not None and game.phase == OVER:
            rows.append(("Rematch", f"same {len(game.setup.players)} players", "rematch"))
            rows.append(("Last game's podium", ", ".join(game.winners()), "continue"))
        else:
            last = load_last_game(self.app)
            if last is not None:
                rows.append(("Last game's podium", ", ".join(last.winners()), "last"))
        return rows

    def rows(self) -> list[tuple[str, str, str]]:
        return [(what, label, note) for label, note, what in self.entries()]

    def on_show(self) -> None:
        self.app.hardware.outputs_off()

    def open(self, key: str) -> None:
        if key == "new":
            game = load_game(self.app)
            if game is None or game.phase == OVER:
                self.app.push(SetupScreen(self.app))
                return
            where = f"Round {game.round.number} of {game.setup.rounds}, {PHASE_WORDS[game.phase]}"
            confirm = ConfirmScreen(
                self.app,
                "End the game in progress?",
                f"{where}: it ends, and a new game is set up.",
                destroy="End it",
                keep="Keep playing",
            )
            self.app.push(confirm, purpose="new")
            return
        if key == "last":
            self.app.push(PodiumScreen(self.app, archived=True))
            return
        game = load_game(self.app)
        if game is None:
            return
        if key == "rematch" and game.phase == OVER:
            game = rematch(self.app, game)
            self.selected = 0  # back on the menu: "Continue the game"
        self.app.push(phase_screen(self.app, game))

    def on_result(self, purpose: str, result: Any) -> None:
        """The game in progress ended on purpose (a hold of OK): kept aside as
        ``ended_game``, and for 10 s BACK on this menu brings it back."""
        if purpose != "new" or not result:
            return
        entries = [(NAMESPACE, GAME_KEY), (NAMESPACE, TIMER_KEY), (NAMESPACE, ENDED_GAME_KEY)]
        saved = keep_for_undo(self.app, entries)
        self.app.store.put(NAMESPACE, ENDED_GAME_KEY, self.app.store.get(NAMESPACE, GAME_KEY))
        self.app.store.delete(NAMESPACE, GAME_KEY)
        self.app.store.delete(NAMESPACE, TIMER_KEY)
        self.undo = UndoOffer.start(self.app, "Game ended.", saved)
        self.selected = 0
        self.app.push(SetupScreen(self.app))

    def draw_top(self, surface: pygame.Surface) -> int:
        return 20

    def list_bottom(self, height: int) -> int:
        return height - 144

    def draw_bottom(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        ui.paragraph(
            surface,
            "Tell stories with Panel cards, review them in secret, score on consensus. "
            "Tablekeeper keeps the sand timer, the ballot box and the score track.",
            pygame.Rect(ui.MARGIN, height - 140, width - 2 * ui.MARGIN, 134),
            ui.SMALL,
            ui.DIM,
        )
