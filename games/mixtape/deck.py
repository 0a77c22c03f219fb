"""Deck files: the Track cards and the Equalizer a table actually owns.

The rulebook lists neither the cards nor the Equalizer's printed points, so both come from a
TOML file the owner writes (or the appliance fills in at enrolment). The schema is a contract:

    name = "My copy"
    [equalizer]
    squares = [0, 5, 10, 15, 20, 25, 30, 25, 20, 15, 10, 5, 0]   # printed points, left to right
    start = 6                                                    # 0-based index of the start square
    [[cards]]
    id = "T01"          # unique in the file
    genre = "punk"      # pop | alternative | punk | rnb | hiphop | rock | wild
    side = "A"          # A (number printed left, column Trk A) or B (printed right, Trk B)
    balance = 3         # the balance number
    top = ["center"]    # flow points on the top edge: any of left, center, right
    bottom = ["left"]   # flow points on the bottom edge
    players = 2         # the player-count lines on the card: 2, 3 or 4

Loading checks everything and every complaint names the card and the field at fault.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeGuard

from games.mixtape.errors import DeckError, UnknownCardError

GENRES = ("pop", "alternative", "punk", "rnb", "hiphop", "rock")
WILD = "wild"
GENRE_NAMES = {
    "pop": "Pop",
    "alternative": "Alternative",
    "punk": "Punk",
    "rnb": "R&B",
    "hiphop": "HipHop/Rap",
    "rock": "Rock",
    WILD: "Wild",
}
SIDES = ("A", "B")
FLOW_POSITIONS = ("left", "center", "right")
PLAYER_LINES = (2, 3, 4)

EXAMPLE_DECK = "example_deck.toml"
# Stands for the face-down card of your solo turn while nobody knows which card it is.
FACE_DOWN = "?"

_TOP_KEYS = {"name", "equalizer", "cards"}
_EQUALIZER_KEYS = {"squares", "start"}
_CARD_KEYS = ("id", "genre", "side", "balance", "top", "bottom", "players")


@dataclass(frozen=True)
class Card:
    """One Track card as printed."""

    id: str
    genre: str
    side: str
    balance: int
    top: frozenset[str]
    bottom: frozenset[str]
    players: int

    @property
    def is_wild(self) -> bool:
        return self.genre == WILD

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "genre": self.genre,
            "side": self.side,
            "balance": self.balance,
            "top": [p for p in FLOW_POSITIONS if p in self.top],
            "bottom": [p for p in FLOW_POSITIONS if p in self.bottom],
            "players": self.players,
        }


@dataclass(frozen=True)
class Deck:
    """A validated deck file: the Equalizer's squares, the start square and every Track card."""

    name: str
    squares: tuple[int, ...]
    start: int
    cards: tuple[Card, ...]
    source: str = ""
    _by_id: dict[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {card.id: card for card in self.cards})

    def card(self, card_id: str) -> Card:
        try:
            return self._by_id[card_id]
        except KeyError:
            raise UnknownCardError(
                f"unknown card id {card_id!r} (not in deck {self.name!r})"
            ) from None

    def cards_for(self, ids: Iterable[str]) -> list[Card]:
        return [self.card(card_id) for card_id in ids]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def for_players(self, players: int) -> list[Card]:
        """The Track deck for a player count: 2 → 2-line cards, 3 → 2 and 3, 4 → all."""
        if players not in PLAYER_LINES:
            raise DeckError(f"a multiplayer deck is for 2, 3 or 4 players, not {players}")
        return [card for card in self.cards if card.players <= players]

    def otto_deck(self) -> list[Card]:
        """Solo: the 3- and 4-player cards are set aside as Otto's own deck."""
        return [card for card in self.cards if card.players > 2]

    def position_of(self, square: int) -> int:
        """Squares counted from the start square, negative to the left."""
        return square - self.start

    def on_equalizer(self, square: int) -> bool:
        return 0 <= square < len(self.squares)


def load_deck(path: str | Path) -> Deck:
    """Read and validate a deck file; raises DeckError naming the card and field at fault."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckError(f"deck file {str(path)!r} not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise DeckError(f"deck file {str(path)!r} cannot be read: {error}") from None
    return parse_deck(text, source=str(path))


def load_example_deck() -> Deck:
    """The packaged example deck (an invented deck, NOT the real game's contents)."""
    resource = resources.files("games.mixtape").joinpath(EXAMPLE_DECK)
    return parse_deck(resource.read_text(encoding="utf-8"), source=EXAMPLE_DECK)


def example_deck_path() -> Path:
    return Path(str(resources.files("games.mixtape").joinpath(EXAMPLE_DECK)))


def parse_deck(text: str, source: str = "deck file") -> Deck:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DeckError(f"{source}: not valid TOML: {error}") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise DeckError(f"{source}: not a deck (tables or arrays nested too deeply)") from None
    except ValueError:  # Python's guard against huge integers (sys.get_int_max_str_digits)
        raise DeckError(f"{source}: a number is far too long (thousands of digits)") from None
    return deck_from_mapping(data, source)


def deck_from_mapping(data: Mapping[str, Any], source: str = "deck file") -> Deck:
    def fail(message: str) -> DeckError:
        return DeckError(f"{source}: {message}")

    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise fail(
            f"unknown top-level key(s) {', '.join(unknown)} (expected name, equalizer, cards)"
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail("'name' must be a non-empty string")

    equalizer = data.get("equalizer")
    if not isinstance(equalizer, Mapping):
        raise fail("missing [equalizer] table (squares and start)")
    unknown = sorted(set(equalizer) - _EQUALIZER_KEYS)
    if unknown:
        raise fail(f"[equalizer]: unknown key(s) {', '.join(unknown)} (expected squares, start)")
    for key in ("squares", "start"):
        if key not in equalizer:
            raise fail(f"[equalizer] is missing '{key}'")
    squares = equalizer.get("squares")
    if not isinstance(squares, list) or not squares:
        raise fail("[equalizer] squares must be a non-empty list of printed points")
    for index, points in enumerate(squares):
        if not _is_int(points):
            raise fail(f"[equalizer] squares[{index}] = {points!r} is not a whole number")
    start = equalizer.get("start")
    if not _is_int(start):
        raise fail(f"[equalizer] start = {start!r} must be a whole number (0-based square index)")
    if not 0 <= start < len(squares):
        raise fail(f"[equalizer] start = {start} is outside the squares (0 to {len(squares) - 1})")

    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise fail("no [[cards]] defined")
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(raw_cards, start=1):
        card = _parse_card(raw, number, len(squares), fail)
        if card.id in seen:
            raise fail(
                f"card {card.id!r} (card #{number}): field 'id' duplicates card #{seen[card.id]}"
            )
        seen[card.id] = number
        cards.append(card)
    return Deck(name=name, squares=tuple(squares), start=start, cards=tuple(cards), source=source)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_card(raw: object, number: int, square_count: int, fail: Any) -> Card:
    if not isinstance(raw, Mapping):
        raise fail(f"card #{number} is not a table")
    card_id = raw.get("id")
    if not isinstance(card_id, str) or not card_id.strip():
        raise fail(f"card #{number}: field 'id' must be a non-empty string")
    if card_id != card_id.strip() or any(ch.isspace() or ch == "," for ch in card_id):
        raise fail(f"card #{number}: field 'id' = {card_id!r} must not contain spaces or commas")
    if card_id == FACE_DOWN:
        raise fail(f"card #{number}: field 'id' = {card_id!r} stands for the face-down card")
    where = f"card {card_id!r}"

    unknown = sorted(set(raw) - set(_CARD_KEYS))
    if unknown:
        raise fail(f"{where}: unknown field(s) {', '.join(unknown)}")
    missing = [key for key in _CARD_KEYS if key not in raw]
    if missing:
        raise fail(f"{where}: missing field(s) {', '.join(missing)}")

    genre = raw["genre"]
    if genre not in (*GENRES, WILD):
        raise fail(
            f"{where}: field 'genre' = {genre!r} is not one of {' | '.join((*GENRES, WILD))}"
        )
    side = raw["side"]
    if side not in SIDES:
        raise fail(f'{where}: field \'side\' = {side!r} must be "A" or "B"')
    balance = raw["balance"]
    if not _is_int(balance) or balance < 0:
        raise fail(f"{where}: field 'balance' = {balance!r} must be a whole number 0 or more")
    if balance > square_count - 1:
        raise fail(
            f"{where}: field 'balance' = {balance} can never fit on an Equalizer of "
            f"{square_count} squares"
        )
    edges = {}
    for edge in ("top", "bottom"):
        points = raw[edge]
        if not isinstance(points, list):
            raise fail(f"{where}: field '{edge}' must be a list of left/center/right")
        for point in points:
            if point not in FLOW_POSITIONS:
                raise fail(
                    f"{where}: field '{edge}' has {point!r}; flow points are left, center, right"
                )
        if len(set(points)) != len(points):
            raise fail(f"{where}: field '{edge}' names a flow point twice")
        edges[edge] = frozenset(points)
    if genre == WILD:
        for edge in ("top", "bottom"):
            if edges[edge] != frozenset(FLOW_POSITIONS):
                raise fail(
                    f"{where}: field '{edge}': a Wild card has flow points at all connection "
                    "points (left, center, right on top and bottom)"
                )
    players = raw["players"]
    if players not in PLAYER_LINES or not _is_int(players):
        raise fail(f"{where}: field 'players' = {players!r} must be 2, 3 or 4")
    return Card(
        id=card_id,
        genre=genre,
        side=side,
        balance=balance,
        top=edges["top"],
        bottom=edges["bottom"],
        players=players,
    )


def _toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for everything json.dumps writes)."""
    return json.dumps(str(text), ensure_ascii=False)


def dump_deck(
    cards: Mapping[str, Mapping[str, Any]],
    squares: Sequence[int],
    start: int,
    name: str,
    comment: str = "",
) -> str:
    """The text of a deck file (the schema above) for card attributes given by id, each a table
    of genre, side, balance, top, bottom and players (the shape of :meth:`Card.to_json`; other
    keys are ignored). Cards are written in id order. Nothing is checked here: a table still
    being enrolled is written as it stands and :func:`parse_deck` says what is missing."""
    lines = [f"# {line}" for line in comment.splitlines()]
    lines += [
        f"name = {_toml_string(name)}",
        "",
        "[equalizer]",
        f"squares = [{', '.join(str(int(v)) for v in squares)}]",
        f"start = {int(start)}",
    ]
    for key in sorted(cards):
        card = cards[key]
        lines += [
            "",
            "[[cards]]",
            f"id = {_toml_string(key)}",
            f"genre = {_toml_string(card['genre'])}",
            f"side = {_toml_string(card['side'])}",
            f"balance = {int(card['balance'])}",
            "top = [" + ", ".join(_toml_string(p) for p in card["top"]) + "]",
            "bottom = [" + ", ".join(_toml_string(p) for p in card["bottom"]) + "]",
            f"players = {int(card['players'])}",
        ]
    return "\n".join(lines) + "\n"


def parse_ids(text: str | None) -> list[str]:
    """'T01,T02, T03' → ['T01', 'T02', 'T03']; '' or None → []."""
    if not text:
        return []
    return [part.strip() for part in text.split(",") if part.strip()]
