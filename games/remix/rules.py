"""Named rules: the card effects that the declarative vocabulary in cards.toml cannot say.

Each rule is registered by name (``EFFECT_RULES``, ``CONDITION_RULES``) and a card names it with
``{ rule = "name" }``. Tag rules run in the ruling's tag-settling order (``stage``): transforms (0),
Vision (1), Shuri (2), X-Jet (3), gains such as Spider-Man's (4), Rogue (5), Moira (6),
Xavier Mansion (7), Hack In (8), Magneto (9). Choice rules enumerate the owner's options; the
engine explores them all and keeps the best.

Options refer to cards by their position in the hand and to tags by index (see catalogue.TAGS).
An option whose target has been blanked, or lacks the tag it names, does nothing ("void").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from games.remix.names import (
    AGILITY,
    ALL_TAGS,
    FLIGHT,
    INTEL,
    MUTANT,
    RANGE,
    STRENGTH,
    TAG_INDEX,
    TAGS,
    TECH,
    signed,
    tag_label,
)
from games.remix.state import HandCard, Scorer, State

Hand = Sequence[HandCard]

# During the search, how much a tag can matter to the hand's score: not at all, only whether
# the hand has it (Kang), which cards carry it (Mystique, Avoid Crossfire), or also how many
# instances there are. ``None``: track everything exactly (explanations, brute force).
IGNORED, GLOBAL, PRESENCE, COUNTS = 0, 1, 2, 3
Relevant = tuple[int, ...] | None


def _double(s: State, pos: int, tag: int, relevant: Relevant) -> None:
    """Count one of a card's tags twice (Moira, Xavier Mansion).

    During the search a doubled tag only adds to the hand's count (it cannot change which cards
    carry the tag), unless the card's own count matters to it ("other" bonuses): that lets
    different heroes doubling the same tag collapse into one branch.
    """
    if relevant is not None and relevant[tag] < COUNTS:
        return
    if relevant is not None and tag not in s.hand[pos].own_reads:
        s.counts[tag] += 1
    else:
        s.add(pos, tag, relevant)


def _changes(s: State, pos: int, tag: int, relevant: Relevant) -> bool:
    """Whether giving ``tag`` to the card at ``pos`` can change the score (search only)."""
    if relevant is None:
        return True
    matter = relevant[tag]
    if matter == IGNORED:
        return False
    if matter == GLOBAL:
        return not s.counts[tag]
    if matter == PRESENCE:
        return not s.tags[pos][tag]  # type: ignore[index]
    return True


def _tag(name: str | None) -> int | None:
    return None if name is None else TAG_INDEX[name]


def _alive(s: State, pos: int | None) -> bool:
    return pos is not None and s.tags[pos] is not None


class Rule:
    """A named rule. Subclasses override what applies to them."""

    name = ""
    stage: int | None = None  # position in the tag-settling order; None: not a tag rule
    choice = False  # True: the owner chooses among options
    reads: tuple[int, ...] = ()  # tags whose count changes this card's points
    seen: tuple[int, ...] = ()  # tags where only which cards carry them matters
    anywhere: tuple[int, ...] = ()  # tags where only whether the hand has them matters
    scorer: Scorer | None = None
    may_grant: frozenset[int] = frozenset()  # tags an option can decide (sensitivity)
    gives: frozenset[int] = frozenset()  # tags it can add to a card (brute-force option lists)
    removes: frozenset[int] = frozenset()  # tags it can take away

    def apply(self, s: State, pos: int, option: Any, relevant: Relevant) -> None:
        """Apply this rule (with the chosen option, for a choice rule) to ``s``."""

    def readers(self, s: State, pos: int) -> set[int]:
        """The cards whose own tags this step reads or changes (the search keeps their identity
        until the last step that reads them)."""
        return {pos}

    def options(self, s: State, pos: int, relevant: Relevant) -> list[Any]:
        """The owner's options given the current state (choice rules)."""
        return [None]

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Any]:
        """Every option over the whole hand, before anything is blanked (brute force)."""
        return [None]

    def default(self, hand: Hand, pos: int) -> Any:
        return None

    def b_project(self, option: Any, btags: tuple[bool, ...]) -> Any:
        """The part of an option that can change a blanking condition reading ``btags``."""
        return None

    def commitments(
        self, hand: Hand, pos: int, universe: Iterable[int], btags: tuple[bool, ...]
    ) -> list[tuple[Any, Any]]:
        """The distinct ways this card's options can act on the blanking conditions: one
        (representative option, key) per group; ``key`` is what :meth:`b_project` returns."""
        groups: dict[Any, Any] = {}
        for option in self.abstract_options(hand, pos, universe):
            groups.setdefault(self.b_project(option, btags), option)
        return [(option, key) for key, option in groups.items()]

    def restricted(
        self, s: State, pos: int, relevant: Relevant, btags: tuple[bool, ...], key: Any
    ) -> list[Any]:
        """The options (given the state) that act on the blanking conditions as ``key`` did;
        when ``key`` named a card that is now blanked, what that option has become."""
        return [o for o in self.options(s, pos, relevant) if self.b_project(o, btags) == key]

    def combine(self, blank_option: Any, final_option: Any, btags: tuple[bool, ...]) -> Any:
        """One option that acts like ``blank_option`` during blanking and like
        ``final_option`` (found by :meth:`restricted`) on the cards left at the end."""
        return final_option

    def describe(self, hand: Hand, pos: int, option: Any) -> str:
        return ""

    def to_json(self, hand: Hand, pos: int, option: Any) -> Any:
        return option

    def from_json(self, where: dict[str, int], value: Any) -> Any:
        """The option that :meth:`to_json` described (``where`` maps card ids to positions)."""
        return value


def _heroes_allies(hand: Hand, pos: int) -> list[int]:
    return [j for j, c in enumerate(hand) if j != pos and c.hero_or_ally]


def _heroes(hand: Hand, pos: int) -> list[int]:
    return [j for j, c in enumerate(hand) if j != pos and c.type == "HERO"]


def _name(hand: Hand, pos: int | None) -> str:
    return "nobody" if pos is None else hand[pos].card.name


def _id(hand: Hand, pos: int | None) -> str | None:
    return None if pos is None else hand[pos].id


class VisionTags(Rule):
    """Vision: the owner's choice of two different tags among Strength, Flight, Tech, Range."""

    name = "vision_tags"
    stage = 1
    choice = True
    CHOICES = (STRENGTH, FLIGHT, TECH, RANGE)
    PAIRS = tuple(combinations(CHOICES, 2))
    may_grant = gives = frozenset(CHOICES)

    def apply(self, s: State, pos: int, option: Any, relevant: Relevant) -> None:
        for tag in option:
            s.add(pos, tag, relevant)

    def options(self, s: State, pos: int, relevant: Relevant) -> list[Any]:
        if relevant is None:
            return list(self.PAIRS)
        distinct: dict[tuple[int, ...], Any] = {}
        for pair in self.PAIRS:
            effect = tuple(t for t in pair if _changes(s, pos, t, relevant))
            distinct.setdefault(effect, pair)
        return list(distinct.values())

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Any]:
        return list(self.PAIRS)

    def default(self, hand: Hand, pos: int) -> Any:
        return self.PAIRS[0]

    def b_project(self, option: Any, btags: tuple[bool, ...]) -> Any:
        return tuple(t for t in option if btags[t])

    def describe(self, hand: Hand, pos: int, option: Any) -> str:
        return f"Vision takes {tag_label(option[0])} and {tag_label(option[1])}"

    def to_json(self, hand: Hand, pos: int, option: Any) -> Any:
        return {"tags": [TAGS[t] for t in option]}

    def from_json(self, where: dict[str, int], value: Any) -> Any:
        return tuple(TAG_INDEX[t] for t in value["tags"])


class ShuriGrants(Rule):
    """Shuri and one other HERO or ALLY may each gain one of Strength, Range or Agility.

    Option: (Shuri's tag or None, the other card or None, its tag or None).
    """

    name = "shuri_grants"
    stage = 2
    choice = True
    CHOICES = (STRENGTH, RANGE, AGILITY)
    may_grant = gives = frozenset(CHOICES)

    def apply(self, s: State, pos: int, option: Any, relevant: Relevant) -> None:
        own, other, tag = option
        if own is not None:
            s.add(pos, own, relevant)
        if other is not None and _alive(s, other) and s.hand[other].hero_or_ally:
            s.add(other, tag, relevant)

    def _build(self, targets: list[int]) -> list[Any]:
        others: list[tuple[int | None, int | None]] = [(None, None)]
        others += [(j, t) for j in targets for t in self.CHOICES]
        return [(own, j, t) for own in (None, *self.CHOICES) for j, t in others]

    def readers(self, s: State, pos: int) -> set[int]:
        return {j for j in s.alive if s.hand[j].hero_or_ally}

    def options(self, s: State, pos: int, relevant: Relevant) -> list[Any]:
        targets = [j for j in s.alive if j != pos and s.hand[j].hero_or_ally]
        if relevant is None:
            return self._build(targets)
        owns = [None] + [t for t in self.CHOICES if _changes(s, pos, t, relevant)]
        others: list[tuple[int | None, int | None]] = [(None, None)]
        others += [(j, t) for j in targets for t in self.CHOICES if _changes(s, j, t, relevant)]
        return [(own, j, t) for own in owns for j, t in others]

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Any]:
        return self._build(_heroes_allies(hand, pos))

    def default(self, hand: Hand, pos: int) -> Any:
        return (None, None, None)

    def b_project(self, option: Any, btags: tuple[bool, ...]) -> Any:
        own, other, tag = option
        return (
            own if own is not None and btags[own] else None,
            (other, tag) if tag is not None and btags[tag] else None,
        )

    def restricted(
        self, s: State, pos: int, relevant: Relevant, btags: tuple[bool, ...], key: Any
    ) -> list[Any]:
        if key[1] is not None and not _alive(s, key[1][0]):
            own_key = key[0]
            options = self.options(s, pos, relevant)
            return [o for o in options if o[1] is None and self.b_project(o, btags)[0] == own_key]
        return super().restricted(s, pos, relevant, btags, key)

    def combine(self, blank_option: Any, final_option: Any, btags: tuple[bool, ...]) -> Any:
        if final_option[1] is None and self.b_project(blank_option, btags)[1] is not None:
            return (final_option[0], blank_option[1], blank_option[2])
        return final_option

    def describe(self, hand: Hand, pos: int, option: Any) -> str:
        own, other, tag = option
        parts = [f"Shuri gains {tag_label(own)}" if own is not None else "Shuri gains nothing"]
        if other is not None:
            parts.append(f"{_name(hand, other)} gains {tag_label(tag)}")
        else:
            parts.append("no other card gains a tag")
        return "; ".join(parts)

    def to_json(self, hand: Hand, pos: int, option: Any) -> Any:
        own, other, tag = option
        return {
            "shuri": None if own is None else TAGS[own],
            "other": _id(hand, other),
            "tag": None if tag is None else TAGS[tag],
        }

    def from_json(self, where: dict[str, int], value: Any) -> Any:
        return (
            _tag(value["shuri"]),
            None if value["other"] is None else where[value["other"]],
            _tag(value["tag"]),
        )


class XJet(Rule):
    """X-Jet: every HERO and ALLY without Flight gains Flight; one HERO or ALLY gains Range.

    The Range is mandatory when a HERO or ALLY is there (extra Range never lowers a score).
    """

    name = "xjet"
    stage = 3
    choice = True
    may_grant = frozenset({RANGE})
    gives = frozenset({FLIGHT, RANGE})

    def apply(self, s: State, pos: int, option: Any, relevant: Relevant) -> None:
        for j in s.alive:
            if s.hand[j].hero_or_ally and s.tags[j][FLIGHT] == 0:  # type: ignore[index]
                s.add(j, FLIGHT, relevant)
        if option is not None and _alive(s, option) and s.hand[option].hero_or_ally:
            s.add(option, RANGE, relevant)

    def readers(self, s: State, pos: int) -> set[int]:
        return {j for j in s.alive if s.hand[j].hero_or_ally}

    def options(self, s: State, pos: int, relevant: Relevant) -> list[Any]:
        targets = [j for j in s.alive if s.hand[j].hero_or_ally]
        if relevant is not None and targets:
            useful = [j for j in targets if _changes(s, j, RANGE, relevant)]
            return useful or targets[:1]
        return targets or [None]

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Any]:
        return _heroes_allies(hand, pos) or [None]

    def default(self, hand: Hand, pos: int) -> Any:
        targets = _heroes_allies(hand, pos)
        return targets[0] if targets else None

    def b_project(self, option: Any, btags: tuple[bool, ...]) -> Any:
        return option if btags[RANGE] else None

    def describe(self, hand: Hand, pos: int, option: Any) -> str:
        return f"X-Jet gives Range to {_name(hand, option)}"

    def to_json(self, hand: Hand, pos: int, option: Any) -> Any:
        return {"range": _id(hand, option)}

    def from_json(self, where: dict[str, int], value: Any) -> Any:
        return None if value["range"] is None else where[value["range"]]


class RogueCopy(Rule):
    """Rogue may copy the base power of another HERO, and one of that HERO's tags.

    Option: None, or (hero, tag or None). Reading: the tag is optional too (assumption).
    """

    name = "rogue_copy"
    stage = 5
    choice = True
    may_grant = ALL_TAGS

    def apply(self, s: State, pos: int, option: Any, relevant: Relevant) -> None:
        if option is None:
            return
        hero, tag = option
        if not _alive(s, hero) or s.hand[hero].type != "HERO":
            return
        s.powers[pos] = s.powers[hero]
        if tag is not None and s.has(hero, tag):
            s.add(pos, tag, relevant)

    def readers(self, s: State, pos: int) -> set[int]:
        return {j for j in s.alive if s.hand[j].type == "HERO"}

    def options(self, s: State, pos: int, relevant: Relevant) -> list[Any]:
        found: list[Any] = [None]
        for j in s.alive:
            if j == pos or s.hand[j].type != "HERO":
                continue
            found.append((j, None))
            row = s.tags[j]
            found += [
                (j, t)
                for t in range(len(TAGS))
                if row[t] and _changes(s, pos, t, relevant)  # type: ignore[index]
            ]
        return found

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Any]:
        tags = [None, *universe]
        return [None] + [(j, t) for j in _heroes(hand, pos) for t in tags]

    def commitments(
        self, hand: Hand, pos: int, universe: Iterable[int], btags: tuple[bool, ...]
    ) -> list[tuple[Any, Any]]:
        tags = [t for t in universe if btags[t]]
        return [(None, None)] + [((j, t), (j, t)) for j in _heroes(hand, pos) for t in tags]

    def b_project(self, option: Any, btags: tuple[bool, ...]) -> Any:
        if option is None or option[1] is None or not btags[option[1]]:
            return None
        return option

    def restricted(
        self, s: State, pos: int, relevant: Relevant, btags: tuple[bool, ...], key: Any
    ) -> list[Any]:
        if key is None:
            return super().restricted(s, pos, relevant, btags, key)
        hero, tag = key
        if not _alive(s, hero):
            return [None]  # the copy named a blanked hero: it does nothing
        if not s.has(hero, tag):
            return [(hero, None)]  # the hero lacks the tag now: only the power is copied
        return [key]

    def combine(self, blank_option: Any, final_option: Any, btags: tuple[bool, ...]) -> Any:
        if self.b_project(blank_option, btags) is not None:
            if self.b_project(final_option, btags) is None:
                return blank_option  # it names a blanked hero or a tag the hero lost
        return final_option

    def describe(self, hand: Hand, pos: int, option: Any) -> str:
        if option is None:
            return "Rogue copies nothing"
        hero, tag = option
        text = f"Rogue copies {_name(hand, hero)}'s base power"
        if tag is not None:
            text += f" and its {tag_label(tag)} tag"
        return text

    def to_json(self, hand: Hand, pos: int, option: Any) -> Any:
        if option is None:
            return {"copy": None, "tag": None}
        return {"copy": _id(hand, option[0]), "tag": None if option[1] is None else TAGS[option[1]]}

    def from_json(self, where: dict[str, int], value: Any) -> Any:
        if value["copy"] is None:
            return None
        return (where[value["copy"]], _tag(value["tag"]))


def _mutant_heroes(s: State) -> list[int]:
    return [j for j in s.alive if s.hand[j].type == "HERO" and s.tags[j][MUTANT]]  # type: ignore[index]


def _double_key(s: State, hero: int, tag: int, relevant: Relevant) -> tuple[int, int] | None:
    """What doubling ``tag`` on ``hero`` changes, for telling options apart during the search."""
    if relevant is not None and relevant[tag] < COUNTS:
        return None
    if relevant is not None and tag not in s.hand[hero].own_reads:
        return (-1, tag)
    return (hero, tag)


class MoiraDouble(Rule):
    """Moira MacTaggert: one HERO with Mutant may count one of its tags twice. Option: None or
    (hero, tag)."""

    name = "moira_double"
    stage = 6
    choice = True
    may_grant = ALL_TAGS

    def apply(self, s: State, pos: int, option: Any, relevant: Relevant) -> None:
        if option is None:
            return
        hero, tag = option
        if _alive(s, hero) and s.hand[hero].type == "HERO" and s.has(hero, MUTANT):
            if s.has(hero, tag):
                _double(s, hero, tag, relevant)

    def readers(self, s: State, pos: int) -> set[int]:
        return set(_mutant_heroes(s))  # no choice can give a HERO its first Mutant tag

    def options(self, s: State, pos: int, relevant: Relevant) -> list[Any]:
        seen: dict[Any, Any] = {None: None}
        for j in _mutant_heroes(s):
            row = s.tags[j]
            for t in range(len(TAGS)):
                if row[t]:  # type: ignore[index]
                    seen.setdefault(_double_key(s, j, t, relevant), (j, t))
        return list(seen.values())

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Any]:
        return [None] + [(j, t) for j in _heroes(hand, pos) for t in universe]

    def commitments(
        self, hand: Hand, pos: int, universe: Iterable[int], btags: tuple[bool, ...]
    ) -> list[tuple[Any, Any]]:
        tags = [t for t in universe if btags[t]]
        return [(None, None)] + [((j, t), (j, t)) for j in _heroes(hand, pos) for t in tags]

    def b_project(self, option: Any, btags: tuple[bool, ...]) -> Any:
        if option is None or not btags[option[1]]:
            return None
        return option

    def restricted(
        self, s: State, pos: int, relevant: Relevant, btags: tuple[bool, ...], key: Any
    ) -> list[Any]:
        if key is None:
            return super().restricted(s, pos, relevant, btags, key)
        hero, tag = key
        if not (_alive(s, hero) and s.has(hero, MUTANT) and s.has(hero, tag)):
            return [None]
        # Options are merged by effect: any hero doubling this tag stands for this one.
        return [o for o in self.options(s, pos, relevant) if o is not None and o[1] == tag]

    def combine(self, blank_option: Any, final_option: Any, btags: tuple[bool, ...]) -> Any:
        if self.b_project(blank_option, btags) is not None:
            return blank_option  # same tag doubled: the hero named during blanking stands
        return final_option

    def describe(self, hand: Hand, pos: int, option: Any) -> str:
        if option is None:
            return "Moira MacTaggert doubles nothing"
        return f"Moira MacTaggert doubles {_name(hand, option[0])}'s {tag_label(option[1])} tag"

    def to_json(self, hand: Hand, pos: int, option: Any) -> Any:
        if option is None:
            return {"hero": None, "tag": None}
        return {"hero": _id(hand, option[0]), "tag": TAGS[option[1]]}

    def from_json(self, where: dict[str, int], value: Any) -> Any:
        if value["hero"] is None:
            return None
        return (where[value["hero"]], TAG_INDEX[value["tag"]])


class XavierDouble(Rule):
    """Xavier Mansion: up to three HEROES with Mutant may each count one of their tags twice.

    Option: a tuple of up to three (hero, tag) pairs, each hero at most once.
    """

    name = "xavier_double"
    stage = 7
    choice = True
    may_grant = ALL_TAGS
    LIMIT = 3

    def apply(self, s: State, pos: int, option: Any, relevant: Relevant) -> None:
        for hero, tag in option:
            if _alive(s, hero) and s.hand[hero].type == "HERO" and s.has(hero, MUTANT):
                if s.has(hero, tag):
                    _double(s, hero, tag, relevant)

    def readers(self, s: State, pos: int) -> set[int]:
        return set(_mutant_heroes(s))  # no choice can give a HERO its first Mutant tag

    def options(self, s: State, pos: int, relevant: Relevant) -> list[Any]:
        # Build the distinct outcomes hero by hero, so that equivalent choices (the same tag
        # doubled on different heroes) are explored once.
        layer: dict[tuple[Any, ...], tuple[Any, ...]] = {(): ()}
        for j in _mutant_heroes(s):
            row = s.tags[j]
            picks: dict[tuple[int, int], int] = {}
            for t in range(len(TAGS)):
                if row[t]:  # type: ignore[index]
                    key = _double_key(s, j, t, relevant)
                    if key is not None:
                        picks.setdefault(key, t)
            nxt = dict(layer)
            for key, option in layer.items():
                if len(option) >= self.LIMIT:
                    continue
                for pick_key, t in picks.items():
                    new_key = tuple(sorted((*key, pick_key)))
                    nxt.setdefault(new_key, (*option, (j, t)))
            layer = nxt
        return list(layer.values())

    def abstract_options(self, hand: Hand, pos: int, universe: Iterable[int]) -> list[Any]:
        heroes = _heroes(hand, pos)
        tags = list(universe)
        found: list[Any] = [()]
        for k in range(1, self.LIMIT + 1):
            for group in combinations(heroes, k):
                partial: list[tuple[Any, ...]] = [()]
                for hero in group:
                    partial = [(*p, (hero, t)) for p in partial for t in tags]
                found += partial
        return found

    def default(self, hand: Hand, pos: int) -> Any:
        return ()

    def commitments(
        self, hand: Hand, pos: int, universe: Iterable[int], btags: tuple[bool, ...]
    ) -> list[tuple[Any, Any]]:
        tags = [t for t in universe if btags[t]]
        return [(o, o) for o in self.abstract_options(hand, pos, tags)]

    def b_project(self, option: Any, btags: tuple[bool, ...]) -> Any:
        return tuple(pair for pair in option if btags[pair[1]])

    def restricted(
        self, s: State, pos: int, relevant: Relevant, btags: tuple[bool, ...], key: Any
    ) -> list[Any]:
        wanted = sorted(t for h, t in key if _alive(s, h) and s.has(h, MUTANT) and s.has(h, t))
        options = self.options(s, pos, relevant)
        return [o for o in options if sorted(t for _, t in o if btags[t]) == wanted]

    def combine(self, blank_option: Any, final_option: Any, btags: tuple[bool, ...]) -> Any:
        kept = [pair for pair in blank_option if btags[pair[1]]]
        heroes = {h for h, _ in kept}
        extra = [pair for pair in final_option if not btags[pair[1]] and pair[0] not in heroes]
        return tuple(kept + extra)[: self.LIMIT]

    def describe(self, hand: Hand, pos: int, option: Any) -> str:
        if not option:
            return "Xavier Mansion doubles nothing"
        parts = [f"{_name(hand, h)}'s {tag_label(t)}" for h, t in option]
        return "Xavier Mansion doubles " + ", ".join(parts)

    def to_json(self, hand: Hand, pos: int, option: Any) -> Any:
        return [{"hero": _id(hand, h), "tag": TAGS[t]} for h, t in option]

    def from_json(self, where: dict[str, int], value: Any) -> Any:
        return tuple((where[pair["hero"]], TAG_INDEX[pair["tag"]]) for pair in value)


class HackIn(Rule):
    """Hack In: each Tech tag also counts as an Intel tag (before Magneto ignores Tech)."""

    name = "hack_in"
    stage = 8
    reads = (TECH, INTEL)
    gives = frozenset({INTEL})

    def readers(self, s: State, pos: int) -> set[int]:
        return set(s.alive)

    def apply(self, s: State, pos: int, option: Any, relevant: Relevant) -> None:
        if relevant is not None and not relevant[INTEL]:
            return
        s.counts[INTEL] += s.counts[TECH]
        for j in s.alive:
            row = s.tags[j]
            if row is not None and row[TECH]:
                new = list(row)
                new[INTEL] += row[TECH]
                s.tags[j] = tuple(new)


class MagnetoIgnoresTech(Rule):
    """Magneto: every Tech tag in the hand is ignored (the last tag-settling step)."""

    name = "magneto_ignores_tech"
    stage = 9
    removes = frozenset({TECH})

    def readers(self, s: State, pos: int) -> set[int]:
        return set()  # it clears Tech from every card alike

    def apply(self, s: State, pos: int, option: Any, relevant: Relevant) -> None:
        s.counts[TECH] = 0
        for j in s.alive:
            row = s.tags[j]
            if row is not None and row[TECH]:
                new = list(row)
                new[TECH] = 0
                s.tags[j] = tuple(new)


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


class AvoidCrossfire(Rule):
    """+5/+7/+9 per Range tag when one/two/three or more cards have Range."""

    name = "avoid_crossfire"
    reads = (RANGE,)
    seen = (RANGE,)
    scorer = staticmethod(_avoid_crossfire)


def _kang(s: State, pos: int, lines: list[str] | None) -> int:
    kinds = [TAGS[t] for t, n in enumerate(s.counts) if n > 0]
    if lines is not None and kinds:
        lines.append(f"{signed(5 * len(kinds))}: +5 for each different tag ({', '.join(kinds)})")
    return 5 * len(kinds)


class Kang(Rule):
    name = "kang"
    anywhere = tuple(range(len(TAGS)))
    scorer = staticmethod(_kang)


def _loki(s: State, pos: int, lines: list[str] | None) -> int:
    drawn = s.loki_draw
    if drawn is None:
        if lines is not None:
            lines.append("Loki's draw is still owed: draw a REMIX card and subtract its base power")
        return 0
    power = drawn.base_power
    if lines is not None:
        lines.append(
            f"{signed(-power)}: Loki's draw {drawn.name} ({drawn.id}) has base power "
            f"{drawn.power_label}"
        )
    return -power


class LokiDraw(Rule):
    """Loki: subtract the base power of a REMIX card drawn after the game ("*" counts 0)."""

    name = "loki_draw"
    scorer = staticmethod(_loki)


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
        for t in range(len(TAGS)):
            n = 0
            for j in s.alive:
                if s.tags[j][t]:  # type: ignore[index]
                    n += 1
            if n >= 3:
                return True
        return False


EFFECT_RULES: dict[str, Rule] = {
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
