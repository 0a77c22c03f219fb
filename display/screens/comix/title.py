"""Co-Mix: the round's title. All stories share one title: a random one from the rulebook's
list (RIGHT draws another), or the table's own, typed on the keyboard (LEFT)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.comix.common import GameScreen
from display.widgets.keyboard import KeyboardScreen
from games.comix import Game, TitleError
from games.comix.game import TITLE
from games.comix.titles import MAX_TITLE_LENGTH

if TYPE_CHECKING:
    from display.app import App


@register_screen
class TitleScreen(GameScreen):
    """All stories share one title: a random one from the rulebook's list, or the table's own."""

    kind = "comix.title"

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        self.proposal = ""
        self.error = ""

    def on_show(self) -> None:
        self.app.hardware.outputs_off()
        if self.game.phase != TITLE:
            self.next_phase()
            return
        if not self.proposal:
            self.draw_another()

    def draw_another(self) -> None:
        self.proposal = self.game.propose_title()
        self.save()

    def handle(self, action: Action) -> None:
        self.error = ""
        if action is Action.OK:
            self.choose(self.proposal)
        elif action is Action.RIGHT:
            self.draw_another()
        elif action is Action.LEFT:
            keyboard = KeyboardScreen(
                self.app, "Your own title", limit=MAX_TITLE_LENGTH, title="Co-Mix - Your own title"
            )
            self.app.push(keyboard, purpose="title")
        elif action is Action.BACK:
            self.leave()

    def on_result(self, purpose: str, result: Any) -> None:
        """The title typed on the keyboard (a keyboard saved by an older version has no
        purpose); cancelled or empty: keep the drawn one."""
        if purpose in ("title", "") and isinstance(result, str) and result:
            self.choose(result)

    def choose(self, title: str) -> None:
        try:
            self.game.set_title(title)
        except TitleError as error:
            self.error = str(error)
            return
        self.next_phase()

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        ui.text(surface, "This round's title", (width // 2, 18), ui.MEDIUM, ui.DIM, "midtop")
        box = pygame.Rect(ui.MARGIN, 64, width - 2 * ui.MARGIN, 170)
        ui.panel(surface, box, ui.PANEL, border=ui.ACCENT)
        lines = ui.wrap(self.proposal, ui.BIG, box.width - 40)[:2]
        line_h = ui.font(ui.BIG).get_linesize()
        y = box.centery - line_h * len(lines) // 2
        for line in lines:
            ui.text(surface, line, (box.centerx, y), ui.BIG, ui.ACCENT, "midtop")
            y += line_h
        hint = (
            "Everybody agrees? OK starts scripting. RIGHT draws another rulebook title; "
            "LEFT to type your own. Then deal 12 Panel cards to each player or team."
        )
        ui.paragraph(
            surface,
            self.error or hint,
            pygame.Rect(
                ui.MARGIN, box.bottom + 16, width - 2 * ui.MARGIN, height - box.bottom - 20
            ),
            ui.SMALL,
            ui.BAD if self.error else ui.TEXT,
            "center",
        )

    def legend(self) -> list[LegendItem]:
        return [
            (Action.OK, "Use"),
            (Action.RIGHT, "Another"),
            (Action.LEFT, "Type"),
            (Action.BACK, "Menu"),
        ]

    def snapshot(self) -> dict[str, Any]:
        return {"proposal": self.proposal}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.proposal = str(data.get("proposal", ""))
        return screen
