"""Teach Tablekeeper your deck: enrolment of Remix and Mixtape cards, verify, export/import.

Screens:

* ``enrol`` - the menu (home "Enrol cards"): Remix, Mixtape, export, import.
* ``enrol.remix`` - the 79-card checklist: progress, "Continue" (the next batch of up to 12 cards
  not enrolled yet, in checklist order), "Re-enrol a card", "Verify the deck".
* ``enrol.batch`` - one batch: the names to lay out in rows (reading order), SHUTTER, the photo
  with each found card's name drawn on it, OK to confirm. Confirmed cards are written at once
  (progress survives a power cut); after OK the next batch is shown, BACK stops (resume later
  with "Continue"). A photo with the wrong number of cards is refused with the outlines shown.
* ``enrol.verify`` - photographs the enrolled deck again in the same batches and reports every
  card the recogniser would misname (wrong name, unread or missed); OK re-enrols them.
* ``enrol.mixtape`` - Mixtape: photograph new cards (named by the next free ids), then
  ``enrol.attributes`` for each (genre, side, balance, flow points, player lines; pre-filled from
  the previous card), and ``enrol.equalizer`` once. The deck file (``deck.toml``, the schema the
  Mixtape engine reads) is rewritten after every card.

The data itself lives in ``display.flows.enrolment`` (state dir ``enrolment/<game>/``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from display import ui
from display.actions import Action
from display.flows.drawing import PhotoView
from display.flows.enrolment import (
    Enrolment,
    EnrolmentError,
    export_all,
    export_path,
    import_all,
)
from display.flows.photos import load_photo, photo_exists
from display.flows.reading import ReadCard, card_quads
from display.flows.widgets import (
    BUSY_READING,
    MenuScreen,
    PhotoPane,
    PhotoRead,
    PickScreen,
    SlowWork,
    capture_and_read,
)
from display.screen import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App

BATCH = 12  # cards per enrolment photo
REMIX, MIXTAPE = "remix", "mixtape"


def enrolment(app: App, game: str) -> Enrolment:
    cache: dict[str, Enrolment] = app.__dict__.setdefault("_enrolments", {})
    cached = cache.get(game)
    if cached is None or cached.state_dir != app.store.state_dir:
        cached = Enrolment(app.store.state_dir, game)
        cache[game] = cached
    return cached


def forget_enrolments(app: App) -> None:
    app.__dict__.pop("_enrolments", None)


def side_note(surface: pygame.Surface, text: str, colour: tuple[int, int, int]) -> None:
    """The framed note beside an enrolment photo (what to check, or what went wrong)."""
    width, height = surface.get_size()
    side = pygame.Rect(width - 276, 8, 264, height - 16)
    ui.panel(surface, side, ui.PANEL, border=colour)
    ui.paragraph(surface, text, side.inflate(-20, -20), ui.SMALL)


def remix_checklist() -> list[tuple[str, str]]:
    """(id, name) of all 79 Remix cards in checklist (catalogue) order."""
    from games.remix import default_catalogue

    return [(card.id, card.name) for card in default_catalogue()]


def next_remix_batch(done: Enrolment) -> list[str]:
    return [key for key, _ in remix_checklist() if key not in done][:BATCH]


@register_screen
class EnrolMenuScreen(SlowWork, MenuScreen):
    """Remix, Mixtape, export and import (the file jobs run off the UI thread)."""

    kind = "enrol"
    title = "Enrol cards"
    blurb = "Enrolment is kept in the state folder; export makes one file of it."

    def rows(self) -> list[tuple[str, str, str]]:
        try:
            remix = f"{len(enrolment(self.app, REMIX))}/{len(remix_checklist())}"
            mixtape = f"{len(enrolment(self.app, MIXTAPE))} cards"
        except EnrolmentError:
            remix = mixtape = "damaged"
        return [
            (REMIX, "Marvel: Remix", remix),
            (MIXTAPE, "I Made You a Mixtape", mixtape),
            ("export", "Export to one file", ""),
            ("import", "Import from the file", ""),
        ]

    def open(self, key: str) -> None:
        state = self.app.store.state_dir
        if key == REMIX:
            self.app.push(RemixEnrolScreen(self.app))
        elif key == MIXTAPE:
            self.app.push(MixtapeEnrolScreen(self.app))
        elif key == "export":
            self.start_job(
                "Writing the export file…",
                lambda: export_job(state),
                self.message,
                cancellable=False,
            )
        elif key == "import":
            path = export_path(state)
            if not path.is_file():
                self.message(("Nothing to import", f"Put the enrolment file at {path} first."))
                return
            self.start_job(
                "Importing the enrolment…",
                lambda: import_job(state),
                self.imported,
                cancellable=False,
            )

    def imported(self, outcome: tuple[str, str, str]) -> None:
        forget_enrolments(self.app)
        self.message(outcome)

    def message(self, outcome: tuple[str, ...]) -> None:
        from display.screens.message import MessageScreen

        self.app.push(MessageScreen(self.app, *outcome))

    def handle(self, action: Action) -> None:
        if not self.busy_handle(action):
            super().handle(action)

    def handle_tap(self, x: int, y: int) -> bool:
        return not self.busy and super().handle_tap(x, y)

    def draw(self, surface: pygame.Surface) -> None:
        if self.busy:
            self.draw_busy(surface)
        else:
            super().draw(surface)

    def legend(self) -> list[LegendItem]:
        return self.busy_legend() if self.busy else super().legend()


def export_job(state: Path) -> tuple[str, str, str]:
    """(heading, body, tone) after writing the export file (on the background worker)."""
    try:
        path, count = export_all(state)
    except (EnrolmentError, OSError) as error:
        return ("Export failed", str(error), "bad")
    return ("Exported", f"{count} files written to {path}. Copy it anywhere safe.", "good")


def import_job(state: Path) -> tuple[str, str, str]:
    """(heading, body, tone) after importing the export file (on the background worker)."""
    try:
        counts = import_all(state)
    except (EnrolmentError, OSError) as error:
        return ("Import failed", str(error), "bad")
    what = ", ".join(f"{game}: {n} cards" for game, n in sorted(counts.items()))
    return (
        "Imported",
        f"{what or 'no cards'} from {export_path(state)}. The previous enrolment was kept in "
        "enrolment.before-import.",
        "good",
    )


class GameEnrolScreen(MenuScreen):
    """One game's enrolment menu; what both games offer: re-enrol one card (from a pick list of
    :meth:`reenrol_options`) and verify the enrolled deck."""

    game: str = ""

    def reenrol_options(self) -> list[tuple[str, str, str]]:
        return []

    def open(self, key: str) -> None:
        if key == "reenrol":
            options = self.reenrol_options()
            if not options:
                self.app.toast("No cards enrolled yet.")
                return
            self.app.push(PickScreen(self.app, "Re-enrol which card?", "", options, "reenrol"))
        elif key == "verify" and len(enrolment(self.app, self.game)):
            self.app.push(VerifyScreen(self.app, self.game))

    def picked(self, purpose: str, value: str) -> None:
        if purpose == "reenrol":
            self.app.push(EnrolBatchScreen(self.app, self.game, [value], "reenrol"))


@register_screen
class RemixEnrolScreen(GameEnrolScreen):
    kind = "enrol.remix"
    title = "Enrol - Marvel: Remix"
    game = REMIX

    def rows(self) -> list[tuple[str, str, str]]:
        done = enrolment(self.app, REMIX)
        left = len(remix_checklist()) - len(done)
        batch = next_remix_batch(done)
        first = "Continue enrolment" if left else "All cards enrolled"
        note = f"next {len(batch)} of {left}" if left else ""
        rows = [("continue", first, note), ("reenrol", "Re-enrol a card", "")]
        if len(done):
            rows.append(("verify", "Verify the deck", f"{len(done)} cards"))
        return rows

    def draw_top(self, surface: pygame.Surface) -> int:
        width = surface.get_width()
        done = len(enrolment(self.app, REMIX))
        total = len(remix_checklist())
        ui.text(surface, f"{done} of {total} cards enrolled", (ui.MARGIN, 10), ui.MEDIUM)
        ui.progress_bar(
            surface, pygame.Rect(ui.MARGIN, 50, width - 2 * ui.MARGIN, 22), done / total
        )
        return 86

    def reenrol_options(self) -> list[tuple[str, str, str]]:
        done = enrolment(self.app, REMIX)
        return [
            (card_id, name, "enrolled" if card_id in done else "not yet")
            for card_id, name in remix_checklist()
        ]

    def open(self, key: str) -> None:
        if key != "continue":
            super().open(key)
            return
        batch = next_remix_batch(enrolment(self.app, REMIX))
        if not batch:
            self.app.toast("Every card is enrolled. Verify the deck, or re-enrol a card.")
            return
        self.app.push(EnrolBatchScreen(self.app, REMIX, batch, "continue"))


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
        view = self.pane.view(self.photo, (width - 300, height - 16))
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
        self.title = "Enrol - Remix batch" if game == REMIX else "Enrol - Mixtape cards"
        self._quads: list[np.ndarray] = []

    def names(self) -> list[str]:
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
                f"Found {len(quads)} card(s) but {len(self.keys)} were asked for. Lay exactly "
                "these cards apart, in rows, and press SHUTTER again."
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
                f"Re-enrolled {again} card(s)." if not fresh else f"Enrolled {fresh} card(s)."
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
        names = self.names()
        if self.photo:
            view = self.photo_on(surface)
            if view is None:
                return
            labels = names if not self.error or self.game == MIXTAPE else []
            cards = [
                ReadCard(labels[i] if i < len(labels) else None, 1.0, q.tolist(), settled=True)
                for i, q in enumerate(self._quads)
            ]
            if self.error:
                for card in cards:
                    card.name = card.name or None
            view.draw(surface, (12, 8), cards)
            if self.error:
                side_note(surface, self.error, ui.BAD)
            else:
                text = (
                    f"Check every name on the photo matches its card ({len(self.keys)} cards). "
                    "OK saves them; SHUTTER retakes."
                )
                side_note(surface, text, ui.GOOD)
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
        head = f"Lay out these {len(names)} cards in rows, in this order, then SHUTTER"
        ui.text(surface, head, (ui.MARGIN, 8), ui.SMALL, ui.ACCENT, max_width=width - 2 * ui.MARGIN)
        columns = 3
        cell_w = (width - 2 * ui.MARGIN) // columns
        row_h = 44
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
    from vision.detect import rectify

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


@register_screen
class VerifyScreen(EnrolPhotoScreen):
    """Photograph the enrolled deck again, batch by batch; report every card it would misname
    (each photo is read off the UI thread)."""

    kind = "enrol.verify"
    title = "Enrol - verify the deck"

    def __init__(self, app: App, game: str = REMIX) -> None:
        super().__init__(app)
        self.game = game
        self.batch = 0
        self.misnamed: list[dict[str, Any]] = []  # {"key", "name", "read_as"}
        self.read: list[dict[str, Any]] = []  # the batch just photographed

    def batches(self) -> list[list[str]]:
        done = enrolment(self.app, self.game)
        if self.game == REMIX:
            keys = [k for k, _ in remix_checklist() if k in done]
        else:
            keys = sorted(done.cards)
        return [keys[i : i + BATCH] for i in range(0, len(keys), BATCH)]

    @property
    def finished(self) -> bool:
        return self.batch >= len(self.batches())

    def shoot(self) -> None:
        if self.finished or self.busy:
            return
        app, game = self.app, self.game
        self.start_job(
            BUSY_READING,
            lambda: capture_and_read(app, lambda: enrolment(app, game).gallery(), keep_as="verify"),
            self.photo_read,
        )

    def photo_read(self, outcome: PhotoRead) -> None:
        if outcome.reading is None:
            self.app.toast(outcome.error)
            return
        done = enrolment(self.app, self.game)
        keys = self.batches()[self.batch]
        expected = [done.name_of(k) or k for k in keys]
        self.read = []
        seen: set[str] = set()
        for index, card in enumerate(outcome.reading.cards):
            want = expected[index] if index < len(expected) else None
            ok = card.name is not None and card.name == want and card.status == "ok"
            self.read.append({**card.to_json(), "expected": want, "right": ok})
            if card.name:
                seen.add(card.name)
        self.photo = outcome.photo
        self.pane.taken(outcome)
        for key, name in zip(keys, expected, strict=True):
            row = next((r for r in self.read if r["expected"] == name), None)
            if row is not None and row["right"]:
                continue
            read_as = "missed" if row is None else (row["name"] or "unknown")
            if row is None and name in seen:
                continue  # read right but out of place: the name is still right
            self.misnamed = [m for m in self.misnamed if m["key"] != key]
            self.misnamed.append({"key": key, "name": name, "read_as": read_as})

    def next_batch(self) -> None:
        self.batch += 1
        self.photo, self.read = None, []

    def handle(self, action: Action) -> None:
        if self.busy_handle(action):
            return
        if action is Action.SHUTTER:
            self.shoot()
        elif action is Action.OK:
            if self.finished:
                if self.misnamed:
                    keys = [m["key"] for m in self.misnamed][:BATCH]
                    self.app.replace(EnrolBatchScreen(self.app, self.game, keys, "reenrol"))
                else:
                    self.app.pop()
            elif self.photo:
                self.next_batch()
            else:
                self.shoot()
        elif action is Action.BACK:
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        if self.busy:
            self.draw_busy(surface)
            return
        width, height = surface.get_size()
        batches = self.batches()
        if self.finished:
            if not self.misnamed:
                ui.message_box(
                    surface,
                    "Every card read right",
                    f"{sum(map(len, batches))} cards checked in {len(batches)} photos.",
                    ui.GOOD,
                )
                return
            ui.text(
                surface,
                f"{len(self.misnamed)} card(s) would be misnamed",
                (ui.MARGIN, 8),
                ui.MEDIUM,
                ui.BAD,
            )
            y = 50
            for item in self.misnamed[:7]:
                ui.text(
                    surface,
                    f"{item['name']}: read as {item['read_as']}",
                    (ui.MARGIN, y),
                    ui.SMALL,
                    max_width=width - 2 * ui.MARGIN,
                )
                y += 34
            return
        keys = batches[self.batch]
        done = enrolment(self.app, self.game)
        if self.photo is None:
            names = [done.name_of(k) or k for k in keys]
            head = f"Photo {self.batch + 1} of {len(batches)}: lay these out in rows, then SHUTTER"
            ui.text(
                surface, head, (ui.MARGIN, 8), ui.SMALL, ui.ACCENT, max_width=width - 2 * ui.MARGIN
            )
            ui.paragraph(
                surface,
                ", ".join(names),
                pygame.Rect(ui.MARGIN, 44, width - 2 * ui.MARGIN, height - 90),
                ui.SMALL,
            )
            ui.text(
                surface,
                f"So far: {len(self.misnamed)} misnamed",
                (ui.MARGIN, height - 34),
                ui.SMALL,
                ui.DIM,
            )
            return
        view = self.photo_on(surface)
        if view is None:
            return
        cards = [ReadCard.from_json(r) for r in self.read]
        for card, row in zip(cards, self.read, strict=True):
            if not row["right"]:
                card.name, card.settled = None, False
                card.reason = "misnamed"
            else:
                card.settled = True
        view.draw(surface, (12, 8), cards)
        wrong = sum(1 for r in self.read if not r["right"]) + max(0, len(keys) - len(self.read))
        text = (
            f"Photo {self.batch + 1} of {len(batches)}: {len(keys) - wrong} of {len(keys)} "
            "read right. OK: next photo."
        )
        batch_names = {done.name_of(k) or k for k in keys}
        for item in self.misnamed:
            if item["name"] in batch_names:
                text += f"\n{item['name']}: {item['read_as']}"
        side_note(surface, text, ui.BAD if wrong else ui.GOOD)

    def legend(self) -> list[LegendItem]:
        if self.busy:
            return self.busy_legend()
        if self.finished:
            return [
                (Action.OK, "Re-enrol them" if self.misnamed else "Done"),
                (Action.BACK, "Back"),
            ]
        if self.photo:
            return [(Action.OK, "Next photo"), (Action.SHUTTER, "Retake"), (Action.BACK, "Stop")]
        return [(Action.SHUTTER, "Take photo"), (Action.BACK, "Stop")]

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "batch": self.batch,
            "misnamed": self.misnamed,
            "photo": self.photo,
            "read": self.read,
            **self.busy_snapshot(),
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, data.get("game", REMIX))
        screen.batch = int(data.get("batch", 0))
        screen.misnamed = list(data.get("misnamed", []))
        screen.photo = data.get("photo")
        screen.read = list(data.get("read", []))
        screen.interrupted(data)
        return screen


# -- Mixtape -------------------------------------------------------------------------------------
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


def default_equalizer() -> dict[str, Any]:
    from games.mixtape import load_example_deck

    deck = load_example_deck()
    return {"squares": list(deck.squares), "start": deck.start}


def mixtape_attributes(done: Enrolment) -> dict[str, dict[str, Any]]:
    return dict(done.extra.get("cards", {}))


def deck_text(done: Enrolment) -> str:
    """The deck file (TOML, the Mixtape engine's schema) for the enrolled attributes."""
    equalizer = done.extra.get("equalizer") or default_equalizer()
    attributes = mixtape_attributes(done)
    lines = [
        "# Written by Tablekeeper's Mixtape enrolment (schema: README, I Made You a Mixtape).",
        'name = "Enrolled deck"',
        "",
        "[equalizer]",
        f"squares = [{', '.join(str(int(v)) for v in equalizer['squares'])}]",
        f"start = {int(equalizer['start'])}",
    ]
    for key in sorted(attributes):
        a = attributes[key]
        lines += [
            "",
            "[[cards]]",
            f'id = "{key}"',
            f'genre = "{a["genre"]}"',
            f'side = "{a["side"]}"',
            f"balance = {int(a['balance'])}",
            "top = [" + ", ".join(f'"{p}"' for p in a["top"]) + "]",
            "bottom = [" + ", ".join(f'"{p}"' for p in a["bottom"]) + "]",
            f"players = {int(a['players'])}",
        ]
    return "\n".join(lines) + "\n"


def deck_problem(done: Enrolment, text: str | None = None) -> str:
    """ "" when the enrolled deck is complete, else why the engine (or the table) would object."""
    from games.mixtape import DeckError, parse_deck

    if not mixtape_attributes(done):
        return "no card attributes entered yet"
    try:
        parse_deck(text if text is not None else deck_text(done), str(done.deck_path))
    except DeckError as error:
        return str(error)
    if not done.extra.get("equalizer"):
        return "Equalizer squares not entered yet (the example deck's are used until then)"
    return ""


def write_deck_file(done: Enrolment) -> str:
    """Write ``deck.toml`` from the enrolled attributes; returns "" or why the engine refuses it
    (the file is written either way, so nothing entered is lost)."""
    text = deck_text(done)
    done.folder.mkdir(parents=True, exist_ok=True)
    tmp = done.deck_path.with_name("deck.toml.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(done.deck_path)
    return deck_problem(done, text)


@register_screen
class MixtapeEnrolScreen(GameEnrolScreen):
    kind = "enrol.mixtape"
    title = "Enrol - I Made You a Mixtape"
    game = MIXTAPE

    def rows(self) -> list[tuple[str, str, str]]:
        done = enrolment(self.app, MIXTAPE)
        attrs = mixtape_attributes(done)
        missing = [k for k in sorted(done.cards) if k not in attrs]
        eq = done.extra.get("equalizer")
        return [
            ("new", "Photograph new cards", f"{len(done)} enrolled"),
            (
                "attributes",
                "Card attributes",
                f"{len(missing)} to enter" if missing else f"{len(attrs)} entered",
            ),
            (
                "equalizer",
                "Equalizer squares",
                f"{len(eq['squares'])} squares" if eq else "not entered",
            ),
            ("reenrol", "Re-enrol a card", ""),
            ("verify", "Verify the deck", ""),
        ]

    _deck_problem: str | None = None  # worked out once per showing, not once per frame

    def on_show(self) -> None:
        self._deck_problem = None  # back from the attributes or the Equalizer: ask again

    def draw_top(self, surface: pygame.Surface) -> int:
        if self._deck_problem is None:
            self._deck_problem = deck_problem(enrolment(self.app, MIXTAPE))
        problem = self._deck_problem
        text = "Deck file ready for scoring" if not problem else f"Deck file: {problem}"
        ui.text(
            surface,
            text,
            (ui.MARGIN, 8),
            ui.SMALL,
            ui.GOOD if not problem else ui.ACCENT,
            max_width=surface.get_width() - 2 * ui.MARGIN,
        )
        return 44

    def open(self, key: str) -> None:
        done = enrolment(self.app, MIXTAPE)
        if key == "new":
            self.app.push(EnrolBatchScreen(self.app, MIXTAPE, [], "new"))
        elif key == "attributes":
            attrs = mixtape_attributes(done)
            keys = sorted(done.cards)
            if not keys:
                self.app.toast("Photograph some cards first.")
                return
            missing = [k for k in keys if k not in attrs]
            start = keys.index(missing[0]) if missing else 0
            self.app.push(AttributesScreen(self.app, keys, start))
        elif key == "equalizer":
            self.app.push(EqualizerScreen(self.app))
        else:
            super().open(key)

    def reenrol_options(self) -> list[tuple[str, str, str]]:
        return [(k, k, "") for k in sorted(enrolment(self.app, MIXTAPE).cards)]


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
        return f"Mixtape card {self.key} ({self.index + 1} of {len(self.keys)})"

    def prefill(self) -> dict[str, Any]:
        attrs = mixtape_attributes(enrolment(self.app, MIXTAPE))
        key = self.keys[self.index]
        if key in attrs:
            return dict(attrs[key])
        earlier = [k for k in sorted(attrs) if k < key]
        return dict(attrs[earlier[-1]]) if earlier else dict(DEFAULT_ATTRIBUTES)

    def step(self, delta: int) -> None:
        from games.mixtape import GENRES, WILD

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
        from games.mixtape import GENRE_NAMES

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
            (Action.OK, "Next field"),
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
    title = "Mixtape - Equalizer squares"

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
