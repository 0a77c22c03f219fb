"""Enrolment: photograph a batch of cards and confirm their names (``enrol.batch``), on the
photo the screen took (:class:`EnrolPhotoScreen`, also the verify screen's base)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from display import ui
from display.actions import Action
from display.cards.capture import PhotoRead, capture_and_read
from display.cards.enrolment import Enrolment
from display.cards.photos import load_photo, photo_exists
from display.cards.reading import ReadCard, card_quads
from display.screen import LegendItem, Screen, register_screen
from display.screens.enrol.attributes import AttributesScreen
from display.screens.enrol.common import (
    BATCH,
    MIXTAPE,
    REMIX,
    SIDE_W,
    card_words,
    enrolment,
    next_remix_batch,
    remix_checklist,
    side_list,
    side_note,
)
from display.widgets.photo_pane import PhotoPane
from display.widgets.photo_view import PhotoView
from display.widgets.slow import BUSY_READING, SlowWork
from display.widgets.words import count

if TYPE_CHECKING:
    from display.app import App


class EnrolPhotoScreen(SlowWork):
    """An enrolment screen that shows the photo it took (a batch, a verify photo)."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.photo: str | None = None
        self.pane = PhotoPane(app)

    def photo_on(self, surface: pygame.Surface) -> PhotoView | None:
        """The photo, fitted beside the side note; None while it is read back from its file
        (a note says so) or when the file is gone (the screen then asks for a new photo)."""
        width, height = surface.get_size()
        view = self.pane.view(self.photo, (width - SIDE_W - 36, height - 16))
        if view is None and self.pane.loading:
            ui.message_box(surface, "Loading the photo…", "One moment.", ui.INFO)
        elif view is None:
            self.photo = None
        return view


@register_screen
class EnrolBatchScreen(EnrolPhotoScreen):
    """Photograph one batch and confirm the names; see the module docstring. Finding the cards
    and saving them (images, gallery) run off the UI thread."""

    kind = "enrol.batch"

    def __init__(self, app: App, game: str, keys: list[str], mode: str = "continue") -> None:
        super().__init__(app)
        self.game = game
        self.keys = list(keys)  # Remix: the cards to lay out; Mixtape: filled in from the photo
        self.mode = mode  # continue | reenrol | new (Mixtape: new cards)
        self.found = 0
        self.error = ""
        self.batches_done = 0
        self._quads: list[np.ndarray] = []

    @property
    def title(self) -> str:  # type: ignore[override]
        if self.photo and not self.error:
            return "Enrol - check the numbers" if self.game == REMIX else "Enrol - new cards"
        return "Enrol - Remix batch" if self.game == REMIX else "Enrol - Mixtape cards"

    def names(self) -> list[str]:
        """The gallery names the batch enrols: Remix card names, Mixtape ids."""
        if self.game == REMIX:
            lookup = dict(remix_checklist())
            return [lookup.get(k, k) for k in self.keys]
        return list(self.keys)

    def new_mixtape_ids(self, count: int) -> list[str]:
        done = enrolment(self.app, MIXTAPE)
        ids: list[str] = []
        number = len(done) + 1
        while len(ids) < count:
            candidate = f"T{number:02d}"
            if candidate not in done:
                ids.append(candidate)
            number += 1
        return ids

    def shoot(self) -> None:
        if self.busy:
            return
        app = self.app
        self.start_job(
            BUSY_READING,
            lambda: capture_and_read(app, None, keep_as="enrol", outlines=True),
            self.photo_taken,
        )

    def photo_taken(self, outcome: PhotoRead) -> None:
        if outcome.photo is None:
            self.error = outcome.error
            return
        quads = outcome.outlines
        self.photo = outcome.photo
        self.pane.taken(outcome)
        self._quads = quads
        self.found = len(quads)
        if self.game == MIXTAPE and self.mode == "new":
            if not quads:
                self.error = "No cards found: lay them apart on a plain surface and retake."
            elif len(quads) > BATCH:
                self.error = f"{len(quads)} cards found; at most {BATCH} per photo."
            else:
                self.keys = self.new_mixtape_ids(len(quads))
                self.error = ""
            return
        if len(quads) != len(self.keys):
            self.error = (
                f"Found {count(len(quads), 'card')} but {len(self.keys)} were asked for. "
                "Lay exactly these cards apart, in rows, and press SHUTTER again."
            )
        else:
            self.error = ""

    def confirm(self) -> None:
        """Enrol the cards on the photo (card images, gallery, manifest) off the UI thread."""
        if self.busy or self.error or not self.found or not self.photo:
            return
        done = enrolment(self.app, self.game)
        enrolled = list(self.keys)
        again = sum(1 for key in enrolled if key in done)
        labels = self.names()  # gallery names: Remix card names, Mixtape ids
        app, photo, quads = self.app, self.photo, list(self._quads)
        self.start_job(
            "Saving the cards…",
            lambda: save_batch(app, done, photo, quads, enrolled, labels),
            lambda problem: self.batch_saved(problem, done, enrolled, again),
            cancellable=False,
        )

    def batch_saved(self, problem: str, done: Enrolment, enrolled: list[str], again: int) -> None:
        if problem:
            self.error = problem
            return
        self.batches_done += 1
        self.photo, self._quads, self.found = None, [], 0
        if self.game == MIXTAPE:
            self.app.replace(AttributesScreen(self.app, enrolled, 0))
            return
        if self.mode == "continue":
            self.keys = next_remix_batch(done)
            if not self.keys:
                self.app.pop()
                self.app.toast(f"All {len(done)} cards are enrolled. Verify the deck next.")
                return
            self.app.toast(f"Saved {len(enrolled)} cards ({len(done)} enrolled). Next batch.")
        else:
            self.app.pop()
            fresh = len(enrolled) - again
            self.app.toast(
                f"Re-enrolled {count(again, 'card')}."
                if not fresh
                else f"Enrolled {count(fresh, 'card')}."
            )

    def handle(self, action: Action) -> None:
        if self.busy_handle(action):
            return
        if action is Action.SHUTTER:
            self.shoot()
        elif action is Action.OK:
            if self.photo and not self.error:
                self.confirm()
            else:
                self.shoot()
        elif action is Action.BACK:
            if self.photo:
                self.photo, self.error = None, ""
            else:
                self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        if self.busy:
            self.draw_busy(surface)
            return
        width, height = surface.get_size()
        names = [card_words(self.app, self.game, key) for key in self.keys]  # as printed
        if self.photo:
            view = self.photo_on(surface)
            if view is None:
                return
            cards = [ReadCard("", 1.0, q.tolist(), settled=True) for q in self._quads]
            view.draw(surface, (12, 8), cards)
            if self.error:
                side_note(surface, self.error, ui.BAD)
            elif self.game == MIXTAPE:
                text = (
                    f"{len(cards)} new cards, numbered as you will enter them. OK saves them; "
                    "then enter what is printed on each."
                )
                side_note(surface, text, ui.GOOD)
            else:
                lines = [f"{i + 1} {name}" for i, name in enumerate(names)]
                side_list(surface, lines, ui.GOOD)
            return
        if self.game == MIXTAPE and self.mode == "new":
            body = (
                f"Lay up to {BATCH} new Mixtape cards face up, apart, in rows. They get the "
                "next free ids in reading order; then you enter what is printed on each."
            )
            ui.message_box(
                surface,
                "Photograph new cards",
                body + ("\n" + self.error if self.error else ""),
                ui.INFO,
            )
            return
        done = enrolment(self.app, self.game)
        head = f"Lay out these {len(names)} cards in this order, then SHUTTER"
        ui.text(surface, head, (ui.MARGIN, 8), ui.SMALL, ui.ACCENT, max_width=width - 2 * ui.MARGIN)
        # three columns when every name fits one; else two, so no card's name is cut
        columns = 3
        labels = [f"{index + 1}. {name}" for index, name in enumerate(names)]
        if any(
            ui.text_width(label, ui.SMALL) > (width - 2 * ui.MARGIN) // 3 - 24 for label in labels
        ):
            columns = 2
        cell_w = (width - 2 * ui.MARGIN) // columns
        row_h = 44 if len(names) <= 4 * columns else 42
        for index, name in enumerate(names):
            row, column = divmod(index, columns)
            cell = pygame.Rect(ui.MARGIN + column * cell_w, 44 + row * row_h, cell_w - 8, row_h - 6)
            ui.panel(surface, cell, ui.PANEL)
            ui.text(
                surface,
                f"{index + 1}. {name}",
                (cell.left + 10, cell.centery),
                ui.SMALL,
                anchor="midleft",
                max_width=cell.width - 16,
            )
        if self.game == REMIX:
            total = len(remix_checklist())
            status = f"{len(done)} of {total} enrolled"
            bar = pygame.Rect(ui.MARGIN, height - 30, width - 2 * ui.MARGIN, 20)
            ui.progress_bar(surface, bar, len(done) / total)
            ui.text(
                surface, status, (bar.centerx, bar.top - 4), ui.SMALL, ui.DIM, anchor="midbottom"
            )
        if self.error:
            ui.text(
                surface,
                self.error,
                (ui.MARGIN, height - 60),
                ui.SMALL,
                ui.BAD,
                max_width=width - 2 * ui.MARGIN,
            )

    def legend(self) -> list[LegendItem]:
        if self.busy:
            return self.busy_legend()
        if self.photo and not self.error:
            return [(Action.OK, "Save"), (Action.SHUTTER, "Retake"), (Action.BACK, "Discard")]
        if self.photo:
            return [(Action.SHUTTER, "Retake"), (Action.BACK, "Discard")]
        return [(Action.SHUTTER, "Take photo"), (Action.BACK, "Stop (saved)")]

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "keys": self.keys,
            "mode": self.mode,
            "photo": self.photo,
            "found": self.found,
            "error": self.error,
            "batches_done": self.batches_done,
            "outlines": [np.asarray(q).tolist() for q in self._quads],
            **self.busy_snapshot(),
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, data["game"], list(data["keys"]), data.get("mode", "continue"))
        screen.photo = data.get("photo")
        screen.found = int(data.get("found", 0))
        screen.error = screen.interrupted(data) or data.get("error", "")
        screen.batches_done = int(data.get("batches_done", 0))
        screen._quads = [np.asarray(q, np.float32) for q in data.get("outlines", [])]
        if screen.photo and not photo_exists(app, screen.photo):
            screen.photo = None
        return screen


def save_batch(
    app: App,
    done: Enrolment,
    photo: str,
    quads: list[np.ndarray],
    keys: list[str],
    names: list[str],
) -> str:
    """Cut each card out of the photo and enrol it (on the background worker); "" or why not."""
    from vision.detect import rectify  # start-up time: vision loads OpenCV

    image = load_photo(app, photo)
    if image is None:
        return "The photo is gone; press SHUTTER again."
    quads = quads or card_quads(image)
    if len(quads) != len(keys):
        return "The photo no longer matches; press SHUTTER again."
    done.add_many(
        [
            (key, name, rectify(image, quad), photo)
            for key, name, quad in zip(keys, names, quads, strict=True)
        ]
    )
    return ""
