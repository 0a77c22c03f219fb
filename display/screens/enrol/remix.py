"""Enrolment: Marvel: Remix - the 79-card checklist, batch by batch."""

from __future__ import annotations

import pygame

from display import ui
from display.screen import register_screen
from display.screens.enrol.batch import EnrolBatchScreen
from display.screens.enrol.common import REMIX, enrolment, next_remix_batch, remix_checklist
from display.screens.enrol.game import GameEnrolScreen


@register_screen
class RemixEnrolScreen(GameEnrolScreen):
    kind = "enrol.remix"
    title = "Enrol - Marvel: Remix"
    game = REMIX

    def rows(self) -> list[tuple[str, str, str]]:
        done = enrolment(self.app, REMIX)
        left = len(remix_checklist()) - len(done)
        batch = next_remix_batch(done)
        if not len(done):  # a fresh appliance: only the start applies
            return [("continue", "Start enrolment", f"first {len(batch)} of {left}")]
        first = "Continue enrolment" if left else "All cards enrolled"
        note = f"next {len(batch)} of {left}" if left else ""
        return [
            ("continue", first, note),
            ("reenrol", "Re-enrol a card", ""),
            ("verify", "Verify the deck", f"{len(done)} cards"),
        ]

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
        by_name = sorted(remix_checklist(), key=lambda card: card[1].lower())  # a letter row
        return [
            (card_id, name, "enrolled" if card_id in done else "not yet")
            for card_id, name in by_name
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
