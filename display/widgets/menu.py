"""The list screen every menu uses: the home screen, the game menus, enrolment and pick lists.

A :class:`MenuScreen` shows rows of (key, label, note) with ``ui.menu``: LEFT/RIGHT move the
selection (wrapping round), OK opens the selected row (``open(key)``), a tap selects a row and a
second tap opens it, BACK goes back. Subclasses say what the rows are and may draw above the
list (``draw_top``), below it (``draw_bottom``, by default the one-line ``blurb``) and change
where the list ends (``list_bottom``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen
from display.widgets.confirm import UndoOffer

if TYPE_CHECKING:
    from display.app import App


class MenuScreen(Screen):
    """Rows of (key, label, note): LEFT/RIGHT move, OK opens (``open(key)``), a tap selects a
    row and a second tap opens it, BACK goes back. ``draw_top`` may draw above the list and
    return where it starts; ``blurb`` is a line under it."""

    menu_size: ClassVar[int] = ui.MEDIUM
    row_gap: ClassVar[int] = 6
    back_label: ClassVar[str] = "Back"
    #: the blurb's baseline, this far above the bottom of the screen
    blurb_bottom: ClassVar[int] = 8
    blurb: str = ""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.selected = 0
        self._rows: list[pygame.Rect] = []
        #: what the last confirmed clearing deleted, offered back for a few seconds (BACK)
        self.undo: UndoOffer | None = None

    def undo_live(self) -> bool:
        return self.undo is not None and self.undo.live(self.app.clock.now())

    def rows(self) -> list[tuple[str, str, str]]:
        return []

    def open(self, key: str) -> None:
        pass

    def activate(self, index: int) -> None:
        rows = self.rows()
        if 0 <= index < len(rows):
            self.open(rows[index][0])

    def handle(self, action: Action) -> None:
        count = len(self.rows())
        if action is Action.BACK and self.undo is not None and self.undo_live():
            self.undo.take(self.app)
            self.undo = None
        elif action is Action.BACK:
            self.app.pop()
        elif count == 0:
            return
        elif action is Action.LEFT:
            self.selected = (min(self.selected, count - 1) - 1) % count
        elif action is Action.RIGHT:
            self.selected = (min(self.selected, count - 1) + 1) % count
        elif action is Action.OK:
            self.activate(min(self.selected, count - 1))

    def handle_tap(self, x: int, y: int) -> bool:
        for index, row in enumerate(self._rows):
            if row.collidepoint(x, y):
                if index == self.selected:
                    self.activate(index)
                else:
                    self.selected = index
                return True
        return False

    def update(self, now: float) -> None:
        if self.undo is not None and not self.undo.live(now):
            self.undo = None

    def menu_items(self, rows: list[tuple[str, str, str]]) -> list[ui.MenuItem]:
        return [ui.MenuItem(label, note) for _, label, note in rows]

    def draw_top(self, surface: pygame.Surface) -> int:
        return 12

    def list_bottom(self, height: int) -> int:
        """Where the list ends on a screen ``height`` high (room for the blurb under it)."""
        return height - (40 if self.blurb_text() else 12)

    def blurb_text(self) -> str:
        return self.blurb

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        top = self.draw_top(surface)
        rows = self.rows()
        self.selected = max(0, min(self.selected, len(rows) - 1))
        bottom = self.list_bottom(height)
        if len(self.blurb_lines(width)) > 1:  # a second line of blurb takes a line off the list
            bottom -= ui.font(ui.SMALL).get_linesize()
        if self.undo_live():
            bottom = min(bottom, height - 64)
        area = pygame.Rect(ui.MARGIN, top, width - 2 * ui.MARGIN, bottom - top)
        items = self.menu_items(rows)
        self._rows = ui.menu(surface, items, self.selected, area, self.menu_size, self.row_gap)
        if self.undo is not None and self.undo_live():
            surface.fill(ui.BACKGROUND, pygame.Rect(0, bottom, width, height - bottom))
            self.undo.draw(surface, self.app.clock.now())
        else:
            self.draw_bottom(surface)

    def blurb_lines(self, width: int) -> list[str]:
        """The blurb wrapped to the screen: two lines at most (a longer one is cut at the end)."""
        blurb = self.blurb_text()
        if not blurb:
            return []
        lines = ui.wrap(blurb, ui.SMALL, width - 2 * ui.MARGIN)
        if len(lines) > 2:
            lines = [lines[0], ui.fit(" ".join(lines[1:]), ui.SMALL, width - 2 * ui.MARGIN)]
        return lines

    def draw_bottom(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        lines = self.blurb_lines(width)
        line_h = ui.font(ui.SMALL).get_linesize()
        for i, line in enumerate(reversed(lines)):
            ui.text(
                surface,
                line,
                (width // 2, height - self.blurb_bottom - i * line_h),
                ui.SMALL,
                ui.DIM,
                anchor="midbottom",
            )

    def legend(self) -> list[LegendItem]:
        back: LegendItem = (Action.BACK, self.back_label)
        if self.undo is not None and self.undo_live():
            back = self.undo.legend_item(self.app.clock.now())
        return [((Action.LEFT, Action.RIGHT), "Choose"), (Action.OK, "Open"), back]

    def snapshot(self) -> dict[str, Any]:
        data: dict[str, Any] = {"selected": self.selected}
        if self.undo is not None and self.undo_live():
            data["undo"] = self.undo.to_json(self.app.clock.now())
        return data

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.selected = int(data.get("selected", 0))
        screen.undo = UndoOffer.from_json(data.get("undo"), app.clock.now())
        return screen
