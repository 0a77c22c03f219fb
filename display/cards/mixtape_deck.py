"""The Mixtape deck as the table enrols it: card attributes and the Equalizer kept in the
enrolment manifest (``extra``), written out as the deck file the Mixtape engine reads
(``enrolment/mixtape/deck.toml``, schema in the README)."""

from __future__ import annotations

from typing import Any

from display.cards.enrolment import Enrolment
from games.mixtape import DeckError, dump_deck, load_example_deck, parse_deck


def default_equalizer() -> dict[str, Any]:
    deck = load_example_deck()
    return {"squares": list(deck.squares), "start": deck.start}


def mixtape_attributes(done: Enrolment) -> dict[str, dict[str, Any]]:
    return dict(done.extra.get("cards", {}))


def deck_text(done: Enrolment) -> str:
    """The deck file (TOML, the Mixtape engine's schema) for the enrolled attributes."""
    equalizer = done.extra.get("equalizer") or default_equalizer()
    return dump_deck(
        mixtape_attributes(done),
        equalizer["squares"],
        equalizer["start"],
        name="Enrolled deck",
        comment="Written by Tablekeeper's Mixtape enrolment "
        "(schema: README, I Made You a Mixtape).",
    )


def deck_problem(done: Enrolment, text: str | None = None) -> str:
    """ "" when the enrolled deck is complete, else why the engine (or the table) would object."""
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
