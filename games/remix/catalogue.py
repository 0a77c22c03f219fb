"""The Marvel: Remix card catalogue: loading the packaged TOML file and finding cards by name.

The data lives in ``cards.toml`` beside this module so that a person can correct a card without
touching code. Loading validates every field (tags, types, effect kinds, card references) and
fails with a message naming the card, so a typo in the file cannot silently change a score.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from games.remix.names import (
    CONDITION_RULE_NAMES,
    EFFECT_KINDS,
    EFFECT_RULE_NAMES,
    TAG_INDEX,
    TAGS,
    TYPES,
)


class RemixError(ValueError):
    """Bad input for the Remix scorer (unknown card, impossible hand, bad catalogue)."""


class UnknownCardError(RemixError):
    """A card name or id that does not match exactly one card; ``candidates`` are close names."""

    def __init__(self, query: str, candidates: list[Card], ambiguous: bool = False) -> None:
        self.query = query
        self.candidates = candidates
        self.ambiguous = ambiguous
        names = ", ".join(f"{card.name} ({card.id})" for card in candidates)
        if ambiguous:
            message = f"card {query!r} is ambiguous: it could be {names}"
        elif candidates:
            message = f"unknown card {query!r}; did you mean: {names}?"
        else:
            message = f"unknown card {query!r} (give a card id like MR06 or a card name)"
        super().__init__(message)


@dataclass(frozen=True)
class Side:
    """The transformed side of a card."""

    name: str
    power: int
    tags: tuple[str, ...]
    when: Mapping[str, Any]


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    type: str
    power: int | None  # None is the printed "*" (counts 0)
    tags: tuple[str, ...]
    text: str
    effects: tuple[Mapping[str, Any], ...] = ()
    transform: Side | None = None
    number: int = field(default=0, compare=False)

    @property
    def base_power(self) -> int:
        """The printed base power, with "*" counting 0 (as for Loki's draw)."""
        return 0 if self.power is None else self.power

    @property
    def power_label(self) -> str:
        return "*" if self.power is None else str(self.power)

    @property
    def deck(self) -> str:
        return "VILLAIN" if self.type == "VILLAIN" else "REMIX"

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(str(e["rule"]) for e in self.effects if "rule" in e)


def _normal(text: str) -> str:
    """Lower case, letters and digits only: "Spider-Man" and "spiderman" compare equal."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


class Catalogue:
    """All cards, with lookup by id, by exact name and by forgiving name."""

    def __init__(self, cards: list[Card]) -> None:
        self.cards: tuple[Card, ...] = tuple(cards)
        self.by_id: dict[str, Card] = {card.id: card for card in cards}
        self._keys: dict[str, list[Card]] = {}
        for card in cards:
            for key in self._aliases(card):
                bucket = self._keys.setdefault(key, [])
                if card not in bucket:
                    bucket.append(card)

    @staticmethod
    def _aliases(card: Card) -> Iterator[str]:
        yield _normal(card.name)
        if "," in card.name:  # "Krakoa, the Living Island" is also just "Krakoa"
            yield _normal(card.name.split(",")[0])
        if card.name.lower().startswith("the "):
            yield _normal(card.name[4:])
        words = re.findall(r"[A-Za-z0-9]+", card.name.split(",")[0])
        if len(words) >= 3:  # "HSC" for High Speed Chase, "FHG" for Find Higher Ground
            yield "".join(word[0] for word in words).lower()
        if card.transform is not None:  # "Hulk", "Iron Man": the card's other side
            yield _normal(card.transform.name)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def lookup(self, query: str) -> Card:
        """Find one card by id ("MR06", "mr6"), name, or a forgiving spelling of its name.

        Raises :class:`UnknownCardError` listing close names when nothing or several match.
        """
        text = query.strip()
        if text.upper() in self.by_id:
            return self.by_id[text.upper()]
        match = re.fullmatch(r"(?i)mr\s*-?\s*0*(\d{1,2})", text)
        if match:
            card_id = f"MR{int(match.group(1)):02d}"
            if card_id in self.by_id:
                return self.by_id[card_id]
            raise UnknownCardError(query, [])
        key = _normal(text)
        if not key:
            raise UnknownCardError(query, [])
        exact = self._keys.get(key)
        if exact:
            if len(exact) == 1:
                return exact[0]
            raise UnknownCardError(query, exact, ambiguous=True)
        prefixed = {c.id: c for k, cs in self._keys.items() if k.startswith(key) for c in cs}
        if len(prefixed) == 1 and len(key) >= 3:
            return next(iter(prefixed.values()))
        close = self._close_keys(key, cutoff=0.8)
        cards = _unique([c for k in close for c in self._keys[k]])
        if len(cards) == 1:
            return cards[0]
        if len(prefixed) > 1 and len(key) >= 3:
            raise UnknownCardError(query, list(prefixed.values())[:6], ambiguous=True)
        if len(cards) > 1:
            best = difflib.SequenceMatcher(None, key, close[0]).ratio()
            runner = difflib.SequenceMatcher(None, key, close[1]).ratio()
            if best - runner >= 0.08 and len(self._keys[close[0]]) == 1:
                return self._keys[close[0]][0]
            raise UnknownCardError(query, cards[:6], ambiguous=True)
        raise UnknownCardError(query, self.closest(query, 5))

    def closest(self, query: str, n: int = 5) -> list[Card]:
        """The ``n`` cards whose names are most like ``query``, best first (for pick lists)."""
        key = _normal(query)
        scored: list[tuple[float, int, Card]] = []
        for card in self.cards:
            best = max(
                difflib.SequenceMatcher(None, key, alias).ratio()
                + (0.5 if key and alias.startswith(key) else 0.0)
                for alias in self._aliases(card)
            )
            scored.append((-best, card.number, card))
        scored.sort(key=lambda item: (item[0], item[1]))
        return [card for _, _, card in scored[: max(0, n)]]

    def _close_keys(self, key: str, cutoff: float) -> list[str]:
        return difflib.get_close_matches(key, list(self._keys), n=6, cutoff=cutoff)


def _unique(cards: list[Card]) -> list[Card]:
    seen: dict[str, Card] = {}
    for card in cards:
        seen.setdefault(card.id, card)
    return list(seen.values())


# ------------------------------------------------------------------ loading and validation


def _check_tags(where: str, tags: Any) -> tuple[str, ...]:
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise RemixError(f"{where}: tags must be a list of names")
    for tag in tags:
        if tag not in TAG_INDEX:
            raise RemixError(f"{where}: unknown tag {tag!r} (known: {', '.join(TAGS)})")
    return tuple(tags)


def _check_types(where: str, types: Any) -> None:
    if not isinstance(types, list) or not types:
        raise RemixError(f"{where}: type must be a non-empty list of card types")
    for kind in types:
        if kind not in TYPES:
            raise RemixError(f"{where}: unknown card type {kind!r}")


def _check_condition(where: str, cond: Any, ids: set[str]) -> None:
    if not isinstance(cond, dict):
        raise RemixError(f"{where}: a condition must be a table")
    if "all" in cond or "any" in cond:
        parts = cond.get("all", cond.get("any"))
        if not isinstance(parts, list) or not parts:
            raise RemixError(f"{where}: all/any needs a list of conditions")
        for part in parts:
            _check_condition(where, part, ids)
    elif "card" in cond:
        for card_id in cond["card"]:
            if card_id not in ids:
                raise RemixError(f"{where}: condition names unknown card {card_id!r}")
    elif "type" in cond:
        _check_types(where, cond["type"])
        if "tag" in cond:
            _check_tags(where, [cond["tag"]])
    elif "tag" in cond:
        _check_tags(where, [cond["tag"]])
    elif "rule" in cond:
        if cond["rule"] not in CONDITION_RULE_NAMES:
            raise RemixError(f"{where}: unknown condition rule {cond['rule']!r}")
    else:
        raise RemixError(f"{where}: condition {cond!r} has no known kind")


def _check_effect(where: str, effect: Any, ids: set[str]) -> None:
    if not isinstance(effect, dict):
        raise RemixError(f"{where}: an effect must be a table")
    kinds = [k for k in EFFECT_KINDS if k in effect]
    if len(kinds) != 1:
        raise RemixError(f"{where}: effect {effect!r} must have exactly one of {EFFECT_KINDS}")
    kind = kinds[0]
    if kind in ("per_tag", "gains"):
        _check_tags(where, effect[kind])
    if kind == "per_pair":
        if len(_check_tags(where, effect[kind])) != 2:
            raise RemixError(f"{where}: per_pair needs exactly two tags")
    if kind in ("per_type", "blanks"):
        _check_types(where, effect[kind])
    if kind in ("per_tag", "per_type", "per_pair") and not isinstance(effect.get("points"), int):
        raise RemixError(f"{where}: {kind} needs integer points")
    if kind == "blanks" and effect.get("target") not in ("one", "all"):
        raise RemixError(f'{where}: blanks needs target = "one" or "all"')
    if kind == "rule" and effect["rule"] not in EFFECT_RULE_NAMES:
        raise RemixError(f"{where}: unknown rule {effect['rule']!r}")
    for key in ("when", "unless", "blanked_unless", "blanked_if"):
        if key in effect:
            _check_condition(where, effect[key], ids)


def parse_catalogue(data: Mapping[str, Any]) -> Catalogue:
    raw_cards = data.get("card")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise RemixError("catalogue: no [[card]] entries")
    ids = {str(raw.get("id")) for raw in raw_cards}
    cards: list[Card] = []
    for number, raw in enumerate(raw_cards, start=1):
        where = f"card {raw.get('id', number)}"
        for key in ("id", "name", "type"):
            if not isinstance(raw.get(key), str):
                raise RemixError(f"{where}: missing {key}")
        _check_types(where, [raw["type"]])
        power = raw.get("power")
        if power is not None and not isinstance(power, int):
            raise RemixError(f"{where}: power must be an integer (omit it for '*')")
        effects = raw.get("effects", [])
        for effect in effects:
            _check_effect(where, effect, ids)
        transform = None
        if "transform" in raw:
            t = raw["transform"]
            _check_condition(where, t.get("when"), ids)
            transform = Side(
                name=str(t["name"]),
                power=int(t["power"]),
                tags=_check_tags(where, t["tags"]),
                when=t["when"],
            )
        cards.append(
            Card(
                id=raw["id"],
                name=raw["name"],
                type=raw["type"],
                power=power,
                tags=_check_tags(where, raw.get("tags", [])),
                text=str(raw.get("text", "")),
                effects=tuple(effects),
                transform=transform,
                number=number,
            )
        )
    if len(ids) != len(cards):
        raise RemixError("catalogue: two cards share an id")
    return Catalogue(cards)


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """Load a catalogue file; without a path, the one packaged with Tablekeeper."""
    if path is None:
        text = resources.files("games.remix").joinpath("cards.toml").read_text("utf-8")
    else:
        text = Path(path).read_text("utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RemixError(f"catalogue: not valid TOML: {error}") from error
    except RecursionError:  # tomllib recurses once per level of nesting
        raise RemixError("catalogue: tables or arrays nested too deeply") from None
    except ValueError:  # Python's guard against huge integers (sys.get_int_max_str_digits)
        raise RemixError("catalogue: a number is far too long (thousands of digits)") from None
    return parse_catalogue(data)


@lru_cache(maxsize=1)
def default_catalogue() -> Catalogue:
    return load_catalogue()
