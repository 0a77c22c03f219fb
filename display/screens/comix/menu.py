"""Co-Mix: the start menu - continue the saved game, start a new one, a rematch of the finished
one (same players, names, rounds and board), or see the last podium."""

from __future__ import annotations

import pygame

from display import ui
from display.screen import register_screen
from display.screens.comix.common import (
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
from display.widgets.menu import MenuScreen
from games.comix.game import OVER, SCRIPTING

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
            self.app.push(SetupScreen(self.app))
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
