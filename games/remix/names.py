"""The words of Marvel: Remix that every other module shares: tags, card types, effect kinds,
rule names and how they are written for people.

A leaf module (it imports nothing from the project), so the catalogue, the tag state, the named
rules and the compiler can all depend on it without depending on each other.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

TAGS: tuple[str, ...] = (
    "tech",
    "intel",
    "strength",
    "agility",
    "flight",
    "range",
    "wakanda",
    "asgard",
    "mutant",
    "gamma",
    "worthy",
    "urban",
    "boss",
)
TAG_INDEX: dict[str, int] = {tag: i for i, tag in enumerate(TAGS)}
LOKI = "MR70"  # Loki's card: his draw is subtracted last, from choices settled without it
TECH = TAG_INDEX["tech"]
INTEL = TAG_INDEX["intel"]
STRENGTH = TAG_INDEX["strength"]
AGILITY = TAG_INDEX["agility"]
FLIGHT = TAG_INDEX["flight"]
RANGE = TAG_INDEX["range"]
MUTANT = TAG_INDEX["mutant"]
ALL_TAGS = frozenset(range(len(TAGS)))


class CardType(StrEnum):
    """A card's type as the catalogue writes it (a str: it compares equal to "HERO")."""

    HERO = "HERO"
    ALLY = "ALLY"
    CONDITION = "CONDITION"
    EQUIPMENT = "EQUIPMENT"
    LOCATION = "LOCATION"
    MANEUVER = "MANEUVER"
    VILLAIN = "VILLAIN"


TYPES: tuple[str, ...] = tuple(CardType)
HERO_OR_ALLY = frozenset({CardType.HERO, CardType.ALLY})
# The types the scorer's loops compare with, as plain strings: reading a CardType member (and
# hashing one) runs Python code every time, a plain string compares and hashes in C.
HERO, ALLY, VILLAIN = CardType.HERO.value, CardType.ALLY.value, CardType.VILLAIN.value


class Level(IntEnum):
    """How much of a tag can matter to a hand's score, a transform or a sensitive blanking
    text (the search prunes with it; ordered: each level says more than the one before)."""

    IGNORED = 0  # nothing reads it
    GLOBAL = 1  # only whether the hand has it (Kang)
    PRESENCE = 2  # which cards carry it (Mystique, Avoid Crossfire, "a HERO that has Agility")
    COUNTS = 3  # also how many instances there are


# The kinds of effect a card can declare in cards.toml (one per table).
EFFECT_KINDS: tuple[str, ...] = (
    "per_tag",
    "per_type",
    "per_pair",
    "bonus",
    "penalty",
    "blanked_unless",
    "blanked_if",
    "blanks",
    "gains",
    "rule",
)

# The named rules (games.remix.rules registers one object per name) a card may use.
EFFECT_RULE_NAMES: tuple[str, ...] = (
    "vision_tags",
    "shuri_grants",
    "xjet",
    "rogue_copy",
    "moira_double",
    "xavier_double",
    "hack_in",
    "magneto_ignores_tech",
    "avoid_crossfire",
    "kang",
    "loki_draw",
)
CONDITION_RULE_NAMES: tuple[str, ...] = ("three_cards_share_a_tag",)

# The tag-changing texts, in the order the rulings list them: the order they act in unless the
# owner gains by another ("gains" stands for a declarative gain such as Spider-Man's Flight).
TEXT_ORDER: tuple[str, ...] = (
    "vision_tags",
    "shuri_grants",
    "gains",
    "rogue_copy",
    "xjet",
    "moira_double",
    "xavier_double",
)

NUMBER_WORDS = {1: "a", 2: "two or more", 3: "three or more"}


def tag_label(tag: str | int) -> str:
    """ "Strength" for "strength" or its index."""
    name = TAGS[tag] if isinstance(tag, int) else tag
    return name.capitalize()


def type_label(types: list[str]) -> str:
    return " or ".join(types)


def signed(points: int) -> str:
    """+5, or −5 with a real minus sign."""
    return f"+{points}" if points >= 0 else f"\u2212{-points}"
