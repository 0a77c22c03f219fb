"""Screens every photograph-to-score flow uses.

* :class:`PickScreen` - a pick list (closest matches first). Choosing an item pops the list and
  calls ``picked(purpose, value)`` on the screen below. Typed text (keyboard, touch keyboard,
  scripts' ``type``) jumps to the best-matching item.
* :class:`PhotoReviewScreen` - the photo with every card's name and confidence drawn on it and
  a list beside it; unknown and doubtful cards are highlighted and must be settled (pick list)
  before the hand can be scored. SHUTTER takes (or retakes) the photo. Game screens subclass it
  and say how to score (``score_text``, ``finish``).
"""

from __future__ import annotations

import difflib
import sys
import time
import traceback
from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from display import ui
from display.actions import Action
from display.flows.drawing import STATUS_COLOURS, PhotoView
from display.flows.photos import load_photo, save_photo
from display.flows.reading import DOUBTFUL, OK, UNKNOWN, ReadCard, Reading, read_photo
from display.screens.base import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    import numpy as np

    from display.app import App

REMOVE = "__remove__"  # pick-list value: "this is not a card"


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
class PickScreen(Screen):
    """Choose one value from a list; see the module docstring."""

    kind = "flow.pick"
    takes_text = True

    def __init__(
        self,
        app: App,
        title: str = "Choose",
        prompt: str = "",
        options: list[tuple[str, str, str]] | None = None,
        purpose: str = "",
        selected: int = 0,
    ) -> None:
        super().__init__(app)
        self.title = title
        self.prompt = prompt
        self.options = list(options or [])  # (value, label, note)
        self.purpose = purpose
        self.selected = max(0, min(selected, len(self.options) - 1))
        self._rows: list[pygame.Rect] = []

    def choose(self, index: int) -> None:
        if not self.options:
            return
        value = self.options[index][0]
        self.app.pop()
        below = self.app.top
        picked = getattr(below, "picked", None)
        if picked is not None:
            picked(self.purpose, value)

    def handle(self, action: Action) -> None:
        count = max(1, len(self.options))
        if action is Action.LEFT:
            self.selected = (self.selected - 1) % count
        elif action is Action.RIGHT:
            self.selected = (self.selected + 1) % count
        elif action is Action.OK:
            self.choose(self.selected)
        elif action in (Action.SEAT_1, Action.SEAT_2) and self.options:
            self.jump_letter(1 if action is Action.SEAT_2 else -1)
        elif action is Action.BACK:
            self.app.pop()

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

    def handle_tap(self, x: int, y: int) -> bool:
        for index, row in enumerate(self._rows):
            if row.collidepoint(x, y):
                if index == self.selected:
                    self.choose(index)
                else:
                    self.selected = index
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        top = 8
        if self.prompt:
            top = ui.paragraph(
                surface, self.prompt, pygame.Rect(ui.MARGIN, 8, width - 2 * ui.MARGIN, 64)
            )
        items = [ui.MenuItem(label, note) for _, label, note in self.options]
        area = pygame.Rect(ui.MARGIN, top + 6, width - 2 * ui.MARGIN, height - top - 28)
        self._rows = ui.menu(surface, items, self.selected, area, ui.MEDIUM, row_gap=4)

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
            "purpose": self.purpose,
            "selected": self.selected,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        return cls(
            app,
            data.get("title", "Choose"),
            data.get("prompt", ""),
            [(str(o[0]), str(o[1]), str(o[2])) for o in data.get("options", [])],
            data.get("purpose", ""),
            int(data.get("selected", 0)),
        )


def card_options(
    card: ReadCard | None, all_names: list[str], taken: set[str], allow_remove: bool
) -> tuple[list[tuple[str, str, str]], int]:
    """Pick-list options for one card: the recogniser's name and closest matches first (with
    their confidence), then every other card by name; cards already on the table are marked.
    Returns (options, index to preselect)."""
    options: list[tuple[str, str, str]] = []
    seen: set[str] = set()

    def add(name: str, note: str) -> None:
        if name in seen or name in taken:  # every card exists once: no duplicates offered
            return
        seen.add(name)
        options.append((name, name, note))

    if card is not None:
        if card.name is not None:
            add(card.name, f"read {card.confidence:.0%}" if not card.settled else "chosen")
        for name, confidence in card.candidates:
            if name in all_names:
                add(name, f"close {confidence:.0%}" if confidence >= 0.05 else "closest")
    for name in sorted(all_names, key=str.lower):
        add(name, "")
    if allow_remove:
        options.append((REMOVE, "Not a card: remove it", ""))
    return options, 0


class PhotoReviewScreen(Screen):
    """Photo + names; settle every unknown/doubtful card; then the game's score. Subclasses set
    ``kind``, ``layout`` ("rows"/"columns"), and implement :meth:`gallery`, :meth:`all_names`,
    :meth:`score_text` (the score line shown when every card is settled, or a reason) and
    :meth:`finish` (OK on the last row)."""

    layout: ClassVar[str] = "rows"
    finish_label: ClassVar[str] = "Score this hand"
    takes_text = True

    def __init__(self, app: App, who: str = "") -> None:
        super().__init__(app)
        self.who = who
        self.photo: str | None = None
        self.reading: Reading | None = None
        self.selected = 0
        self.error: str = ""
        self.shutter_at: float | None = None  # wall clock, for the shutter-to-score bench
        self._view: PhotoView | None = None
        self._score_cache: tuple[str, str] | None = None

    # -- what a game provides -----------------------------------------------------------------
    def gallery(self) -> Any:
        raise NotImplementedError

    def all_names(self) -> list[str]:
        raise NotImplementedError

    def score_text(self) -> str:
        return ""

    def score_value(self) -> int | None:
        """The total to show large beside :meth:`score_text` (None: text only)."""
        return None

    def finish(self) -> None:
        raise NotImplementedError

    def instructions(self) -> str:
        return "Lay the cards out face up, apart from each other, then press SHUTTER."

    # -- photo --------------------------------------------------------------------------------
    def shoot(self) -> None:
        self.shutter_at = time.perf_counter()
        image, problem = self.app.capture()
        if image is None:
            self.error = f"No photo: {problem}"
            return
        self.use_photo(image)

    def use_photo(self, image: np.ndarray) -> None:
        from vision.recognize import VisionError

        try:
            gallery = self.gallery()
        except Exception as error:  # a damaged gallery is a message, not a crash
            self.error = str(error)
            return
        if len(gallery) == 0:
            self.error = "No cards are enrolled yet: enrol the deck first (home, Enrol cards)."
            return
        try:
            reading = read_photo(image, gallery, self.layout)
        except VisionError as error:
            self.error = f"That photo cannot be used ({error}). Press SHUTTER to try again."
            return
        except Exception as error:
            if self.app.strict:
                raise
            traceback.print_exc(file=sys.stderr)
            self.error = f"The recogniser failed ({error}). Press SHUTTER to try again."
            return
        self.photo = save_photo(self.app, image, self.kind.replace(".", "-"))
        self.reading = reading
        self._view = None
        self._score_cache = None
        self.error = (
            "" if reading.cards else "No cards found in the photo: lay them out and retake."
        )
        unresolved = reading.unresolved
        self.selected = unresolved[0] if unresolved else len(reading.cards) + 1
        self.reading_changed()

    def reading_changed(self) -> None:
        """Hook: the cards changed (new photo, a correction)."""
        self._score_cache = None

    # -- rows: the cards, "add a missed card", then "score" -------------------------------------
    @property
    def cards(self) -> list[ReadCard]:
        return self.reading.cards if self.reading else []

    def row_count(self) -> int:
        return len(self.cards) + 2 if self.reading else 0

    def ready(self) -> bool:
        return self.reading is not None and bool(self.cards) and not self.reading.unresolved

    def handle(self, action: Action) -> None:
        rows = self.row_count()
        if action is Action.SHUTTER:
            self.shoot()
        elif action is Action.BACK:
            self.app.pop()
        elif rows == 0:
            if action is Action.OK:
                self.shoot()
        elif action is Action.LEFT:
            self.selected = (self.selected - 1) % rows
        elif action is Action.RIGHT:
            self.selected = (self.selected + 1) % rows
        elif action is Action.OK:
            self.activate(self.selected)

    def activate(self, row: int) -> None:
        cards = self.cards
        if row < len(cards):
            self.open_pick(row)
        elif row == len(cards):
            self.open_pick(None)
        elif self.ready():
            self.finish()
        else:
            unresolved = self.reading.unresolved if self.reading else []
            self.selected = unresolved[0] if unresolved else 0
            self.app.toast(
                "Settle the highlighted cards first: OK on each to choose its name."
                if unresolved
                else "No cards yet: add the cards the camera missed, or SHUTTER to retake."
            )

    def taken_names(self, skip: int | None = None) -> set[str]:
        return {c.name for i, c in enumerate(self.cards) if c.name and i != skip}

    def open_pick(self, row: int | None) -> None:
        card = self.cards[row] if row is not None else None
        options, chosen = card_options(
            card, self.all_names(), self.taken_names(row), allow_remove=row is not None
        )
        if row is None:
            prompt = "Which card did the camera miss?"
        elif card is not None and card.name is None:
            prompt = f"Card {row + 1} could not be read ({card.reason}). Which card is it?"
        else:
            prompt = f"Card {row + 1}: which card is it?"
        self.app.push(
            PickScreen(
                self.app,
                f"{self.title} - card {row + 1 if row is not None else 'missed'}",
                prompt,
                options,
                "add" if row is None else f"fix:{row}",
                chosen,
            )
        )

    def picked(self, purpose: str, value: str) -> None:
        if self.reading is None:
            return
        if purpose == "add":
            card = ReadCard(value, 1.0, [], settled=True, read_as=None)
            if self.layout == "columns":
                card.column = (
                    "B"
                    if sum(c.column == "B" for c in self.cards)
                    < sum(c.column == "A" for c in self.cards)
                    else "A"
                )
            self.reading.cards.append(card)
        elif purpose.startswith("fix:"):
            row = int(purpose[4:])
            if row >= len(self.cards):
                return
            if value == REMOVE:
                del self.reading.cards[row]
            else:
                self.reading.cards[row].settle(value)
        self.reading_changed()
        unresolved = self.reading.unresolved
        self.selected = unresolved[0] if unresolved else len(self.cards) + 1

    def handle_text(self, text: str) -> None:
        """Typed text names the player (the hand's owner)."""
        self.who = text.strip()[:24] or self.who

    def handle_tap(self, x: int, y: int) -> bool:
        for index, rect in enumerate(getattr(self, "_row_rects", [])):
            if rect.collidepoint(x, y):
                if index == self.selected:
                    self.activate(index)
                self.selected = index
                return True
        return False

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        list_w = 300
        photo_box = (width - list_w - 3 * 12, height - 16)
        image = load_photo(self.app, self.photo) if self.photo and self._view is None else None
        if image is not None:
            self._view = PhotoView(image, photo_box)
        if self._view is None:
            area = pygame.Rect(12, 8, photo_box[0], photo_box[1])
            ui.panel(surface, area, ui.PANEL, border=ui.BAD if self.error else ui.INFO)
            text = self.error or self.instructions()
            ui.paragraph(surface, text, area.inflate(-30, -30), ui.MEDIUM)
        else:
            self._view.draw(surface, (12, 8), self.cards, self.selected)
        self.draw_side(surface, pygame.Rect(width - list_w - 12, 8, list_w, height - 16))

    def draw_side(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        y = area.top
        if self.who:
            y = (
                ui.text(
                    surface, self.who, (area.left, y), ui.MEDIUM, ui.ACCENT, max_width=area.width
                ).bottom
                + 4
            )
        self._row_rects: list[pygame.Rect] = []
        if self.reading is None:
            return
        row_h = ui.font(ui.SMALL).get_linesize() + 2
        score = self.score_text()
        bottom = area.bottom - (2 * row_h + 8 if score else 0)
        rows = self.row_labels()
        visible = max(1, (bottom - y) // row_h)
        first = min(max(0, self.selected - visible + 1), max(0, len(rows) - visible))
        self._row_rects = [pygame.Rect(0, 0, 0, 0)] * len(rows)
        for slot, index in enumerate(range(first, min(len(rows), first + visible))):
            label, colour = rows[index]
            rect = pygame.Rect(area.left, y + slot * row_h, area.width, row_h - 2)
            self._row_rects[index] = rect
            if index == self.selected:
                pygame.draw.rect(surface, ui.ACCENT, rect, border_radius=5)
                ui.text(
                    surface,
                    "> " + label,
                    (rect.left + 4, rect.centery),
                    ui.SMALL,
                    ui.ACCENT_TEXT,
                    anchor="midleft",
                    max_width=rect.width - 8,
                )
            else:
                ui.text(
                    surface,
                    "  " + label,
                    (rect.left + 4, rect.centery),
                    ui.SMALL,
                    colour,
                    anchor="midleft",
                    max_width=rect.width - 8,
                )
        if score:
            box = pygame.Rect(area.left, bottom + 4, area.width, area.bottom - bottom - 4)
            ui.panel(surface, box, ui.PANEL, border=ui.GOOD if self.ready() else ui.ACCENT)
            value = self.score_value() if self.ready() else None
            inner = box.inflate(-12, -8)
            if value is not None:
                shown = ui.text(surface, str(value), inner.topleft, ui.LARGE, ui.ACCENT)
                beside = pygame.Rect(
                    shown.right + 10, inner.top, inner.right - shown.right - 10, inner.height
                )
                ui.paragraph(surface, score, beside, ui.SMALL)
            else:
                ui.paragraph(surface, score, inner, ui.SMALL)

    def row_labels(self) -> list[tuple[str, tuple[int, int, int]]]:
        rows: list[tuple[str, tuple[int, int, int]]] = []
        for index, card in enumerate(self.cards):
            status = card.status
            prefix = f"{card.column}{index + 1}" if card.column else f"{index + 1}"
            if status == UNKNOWN:
                label = f"{prefix} ?? pick a card"
            elif status == DOUBTFUL:
                label = f"{prefix} ? {card.name} {card.confidence:.0%}"
            else:
                mark = ""
                if card.settled and not card.corners:
                    mark = " (added)"
                elif card.corrected:
                    mark = " (fixed)"
                label = f"{prefix} {card.name}{mark}"
            rows.append((label, STATUS_COLOURS[status] if status != OK else ui.TEXT))
        rows.append(("+ add a missed card", ui.DIM))
        rows.append((self.finish_label, ui.GOOD if self.ready() else ui.DIM))
        return rows

    def legend(self) -> list[LegendItem]:
        if self.reading is None:
            return [(Action.SHUTTER, "Take photo"), (Action.BACK, "Back")]
        return [
            (Action.SHUTTER, "Retake"),
            ((Action.LEFT, Action.RIGHT), "Card"),
            (Action.OK, "Choose"),
            (Action.BACK, "Back"),
        ]

    # -- persistence --------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "who": self.who,
            "photo": self.photo,
            "reading": None if self.reading is None else self.reading.to_json(),
            "selected": self.selected,
            "error": self.error,
        }

    def restore_into(self, data: dict[str, Any]) -> None:
        self.who = data.get("who", self.who)
        self.photo = data.get("photo")
        reading = data.get("reading")
        self.reading = None if reading is None else Reading.from_json(reading)
        if self.reading is not None and load_photo(self.app, self.photo) is None:
            self.error = "The photo was lost; press SHUTTER to take it again."
            self.photo = None
        self.selected = int(data.get("selected", 0))
        self.error = data.get("error", self.error) or self.error


def _keyboard_base() -> type[Screen]:
    from display.screens.comix import KeyboardScreen

    return KeyboardScreen


@register_screen
class NameKeyboardScreen(_keyboard_base()):  # type: ignore[misc]
    """The on-screen keyboard (Co-Mix's) for any game: DONE gives the text to the screen below."""

    kind = "flow.keyboard"

    def __init__(self, app: App, prompt: str = "Name", text: str = "", limit: int = 0) -> None:
        super().__init__(app, prompt, text, limit)
        self.title = prompt
