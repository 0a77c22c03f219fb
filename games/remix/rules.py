"""Named rules: the card effects that the declarative vocabulary in cards.toml cannot say.

Each rule is registered by name (``EFFECT_RULES``, ``CONDITION_RULES``) and a card names it with
``{ rule = "name" }``. Three families:

* tag texts (``text = True``): Vision, Shuri, X-Jet, Rogue, Moira, Xavier Mansion. They act one at
  a time in an order the owner picks, each seeing the tags as they are when it acts (rulings).
  A choice rule lists the owner's options; the engine tries them.
* counting rules: Hack In (each Tech tag also counts as an Intel tag) and Magneto (a Tech tag
  counts for nothing anywhere); they hold all the time (see :func:`games.remix.state.counted`).
* scoring rules: Avoid Crossfire, Kang, Loki.

Options refer to cards by their position in the hand and to tags by index (see names.TAGS).
An option whose target has been blanked, or lacks the tag it names when the text acts, does
nothing ("void").

What a tag text may read and write (``reads``, ``gives``...) is declared on the class, so the
engine can tell which texts' order can matter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Generic, TypeVar

from games.remix.names import (
    AGILITY,
    ALL_TAGS,
    FLIGHT,
    HERO,
    RANGE,
    STRENGTH,
    TAG_INDEX,
    TAGS,
    TECH,
    signed,
    tag_label,
)
from games.remix.state import HandCard, Rise, Scorer, State

Hand = Sequence[HandCard]
# What one more of a tag on a card can do to everything still to come (the search's pruning):
# USEFUL (it can change the outcome), IDLE (it changes nothing) or HARMFUL (it can only lower the
# score). None: every option counts.
USEFUL, IDLE, HARMFUL = 1, 0, -1
Useful = Callable[[State, int, int], int] | None

# What a tag text can touch: its own card ("self"), the other HEROES and ALLIES ("others"),
# the other HEROES ("heroes").
SELF, OTHERS, HEROES = "self", "others", "heroes"

# An option of a choice rule (each rule has its own shape: see the subclasses).
OptionT = TypeVar("OptionT")
# What an option looks like in a result's JSON, and what may come back from one (checked).
ChoiceJson = dict[str, str | list[str] | None] | list[dict[str, str | None]]
Where = Mapping[str, int]  # card ids to positions in the hand
Pair = tuple[int, int]  # (card position, tag)


class Rule(Generic[OptionT]):
    """A named rule. Subclasses override what applies to them; a choice rule (``choice``) has
    options of type ``OptionT``, the rest have none (``Rule[None]``)."""

    name = ""
    text = False  # a tag-changing text, acting in the owner's order
    choice = False  # the owner chooses among options
    reads: tuple[int, ...] = ()  # tags whose count changes this card's points
    seen: tuple[int, ...] = ()  # tags where only which cards carry them matters
    anywhere: tuple[int, ...] = ()  # tags where only whether the hand has them matters
    scorer: Scorer | None = None
    rise: Rise | None = None  # how far the scorer can rise with one more tag (state.Rise)
    # For tag texts: the tags it can give, and to whom; the tags it looks at, and on whom.
    gives: frozenset[int] = frozenset()
    gives_to: tuple[str, ...] = ()
    looks_at: frozenset[int] = frozenset()
    looks_on: str = ""
    copies_power = False  # Rogue: reads the HEROES' power, writes her own
    doubles = False  # Moira, Xavier Mansion: one more instance of a tag a card already has

    def apply(self, s: State, pos: int, option: OptionT) -> None:
        """Apply this rule (with the chosen option, for a choice rule) to ``s``."""

    def options(self, s: State, pos: int, useful: Useful = None) -> list[OptionT]:
        """The owner's options as the hand stands (one per distinct useful effect)."""
        raise NotImplementedError(f"{self.name} has no options")

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[OptionT]:
        """Every option over the whole hand, before anything is blanked (brute force)."""
        raise NotImplementedError(f"{self.name} has no options")

    def default(self, hand: Hand, pos: int) -> OptionT | None:
        return None

    def describe(self, hand: Hand, pos: int, option: OptionT) -> str:
        return ""

    def to_json(self, hand: Hand, pos: int, option: OptionT) -> ChoiceJson:
        raise NotImplementedError(f"{self.name} has no options")

    def from_json(self, where: Where, value: object) -> OptionT:
        """The option that :meth:`to_json` described; ValueError if ``value`` is not one."""
        raise NotImplementedError(f"{self.name} has no options")


def _field(value: object, key: str) -> object:
    if not isinstance(value, Mapping):
        raise ValueError(f"expected an object with {key!r}, not {value!r}")
    return value[key]


def _text(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"expected a card id or tag name, not {value!r}")
    return value


def _where(where: Where, value: object) -> int | None:
    """The position of the card id ``value`` (None stays None)."""
    card = _text(value)
    return None if card is None else where[card]


def _tag_of(value: object) -> int | None:
    tag = _text(value)
    return None if tag is None else TAG_INDEX[tag]


def _heroes_allies(hand: Hand, pos: int) -> list[int]:
    return [j for j, c in enumerate(hand) if j != pos and c.hero_or_ally]


def _heroes(hand: Hand, pos: int) -> list[int]:
    return [j for j, c in enumerate(hand) if j != pos and c.type == HERO]


def _name(hand: Hand, pos: int | None) -> str:
    return "nobody" if pos is None else hand[pos].card.name


def _id(hand: Hand, pos: int | None) -> str | None:
    return None if pos is None else hand[pos].id


def _alive(s: State, pos: int | None) -> bool:
    return pos is not None and s.tags[pos] is not None


def _useful(useful: Useful, s: State, pos: int, tag: int) -> bool:
    return useful is None or useful(s, pos, tag) == USEFUL


def _worth(useful: Useful, s: State, pos: int, tag: int) -> int:
    return USEFUL if useful is None else useful(s, pos, tag)


# Vision's options by the worth of her four tags (USEFUL, IDLE or HARMFUL each): at most 81 keys
_VISION_OPTIONS: dict[tuple[int, ...], tuple[Pair, ...]] = {}


class VisionTags(Rule[Pair]):
    """Vision: the owner's choice of two different tags among Strength, Flight, Tech, Range."""

    name = "vision_tags"
    text = choice = True
    CHOICES = (STRENGTH, FLIGHT, TECH, RANGE)
    PAIRS: tuple[Pair, ...] = tuple((a, b) for a, b in combinations(CHOICES, 2))
    gives = frozenset(CHOICES)
    gives_to = (SELF,)

    def apply(self, s: State, pos: int, option: Pair) -> None:
        for tag in option:
            s.add(pos, tag)

    def options(self, s: State, pos: int, useful: Useful = None) -> list[Pair]:
        worth = tuple(_worth(useful, s, pos, t) for t in self.CHOICES)
        found = _VISION_OPTIONS.get(worth)
        if found is None:  # the options follow from the four tags' worth alone: found once each
            by_tag = dict(zip(self.CHOICES, worth, strict=True))
            found = _VISION_OPTIONS[worth] = self._distinct(by_tag)
        return list(found)

    def _distinct(self, worth: dict[int, int]) -> tuple[Pair, ...]:
        """The pairs worth offering when the four tags are worth ``worth``: one per distinct
        effect (the idle tags left out), in the order the search tries them."""
        distinct: dict[tuple[int, ...], Pair] = {}
        harm = _harm(worth)
        # a pair that differs from another only by a harmful tag instead of an idle one loses
        for pair in sorted(self.PAIRS, key=lambda p: sum(worth[t] == HARMFUL for t in p)):
            effect = tuple(t for t in pair if worth[t] != IDLE)
            if not any(set(e) < set(effect) <= set(e) | harm for e in distinct):
                distinct.setdefault(effect, pair)
        return tuple(distinct.values())

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Pair]:
        return list(self.PAIRS)

    def default(self, hand: Hand, pos: int) -> Pair:
        return self.PAIRS[0]

    def describe(self, hand: Hand, pos: int, option: Pair) -> str:
        return f"Vision takes {tag_label(option[0])} and {tag_label(option[1])}"

    def to_json(self, hand: Hand, pos: int, option: Pair) -> ChoiceJson:
        return {"tags": [TAGS[t] for t in option]}

    def from_json(self, where: Where, value: object) -> Pair:
        tags = _field(value, "tags")
        if not isinstance(tags, list) or len(tags) != 2:
            raise ValueError(f"Vision takes two tags, not {tags!r}")
        first, second = (_tag_of(t) for t in tags)
        if first is None or second is None:
            raise ValueError("Vision takes two tags")
        return (first, second)


ShuriOption = tuple[int | None, int | None, int | None]


class ShuriGrants(Rule[ShuriOption]):
    """Shuri and one other HERO or ALLY may each gain one of Strength, Range or Agility.

    Option: (Shuri's tag or None, the other card or None, its tag or None).
    """

    name = "shuri_grants"
    text = choice = True
    CHOICES = (STRENGTH, RANGE, AGILITY)
    gives = frozenset(CHOICES)
    gives_to = (SELF, OTHERS)

    def apply(self, s: State, pos: int, option: ShuriOption) -> None:
        own, other, tag = option
        if own is not None:
            s.add(pos, own)
        if other is not None and tag is not None and _alive(s, other):
            if s.hand[other].hero_or_ally:
                s.add(other, tag)

    def options(self, s: State, pos: int, useful: Useful = None) -> list[ShuriOption]:
        owns = [None] + [t for t in self.CHOICES if _useful(useful, s, pos, t)]
        others: list[tuple[int | None, int | None]] = [(None, None)]
        for j in s.alive:
            if j != pos and s.hand[j].hero_or_ally:
                others += [(j, t) for t in self.CHOICES if _useful(useful, s, j, t)]
        return [(own, j, t) for own in owns for j, t in others]

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[ShuriOption]:
        others: list[tuple[int | None, int | None]] = [(None, None)]
        others += [(j, t) for j in _heroes_allies(hand, pos) for t in self.CHOICES]
        return [(own, j, t) for own in (None, *self.CHOICES) for j, t in others]

    def default(self, hand: Hand, pos: int) -> ShuriOption:
        return (None, None, None)

    def describe(self, hand: Hand, pos: int, option: ShuriOption) -> str:
        own, other, tag = option
        parts = [f"Shuri gains {tag_label(own)}" if own is not None else "Shuri gains nothing"]
        if other is not None and tag is not None:
            parts.append(f"{_name(hand, other)} gains {tag_label(tag)}")
        else:
            parts.append("no other card gains a tag")
        return "; ".join(parts)

    def to_json(self, hand: Hand, pos: int, option: ShuriOption) -> ChoiceJson:
        own, other, tag = option
        return {
            "shuri": None if own is None else TAGS[own],
            "other": _id(hand, other),
            "tag": None if tag is None else TAGS[tag],
        }

    def from_json(self, where: Where, value: object) -> ShuriOption:
        return (
            _tag_of(_field(value, "shuri")),
            _where(where, _field(value, "other")),
            _tag_of(_field(value, "tag")),
        )


class XJet(Rule[int | None]):
    """X-Jet: every HERO and ALLY without Flight gains Flight; one HERO or ALLY gains Range.

    The Range is mandatory when a HERO or ALLY is there; the option names who gets it.
    """

    name = "xjet"
    text = choice = True
    gives = frozenset({FLIGHT, RANGE})
    gives_to = (SELF, OTHERS)  # X-Jet is EQUIPMENT: "self" never applies, but harmless
    looks_at = frozenset({FLIGHT})
    looks_on = OTHERS

    def apply(self, s: State, pos: int, option: int | None) -> None:
        for j in s.alive:
            if s.hand[j].hero_or_ally and not s.has(j, FLIGHT):
                s.add(j, FLIGHT)
        if option is not None and _alive(s, option) and s.hand[option].hero_or_ally:
            s.add(option, RANGE)

    def options(self, s: State, pos: int, useful: Useful = None) -> list[int | None]:
        targets = [j for j in s.alive if s.hand[j].hero_or_ally]
        if not targets:
            return [None]
        worth = {j: _worth(useful, s, j, RANGE) for j in targets}
        wanted: list[int | None] = [j for j in targets if worth[j] == USEFUL]
        rest = sorted((j for j in targets if j not in wanted), key=lambda j: -worth[j])
        return wanted + rest[:1]  # a Range that changes nothing (or costs least)

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[int | None]:
        targets: list[int | None] = [*_heroes_allies(hand, pos)]
        return targets or [None]

    def default(self, hand: Hand, pos: int) -> int | None:
        targets = _heroes_allies(hand, pos)
        return targets[0] if targets else None

    def describe(self, hand: Hand, pos: int, option: int | None) -> str:
        return f"X-Jet gives Range to {_name(hand, option)}"

    def to_json(self, hand: Hand, pos: int, option: int | None) -> ChoiceJson:
        return {"range": _id(hand, option)}

    def from_json(self, where: Where, value: object) -> int | None:
        return _where(where, _field(value, "range"))


class RogueCopy(Rule[Pair | None]):
    """Rogue may copy the base power of another HERO and one of that HERO's tags, as they are
    when she acts: both or nothing (rulings). Option: None, or (hero, tag)."""

    name = "rogue_copy"
    text = choice = True
    gives = ALL_TAGS
    gives_to = (SELF,)
    looks_at = ALL_TAGS
    looks_on = HEROES
    copies_power = True

    def apply(self, s: State, pos: int, option: Pair | None) -> None:
        if option is None:
            return
        hero, tag = option
        if not _alive(s, hero) or s.hand[hero].type != HERO or not s.has(hero, tag):
            return  # the package cannot be taken: nothing is copied
        s.powers[pos] = s.powers[hero]
        s.add(pos, tag)

    def options(self, s: State, pos: int, useful: Useful = None) -> list[Pair | None]:
        found: list[Pair | None] = [None]
        for j in s.alive:
            if j == pos or s.hand[j].type != HERO:
                continue
            row = s.tags[j]
            assert row is not None
            worth = {t: _worth(useful, s, pos, t) for t in range(len(TAGS)) if row[t]}
            wanted = [t for t, w in worth.items() if w == USEFUL]
            idle = [t for t, w in worth.items() if w == IDLE][:1]  # in effect, the power alone
            # without an idle tag the power comes with a harmful one (it may still pay)
            costly = [] if idle else [t for t, w in worth.items() if w == HARMFUL]
            found += [(j, t) for t in wanted + idle + costly]
        return found

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Pair | None]:
        tags = list(universe)
        return [None, *((j, t) for j in _heroes(hand, pos) for t in tags)]

    def describe(self, hand: Hand, pos: int, option: Pair | None) -> str:
        if option is None:
            return "Rogue copies nothing"
        hero, tag = option
        return f"Rogue copies {_name(hand, hero)}'s base power and its {tag_label(tag)} tag"

    def to_json(self, hand: Hand, pos: int, option: Pair | None) -> ChoiceJson:
        if option is None:
            return {"copy": None, "tag": None}
        return {"copy": _id(hand, option[0]), "tag": TAGS[option[1]]}

    def from_json(self, where: Where, value: object) -> Pair | None:
        hero = _where(where, _field(value, "copy"))
        if hero is None:
            return None
        tag = _tag_of(_field(value, "tag"))
        if tag is None:
            raise ValueError("Rogue copies a HERO's power and one of its tags, or nothing")
        return (hero, tag)


def _harm(worth: dict[int, int]) -> set[int]:
    return {t for t, w in worth.items() if w == HARMFUL}


def _mutant_heroes(s: State) -> list[int]:
    return [j for j in s.alive if s.is_mutant_hero(j)]


def _doubles(s: State, hero: int, useful: Useful) -> list[int]:
    """The tags of a Mutant HERO that one more instance of can still change something."""
    row = s.tags[hero]
    assert row is not None
    return [
        t
        for t in range(len(TAGS))
        if row[t] and (hero, t) not in s.doubled and _useful(useful, s, hero, t)
    ]


class MoiraDouble(Rule[Pair | None]):
    """Moira MacTaggert: one HERO with Mutant may count one of its tags twice. Option: None or
    (hero, tag)."""

    name = "moira_double"
    text = choice = True
    gives = ALL_TAGS
    gives_to = (HEROES,)
    looks_at = ALL_TAGS
    looks_on = HEROES
    doubles = True

    def apply(self, s: State, pos: int, option: Pair | None) -> None:
        if option is not None:
            s.double(*option)

    def options(self, s: State, pos: int, useful: Useful = None) -> list[Pair | None]:
        found: list[Pair | None] = [None]
        for j in _mutant_heroes(s):
            found += [(j, t) for t in _doubles(s, j, useful)]
        return found

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Pair | None]:
        tags = list(universe)
        return [None, *((j, t) for j in _heroes(hand, pos) for t in tags)]

    def describe(self, hand: Hand, pos: int, option: Pair | None) -> str:
        if option is None:
            return "Moira MacTaggert doubles nothing"
        return f"Moira MacTaggert doubles {_name(hand, option[0])}'s {tag_label(option[1])} tag"

    def to_json(self, hand: Hand, pos: int, option: Pair | None) -> ChoiceJson:
        if option is None:
            return {"hero": None, "tag": None}
        return {"hero": _id(hand, option[0]), "tag": TAGS[option[1]]}

    def from_json(self, where: Where, value: object) -> Pair | None:
        hero = _where(where, _field(value, "hero"))
        if hero is None:
            return None
        tag = _tag_of(_field(value, "tag"))
        if tag is None:
            raise ValueError("Moira MacTaggert doubles one tag of a HERO, or nothing")
        return (hero, tag)


class XavierDouble(Rule[tuple[Pair, ...]]):
    """Xavier Mansion: up to three HEROES with Mutant may each count one of their tags twice.

    Option: a tuple of up to three (hero, tag) pairs, each hero at most once.
    """

    name = "xavier_double"
    text = choice = True
    gives = ALL_TAGS
    gives_to = (HEROES,)
    looks_at = ALL_TAGS
    looks_on = HEROES
    doubles = True
    LIMIT = 3

    def apply(self, s: State, pos: int, option: tuple[Pair, ...]) -> None:
        for hero, tag in option:
            s.double(hero, tag)

    def options(self, s: State, pos: int, useful: Useful = None) -> list[tuple[Pair, ...]]:
        found: list[tuple[Pair, ...]] = [()]
        for j in _mutant_heroes(s):
            tags = _doubles(s, j, useful)
            found += [(*o, (j, t)) for o in found if len(o) < self.LIMIT for t in tags]
        return list(found)

    def abstract_options(
        self, hand: Hand, pos: int, universe: Iterable[int]
    ) -> list[tuple[Pair, ...]]:
        heroes = _heroes(hand, pos)
        tags = list(universe)
        found: list[tuple[Pair, ...]] = [()]
        for k in range(1, self.LIMIT + 1):
            for group in combinations(heroes, k):
                partial: list[tuple[Pair, ...]] = [()]
                for hero in group:
                    partial = [(*p, (hero, t)) for p in partial for t in tags]
                found += partial
        return found

    def default(self, hand: Hand, pos: int) -> tuple[Pair, ...]:
        return ()

    def describe(self, hand: Hand, pos: int, option: tuple[Pair, ...]) -> str:
        if not option:
            return "Xavier Mansion doubles nothing"
        parts = [f"{_name(hand, h)}'s {tag_label(t)}" for h, t in option]
        return "Xavier Mansion doubles " + ", ".join(parts)

    def to_json(self, hand: Hand, pos: int, option: tuple[Pair, ...]) -> ChoiceJson:
        return [{"hero": _id(hand, h), "tag": TAGS[t]} for h, t in option]

    def from_json(self, where: Where, value: object) -> tuple[Pair, ...]:
        if not isinstance(value, list):
            raise ValueError(f"Xavier Mansion doubles a list of HERO tags, not {value!r}")
        found = []
        for pair in value:
            hero = _where(where, _field(pair, "hero"))
            tag = _tag_of(_field(pair, "tag"))
            if hero is None or tag is None:
                raise ValueError("each tag Xavier Mansion doubles names a HERO and a tag")
            found.append((hero, tag))
        return tuple(found)


class HackIn(Rule[None]):
    """Hack In: each Tech tag also counts as an Intel tag (a counting rule: see state.counted)."""

    name = "hack_in"


class MagnetoIgnoresTech(Rule[None]):
    """Magneto: every Tech tag in the hand is ignored (a counting rule: see state.counted)."""

    name = "magneto_ignores_tech"


def _avoid_crossfire(s: State, pos: int, lines: list[str] | None) -> int:
    cards = 0
    for j in s.alive:
        if s.tags[j][RANGE]:  # type: ignore[index]
            cards += 1
    if cards == 0:
        return 0
    each = 5 if cards == 1 else 7 if cards == 2 else 9
    tags = s.counts[RANGE]
    if lines is not None and tags:
        lines.append(
            f"{signed(each * tags)}: {signed(each)} for each Range tag ({tags}), "
            f"as {cards} card{'s' if cards > 1 else ''} ha{'ve' if cards > 1 else 's'} Range"
        )
    return each * tags


def _avoid_crossfire_rise(s: State, pos: int, tag: int) -> int:
    if tag != RANGE:
        return 0
    return 9 * (s.counts[RANGE] + 1) - _avoid_crossfire(s, pos, None)  # at most +9 per tag


class AvoidCrossfire(Rule[None]):
    """+5/+7/+9 per Range tag when one/two/three or more cards have Range."""

    name = "avoid_crossfire"
    reads = (RANGE,)
    seen = (RANGE,)
    scorer = staticmethod(_avoid_crossfire)
    rise = staticmethod(_avoid_crossfire_rise)


def _kang(s: State, pos: int, lines: list[str] | None) -> int:
    kinds = [TAGS[t] for t, n in enumerate(s.counts) if n > 0]
    if lines is not None and kinds:
        lines.append(f"{signed(5 * len(kinds))}: +5 for each different tag ({', '.join(kinds)})")
    return 5 * len(kinds)


class Kang(Rule[None]):
    name = "kang"
    anywhere = tuple(range(len(TAGS)))
    scorer = staticmethod(_kang)
    rise = staticmethod(lambda s, pos, tag: 0 if s.counts[tag] else 5)  # a new kind of tag


def _loki(s: State, pos: int, lines: list[str] | None) -> int:
    drawn = s.loki_draw
    if drawn is None:
        if lines is not None:
            lines.append("Loki's draw is still owed: draw a REMIX card and subtract its base power")
        return 0
    power = drawn.base_power
    if lines is not None:
        lines.append(
            f"{signed(-power)}: Loki's draw {drawn.name} has base power {drawn.power_label}"
        )
    return -power


class LokiDraw(Rule[None]):
    """Loki: subtract the base power of a REMIX card drawn after the game ("*" counts 0)."""

    name = "loki_draw"
    scorer = staticmethod(_loki)
    rise = staticmethod(lambda s, pos, tag: 0)  # the draw is not in the search's value


@dataclass(frozen=True)
class ConditionRule:
    name: str
    text: str
    reads: tuple[int, ...]  # tags whose count matters
    seen: tuple[int, ...]  # tags where only which cards carry them matters

    def test(self, s: State, pos: int) -> bool:
        raise NotImplementedError


class ThreeCardsShareATag(ConditionRule):
    def test(self, s: State, pos: int) -> bool:
        counts = s.counts
        for t in range(len(TAGS)):
            if counts[t] < 3:
                continue  # each card that carries a tag holds an instance of it
            n = 0
            for j in s.alive:
                if s.tags[j][t]:  # type: ignore[index]
                    n += 1
            if n >= 3:
                return True
        return False


# Each rule has its own option type: the registry holds them all (Any: one of them).
EFFECT_RULES: dict[str, Rule[Any]] = {
    rule.name: rule
    for rule in (
        VisionTags(),
        ShuriGrants(),
        XJet(),
        RogueCopy(),
        MoiraDouble(),
        XavierDouble(),
        HackIn(),
        MagnetoIgnoresTech(),
        AvoidCrossfire(),
        Kang(),
        LokiDraw(),
    )
}

CONDITION_RULES: dict[str, ConditionRule] = {
    "three_cards_share_a_tag": ThreeCardsShareATag(
        "three_cards_share_a_tag", "three cards that share one tag", (), tuple(range(len(TAGS)))
    ),
}
