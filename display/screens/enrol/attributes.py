"""Enrolment: what is printed on each Mixtape card (``enrol.attributes``) and the Equalizer's
squares (``enrol.equalizer``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.cards.mixtape_deck import default_equalizer, mixtape_attributes, write_deck_file
from display.screen import LegendItem, Screen, register_screen
from display.screens.enrol.common import MIXTAPE, enrolment
from games.mixtape import GENRE_NAMES, GENRES, WILD

if TYPE_CHECKING:
    from display.app import App

FIELDS = ("genre", "side", "balance", "top", "bottom", "players")
ATTRIBUTE_LEFT = 270  # x of the attribute rows (the card's picture is on the left)
FLOW_CHOICES: list[list[str]] = [
    [],
    ["left"],
    ["center"],
    ["right"],
    ["left", "center"],
    ["center", "right"],
    ["left", "right"],
    ["left", "center", "right"],
]
DEFAULT_ATTRIBUTES: dict[str, Any] = {
    "genre": "pop",
    "side": "A",
    "balance": 1,
    "top": ["center"],
    "bottom": ["center"],
    "players": 2,
}


@register_screen
class AttributesScreen(Screen):
    """What is printed on each Mixtape card, entered with LEFT/RIGHT (value) and OK (next
    field); SEAT 1 saves the card as shown. Pre-filled from the previous card."""

    kind = "enrol.attributes"

    def __init__(
        self, app: App, keys: list[str], index: int = 0, values: dict[str, Any] | None = None
    ) -> None:
        super().__init__(app)
        self.keys = list(keys)
        self.index = index
        self.field = 0
        self.values = dict(values) if values else self.prefill()
        self._view_key: str | None = None
        self._thumb: pygame.Surface | None = None

    @property
    def key(self) -> str:
        return self.keys[self.index]

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"Mixtape card {self.index + 1} of {len(self.keys)}"

    def prefill(self) -> dict[str, Any]:
        attrs = mixtape_attributes(enrolment(self.app, MIXTAPE))
        key = self.keys[self.index]
        if key in attrs:
            return dict(attrs[key])
        earlier = [k for k in sorted(attrs) if k < key]
        return dict(attrs[earlier[-1]]) if earlier else dict(DEFAULT_ATTRIBUTES)

    def step(self, delta: int) -> None:
        name = FIELDS[self.field]
        v = self.values
        if name == "genre":
            options = [*GENRES, WILD]
            v["genre"] = options[(options.index(v["genre"]) + delta) % len(options)]
            if v["genre"] == WILD:
                v["top"] = v["bottom"] = ["left", "center", "right"]
        elif name == "side":
            v["side"] = "B" if v["side"] == "A" else "A"
        elif name == "balance":
            v["balance"] = max(0, min(9, int(v["balance"]) + delta))
        elif name in ("top", "bottom"):
            current = FLOW_CHOICES.index(sorted(v[name], key=["left", "center", "right"].index))
            v[name] = FLOW_CHOICES[(current + delta) % len(FLOW_CHOICES)]
        elif name == "players":
            v["players"] = (
                {2: 3, 3: 4, 4: 2}[int(v["players"])]
                if delta > 0
                else {2: 4, 3: 2, 4: 3}[int(v["players"])]
            )

    def save_card(self) -> None:
        done = enrolment(self.app, MIXTAPE)
        attrs = mixtape_attributes(done)
        attrs[self.key] = dict(self.values)
        done.set_extra("cards", attrs)
        problem = write_deck_file(done)
        if self.index + 1 < len(self.keys):
            previous = dict(self.values)
            self.index += 1
            self.field = 0
            attrs_next = attrs.get(self.key)
            self.values = dict(attrs_next) if attrs_next else previous
            self._thumb = None
        else:
            self.app.pop()
            if problem and "no [[cards]]" not in problem:
                self.app.toast(f"Saved. The deck file is not complete yet: {problem}")
            else:
                self.app.toast(f"Saved {len(attrs)} cards to the deck file.")

    def handle(self, action: Action) -> None:
        if action is Action.LEFT:
            self.step(-1)
        elif action is Action.RIGHT:
            self.step(1)
        elif action is Action.OK:
            if self.field + 1 < len(FIELDS):
                self.field += 1
            else:
                self.save_card()
        elif action is Action.SEAT_1:
            self.save_card()
        elif action is Action.BACK:
            if self.field > 0:
                self.field -= 1
            else:
                self.app.pop()

    def handle_tap(self, x: int, y: int) -> bool:
        """Touch: a tap on a field selects it; on the selected field's value, the right half
        steps forward and the left half back."""
        for index in range(len(FIELDS)):
            row = pygame.Rect(ATTRIBUTE_LEFT, 50 + index * 46, 10_000, 40)
            if row.collidepoint(x, y):
                if index == self.field:
                    width = self.app.size[0] - ui.MARGIN
                    self.step(1 if x > (ATTRIBUTE_LEFT + width) // 2 else -1)
                self.field = index
                return True
        return False

    def value_text(self, name: str) -> str:
        v = self.values[name]
        if name == "genre":
            return GENRE_NAMES.get(v, v)
        if name in ("top", "bottom"):
            return " + ".join(v) if v else "none"
        if name == "side":
            return f"{v} (number printed {'left' if v == 'A' else 'right'})"
        if name == "players":
            return f"{v} lines"
        return str(v)

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        if self._thumb is None or self._view_key != self.key:
            image = enrolment(self.app, MIXTAPE).card_image(self.key)
            self._thumb = ui.image_surface(image, (220, height - 20)) if image is not None else None
            self._view_key = self.key
        if self._thumb is not None:
            surface.blit(self._thumb, (ui.MARGIN, 10))
        left = ATTRIBUTE_LEFT
        ui.text(surface, "Enter what is printed on this card:", (left, 12), ui.SMALL, ui.DIM)
        labels = {
            "genre": "Genre",
            "side": "Side",
            "balance": "Balance",
            "top": "Flow top",
            "bottom": "Flow bottom",
            "players": "Players",
        }
        for index, name in enumerate(FIELDS):
            row = pygame.Rect(left, 50 + index * 46, width - left - ui.MARGIN, 40)
            chosen = index == self.field
            ui.panel(surface, row, ui.ACCENT if chosen else ui.PANEL)
            colour = ui.ACCENT_TEXT if chosen else ui.TEXT
            ui.text(
                surface,
                ("> " if chosen else "  ") + labels[name],
                (row.left + 8, row.centery),
                ui.SMALL,
                colour,
                anchor="midleft",
            )
            ui.text(
                surface,
                ("< " if chosen else "") + self.value_text(name) + (" >" if chosen else ""),
                (row.right - 10, row.centery),
                ui.SMALL,
                colour,
                anchor="midright",
            )

    def legend(self) -> list[LegendItem]:
        return [
            ((Action.LEFT, Action.RIGHT), "Value"),
            (Action.OK, "Next"),
            (Action.SEAT_1, "Save card"),
            (Action.BACK, "Back"),
        ]

    def snapshot(self) -> dict[str, Any]:
        return {"keys": self.keys, "index": self.index, "field": self.field, "values": self.values}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, list(data["keys"]), int(data.get("index", 0)), data.get("values"))
        screen.field = int(data.get("field", 0))
        return screen


@register_screen
class EqualizerScreen(Screen):
    """The Equalizer's printed points, once: how many squares, each square's points, and the
    start square. LEFT/RIGHT change the value, OK moves on, SEAT 1 saves."""

    kind = "enrol.equalizer"
    title = "Mixtape - Equalizer"

    def __init__(
        self, app: App, squares: list[int] | None = None, start: int | None = None
    ) -> None:
        super().__init__(app)
        saved = enrolment(app, MIXTAPE).extra.get("equalizer") or default_equalizer()
        self.squares = list(squares if squares is not None else saved["squares"])
        self.start = int(start if start is not None else saved["start"])
        self.cursor = 0  # 0 = count, 1..n = squares, n+1 = start

    def handle(self, action: Action) -> None:
        n = len(self.squares)
        delta = {Action.LEFT: -1, Action.RIGHT: 1}.get(action)
        if delta is not None:
            if self.cursor == 0:
                if delta > 0:
                    self.squares.append(0)
                elif n > 1:
                    self.squares.pop()
                self.start = min(self.start, len(self.squares) - 1)
            elif self.cursor <= n:
                self.squares[self.cursor - 1] = max(0, self.squares[self.cursor - 1] + delta)
            else:
                self.start = (self.start + delta) % n
        elif action is Action.OK:
            self.cursor = (self.cursor + 1) % (n + 2)
        elif action is Action.SEAT_1:
            done = enrolment(self.app, MIXTAPE)
            done.set_extra("equalizer", {"squares": self.squares, "start": self.start})
            write_deck_file(done)
            self.app.pop()
            self.app.toast(f"Equalizer saved: {len(self.squares)} squares, start {self.start + 1}.")
        elif action is Action.BACK:
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        n = len(self.squares)
        chosen = self.cursor
        ui.text(
            surface,
            f"Squares: {n}",
            (ui.MARGIN, 10),
            ui.MEDIUM,
            ui.ACCENT if chosen == 0 else ui.TEXT,
        )
        ui.text(
            surface,
            f"Start square: {self.start + 1}",
            (width // 2, 10),
            ui.MEDIUM,
            ui.ACCENT if chosen == n + 1 else ui.TEXT,
        )
        cell = max(30, (width - 2 * ui.MARGIN) // max(n, 1))
        for index, points in enumerate(self.squares):
            rect = pygame.Rect(ui.MARGIN + index * cell, 90, cell - 4, 120)
            selected = chosen == index + 1
            ui.panel(
                surface,
                rect,
                ui.ACCENT if selected else ui.PANEL,
                border=ui.GOOD if index == self.start else None,
            )
            ui.text(
                surface,
                str(points),
                rect.center,
                ui.SMALL,
                ui.ACCENT_TEXT if selected else ui.TEXT,
                anchor="center",
            )
            ui.text(
                surface,
                str(index + 1),
                (rect.centerx, rect.bottom + 4),
                20,
                ui.DIM,
                anchor="midtop",
            )
        ui.paragraph(
            surface,
            "OK moves: count, each square, start. LEFT/RIGHT change it. The start square has a "
            "green frame. SEAT 1 saves.",
            pygame.Rect(ui.MARGIN, 240, width - 2 * ui.MARGIN, height - 240),
            ui.SMALL,
            ui.DIM,
        )

    def legend(self) -> list[LegendItem]:
        return [
            ((Action.LEFT, Action.RIGHT), "Change"),
            (Action.OK, "Next"),
            (Action.SEAT_1, "Save"),
            (Action.BACK, "Cancel"),
        ]

    def snapshot(self) -> dict[str, Any]:
        return {"squares": self.squares, "start": self.start, "cursor": self.cursor}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, list(data["squares"]), int(data["start"]))
        screen.cursor = int(data.get("cursor", 0))
        return screen
