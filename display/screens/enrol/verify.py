"""Enrolment: verify the deck - photograph the enrolled cards again, batch by batch, and report
every card the recogniser would misname (each photo is read off the UI thread)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.cards.capture import PhotoRead, capture_and_read
from display.cards.reading import ReadCard
from display.screen import LegendItem, Screen, register_screen
from display.screens.enrol.batch import EnrolBatchScreen, EnrolPhotoScreen
from display.screens.enrol.common import (
    BATCH,
    REMIX,
    card_words,
    enrolment,
    remix_checklist,
    side_note,
)
from display.widgets.slow import BUSY_READING
from display.widgets.words import count

if TYPE_CHECKING:
    from display.app import App


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

    def words(self, name: str) -> str:
        """A gallery name (a Mixtape id) or "missed"/"unknown", as the player reads it."""
        if name in ("missed", "unknown"):
            return name
        return card_words(self.app, self.game, name)

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
                f"{count(len(self.misnamed), 'card')} would be misnamed",
                (ui.MARGIN, 8),
                ui.MEDIUM,
                ui.BAD,
            )
            y = 50
            for item in self.misnamed[:7]:
                ui.text(
                    surface,
                    f"{self.words(item['name'])}: read as {self.words(item['read_as'])}",
                    (ui.MARGIN, y),
                    ui.SMALL,
                    max_width=width - 2 * ui.MARGIN,
                )
                y += 34
            return
        keys = batches[self.batch]
        done = enrolment(self.app, self.game)
        if self.photo is None:
            names = [card_words(self.app, self.game, k) for k in keys]
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
                text += f"\n{self.words(item['name'])}: {self.words(item['read_as'])}"
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
