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

The data itself lives in ``display.cards.enrolment`` (state dir ``enrolment/<game>/``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from display import ui
from display.cards.enrolment import Enrolment, enrolled
from games.remix import default_catalogue

if TYPE_CHECKING:
    from display.app import App

BATCH = 12  # cards per enrolment photo
REMIX, MIXTAPE = "remix", "mixtape"


def enrolment(app: App, game: str) -> Enrolment:
    return enrolled(app, game)


def side_note(surface: pygame.Surface, text: str, colour: tuple[int, int, int]) -> None:
    """The framed note beside an enrolment photo (what to check, or what went wrong)."""
    width, height = surface.get_size()
    side = pygame.Rect(width - 276, 8, 264, height - 16)
    ui.panel(surface, side, ui.PANEL, border=colour)
    ui.paragraph(surface, text, side.inflate(-20, -20), ui.SMALL)


def remix_checklist() -> list[tuple[str, str]]:
    """(id, name) of all 79 Remix cards in checklist (catalogue) order."""
    return [(card.id, card.name) for card in default_catalogue()]


def next_remix_batch(done: Enrolment) -> list[str]:
    return [key for key, _ in remix_checklist() if key not in done][:BATCH]
