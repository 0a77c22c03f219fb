"""The pick list: choose one value from a list, real look-alikes first, a letter row on the knob.

Push it with a ``purpose``; choosing an item dismisses it with the item's value (BACK: None)::

    self.app.push(PickScreen(self.app, "Re-enrol which card?", "", options), purpose="reenrol")

A long alphabetical list gets a **letter row** above it: the knob (LEFT/RIGHT) on the row picks a
first letter and the list jumps to it, OK goes into the list, where the knob moves name by name
and OK chooses; BACK in the list returns to the letters (on the letters it cancels). The first
``lookalikes`` options (the cards the recogniser found closest) are a group of their own,
"Like", offered first with the list in hand when ``preselect`` (a strong look-alike; a weak one
waits in "Like" while the cursor starts on the first letter); ``extras`` trailing options (e.g.
"Not a card") are the group "Other". A :class:`CardCrop` shows the card being named beside the
list. Typed text (a keyboard, the script's ``type``) jumps to the best-matching item.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.widgets.menu import MenuScreen
from display.widgets.photo_pane import PhotoPane

if TYPE_CHECKING:
    from display.app import App

LIKE, OTHER = "Like", "Other"
LETTER_ROW_FROM = 9  # lists at least this long (alphabetical) get the letter row
CROP_W = 190  # the card's picture beside the list


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


def letter_groups(labels: list[str], lookalikes: int, extras: int) -> list[tuple[str, int]]:
    """(group name, index of its first option): "Like", then one per first letter, "Other".
    Empty when the middle of the list is short or not alphabetical (no letter row then)."""
    middle = labels[lookalikes : len(labels) - extras]
    if len(middle) < LETTER_ROW_FROM or middle != sorted(middle, key=str.lower):
        return []
    groups: list[tuple[str, int]] = [(LIKE, 0)] if lookalikes else []
    for index, label in enumerate(middle, start=lookalikes):
        letter = label[:1].upper() if label[:1].isalpha() else "#"
        if not groups or groups[-1][0] != letter:
            groups.append((letter, index))
    if extras:
        groups.append((OTHER, len(labels) - extras))
    return groups


class CardCrop:
    """The part of a kept photo that shows one card (its corners in the full photo), for the
    pick list. The photo comes from a :class:`PhotoPane` (the screen-sized copy, never the
    camera still, and loaded off the UI thread after a restart)."""

    def __init__(self, pane: PhotoPane, photo: str, corners: list[list[float]]) -> None:
        self.pane, self.photo, self.corners = pane, photo, corners
        self._surface: pygame.Surface | None = None
        self._box: tuple[int, int] | None = None

    def surface(self, box: tuple[int, int]) -> pygame.Surface | None:
        if self._surface is not None and self._box == box:
            return self._surface
        shot = self.pane.shot(self.photo)
        if shot is None or shot.preview is None or len(self.corners) < 3:
            return None
        preview = np.asarray(shot.preview)
        scale = preview.shape[1] / max(1, shot.full_size[0] or preview.shape[1])
        xs = [x * scale for x, _ in self.corners]
        ys = [y * scale for _, y in self.corners]
        x0, x1 = max(0, int(min(xs))), min(preview.shape[1], int(max(xs)) + 1)
        y0, y1 = max(0, int(min(ys))), min(preview.shape[0], int(max(ys)) + 1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        self._surface, self._box = ui.image_surface(preview[y0:y1, x0:x1], box), box
        return self._surface


@register_screen
class PickScreen(MenuScreen):
    """Choose one value from a list; see the module docstring."""

    kind = "flow.pick"
    takes_text = True
    row_gap = 4
    menu_size = ui.SMALL
    #: False: the list alone, as before the letter row (``tablekeeper check presses`` compares)
    letter_row: ClassVar[bool] = True

    def __init__(
        self,
        app: App,
        title: str = "Choose",
        prompt: str = "",
        options: list[tuple[str, str, str]] | None = None,
        selected: int = 0,
        *,
        lookalikes: int = 0,
        preselect: bool = True,
        extras: int = 0,
        crop: CardCrop | None = None,
    ) -> None:
        super().__init__(app)
        self.title = title
        self.prompt = prompt
        self.options = list(options or [])  # (value, label, note)
        self.selected = max(0, min(selected, len(self.options) - 1))
        self.lookalikes, self.extras, self.crop = lookalikes, extras, crop
        labels = [o[1] for o in self.options]
        self.groups = letter_groups(labels, lookalikes, extras) if self.letter_row else []
        # On the letters first unless there is a strong look-alike to offer (then the list, on
        # it); weak ones stay in "Like", one knob step left of the first letter.
        self.on_letters = bool(self.groups) and not (lookalikes and preselect)
        if self.on_letters and lookalikes and len(self.groups) > 1:
            self.selected = self.groups[1][1]
        self._cells: list[tuple[pygame.Rect, int]] = []
        #: the first row the list shows: a letter's first name stays on top when chosen
        self.list_top = self.selected

    # -- where the selection is -----------------------------------------------------------------
    def group(self) -> int:
        """The index of the group holding the selection."""
        current = 0
        for index, (_, first) in enumerate(self.groups):
            if first <= self.selected:
                current = index
        return current

    def rows(self) -> list[tuple[str, str, str]]:
        return self.options

    def activate(self, index: int) -> None:
        if not self.options:
            return
        self.dismiss(self.options[index][0])

    def handle(self, action: Action) -> None:
        if not self.on_letters:
            if action is Action.BACK:
                if self.groups:
                    self.on_letters = True
                    self.selected = self.groups[self.group()][1]
                else:
                    self.dismiss(None)
            else:
                super().handle(action)
            return
        if action is Action.BACK:
            self.dismiss(None)
        elif action in (Action.LEFT, Action.RIGHT):
            step = 1 if action is Action.RIGHT else -1
            self.selected = self.groups[(self.group() + step) % len(self.groups)][1]
        elif action is Action.OK:
            self.on_letters = False
            self.list_top = self.selected  # the letter's names from the top, none above

    def handle_text(self, text: str) -> None:
        index = best_match(text, [label for _, label, _ in self.options])
        if index is not None:
            self.selected = index
            self.list_top = index
            self.on_letters = False

    def handle_tap(self, x: int, y: int) -> bool:
        for rect, index in self._cells:
            if rect.collidepoint(x, y):
                self.selected = self.groups[index][1]
                self.on_letters = False
                return True
        if super().handle_tap(x, y):
            self.on_letters = False
            return True
        return False

    # -- drawing --------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        letters_top = top = self.draw_top(surface)
        if self.groups:
            top += ui.font(ui.SMALL).get_linesize() + 18
        left = ui.MARGIN
        picture = self.crop.surface((CROP_W, height - top - 8)) if self.crop else None
        if picture is not None:
            surface.blit(picture, (left, top))
            left += picture.get_width() + 16
        self.selected = max(0, min(self.selected, len(self.options) - 1))
        area = pygame.Rect(left, top, width - ui.MARGIN - left, height - 32 - top)
        items = [ui.MenuItem(label, note) for _, label, note in self.options]
        # On the letters the list shows the letter's names from the top, none chosen yet; in
        # the names it scrolls only as far as the cursor needs (a letter's first name chosen
        # stays on top, with no names of the letter before above it).
        row_h = ui.font(self.menu_size).get_linesize() + 16
        visible = max(1, (area.height + self.row_gap) // (row_h + self.row_gap))
        top = self.selected if self.on_letters else self.list_top
        top = min(top, self.selected)
        top = max(top, self.selected - visible + 1)
        top = max(0, min(top, len(items) - visible))
        self.list_top = top
        if len(items) > visible:
            ui.scroll_bar(surface, area, top, visible, len(items))
            area = pygame.Rect(area.left, area.top, area.width - ui.SCROLL_BAR_W - 8, area.height)
        shown = ui.menu(
            surface,
            items[top : top + visible],
            self.selected - top,
            area,
            self.menu_size,
            self.row_gap,
            highlight=not self.on_letters,
        )
        self._rows = [pygame.Rect(0, 0, 0, 0)] * len(items)
        self._rows[top : top + len(shown)] = shown
        if self.groups:  # drawn over the list's "more above", which the row says already
            strip = pygame.Rect(0, letters_top, width, top - letters_top)
            surface.fill(ui.BACKGROUND, strip)
            self.draw_letters(surface, letters_top)

    def draw_top(self, surface: pygame.Surface) -> int:
        """The prompt, wrapped (two lines at most, so the list keeps its room)."""
        if not self.prompt:
            return 8
        width = surface.get_width()
        lines = ui.wrap(self.prompt, ui.SMALL, width - 2 * ui.MARGIN)
        if len(lines) > 2:
            lines = [lines[0], ui.fit(" ".join(lines[1:]), ui.SMALL, width - 2 * ui.MARGIN)]
        y = 6
        for line in lines:
            y = ui.text(surface, line, (ui.MARGIN, y), ui.SMALL).bottom
        return y + 6

    def draw_letters(self, surface: pygame.Surface, top: int) -> int:
        """The letter row, scrolled to keep the current group in view; returns its bottom."""
        width = surface.get_width()
        pad, gap = 10, 4
        sizes = [ui.text_width(name, ui.SMALL) + 2 * pad for name, _ in self.groups]
        current = self.group()
        room = width - 2 * ui.MARGIN
        first = 0
        while sum(sizes[first : current + 1]) + gap * (current - first) > room - 40:
            first += 1
        x, height = ui.MARGIN, ui.font(ui.SMALL).get_linesize() + 10
        self._cells = []
        for index in range(first, len(self.groups)):
            if x + sizes[index] > ui.MARGIN + room:
                break
            cell = pygame.Rect(x, top, sizes[index], height)
            self._cells.append((cell, index))
            name = self.groups[index][0]
            if index == current and self.on_letters:
                pygame.draw.rect(surface, ui.ACCENT, cell, border_radius=6)
                ui.text(surface, name, cell.center, ui.SMALL, ui.ACCENT_TEXT, anchor="center")
            else:
                if index == current:
                    pygame.draw.rect(surface, ui.ACCENT, cell, width=3, border_radius=6)
                ui.text(surface, name, cell.center, ui.SMALL, ui.TEXT, anchor="center")
            x += sizes[index] + gap
        return top + height

    def legend(self) -> list[LegendItem]:
        if self.on_letters:
            return [
                ((Action.LEFT, Action.RIGHT), "Letter"),
                (Action.OK, "Names"),
                (Action.BACK, "Cancel"),
            ]
        return [
            ((Action.LEFT, Action.RIGHT), "Name"),
            (Action.OK, "Choose"),
            (Action.BACK, "Letters" if self.groups else "Cancel"),
        ]

    def snapshot(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "prompt": self.prompt,
            "options": [list(o) for o in self.options],
            "selected": self.selected,
            "lookalikes": self.lookalikes,
            "extras": self.extras,
            "on_letters": self.on_letters,
            "photo": self.crop.photo if self.crop else None,
            "corners": self.crop.corners if self.crop else [],
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        crop = None
        if data.get("photo") and data.get("corners"):
            crop = CardCrop(PhotoPane(app), str(data["photo"]), list(data["corners"]))
        screen = cls(
            app,
            data.get("title", "Choose"),
            data.get("prompt", ""),
            [(str(o[0]), str(o[1]), str(o[2])) for o in data.get("options", [])],
            int(data.get("selected", 0)),
            lookalikes=int(data.get("lookalikes", 0)),
            extras=int(data.get("extras", 0)),
            crop=crop,
        )
        # a list saved before the letter row had its cursor on a name: it comes back there
        screen.on_letters = bool(data.get("on_letters", False)) and bool(screen.groups)
        return screen
