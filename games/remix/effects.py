"""Turning the catalogue's declarative effects into fast scoring functions.

Every condition compiles to ``fn(state, pos) -> bool`` plus a description and the set of tags it
reads; every scoring effect to ``fn(state, pos, lines) -> points`` (``lines`` is ``None`` during the
search and a list to fill when the hand is being explained). Cards whose effects do not fit the
vocabulary name a rule from :mod:`games.remix.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.remix.catalogue import Card, RemixError
from games.remix.names import (
    HERO_OR_ALLY,
    LOKI,
    NUMBER_WORDS,
    TAG_INDEX,
    TAGS,
    CardType,
    Level,
    signed,
    tag_label,
    type_label,
)
from games.remix.rules import CONDITION_RULES, EFFECT_RULES, Rule
from games.remix.state import Cond, Rise, Scorer, State, counted, tag_counts


@dataclass(slots=True)  # read in the search's loops
class CompiledCondition:
    test: Cond
    text: str
    reads: set[int] = field(default_factory=set)  # tags whose number of instances matters
    seen: set[int] = field(default_factory=set)  # tags where only which cards carry them matters
    typed: set[str] = field(default_factory=set)  # card types whose own tags it inspects
    own: set[int] = field(default_factory=set)  # tags whose count on the card itself it reads
    # tags whose count on the card itself never changes it (only the other cards' count does)
    others: set[int] = field(default_factory=set)
    # it reads no more than which HEROES carry which tags (and the cards in play), and never
    # stops holding when a HERO gains a tag
    heroes_only: bool = False


def compile_condition(cond: Mapping[str, Any], names: Mapping[str, str]) -> CompiledCondition:
    """``names`` maps card ids to names, for descriptions."""
    if "all" in cond or "any" in cond:
        is_all = "all" in cond
        parts = [compile_condition(p, names) for p in cond["all" if is_all else "any"]]
        tests = [p.test for p in parts]
        reads = set().union(*(p.reads for p in parts))
        seen = set().union(*(p.seen for p in parts))
        kinds = set().union(*(p.typed for p in parts))
        own = set().union(*(p.own for p in parts))
        # a tag only the other cards' count of matters in every part that reads it
        others = {t for t in own if all(t in p.others or t not in p.reads | p.seen for p in parts)}
        joiner = " and " if is_all else ", or "
        text = joiner.join(p.text for p in parts)
        if len(tests) == 2:  # the common case, unrolled: conditions run in the search's loop
            first, second = tests
            if is_all:
                test = lambda s, i: first(s, i) and second(s, i)  # noqa: E731
            else:
                test = lambda s, i: first(s, i) or second(s, i)  # noqa: E731
        elif is_all:
            test = lambda s, i: all(t(s, i) for t in tests)  # noqa: E731
        else:
            test = lambda s, i: any(t(s, i) for t in tests)  # noqa: E731
        heroes_only = all(p.heroes_only for p in parts)
        return CompiledCondition(test, text, reads, seen, kinds, own, others, heroes_only)
    if "card" in cond:
        wanted = tuple(cond["card"])

        def has_card(s: State, i: int) -> bool:
            for card_id in wanted:
                pos = s.ids.get(card_id)
                if pos is not None and pos != i:
                    return True
            return False

        return CompiledCondition(has_card, " or ".join(names[c] for c in wanted), heroes_only=True)
    if "type" in cond:
        return _type_condition(cond)
    if "tag" in cond:
        return _tag_condition(cond)
    rule = CONDITION_RULES[cond["rule"]]
    return CompiledCondition(rule.test, rule.text, set(rule.reads), set(rule.seen))


def _type_condition(cond: Mapping[str, Any]) -> CompiledCondition:
    """n cards of some types (with a tag, with printed power above N), this one excluded."""
    types = frozenset(cond["type"])
    tag = TAG_INDEX[cond["tag"]] if "tag" in cond else None
    above = cond.get("power_above")
    at_least = int(cond.get("at_least", 1))
    other = bool(cond.get("other", False))
    text = f"{'another' if other else 'a'} {type_label(cond['type'])}"
    if at_least > 1:
        text = f"{NUMBER_WORDS.get(at_least, at_least)} {'other ' if other else ''}"
        text += f"{type_label(cond['type'])} cards"
    if tag is not None:
        text += f" that has {tag_label(tag)}"
    if above is not None:
        text += f" of base power greater than {above}"
    if tag is None and above is None:

        def type_count(s: State, i: int) -> bool:
            n = 0
            for t in types:  # a loop, not sum(): this runs for most cards of every hand
                n += s.types.get(t, 0)
            if other and s.hand[i].type in types:
                n -= 1
            return n >= at_least

        return CompiledCondition(type_count, text, heroes_only=True)

    def typed_count(s: State, i: int) -> bool:
        n = 0
        for j in s.alive:
            if j == i and other:
                continue
            card = s.hand[j]
            if card.type not in types:
                continue
            if tag is not None and s.tags[j][tag] == 0:  # type: ignore[index]
                continue
            if above is not None and card.card.base_power <= above:
                continue
            n += 1
            if n >= at_least:
                return True  # enough found: the rest cannot change the answer
        return n >= at_least

    kinds = set(types) if tag is not None else set()
    tags = {tag} if tag is not None else set()
    heroes_only = tag is None or types <= {CardType.HERO}  # (types and printed power: fixed)
    return CompiledCondition(typed_count, text, set(), tags, kinds, heroes_only=heroes_only)


def _tag_condition(cond: Mapping[str, Any]) -> CompiledCondition:
    """n instances of a tag in the hand (others' only, with ``other``)."""
    tag = TAG_INDEX[cond["tag"]]
    at_least = int(cond.get("at_least", 1))
    other = bool(cond.get("other", False))
    word = NUMBER_WORDS.get(at_least, str(at_least))
    plural = "s" if at_least > 1 else ""
    text = f"{word} {'other ' if other else ''}{tag_label(tag)} tag{plural}"
    if other:

        def other_tags(s: State, i: int) -> bool:
            own = s.tags[i]
            return s.counts[tag] - (own[tag] if own else 0) >= at_least

        return CompiledCondition(other_tags, text, {tag}, own={tag}, others={tag})
    return CompiledCondition(lambda s, i: s.counts[tag] >= at_least, text, {tag})


def _linear_rise(tags: set[int], points: int) -> Rise:
    """The rise of a scorer worth ``points`` per instance (or pair) of ``tags``."""
    gain = max(points, 0)
    return lambda s, i, tag: gain if tag in tags else 0


def _pair_rise(effect: Mapping[str, Any]) -> Rise:
    """The rise of a scorer worth ``points`` per pair of one tag and one other: however many of
    both are added, the pairs grow by at most how many of the scarcer one are added (with ``a``
    no more than ``b``: min(a + da, b + db) - a <= da), so only that one rises (``a`` on a
    tie)."""
    a, b = (TAG_INDEX[t] for t in effect["per_pair"])
    gain = max(int(effect["points"]), 0)

    def rise(s: State, i: int, tag: int) -> int:
        if tag == a:
            return gain if s.counts[a] <= s.counts[b] else 0
        if tag == b:
            return gain if s.counts[b] < s.counts[a] else 0
        return 0

    return rise


def _counted_line(said: dict[int, str], points: int, text: str, n: int) -> str:
    """The line of a scorer worth ``points`` per one of ``n`` (each count's line is kept in
    ``said``: a card's lines repeat from hand to hand)."""
    line = said.get(n)
    if line is None:
        line = said[n] = f"{signed(points * n)}: {text} ({n})"
    return line


def _per_tag(effect: Mapping[str, Any]) -> tuple[Scorer, set[int], set[int]]:
    tags = [TAG_INDEX[t] for t in effect["per_tag"]]
    points = int(effect["points"])
    other = bool(effect.get("other", False))
    label = ", ".join(tag_label(t) for t in tags)
    text = f"{signed(points)} for each {'other ' if other else ''}{label} tag"

    def score(s: State, i: int, lines: list[str] | None) -> int:
        counts = s.counts
        n = 0
        for t in tags:
            n += counts[t]
        if other:
            own = s.tags[i]
            for t in tags:
                n -= own[t]  # type: ignore[index]
        if lines is not None and n:
            lines.append(_counted_line(said, points, text, n))
        return points * n

    said: dict[int, str] = {}  # the line for each count, written once
    return score, set(tags), set(tags) if other else set()


def _per_type(effect: Mapping[str, Any]) -> Scorer:
    types = tuple(effect["per_type"])
    points = int(effect["points"])
    other = bool(effect.get("other", False))
    except_one = bool(effect.get("except_one", False))
    label = type_label(list(types))
    text = f"{signed(points)} for each {'other ' if other or except_one else ''}{label}"
    if except_one:
        text += " (one chosen card excepted)"

    def score(s: State, i: int, lines: list[str] | None) -> int:
        n = 0
        for t in types:
            n += s.types.get(t, 0)
        if other and s.hand[i].type in types:
            n -= 1
        if except_one and n > 0:
            n -= 1
        if lines is not None and n:
            lines.append(_counted_line(said, points, text, n))
        return points * n

    said: dict[int, str] = {}  # the line for each count, written once
    return score


def _per_pair(effect: Mapping[str, Any]) -> tuple[Scorer, set[int]]:
    a, b = (TAG_INDEX[t] for t in effect["per_pair"])
    points = int(effect["points"])
    text = f"{signed(points)} for each pair of one {tag_label(a)} and one {tag_label(b)} tag"

    def score(s: State, i: int, lines: list[str] | None) -> int:
        n = min(s.counts[a], s.counts[b])
        if lines is not None and n:
            lines.append(_counted_line(said, points, text, n))
        return points * n

    said: dict[int, str] = {}  # the line for each count, written once
    return score, {a, b}


def _condition_rise(effect: Mapping[str, Any], cond: CompiledCondition) -> Rise:
    """A bonus (or a penalty's "unless") that does not hold yet may come to hold: its rise is
    the whole bonus (the penalty avoided) when the tag is one its condition reads."""
    points = int(effect["bonus"]) if "bonus" in effect else -int(effect["penalty"])
    gain = max(points, 0)
    tags = cond.reads | cond.seen
    test = cond.test
    return lambda s, i, tag: gain if tag in tags and not test(s, i) else 0


def _bonus(effect: Mapping[str, Any], cond: CompiledCondition) -> Scorer:
    points = int(effect["bonus"])
    test = cond.test
    line = f"{signed(points)}: {signed(points)} with {cond.text}"

    def score(s: State, i: int, lines: list[str] | None) -> int:
        if test(s, i):
            if lines is not None:
                lines.append(line)
            return points
        return 0

    return score


def _penalty(effect: Mapping[str, Any], cond: CompiledCondition) -> Scorer:
    points = int(effect["penalty"])
    test = cond.test
    avoided = f"0: avoids {signed(points)} (the hand has {cond.text})"
    paid = f"{signed(points)}: {signed(points)} unless the hand has {cond.text}"

    def score(s: State, i: int, lines: list[str] | None) -> int:
        if test(s, i):
            if lines is not None:
                lines.append(avoided)
            return 0
        if lines is not None:
            lines.append(paid)
        return points

    return score


@dataclass(slots=True)  # read in the search's loops
class SelfBlank:
    unless: bool  # True: "blanked unless COND"; False: "blanked if COND"
    cond: CompiledCondition
    text: str = field(init=False)  # the reason it gives when it blanks itself

    def __post_init__(self) -> None:
        how = "unless with" if self.unless else "if the hand has"
        self.text = f"blanked {how} {self.cond.text}"

    def blanks_itself(self, s: State, pos: int) -> bool:
        return self.cond.test(s, pos) != self.unless


@dataclass(slots=True)  # read in the search's loops
class BlankOthers:
    types: frozenset[str]
    one: bool  # one target of the owner's choice, or every card of the types
    unless: CompiledCondition | None
    subtract_power: bool
    why: str = ""  # the reason a card it blanks gives ("blanked by Selene")

    def targets(self, s: State, pos: int) -> list[int]:
        if self.unless is not None and self.unless.test(s, pos):
            return []
        return [j for j in s.alive if j != pos and s.hand[j].type in self.types]


@dataclass(slots=True)  # read in the search's loops
class Gain:
    tags: tuple[int, ...]
    cond: CompiledCondition


@dataclass(slots=True)  # read in the search's loops
class CompiledCard:
    """A catalogue card prepared for fast scoring."""

    card: Card
    id: str
    type: str
    printed: tuple[int, ...]
    power: int
    side: tuple[int, ...] | None = None
    side_power: int = 0
    transform: CompiledCondition | None = None
    scorers: list[Scorer] = field(default_factory=list)  # in the order they explain
    # the same scorers split by what they read: the tags and powers as they stand (``tag_scorers``),
    # or only which cards are in play (``fixed_scorers``: the same for every state of a mask)
    tag_scorers: list[Scorer] = field(default_factory=list)
    fixed_scorers: list[Scorer] = field(default_factory=list)
    # for each of ``tag_scorers``, its rise (see state.Rise): None when it cannot be bounded
    rises: list[Rise | None] = field(default_factory=list)
    # for each of ``rises``: a condition's (a bonus or penalty): however many tags are added,
    # it rises once at most (it asks for "at least" so much: once it holds, it holds)
    once: list[bool] = field(default_factory=list)
    self_blank: SelfBlank | None = None
    blank_others: BlankOthers | None = None
    gains: list[Gain] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)  # named rules
    reads: set[int] = field(default_factory=set)  # tags whose count can change its points
    seen: set[int] = field(default_factory=set)  # tags where only which cards carry them matters
    anywhere: set[int] = field(default_factory=set)  # tags where only the hand having them matters
    typed: set[str] = field(default_factory=set)  # types whose cards' own tags its points read
    own_reads: set[int] = field(default_factory=set)  # tags where its own count is excluded
    # tags whose count on this very card any of its texts reads (scoring, gains, blanking,
    # transform): where one more instance on it differs from one more on another card
    own_row: set[int] = field(default_factory=set)
    blank_reads: set[int] = field(default_factory=set)  # tags its blanking condition reads
    # the conditions of its bonuses and penalties that read the tags (see analysis.settled)
    tag_conditions: list[CompiledCondition] = field(default_factory=list)

    printed_pairs: tuple[tuple[int, int], ...] = ()  # (tag, count) of the printed tags
    printed_names: tuple[str, ...] = ()  # the printed tags by name, each as often as printed
    # the printed tags as they count (state.counted), by way: 0 plain, 1 with Magneto in play,
    # 2 with Hack In and no Magneto; and the same as (tag, count) pairs
    counted_rows: tuple[tuple[int, ...], ...] = ()
    counted_pairs: tuple[tuple[tuple[int, int], ...], ...] = ()
    levels: tuple[tuple[int, Level], ...] = ()  # (tag, how much it matters) for the search
    tag_text: Rule | None = None  # its tag-changing text (a named rule), if it has one
    hack_in: bool = False  # each Tech tag also counts as an Intel tag
    magneto: bool = False  # every Tech tag is ignored
    # set once compiled (read in the search's loops, so plain attributes)
    hero_or_ally: bool = False
    has_text: bool = False  # a tag-changing text acting in the owner's order (named, or gains)
    is_blanker: bool = False
    # none of the above, no transform, no counting rule, not Loki: a hand's setup skips it
    plain: bool = False


def compile_card(card: Card, names: Mapping[str, str]) -> CompiledCard:
    out = CompiledCard(
        card=card,
        id=card.id,
        type=card.type,
        printed=tag_counts(card.tags),
        power=card.base_power,
    )
    if card.transform is not None:
        out.side = tag_counts(card.transform.tags)
        out.side_power = card.transform.power
        out.transform = compile_condition(card.transform.when, names)
    for effect in card.effects:
        if "per_tag" in effect:
            scorer, reads, own = _per_tag(effect)
            out.scorers.append(scorer)
            out.tag_scorers.append(scorer)
            out.rises.append(_linear_rise(reads, int(effect["points"])))
            out.once.append(False)
            out.reads |= reads
            out.own_reads |= own
        elif "per_type" in effect:
            out.scorers.append(_per_type(effect))
            out.fixed_scorers.append(out.scorers[-1])
        elif "per_pair" in effect:
            scorer, reads = _per_pair(effect)
            out.scorers.append(scorer)
            out.tag_scorers.append(scorer)
            out.rises.append(_pair_rise(effect))
            out.once.append(False)
            out.reads |= reads
        elif "bonus" in effect:
            cond = compile_condition(effect["when"], names)
            _add_conditional(out, _bonus(effect, cond), cond, _condition_rise(effect, cond))
        elif "penalty" in effect:
            cond = compile_condition(effect["unless"], names)
            _add_conditional(out, _penalty(effect, cond), cond, _condition_rise(effect, cond))
        elif "blanked_unless" in effect or "blanked_if" in effect:
            unless = "blanked_unless" in effect
            cond = compile_condition(effect["blanked_unless" if unless else "blanked_if"], names)
            out.self_blank = SelfBlank(unless, cond)
            out.blank_reads |= cond.reads | cond.seen
        elif "blanks" in effect:
            unless_cond = compile_condition(effect["unless"], names) if "unless" in effect else None
            out.blank_others = BlankOthers(
                types=frozenset(effect["blanks"]),
                one=effect["target"] == "one",
                unless=unless_cond,
                subtract_power=bool(effect.get("subtract_power", False)),
                why=f"blanked by {card.name}",
            )
            if unless_cond is not None:
                out.blank_reads |= unless_cond.reads | unless_cond.seen
        elif "gains" in effect:
            cond = compile_condition(effect["when"], names)
            out.gains.append(Gain(tuple(TAG_INDEX[t] for t in effect["gains"]), cond))
            out.reads |= cond.reads
            out.seen |= cond.seen
            out.typed |= cond.typed
        elif "rule" in effect:
            rule = EFFECT_RULES[effect["rule"]]
            out.rules.append(rule)
            out.reads |= set(rule.reads)
            out.seen |= set(rule.seen)
            out.anywhere |= set(rule.anywhere)
            if rule.scorer is not None:
                out.scorers.append(rule.scorer)
                out.tag_scorers.append(rule.scorer)  # a named rule may read anything
                out.rises.append(rule.rise)
                out.once.append(False)
            if rule.text:
                if out.tag_text is not None:
                    raise RemixError(f"card {card.id}: a card has at most one tag-changing text")
                out.tag_text = rule
            out.hack_in = out.hack_in or rule.name == "hack_in"
            out.magneto = out.magneto or rule.name == "magneto_ignores_tech"
    if out.tag_text is not None and out.gains:
        raise RemixError(f"card {card.id}: a card has at most one tag-changing text")
    _derive_facts(out)
    return out


def _derive_facts(out: CompiledCard) -> None:
    """What the search reads of a compiled card, worked out from its effects once."""
    conditions = [c for c in (out.transform, *(g.cond for g in out.gains)) if c is not None]
    if out.self_blank is not None:
        conditions.append(out.self_blank.cond)
    if out.blank_others is not None and out.blank_others.unless is not None:
        conditions.append(out.blank_others.unless)
    out.own_row |= set(out.own_reads).union(*(c.own for c in conditions))
    out.hero_or_ally = out.type in HERO_OR_ALLY
    out.has_text = out.tag_text is not None or bool(out.gains)
    out.is_blanker = out.self_blank is not None or out.blank_others is not None
    out.plain = not (
        out.is_blanker
        or out.has_text
        or out.transform is not None
        or out.magneto
        or out.hack_in
        or out.id == LOKI  # the hand notes where he is
    )
    out.printed_pairs = tuple((t, k) for t, k in enumerate(out.printed) if k)
    out.printed_names = tag_names(out.printed)
    out.counted_rows = tuple(
        counted(out.printed, magneto, hack_in)
        for magneto, hack_in in ((False, False), (True, False), (False, True))
    )
    out.counted_pairs = tuple(
        tuple((t, k) for t, k in enumerate(row) if k) for row in out.counted_rows
    )
    out.levels = _levels(out)


def tag_names(row: tuple[int, ...]) -> tuple[str, ...]:
    """A row of tag counts by name, each tag as many times as counted (as a result shows it)."""
    return tuple(TAGS[t] for t, n in enumerate(row) for _ in range(n))


def _add_conditional(
    out: CompiledCard, scorer: Scorer, cond: CompiledCondition, rise: Rise
) -> None:
    """Add a bonus or penalty, filed by what its condition reads: a condition on tags (their
    count, or which cards carry them) reads the state; one on cards, types or printed power
    only which cards are in play."""
    out.scorers.append(scorer)
    if cond.reads or cond.seen or cond.typed:
        out.tag_scorers.append(scorer)
        out.rises.append(rise)
        out.once.append(True)
        out.tag_conditions.append(cond)
    else:
        out.fixed_scorers.append(scorer)
    out.reads |= cond.reads
    out.seen |= cond.seen
    out.typed |= cond.typed
    out.own_row |= cond.own


def _levels(out: CompiledCard) -> tuple[tuple[int, Level], ...]:
    """(tag, how much it matters) for every tag the card's effects read."""
    levels: dict[int, Level] = {}
    for tags, level in (
        (out.anywhere, Level.GLOBAL),
        (out.seen, Level.PRESENCE),
        (out.reads, Level.COUNTS),
    ):
        for t in tags:
            levels[t] = max(levels.get(t, Level.IGNORED), level)
    return tuple(sorted(levels.items()))
