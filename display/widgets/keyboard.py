"""The on-screen keyboard: the one way to type a name or a title on the buttons-only appliance.

Ask for text from any screen and receive it in :meth:`~display.screen.Screen.on_result`::

    self.app.push(KeyboardScreen(self.app, "Name of this table"), purpose="table_name")

    def on_result(self, purpose, result):   # the text (stripped, may be ""), None = cancelled
        ...

The buttons, the same wherever the keyboard is used:

* LEFT/RIGHT move over the keys, OK types the key (DEL deletes, DONE finishes); a tap on a key
  types it;
* BACK deletes the last character; on an empty field BACK cancels (nothing typed is lost by one
  press); holding BACK goes home, as everywhere;
* SHUTTER finishes (a shortcut to DONE).

Typed text (a USB keyboard, the script's ``type TEXT``) is added to the field and moves the
cursor onto DONE, so ``type Ann`` then ``press ok`` enters "Ann" (Enter is OK in ``--sim``).
Letters typed key by key after a letter come out lower case: A, N, N reads "Ann".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App

SPACE, DELETE, DONE = "SPACE", "DEL", "DONE"
KEYS = [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "-", "'", SPACE, DELETE, DONE]
KEY_COLUMNS = 9
WIDE_KEYS = (SPACE, DELETE, DONE)
DEFAULT_LIMIT = 16


@register_screen
class KeyboardScreen(Screen):
    """See the module docstring."""

    kind = "keyboard"
    #: the Co-Mix keyboard, the flows' name keyboard and the letter wheel it replaces
    legacy_kinds = ("comix.keyboard", "flow.keyboard", "text_entry")
    takes_text = True

    def __init__(
        self,
        app: App,
        prompt: str = "Type",
        text: str = "",
        limit: int = 0,
        title: str = "",
    ) -> None:
        super().__init__(app)
        self.prompt = prompt
        self.limit = limit or DEFAULT_LIMIT
        self.text = text[: self.limit]
        self.title = title or prompt
        self.cursor = 0
        self._keys: list[pygame.Rect] = []

    # -- input --------------------------------------------------------------------------------
    def press_key(self, key: str) -> None:
        if key == DONE:
            self.dismiss(self.text.strip())
        elif key == DELETE:
            self.text = self.text[:-1]
        else:
            letter = " " if key == SPACE else key
            if self.text and self.text[-1] != " " and letter.isalpha():
                letter = letter.lower()  # "ANN" typed key by key reads as "Ann"
            self.add(letter)

    def add(self, characters: str) -> None:
        room = self.limit - len(self.text)
        if len(characters) > room:
            self.app.toast(f"At most {self.limit} characters.")
        self.text += characters[: max(0, room)]

    def handle(self, action: Action) -> None:
        if action is Action.LEFT:
            self.cursor = (self.cursor - 1) % len(KEYS)
        elif action is Action.RIGHT:
            self.cursor = (self.cursor + 1) % len(KEYS)
        elif action is Action.OK:
            self.press_key(KEYS[self.cursor])
        elif action is Action.BACK:
            if self.text:
                self.text = self.text[:-1]
            else:
                self.dismiss(None)
        elif action is Action.SHUTTER:
            self.dismiss(self.text.strip())

    def handle_text(self, text: str) -> None:
        for character in text:
            if character == "\b":
                self.text = self.text[:-1]
            elif character.isprintable():
                self.add(character)
        self.cursor = KEYS.index(DONE)

    def handle_tap(self, x: int, y: int) -> bool:
        for index, rect in enumerate(self._keys):
            if rect.collidepoint(x, y):
                self.cursor = index
                self.press_key(KEYS[index])
                return True
        return False

    # -- drawing ------------------------------------------------------------------------------
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
            if key in WIDE_KEYS:
                rect.width = key_w * 2 - 6
                rect.left = ui.MARGIN + (column + index - KEYS.index(SPACE)) * key_w
            chosen = index == self.cursor
            ui.panel(surface, rect, ui.ACCENT if chosen else ui.PANEL)
            size = ui.MEDIUM if len(key) == 1 else ui.SMALL
            colour = ui.ACCENT_TEXT if chosen else ui.TEXT
            ui.text(surface, key, rect.center, size, colour, anchor="center")
            self._keys.append(rect)

    def legend(self) -> list[LegendItem]:
        return [
            ((Action.LEFT, Action.RIGHT), "Key"),
            (Action.OK, "Type"),
            (Action.BACK, "Delete" if self.text else "Cancel"),
            (Action.SHUTTER, "Done"),
        ]

    # -- persistence --------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "prompt": self.prompt,
            "title": self.title,
            "text": self.text,
            "limit": self.limit,
            "cursor": self.cursor,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        prompt = str(data.get("prompt", "Type"))
        if "value" in data:  # the letter wheel (kind text_entry): its own fields and cursor
            screen = cls(app, prompt, str(data["value"]), int(data.get("max_length", 24)))
            screen.purpose = str(data.get("tag", ""))
            return screen
        text, limit = str(data.get("text", "")), int(data.get("limit", 0))
        screen = cls(app, prompt, text, limit, str(data.get("title", "")))
        screen.cursor = int(data.get("cursor", 0)) % len(KEYS)
        return screen
