"""I Made You a Mixtape at the table: score mixtapes from a photo, and play solo against Otto.

This module is what the Mixtape screens share (the enrolled deck, placement text); the screens:

* ``mixtape`` - the menu (needs the enrolled deck: ``enrolment/mixtape/deck.toml`` and its
  gallery, made on the Enrol screens or imported).
* ``mixtape.table`` - players one by one; ``mixtape.tape`` photographs a finished mixtape laid
  out as played (Trk A left, Trk B right, top to bottom): the columns are read, unknown or
  doubtful cards settled, then ``mixtape.result`` shows each card in order with its balance and
  flow points, the genre sets and the total; ``mixtape.ranking`` ranks with ties broken by the
  Balance score (then shared).
* ``mixtape.solo`` - the solo game against Otto at a real table (``SoloGame.at_table``): both
  mixtapes are kept by the appliance. Set-up cards, each round's drawn cards and Otto's extra card
  are photographed (``mixtape.cards``); on your turn only the two face-up cards: the face-down one
  is photographed once your choice sends it into a mixtape, and never named before (rulings). The
  screen says what Otto keeps, what you take and where every card goes; on your turn it records
  your choice. SEAT 1 undoes the last step. At the end both mixtapes are scored without another
  photo.

State (store namespace ``mixtape``): ``table`` (the scored players), ``solo`` (the game's
snapshot) and ``solo_history`` (earlier snapshots, for undo). Written after every event.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pygame

from display import ui
from display.cards.enrolment import Enrolment, EnrolmentError, enrolled
from games.mixtape import FACE_DOWN, GENRE_NAMES, Deck, DeckError, MixtapeError, load_deck

if TYPE_CHECKING:
    from display.app import App

NAMESPACE = "mixtape"
SOLO_KEY = "solo"
HISTORY_KEY = "solo_history"
HISTORY_LIMIT = 30
DECK_CACHE = "mixtape.deck"  # app.cache: (file stamp, the deck loaded from it)


def enrolment(app: App) -> Enrolment:
    return enrolled(app, NAMESPACE)


def load_table_deck(app: App) -> Deck:
    """The enrolled deck; raises MixtapeError / EnrolmentError with a reason for the screen."""
    path = enrolment(app).deck_path
    if not path.is_file():
        raise DeckError(
            "no Mixtape deck enrolled yet: enrol your cards (home, Enrol cards, Mixtape) or "
            "import an enrolment file"
        )
    # Screens ask every frame: read the file again only when it changed.
    stamp = (str(path), path.stat().st_mtime_ns)
    cached = app.cache.get(DECK_CACHE)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    deck = load_deck(path)
    app.cache[DECK_CACHE] = (stamp, deck)
    return deck


# Players read a Mixtape card by what is printed on it, never by the deck's internal id.
CHIP_GENRES = {"alternative": "Alt", "hiphop": "Hip-hop"}  # short names for the tape chips
GENRE_COLOURS = {  # a stripe on each chip; none is the selection yellow or a seat colour
    "pop": (236, 96, 170),
    "alternative": (60, 178, 170),
    "punk": (160, 200, 60),
    "rnb": (150, 110, 230),
    "hiphop": (240, 140, 50),
    "rock": (200, 70, 70),
    "wild": (220, 220, 220),
}


def printed_words(genre: str, side: str, balance: int | str) -> str:
    """ "Pop · A · 3": genre, side and balance as printed on a card."""
    return f"{GENRE_NAMES.get(genre, genre)} · {side} · {balance}"


def card_label(deck: Deck, card_id: str) -> str:
    """ "Pop · A · 3": genre, side and balance as printed on the card."""
    if card_id == FACE_DOWN:
        return "the face-down card"
    card = deck.card(card_id)
    return printed_words(card.genre, card.side, card.balance)


NO_DETAILS = "a card without details"  # enrolled, but what is printed on it not entered yet


def label_in_deck(app: App, card_id: str) -> str:
    """:func:`card_label` from the enrolled deck, for the photo and pick screens."""
    try:
        return card_label(load_table_deck(app), card_id)
    except (MixtapeError, EnrolmentError, OSError):
        return NO_DETAILS


def chip_label(deck: Deck, card_id: str) -> str:
    """ "Pop 3": a card in a drawn mixtape (its column already says the side)."""
    card = deck.card(card_id)
    genre = CHIP_GENRES.get(card.genre) or GENRE_NAMES.get(card.genre, card.genre)
    return f"{genre} {card.balance}"


def in_words(deck: Deck, sentence: str) -> str:
    """An engine sentence (Otto's reasons, placements) with every card id replaced by what the
    card shows, for the screen."""
    ids = sorted((card.id for card in deck.cards), key=len, reverse=True)
    if not ids:
        return sentence
    pattern = re.compile(r"\b(" + "|".join(re.escape(card_id) for card_id in ids) + r")\b")
    return pattern.sub(lambda match: card_label(deck, match.group(1)), sentence)


def placement_text(deck: Deck, order: list[str], discarded: list[str] | None = None) -> str:
    """ "Pop · A · 3, then Rock · B · 1" (each card goes to the bottom of the column its side
    names, in this order); a card that would push the cube off the Equalizer goes to the box."""
    kept = [card_label(deck, card) for card in order if card not in (discarded or [])]
    parts = [", then ".join(kept)] if kept else []
    parts += [
        f"{card_label(deck, card)} to the box (off the Equalizer)" for card in discarded or []
    ]
    return "; ".join(parts) if parts else "nothing"


def card_words(deck: Deck, cards: list[str]) -> str:
    """ "Pop · A · 3 and the face-down card": your solo options, never naming the face-down
    card."""
    return " and ".join(card_label(deck, card) for card in cards) or "nothing"


def draw_rows_shown(
    surface: pygame.Surface, right: int, centre_y: int, first: int, shown: int, rows: int
) -> None:
    """Where a scrolled list of mixtape rows stands, ending at ``right``: "rows 6-12 of 12"
    (``first`` counted from 0) and two triangles, accent where more rows lie that way (the
    knob), dim where the list ends."""
    for x, up, lit in ((right - 12, False, first + shown < rows), (right - 40, True, first > 0)):
        tip, base = (centre_y - 9, centre_y + 7) if up else (centre_y + 9, centre_y - 7)
        points = [(x - 12, base), (x + 12, base), (x, tip)]
        pygame.draw.polygon(surface, ui.ACCENT if lit else ui.DIM, points)
    label = f"rows {first + 1}-{first + shown} of {rows}"
    ui.text(surface, label, (right - 62, centre_y), ui.SMALL, ui.DIM, anchor="midright")
