"""Text entry for names and labels: an on-screen letter wheel for the buttons/encoder, and the
keyboard (or the script's ``type TEXT``) types directly.

Use it from a screen::

    self.app.push(TextEntryScreen(self.app, tag="player_name", prompt="Name of seat 2"))

and receive the answer (``None`` when cancelled) in the pushing screen::

    def handle_result(self, tag, value):
        if tag == "player_name" and value is not None:
            ...

The wheel: LEFT/RIGHT choose a character, OK adds it (or deletes / finishes on the DEL and DONE
entries), BACK deletes the last character (cancels when empty), SHUTTER finishes. Typing moves
the wheel to DONE, so ``type Alice`` followed by ``press ok`` enters "Alice".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App

DELETE = "DEL"
DONE = "DONE"
WHEEL: tuple[str, ...] = (
    *"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    " ",
    *"abcdefghijklmnopqrstuvwxyz",
    *"0123456789-'.&!?",
    DELETE,
    DONE,
)


@register_screen
class TextEntryScreen(Screen):
    kind = "text_entry"
    takes_text = True

    def __init__(
        self,
        app: App,
        tag: str = "",
        prompt: str = "Enter text",
        initial: str = "",
        max_length: int = 24,
    ) -> None:
        super().__init__(app)
        self.tag = tag
        self.prompt = prompt
        self.value = initial[:max_length]
        self.max_length = max_length
        self.cursor = 0
        self.title = prompt

    # -- input --------------------------------------------------------------------------------
    def handle(self, action: Action) -> None:
        if action is Action.LEFT:
            self.cursor = (self.cursor - 1) % len(WHEEL)
        elif action is Action.RIGHT:
            self.cursor = (self.cursor + 1) % len(WHEEL)
        elif action is Action.OK:
            choice = WHEEL[self.cursor]
            if choice == DONE:
                self.finish(self.value.strip())
            elif choice == DELETE:
                self.value = self.value[:-1]
            else:
                self.add(choice)
        elif action is Action.BACK:
            if self.value:
                self.value = self.value[:-1]
            else:
                self.finish(None)
        elif action is Action.SHUTTER:
            self.finish(self.value.strip())

    def handle_hold(self, action: Action) -> None:
        if action is Action.BACK:
            self.value = ""  # holding BACK clears; a second hold/press cancels

    def handle_text(self, text: str) -> None:
        for character in text:
            if character == "\b":
                self.value = self.value[:-1]
            elif character.isprintable():
                self.add(character)
        self.cursor = WHEEL.index(DONE)

    def add(self, character: str) -> None:
        if len(self.value) < self.max_length:
            self.value += character
        else:
            self.app.toast(f"At most {self.max_length} characters.")

    def finish(self, value: str | None) -> None:
        tag = self.tag
        self.app.pop()
        self.app.top.handle_result(tag, value if value else None)

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        box = pygame.Rect(ui.MARGIN, 24, width - 2 * ui.MARGIN, 104)
        ui.panel(surface, box, ui.PANEL, border=ui.TEXT)
        shown = ui.fit(self.value, ui.BIG, box.width - 60) if self.value else ""
        rect = ui.text(surface, shown, (box.left + 20, box.centery), ui.BIG, anchor="midleft")
        pygame.draw.rect(surface, ui.ACCENT, (rect.right + 4, box.top + 20, 6, box.height - 40))
        ui.text(
            surface,
            f"{len(self.value)}/{self.max_length}",
            (box.right - 12, box.bottom - 6),
            22,
            ui.DIM,
            anchor="bottomright",
        )
        # The wheel: the chosen character in a bright box in the middle, neighbours each side.
        centre = (width // 2, box.bottom + 100)
        chosen = self._label(WHEEL[self.cursor])
        box_w = max(72, ui.text_width(chosen, ui.LARGE) + 28)
        area = pygame.Rect(0, 0, box_w, 88)
        area.center = centre
        pygame.draw.rect(surface, ui.ACCENT, area, border_radius=10)
        ui.text(surface, chosen, area.center, ui.LARGE, ui.ACCENT_TEXT, anchor="center")
        cell = 62
        for side in (-1, 1):
            x = centre[0] + side * (box_w // 2 + cell // 2 + 6)
            offset = side
            while ui.MARGIN < x < width - ui.MARGIN:
                label = self._label(WHEEL[(self.cursor + offset) % len(WHEEL)])
                size = ui.MEDIUM if len(label) == 1 else 22
                ui.text(surface, label, (x, centre[1]), size, ui.DIM, anchor="center")
                x += side * cell
                offset += side
        if self.app.simulated:
            hint = "Keyboard: just type, Enter when done"
            ui.text(surface, hint, (width // 2, height - 8), 24, ui.DIM, anchor="midbottom")

    @staticmethod
    def _label(choice: str) -> str:
        return "SPACE" if choice == " " else choice

    def legend(self) -> list[LegendItem]:
        return [
            ((Action.LEFT, Action.RIGHT), "Letter"),
            (Action.OK, "Add"),
            (Action.BACK, "Delete"),
            (Action.SHUTTER, "Done"),
        ]

    # -- persistence --------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "tag": self.tag,
            "prompt": self.prompt,
            "value": self.value,
            "max_length": self.max_length,
            "cursor": self.cursor,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(
            app,
            tag=data.get("tag", ""),
            prompt=data.get("prompt", "Enter text"),
            initial=data.get("value", ""),
            max_length=int(data.get("max_length", 24)),
        )
        screen.cursor = int(data.get("cursor", 0)) % len(WHEEL)
        return screen
