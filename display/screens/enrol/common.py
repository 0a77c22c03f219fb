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
from display.cards.mixtape_deck import mixtape_attributes
from display.screens.mixtape.common import NO_DETAILS, printed_words
from games.remix import default_catalogue

if TYPE_CHECKING:
    from display.app import App

BATCH = 12  # cards per enrolment photo
REMIX, MIXTAPE = "remix", "mixtape"
SIDE_W = 330  # the note or the list of names beside an enrolment photo


def enrolment(app: App, game: str) -> Enrolment:
    return enrolled(app, game)


def side_note(surface: pygame.Surface, text: str, colour: tuple[int, int, int]) -> None:
    """The framed note beside an enrolment photo (what to check, or what went wrong)."""
    width, height = surface.get_size()
    side = pygame.Rect(width - SIDE_W - 12, 8, SIDE_W, height - 16)
    ui.panel(surface, side, ui.PANEL, border=colour)
    ui.paragraph(surface, text, side.inflate(-20, -20), ui.SMALL)


def side_list(surface: pygame.Surface, lines: list[str], colour: tuple[int, int, int]) -> None:
    """The names beside an enrolment photo, one a line by the number the photo shows (as many
    as fit: a batch of 12 does)."""
    width, height = surface.get_size()
    side = pygame.Rect(width - SIDE_W - 12, 8, SIDE_W, height - 16)
    ui.panel(surface, side, ui.PANEL, border=colour)
    inner = side.inflate(-20, -12)
    pitch = ui.font(ui.SMALL).get_height() - 1  # tight: twelve lines in the panel
    shown = lines if len(lines) * pitch <= inner.height else lines[: inner.height // pitch - 1]
    y = inner.top
    for line in shown:
        ui.text(surface, line, (inner.left, y), ui.SMALL, max_width=inner.width)
        y += pitch
    if len(shown) < len(lines):
        ui.text(surface, f"and {len(lines) - len(shown)} more", (inner.left, y), ui.SMALL, ui.DIM)


def card_words(app: App, game: str, key: str) -> str:
    """A card as players read it, never by its internal id: a Remix card's name (from its id
    or its name), a Mixtape card's genre · side · balance once they are entered."""
    if game == REMIX:
        return dict(remix_checklist()).get(key, key)

    attributes = mixtape_attributes(enrolment(app, MIXTAPE)).get(key)
    if not attributes:
        return NO_DETAILS
    return printed_words(attributes["genre"], attributes["side"], attributes["balance"])


def remix_checklist() -> list[tuple[str, str]]:
    """(id, name) of all 79 Remix cards in checklist (catalogue) order."""
    return [(card.id, card.name) for card in default_catalogue()]


def next_remix_batch(done: Enrolment) -> list[str]:
    return [key for key, _ in remix_checklist() if key not in done][:BATCH]
