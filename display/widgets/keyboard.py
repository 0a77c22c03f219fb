"""The on-screen keyboard: the one way to type a name or a title on the buttons-only appliance.

Ask for text from any screen and receive it in :meth:`~display.screen.Screen.on_result`::

    self.app.push(KeyboardScreen(self.app, "Name of this table"), purpose="table_name")

    def on_result(self, purpose, result):   # the text (stripped, may be ""), None = cancelled
        ...

A keyboard asking for a player's name (``names=True``) offers the recent names first, as keys
of their own: one OK picks one (``exclude``: names already taken at this table). As letters are
typed, only the recent names starting with them stay. Names entered are remembered (store
``names/recent``, newest first); :func:`remember_names` adds a whole table in seat order.

The buttons, the same wherever the keyboard is used:

* LEFT/RIGHT (the knob) move over the keys - turned fast, the cursor jumps further (up to
  ``MAX_JUMP`` keys a detent) - OK types the key (DEL deletes, DONE finishes); a tap on a key
  types it. The cursor starts on the first recent name, or on A (on DONE when there is text);
* a name keyboard also offers a row of the letters most likely to come next in a name
  (:mod:`~display.widgets.name_letters`), first in the knob's order: after each letter typed
  the cursor is on the likeliest next one, so a short name takes a few steps, not a trip
  round the alphabet (the grid itself, taps and typed text are unchanged);
* holding OK finishes, like DONE (the letter its press typed is taken back);
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
from display.widgets.name_letters import next_letters

if TYPE_CHECKING:
    from display.app import App

SPACE, DELETE, DONE = "SPACE", "DEL", "DONE"
KEYS = [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "-", "'", SPACE, DELETE, DONE]
KEY_COLUMNS = 9
WIDE_KEYS = (SPACE, DELETE, DONE)
DEFAULT_LIMIT = 16
RECENT = ("names", "recent")  # store namespace and key: names entered, newest first
RECENT_LIMIT = 12
SHOWN_NAMES = 4  # recent names offered at once (one row of keys)
FAST_TURN = 0.12  # seconds between two detents the same way that count as a fast turn
MAX_JUMP = 4  # keys a single detent moves at most, turned fast
SUGGESTED = 8  # likely next letters a name keyboard offers first


def recent_names(app: App) -> list[str]:
    names = app.store.get(*RECENT, [])
    return [str(name) for name in names] if isinstance(names, list) else []


def remember_names(app: App, names: list[str]) -> None:
    """Put ``names`` first among the recent names, in this order (a table in seat order)."""
    wanted = [" ".join(name.split()) for name in names if name.strip()]
    seen = {name.casefold() for name in wanted}
    rest = [name for name in recent_names(app) if name.casefold() not in seen]
    app.store.put(*RECENT, (wanted + rest)[:RECENT_LIMIT])


def jump(streak: int) -> int:
    """Keys moved by a detent that is the ``streak``-th fast one in a row (0: not fast)."""
    return min(MAX_JUMP, 1 + streak)


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
        names: bool = False,
        exclude: list[str] | tuple[str, ...] = (),
    ) -> None:
        super().__init__(app)
        self.prompt = prompt
        self.limit = limit or DEFAULT_LIMIT
        self.text = text[: self.limit]
        self.title = title or prompt
        self.names = names
        self.exclude = [str(name) for name in exclude]
        #: the key under the cursor (a label: the keys offered change as letters are typed);
        #: ``on_suggested``: the label is in the row of likely next letters, not the grid
        self.at, self.on_suggested = DONE, False
        if not self.text:
            self.to_first_key()
        self._turn: tuple[int, float, int] = (0, -1e9, 0)  # direction, time, fast streak
        self._before_press = self.text  # the text before the last OK (a hold of it: Done)
        self._keys: list[pygame.Rect] = []

    # -- the keys -----------------------------------------------------------------------------
    def offered(self) -> list[str]:
        """The recent names offered as keys: not taken, starting with what is typed."""
        if not self.names:
            return []
        taken = {name.casefold() for name in self.exclude}
        typed = self.text.casefold()
        names = [
            name
            for name in recent_names(self.app)
            if name.casefold() not in taken
            and name.casefold().startswith(typed)
            and name.casefold() != typed
            and name not in KEYS
            and len(name) <= self.limit
        ]
        return names[:SHOWN_NAMES]

    def suggested(self) -> list[str]:
        """The likely next letters of a name in the order of their row: the likeliest in the
        middle (where the cursor lands), the next ones alternately right and left of it, so
        either way of the knob reaches them (none for other text, or a full field)."""
        if not self.names or len(self.text) >= self.limit:
            return []
        likely = next_letters(self.text, SUGGESTED)
        row: list[str] = []
        for rank, letter in enumerate(likely):
            if rank % 2:
                row.append(letter)
            else:
                row.insert(0, letter)
        return row

    def likeliest(self) -> str | None:
        suggested = self.suggested()
        return suggested[(len(suggested) - 1) // 2] if suggested else None

    def keys(self) -> list[str]:
        """Every key in cursor order: the recent names offered, the likely next letters, then
        the letter wheel."""
        return [*self.offered(), *self.suggested(), *KEYS]

    def to_first_key(self) -> None:
        """The cursor on the first recent name, else on the likeliest next letter, else A."""
        offered, likeliest = self.offered(), self.likeliest()
        self.on_suggested = not offered and likeliest is not None
        self.at = offered[0] if offered else likeliest or "A"

    @property
    def cursor(self) -> int:
        offered, suggested = self.offered(), self.suggested()
        if self.on_suggested and self.at in suggested:
            return len(offered) + suggested.index(self.at)
        if self.at in offered:
            return offered.index(self.at)
        if self.at in KEYS:
            return len(offered) + len(suggested) + KEYS.index(self.at)
        self.to_first_key()  # a name no longer offered: the first key
        return 0

    def move_to(self, index: int) -> None:
        keys = self.keys()
        index %= len(keys)
        start = len(self.offered())
        self.at = keys[index]
        self.on_suggested = start <= index < start + len(self.suggested())

    # -- input --------------------------------------------------------------------------------
    def press_key(self, key: str) -> None:
        if key == DONE:
            self.finish(self.text)
        elif key == DELETE:
            self.text = self.text[:-1]
        elif key not in KEYS:  # a recent name
            self.finish(key)
        else:
            letter = " " if key == SPACE else key
            if self.text and self.text[-1] != " " and letter.isalpha():
                letter = letter.lower()  # "ANN" typed key by key reads as "Ann"
            self.add(letter)
            likeliest = self.likeliest()
            if likeliest is not None:  # on the likeliest next letter (a name one step away)
                self.at, self.on_suggested = likeliest, True

    def finish(self, text: str) -> None:
        text = text.strip()
        if self.names and text:
            remember_names(self.app, [text])
        self.dismiss(text)

    def add(self, characters: str) -> None:
        room = self.limit - len(self.text)
        if len(characters) > room:
            self.app.toast(f"At most {self.limit} characters.")
        self.text += characters[: max(0, room)]

    def turn(self, direction: int) -> None:
        """A knob detent: one key, or more when it follows the last one quickly the same way."""
        now = self.app.clock.now()
        last_direction, last_time, streak = self._turn
        # Detents at the very same instant (a script's presses: they do not move the clock)
        # step one key each, so a scripted "press right" x 13 still lands on N.
        fast = direction == last_direction and 0 < now - last_time <= FAST_TURN
        streak = streak + 1 if fast else 0
        self._turn = (direction, now, streak)
        self.move_to(self.cursor + direction * jump(streak))

    def handle(self, action: Action) -> None:
        if action is Action.LEFT:
            self.turn(-1)
        elif action is Action.RIGHT:
            self.turn(1)
        elif action is Action.OK:
            self._before_press = self.text
            self.press_key(self.keys()[self.cursor])
        elif action is Action.BACK:
            if self.text:
                self.text = self.text[:-1]
            else:
                self.dismiss(None)
        elif action is Action.SHUTTER:
            self.finish(self.text)

    def handle_hold(self, action: Action) -> None:
        """Holding OK finishes (what the press typed is taken back): no trip round the wheel
        to DONE after the last letter."""
        if action is Action.OK:
            self.finish(self._before_press)
        else:
            super().handle_hold(action)

    def handle_text(self, text: str) -> None:
        for character in text:
            if character == "\b":
                self.text = self.text[:-1]
            elif character.isprintable():
                self.add(character)
        self.at, self.on_suggested = DONE, False

    def handle_tap(self, x: int, y: int) -> bool:
        for index, (key, rect) in enumerate(zip(self.keys(), self._keys, strict=False)):
            if rect.collidepoint(x, y):
                self.move_to(index)
                self.press_key(key)
                return True
        return False

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        field = pygame.Rect(ui.MARGIN, 8, width - 2 * ui.MARGIN, 58)
        ui.panel(surface, field, ui.PANEL, border=ui.ACCENT)
        ui.text(
            surface,
            self.text + "_",
            (field.left + 16, field.centery),
            ui.LARGE,
            anchor="midleft",
            max_width=field.width - 32,
        )
        top = field.bottom + 8
        offered, suggested = self.offered(), self.suggested()
        letter_rows = (len(KEYS) + KEY_COLUMNS - 1) // KEY_COLUMNS
        rows = letter_rows + (1 if offered else 0) + (1 if suggested else 0)
        key_h = min(66, (height - top - 4) // rows)
        key_w = (width - 2 * ui.MARGIN) // KEY_COLUMNS
        cursor = self.cursor
        self._keys = []
        if offered:  # one row of recent names, as wide as they need
            name_w = (width - 2 * ui.MARGIN) // SHOWN_NAMES
            for index, name in enumerate(offered):
                rect = pygame.Rect(ui.MARGIN + index * name_w, top, name_w - 6, key_h - 6)
                self.draw_key(surface, rect, name, index == cursor, ui.INFO)
                self._keys.append(rect)
            top += key_h
        if suggested:  # the likely next letters, framed like the names: offered first
            heading = ui.text(surface, "Next?", (ui.MARGIN, top + (key_h - 6) // 2), ui.SMALL,
                              ui.INFO, "midleft")  # fmt: skip
            left = heading.right + 12
            for index, letter in enumerate(suggested, start=len(offered)):
                rect = pygame.Rect(left, top, key_w - 6, key_h - 6)
                self.draw_key(surface, rect, letter, index == cursor, ui.INFO)
                self._keys.append(rect)
                left += key_w
            top += key_h
        grid = len(offered) + len(suggested)
        for index, key in enumerate(KEYS):
            row, column = divmod(index, KEY_COLUMNS)
            rect = pygame.Rect(ui.MARGIN + column * key_w, top + row * key_h, key_w - 6, key_h - 6)
            if key in WIDE_KEYS:
                rect.width = key_w * 2 - 6
                rect.left = ui.MARGIN + (column + index - KEYS.index(SPACE)) * key_w
            label = key
            if key == DONE:  # the last key runs to the edge and says the shortcut
                rect.width = width - ui.MARGIN - rect.left - 6
                label = "DONE or hold OK"
            self.draw_key(surface, rect, label, grid + index == cursor)
            self._keys.append(rect)

    def draw_key(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        key: str,
        chosen: bool,
        border: tuple[int, int, int] | None = None,
    ) -> None:
        ui.panel(surface, rect, ui.ACCENT if chosen else ui.PANEL, border=border)
        size = ui.MEDIUM if len(key) == 1 else ui.SMALL
        colour = ui.ACCENT_TEXT if chosen else ui.TEXT
        ui.text(surface, key, rect.center, size, colour, "center", max_width=rect.width - 8)

    def legend(self) -> list[LegendItem]:
        on_name = self.keys()[self.cursor] not in KEYS
        return [
            ((Action.LEFT, Action.RIGHT), "Key"),
            (Action.OK, "Pick" if on_name else "Type"),
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
            "at": self.at,
            "on_suggested": self.on_suggested,
            "names": self.names,
            "exclude": self.exclude,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        prompt = str(data.get("prompt", "Type"))
        if "value" in data:  # the letter wheel (kind text_entry): its own fields and cursor
            screen = cls(app, prompt, str(data["value"]), int(data.get("max_length", 24)))
            screen.purpose = str(data.get("tag", ""))
            return screen
        text, limit = str(data.get("text", "")), int(data.get("limit", 0))
        names = bool(data.get("names", False))
        exclude = [str(name) for name in data.get("exclude", [])]
        screen = cls(app, prompt, text, limit, str(data.get("title", "")), names, exclude)
        if "at" in data:
            screen.at = str(data["at"])
            screen.on_suggested = bool(data.get("on_suggested", False))
        elif "cursor" in data:  # saved by an older version: an index into the letter wheel
            screen.at = KEYS[int(data["cursor"]) % len(KEYS)]
        return screen
