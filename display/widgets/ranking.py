"""Everyone ranked, best first: equal keys share a place (and a shared victory at the top).

:func:`ranking` is the rule; :class:`RankingScreen` shows it for a table of scored players
(Remix, Mixtape), each game saying what ranks (``key``) and what is shown beside a name
(``note``). With ``menu_kind`` set, OK is "Rematch": back on the game's menu, its "New table"
question (the scores go only after a hold of OK, and can be undone; the same players are then
offered first on the name keyboard).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen
from display.widgets.menu import MenuScreen
from display.widgets.table import load_table


def ranking(
    players: list[dict[str, Any]], key: Callable[[dict[str, Any]], Any]
) -> list[tuple[int, dict[str, Any]]]:
    """(place, player) best first; players with equal keys share a place."""
    keys = [key(p) for p in players]
    order = sorted(range(len(players)), key=lambda i: keys[i], reverse=True)
    return [(1 + sum(k > keys[i] for k in keys), players[i]) for i in order]


class RankingScreen(Screen):
    """Everyone at the table ranked by :meth:`key` (best first), :meth:`note` beside each."""

    namespace: ClassVar[str] = ""
    empty: ClassVar[tuple[str, str]] = ("No players yet", "Score a photo first.")
    #: the game's menu, whose "new" row starts a new table (OK here: Rematch); "" = none
    menu_kind: ClassVar[str] = ""

    def players(self) -> list[dict[str, Any]]:
        """Who is ranked (default: the scored table in the store under ``namespace``)."""
        players: list[dict[str, Any]] = load_table(self.app, self.namespace)["players"]
        return players

    def key(self, player: dict[str, Any]) -> Any:
        raise NotImplementedError

    def note(self, player: dict[str, Any]) -> str:
        raise NotImplementedError

    def can_rematch(self) -> bool:
        menu = self.app.find(self.menu_kind) if self.menu_kind else None
        return isinstance(menu, MenuScreen) and bool(self.players())

    def handle(self, action: Action) -> None:
        if action is Action.OK and self.can_rematch():
            while self.app.top.kind != self.menu_kind:
                self.app.pop()
            menu = self.app.top
            assert isinstance(menu, MenuScreen)
            menu.selected = [row[0] for row in menu.rows()].index("new")
            menu.open("new")
        elif action in (Action.OK, Action.BACK):
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        placed = ranking(self.players(), self.key)
        if not placed:
            ui.message_box(surface, *self.empty, ui.INFO)
            return
        winners = [p["name"] for place, p in placed if place == 1]
        headline = (
            ("Shared victory: " + " & ".join(winners)) if len(winners) > 1 else f"{winners[0]} wins"
        )
        ui.text(
            surface,
            headline,
            (width // 2, 8),
            ui.LARGE,
            ui.ACCENT,
            anchor="midtop",
            max_width=width - 40,
        )
        y = 66
        for place, player in placed:
            if y + 40 > height:
                break
            row = pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, 40)
            ui.panel(surface, row, ui.PANEL, border=ui.ACCENT if place == 1 else None)
            shared = "=" if sum(1 for p, _ in placed if p == place) > 1 else ""
            ui.text(
                surface,
                f"{place}{shared}. {player['name']}",
                (row.left + 12, row.centery),
                ui.MEDIUM,
                anchor="midleft",
                max_width=row.width - 330,
            )
            ui.text(
                surface,
                self.note(player),
                (row.right - 12, row.centery),
                ui.SMALL,
                anchor="midright",
            )
            y += 46

    def legend(self) -> list[LegendItem]:
        if self.can_rematch():
            return [(Action.OK, "Rematch"), (Action.BACK, "Back to table")]
        return [(Action.OK, "Back to table"), (Action.BACK, "Back")]
