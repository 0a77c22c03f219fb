"""Marvel: Remix: one player's score - the breakdown per card, the choices made, and Loki's draw
(named from a list, or photographed: read off the UI thread)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.cards.capture import PhotoRead, capture_and_read
from display.screen import LegendItem, Screen, register_screen
from display.screens.remix.common import NAMESPACE, catalogue, enrolment, ids_for
from display.widgets.pick import PickScreen
from display.widgets.slow import BUSY_READING, SlowWork
from display.widgets.table import TableResultScreen
from games.remix import RemixError, score_hand

if TYPE_CHECKING:
    from display.app import App
    from games.remix import HandResult


@register_screen
class RemixResultScreen(SlowWork, TableResultScreen):
    """The breakdown: per card its state, points and why; the choices; Loki's draw (named from
    a list, or photographed: read off the UI thread)."""

    kind = "remix.result"
    title = "Remix - score"
    namespace = NAMESPACE
    table_kind = "remix.table"
    game_title = "Remix"

    def __init__(self, app: App, player: dict[str, Any], replaces: int | None = None) -> None:
        super().__init__(app, player, replaces)
        self.scroll = 0
        self._result: HandResult | None = None

    def result(self) -> HandResult:
        if self._result is None:
            self._result = score_hand(self.player["cards"], self.player.get("loki_draw"))
            self.player["total"] = self._result.total
            self.player["valid"] = self._result.valid
        return self._result

    def points(self) -> int:
        return self.result().total

    def lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        result = self.result()
        out: list[tuple[str, tuple[int, int, int]]] = []
        for card in result.cards:
            state = card.state
            if card.side:
                state = f"-> {card.side}"
            if card.blanked_by:
                state = "BLANKED"
            colour = ui.DIM if card.state == "blanked" else ui.TEXT
            out.append((f"{card.name}  {state}  = {card.points}", colour))
            for line in card.lines:
                out.append((f"    {line}", ui.DIM))
        for choice in result.choices:
            out.append((f"Choice: {choice['choice']}", ui.INFO))
        if result.loki_draw is not None:
            out.append((f"Loki's draw: {result.loki_draw.name}", ui.INFO))
        for note in result.notes:
            out.append((f"Note: {note}", ui.ACCENT))
        return out

    def handle(self, action: Action) -> None:
        if self.busy_handle(action):
            return
        owed = self.result().loki_owed
        if action is Action.LEFT:
            self.scroll = max(0, self.scroll - 3)
        elif action is Action.RIGHT:
            self.scroll = min(max(0, len(self.lines()) - 3), self.scroll + 3)
        elif action is Action.OK and owed:
            self.ask_loki()
        elif action is Action.SHUTTER and owed:
            self.photograph_loki()
        else:
            super().handle(action)

    def ask_loki(self) -> None:
        hand = set(self.player["cards"])
        options = [
            (card.id, card.name, "")
            for card in sorted(catalogue(), key=lambda c: c.name.lower())
            if card.deck == "REMIX" and card.id not in hand
        ]
        prompt = (
            "Loki: draw the top card of the REMIX deck. Which card is it? "
            "(or BACK and photograph it with SHUTTER)"
        )
        self.app.push(PickScreen(self.app, "Remix - Loki's draw", prompt, options), purpose="loki")

    def photograph_loki(self) -> None:
        app = self.app
        self.start_job(
            BUSY_READING,
            lambda: capture_and_read(app, lambda: enrolment(app).gallery()),
            self.loki_read,
        )

    def loki_read(self, outcome: PhotoRead) -> None:
        if outcome.reading is None:
            self.app.toast(outcome.error)
            return
        named = [c for c in outcome.reading.cards if c.name and c.status == "ok"]
        if len(named) != 1:
            self.app.toast(f"Lay only Loki's drawn card under the camera ({len(named)} read).")
            return
        self.use_loki_draw(ids_for([named[0].name or ""])[0])

    def on_result(self, purpose: str, result: Any) -> None:
        if purpose == "loki" and isinstance(result, str):
            self.use_loki_draw(result)

    def use_loki_draw(self, value: str) -> None:
        try:
            score_hand(self.player["cards"], value)
        except RemixError as error:
            self.app.toast(str(error))
            return
        self.player["loki_draw"] = value
        self._result = None
        self.result()

    def draw(self, surface: pygame.Surface) -> None:
        if self.busy:
            self.draw_busy(surface)
            return
        width, height = surface.get_size()
        result = self.result()
        head = pygame.Rect(ui.MARGIN, 6, width - 2 * ui.MARGIN, 60)
        verdict = "valid" if result.valid else "NOT valid: needs a HERO/ALLY and a VILLAIN"
        ui.text(surface, f"{result.total}", (head.left, head.top), ui.BIG, ui.ACCENT)
        ui.text(
            surface,
            "points",
            (head.left + ui.text_width(f"{result.total}", ui.BIG) + 12, head.top + 26),
            ui.MEDIUM,
        )
        status = verdict
        if result.loki_owed:
            status = "Loki's draw still owed: OK to name it, SHUTTER to photograph it"
        ui.text(
            surface,
            status,
            (head.right, head.top + 30),
            ui.SMALL,
            ui.ACCENT if result.loki_owed else (ui.GOOD if result.valid else ui.BAD),
            anchor="midright",
            max_width=width - 260,
        )
        lines = self.lines()
        line_h = ui.font(ui.SMALL).get_linesize()
        y = head.bottom + 8
        visible = (height - y - 6) // line_h
        for text, colour in lines[self.scroll : self.scroll + visible]:
            ui.text(
                surface, text, (ui.MARGIN, y), ui.SMALL, colour, max_width=width - 2 * ui.MARGIN
            )
            y += line_h
        if self.scroll + visible < len(lines):
            ui.text(
                surface,
                "more: RIGHT",
                (width - ui.MARGIN, height - 4),
                ui.SMALL,
                ui.DIM,
                anchor="bottomright",
            )

    def legend(self) -> list[LegendItem]:
        if self.busy:
            return self.busy_legend()
        base = super().legend()  # OK saves, BACK to the photo, SEAT 1 removes
        first: list[LegendItem] = base[:1]
        if self.result().loki_owed:
            first = [(Action.OK, "Loki's draw"), (Action.SHUTTER, "Photo of it")]
        return [*first, ((Action.LEFT, Action.RIGHT), "Scroll"), *base[1:]]

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "scroll": self.scroll, **self.busy_snapshot()}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, data["player"], data.get("replaces"))
        screen.scroll = int(data.get("scroll", 0))
        screen.interrupted(data)
        return screen
