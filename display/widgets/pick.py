"""The pick list: choose one value from a list, closest matches first.

Push it with a ``purpose``; choosing an item dismisses it with the item's value (BACK: None)::

    self.app.push(PickScreen(self.app, "Re-enrol which card?", "", options), purpose="reenrol")

LEFT/RIGHT move, OK (or a second tap) chooses, SEAT 1/SEAT 2 jump to the previous/next initial
letter, and typed text (a keyboard, the script's ``type``) jumps to the best-matching item.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.widgets.menu import MenuScreen

if TYPE_CHECKING:
    from display.app import App


def best_match(query: str, labels: list[str]) -> int | None:
    """Index of the label most like ``query`` (prefix matches first), or None."""
    key = "".join(ch for ch in query.lower() if ch.isalnum())
    if not key or not labels:
        return None
    best, best_score = None, -1.0
    for index, label in enumerate(labels):
        norm = "".join(ch for ch in label.lower() if ch.isalnum())
        score = difflib.SequenceMatcher(None, key, norm).ratio()
        if norm.startswith(key):
            score += 1.0
        if norm == key:
            score += 2.0
        if score > best_score:
            best, best_score = index, score
    return best


@register_screen
class PickScreen(MenuScreen):
    """Choose one value from a list; see the module docstring."""

    kind = "flow.pick"
    takes_text = True
    row_gap = 4

    def __init__(
        self,
        app: App,
        title: str = "Choose",
        prompt: str = "",
        options: list[tuple[str, str, str]] | None = None,
        selected: int = 0,
    ) -> None:
        super().__init__(app)
        self.title = title
        self.prompt = prompt
        self.options = list(options or [])  # (value, label, note)
        self.selected = max(0, min(selected, len(self.options) - 1))

    def rows(self) -> list[tuple[str, str, str]]:
        return self.options

    def activate(self, index: int) -> None:
        if not self.options:
            return
        self.dismiss(self.options[index][0])

    def handle(self, action: Action) -> None:
        if action in (Action.SEAT_1, Action.SEAT_2) and self.options:
            self.jump_letter(1 if action is Action.SEAT_2 else -1)
        elif action is Action.BACK:
            self.dismiss(None)
        else:
            super().handle(action)

    def jump_letter(self, direction: int) -> None:
        """To the next (or previous) item starting with another letter: long lists by button."""
        count = len(self.options)
        letter = self.options[self.selected][1][:1].lower()
        index = self.selected
        for _ in range(count):
            index = (index + direction) % count
            if self.options[index][1][:1].lower() != letter:
                break
        if direction < 0:  # the first item of that letter
            target = self.options[index][1][:1].lower()
            while self.options[(index - 1) % count][1][:1].lower() == target and index > 0:
                index -= 1
        self.selected = index

    def handle_text(self, text: str) -> None:
        index = best_match(text, [label for _, label, _ in self.options])
        if index is not None:
            self.selected = index

    def draw_top(self, surface: pygame.Surface) -> int:
        if not self.prompt:
            return 8
        width = surface.get_width()
        area = pygame.Rect(ui.MARGIN, 8, width - 2 * ui.MARGIN, 64)
        return ui.paragraph(surface, self.prompt, area) + 6

    def legend(self) -> list[LegendItem]:
        return [
            ((Action.LEFT, Action.RIGHT), "Move"),
            (Action.OK, "Choose"),
            (Action.BACK, "Cancel"),
        ]

    def snapshot(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "prompt": self.prompt,
            "options": [list(o) for o in self.options],
            "selected": self.selected,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        return cls(
            app,
            data.get("title", "Choose"),
            data.get("prompt", ""),
            [(str(o[0]), str(o[1]), str(o[2])) for o in data.get("options", [])],
            int(data.get("selected", 0)),
        )
