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

from typing import TYPE_CHECKING, Any

from display.cards.enrolment import Enrolment, enrolled
from games.mixtape import FACE_DOWN, Deck, DeckError, load_deck

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


def placement_text(deck: Deck, order: list[str], discarded: list[str] | None = None) -> str:
    """ "EX03 -> Trk A, EX07 -> Trk B" (each goes to the bottom of its column)."""
    parts = [
        f"{card} -> Trk {deck.card(card).side}" for card in order if card not in (discarded or [])
    ]
    for card in discarded or []:
        parts.append(f"{card} -> box (off the Equalizer)")
    return ", ".join(parts) if parts else "nothing"


def card_words(cards: list[str]) -> str:
    """ "EX03 and the face-down card": your solo options, never naming the face-down card."""
    words = ["the face-down card" if card == FACE_DOWN else card for card in cards]
    return " and ".join(words) or "nothing"


def tape_line(tape_json: dict[str, Any]) -> str:
    a = " ".join(tape_json.get("a", [])) or "-"
    b = " ".join(tape_json.get("b", [])) or "-"
    return f"A: {a}   B: {b}"
