"""The Marvel: Remix scoring engine: settle tags, blank, score, and find the owner's best choices.

How a hand is scored (rulebook + /shared/rulings.md):

1. Blanking texts (Selene, Juggernaut, Hidden Lair, Magneto, Taskmaster, and the cards that blank
   themselves) are activated one at a time in an order the owner chooses; a card blanked before
   its turn never acts. Each text looks at the hand as it stands when it acts.
2. Tags are settled on the cards that are not blanked, in the ruling's order: transforms, Vision,
   Shuri, X-Jet, Spider-Man, Rogue, Moira, Xavier Mansion, Hack In, Magneto.
3. Base power and every bonus and penalty are added; a hand without a non-blanked HERO or ALLY
   and a non-blanked VILLAIN scores 0.

The search explores every owner choice and every blanking order, pruning only what cannot change
the score: tag choices are compared on the tags some card in the hand actually reads, equivalent
branches are merged, and blanking orders are explored as states rather than permutations.
``brute_force_best`` does none of that and exists to prove the pruning safe.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations, product
from typing import Any

from games.remix.catalogue import Card, Catalogue, RemixError, default_catalogue
from games.remix.effects import CompiledCard, compile_card
from games.remix.names import INTEL, TAGS, TECH
from games.remix.rules import COUNTS, Rule
from games.remix.state import NO_TAGS, State

MAX_HAND = 10
NORMAL_HAND = 7
GAINS_STAGE = 4


class ImpossibleHandError(RemixError):
    """The hand cannot exist (duplicates, too many cards, a Loki draw from the hand...)."""


@lru_cache(maxsize=4)
def _compiled(catalogue: Catalogue) -> dict[str, CompiledCard]:
    names = {card.id: card.name for card in catalogue}
    return {card.id: compile_card(card, names) for card in catalogue}


@dataclass
class Choices:
    """Everything the owner decides: an option per choice card (by hand position) and the
    blanking script, a sequence of (blanking card position, its target position or None)."""

    options: dict[int, Any] = field(default_factory=dict)
    blanking: tuple[tuple[int, int | None], ...] = ()


@dataclass
class Outcome:
    """How the blanking went: which cards ended blanked, Selene's subtraction, and why."""

    blanked: int  # bit mask of hand positions
    selene: tuple[int, int] | None  # (Selene's position, the card she blanked)
    script: tuple[tuple[int, int | None], ...]
    reasons: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class BlankAct:
    """One thing a blanking text can do: the cards it blanks (a bit mask), the target it chose
    (for the script), why each one is blanked, and whether Selene subtracts the target's power."""

    hit: int
    target: int | None
    reasons: dict[int, str]
    selene: bool


class PreparedHand:
    """A hand ready for scoring: compiled cards plus everything computed once per hand."""

    def __init__(self, cards: Sequence[Card], loki_draw: Card | None, catalogue: Catalogue):
        compiled = _compiled(catalogue)
        self.cards = list(cards)
        self.hand: list[CompiledCard] = [compiled[c.id] for c in cards]
        self.n = len(self.hand)
        self.full = (1 << self.n) - 1
        self.loki_draw = loki_draw
        self.blankers = [i for i, c in enumerate(self.hand) if c.is_blanker]
        self.choosers = [
            (rule, i) for i, c in enumerate(self.hand) for rule in c.rules if rule.choice
        ]
        self.transformers = [i for i, c in enumerate(self.hand) if c.transform is not None]
        self.relevant = self._relevant_tags()
        self.btags = self._blank_tags()
        self.sensitive = [
            (rule, i) for rule, i in self.choosers if any(self.btags[t] for t in rule.may_grant)
        ]
        if self.sensitive:  # the tags the blanking reads must be tracked exactly
            self.relevant = tuple(
                COUNTS if self.btags[t] else level for t, level in enumerate(self.relevant)
            )
        # Which blanking texts read a tag that settling can change (Hidden Lair's Intel, a
        # HERO's Agility...): only those need the settled tags; the rest read printed tags.
        changeable: set[int] = set()
        for c in self.hand:
            for rule in c.rules:
                if rule.stage is not None:
                    changeable |= rule.gives | rule.removes | rule.may_grant
            for gain in c.gains:
                changeable |= set(gain.tags)
        self.settled_blank = [bool(c.blank_reads & changeable) for c in self.hand]
        self.best_value = 0  # the total the last search found (before Loki's owed draw)
        self._base: dict[int, State] = {}
        self._settled: dict[tuple[int, Any], State] = {}
        self._stages: dict[int, list[tuple[int, int, Rule | None]]] = {}

    # --------------------------------------------------------------- what can matter
    def _relevant_tags(self) -> tuple[int, ...]:
        """Per tag: COUNTS if some card reads how many there are, PRESENCE if some card only
        reads which cards carry it, GLOBAL if only whether the hand has it, IGNORED otherwise."""
        levels = [0] * len(TAGS)
        hack_in = False
        for c in self.hand:
            for t, level in c.levels:
                if level > levels[t]:
                    levels[t] = level
            hack_in = hack_in or c.hack_in
        if hack_in and levels[INTEL] > levels[TECH]:
            levels[TECH] = levels[INTEL]  # each Tech tag also counts as an Intel tag
        return tuple(levels)

    def _blank_tags(self) -> tuple[bool, ...]:
        reads: set[int] = set()
        for c in self.hand:
            reads |= c.blank_reads
        if INTEL in reads and any(c.hack_in for c in self.hand):
            reads.add(TECH)
        return tuple(t in reads for t in range(len(TAGS)))

    def universe(self) -> list[int]:
        """Every tag that can appear in this hand (for the brute-force option lists)."""
        tags: set[int] = set()
        for c in self.hand:
            tags |= {t for t in range(len(TAGS)) if c.printed[t] or (c.side and c.side[t])}
            for rule in c.rules:
                tags |= rule.gives
            for gain in c.gains:
                tags |= set(gain.tags)
        return sorted(tags)

    # --------------------------------------------------------------- tag settling
    def base_state(self, mask: int) -> State:
        """Printed tags of the cards in ``mask``, with transforms applied."""
        found = self._base.get(mask)
        if found is not None:
            return found
        hand = self.hand
        alive = tuple(i for i in range(self.n) if mask >> i & 1)
        types: dict[str, int] = {}
        ids: dict[str, int] = {}
        tags: list[tuple[int, ...] | None] = [None] * self.n
        counts = [0] * len(TAGS)
        for i in alive:
            c = hand[i]
            types[c.type] = types.get(c.type, 0) + 1
            ids[c.id] = i
            tags[i] = c.printed
            for t, k in c.printed_pairs:
                counts[t] += k
        powers = [c.power for c in hand]
        printed = State(hand, alive, tags, powers, counts, types, ids, (False,) * self.n)
        flips = []
        for i in self.transformers:
            when = hand[i].transform
            if mask >> i & 1 and when is not None and when.test(printed, i):
                flips.append(i)
        if flips:
            tags = list(tags)
            counts = list(counts)
            powers = list(powers)
            transformed = [False] * self.n
            for i in flips:
                c = hand[i]
                side = c.side or NO_TAGS
                for t in range(len(TAGS)):
                    counts[t] += side[t] - c.printed[t]
                tags[i] = side
                powers[i] = c.side_power
                transformed[i] = True
            state = State(hand, alive, tags, powers, counts, types, ids, tuple(transformed))
        else:
            state = printed
        state.loki_draw = self.loki_draw
        self._base[mask] = state
        return state

    def stages(self, mask: int) -> list[tuple[int, int, Rule | None]]:
        """The tag-settling steps for the cards in ``mask``: (stage, position, rule or None for
        a declarative gain), in the ruling's order."""
        found = self._stages.get(mask)
        if found is None:
            found = []
            for i, c in enumerate(self.hand):
                if not mask >> i & 1:
                    continue
                for rule in c.rules:
                    if rule.stage is not None:
                        found.append((rule.stage, i, rule))
                if c.gains:
                    found.append((GAINS_STAGE, i, None))
            found.sort(key=lambda step: (step[0], step[1]))
            self._stages[mask] = found
        return found

    def apply_gains(self, s: State, pos: int, relevant: tuple[int, ...] | None) -> None:
        for gain in self.hand[pos].gains:
            if gain.cond.test(s, pos):
                for t in gain.tags:
                    s.add(pos, t, relevant)

    def settle(self, mask: int, options: dict[int, Any]) -> State:
        """Fully settled tags (nothing projected away) for a fixed set of choices."""
        s = self.base_state(mask).copy()
        for _, pos, rule in self.stages(mask):
            if rule is None:
                self.apply_gains(s, pos, None)
            elif rule.choice:
                option = options[pos] if pos in options else rule.default(self.hand, pos)
                rule.apply(s, pos, option, None)
            else:
                rule.apply(s, pos, None, None)
        return s

    # --------------------------------------------------------------- scoring
    def valid(self, s: State) -> bool:
        types = s.types
        return bool(types.get("VILLAIN")) and bool(types.get("HERO") or types.get("ALLY"))

    def points(self, s: State) -> int:
        total = 0
        powers = s.powers
        hand = self.hand
        for i in s.alive:
            total += powers[i]
            for scorer in hand[i].scorers:
                total += scorer(s, i, None)
        return total

    def selene_penalty(self, outcome: Outcome) -> int:
        if outcome.selene is None:
            return 0
        selene, target = outcome.selene
        if outcome.blanked >> selene & 1:
            return 0  # a blanked Selene scores nothing, her subtraction included
        return self.hand[target].power

    # --------------------------------------------------------------- blanking
    def blank_acts(self, b: int, s: State) -> list[BlankAct]:
        """What the blanking text of the card at ``b`` can do, the hand standing as ``s``: one
        act per choice of target (none, or a single "blanks nothing" act, when it has none)."""
        card = self.hand[b]
        if card.self_blank is not None and card.self_blank.blanks_itself(s, b):
            return [BlankAct(1 << b, None, {b: card.self_blank.text}, False)]
        other = card.blank_others
        targets = [] if other is None else other.targets(s, b)
        if other is None or not targets:
            return [BlankAct(0, None, {}, False)]
        why = f"blanked by {card.card.name}"
        if other.one:
            return [BlankAct(1 << t, t, {t: why}, other.subtract_power) for t in targets]
        hit = 0
        for t in targets:
            hit |= 1 << t
        return [BlankAct(hit, None, dict.fromkeys(targets, why), False)]

    def blank_view(self, b: int, blanked: int, options: dict[int, Any], exact: bool) -> State:
        """The hand as the blanking text of ``b`` sees it: the cards not yet blanked, with their
        settled tags when its condition reads a tag that settling can change (always, when
        ``exact``: brute force)."""
        mask = self.full & ~blanked
        if not self.settled_blank[b] and not exact:
            return self.base_state(mask)
        if exact:
            return self.settle(mask, options)
        key = (blanked, tuple(sorted(options.items())))
        s = self._settled.get(key)
        if s is None:
            s = self._settled[key] = self.settle(mask, options)
        return s

    def blank_outcomes(self, options: dict[int, Any], every_order: bool = False) -> list[Outcome]:
        """Every distinct way the blanking texts can end, over every order and target.

        With ``every_order`` each permutation is walked separately (brute force)."""
        if not self.blankers:
            return [Outcome(0, None, ())]
        found: dict[tuple[int, Any], Outcome] = {}
        seen: set[tuple[int, int, Any]] = set()

        def walk(pending: int, done: Outcome, order: Sequence[int] | None) -> None:
            pending &= ~done.blanked
            key = (pending, done.blanked, done.selene)
            if order is None:
                if key in seen:
                    return
                seen.add(key)
            if not pending:
                found.setdefault((done.blanked, done.selene), done)
                return
            if order is not None:
                nexts = [b for b in order if pending >> b & 1][:1]
            else:
                nexts = [b for b in self.blankers if pending >> b & 1]
            for b in nexts:
                s = self.blank_view(b, done.blanked, options, every_order)
                for act in self.blank_acts(b, s):
                    after = Outcome(
                        done.blanked | act.hit,
                        (b, act.target) if act.selene and act.target is not None else done.selene,
                        (*done.script, (b, act.target)),
                        {**done.reasons, **act.reasons},
                    )
                    walk(pending & ~(1 << b), after, order)

        start = 0
        for b in self.blankers:
            start |= 1 << b
        orders: list[Sequence[int] | None] = [None]
        if every_order:
            orders = list(permutations(self.blankers))
        for order in orders:
            walk(start, Outcome(0, None, ()), order)
        return list(found.values())

    def replay(self, options: dict[int, Any], script: Iterable[tuple[int, int | None]]) -> Outcome:
        """Run the blanking texts in a fixed order with fixed targets (the rest follow in hand
        order, each taking its first target)."""
        done = Outcome(0, None, ())
        acted: set[int] = set()
        steps = list(script)
        steps += [(b, None) for b in self.blankers if b not in {s for s, _ in steps}]
        for b, wanted in steps:
            if b in acted or b not in self.blankers:
                continue
            acted.add(b)
            if done.blanked >> b & 1:
                continue
            acts = self.blank_acts(b, self.blank_view(b, done.blanked, options, True))
            act = next((a for a in acts if a.target == wanted), acts[0])
            done = Outcome(
                done.blanked | act.hit,
                (b, act.target) if act.selene and act.target is not None else done.selene,
                (*done.script, (b, act.target)),
                {**done.reasons, **act.reasons},
            )
        return done

    # --------------------------------------------------------------- the search
    def best_tags(
        self, mask: int, restrict: dict[int, Any] | None = None
    ) -> tuple[int, dict[int, Any]]:
        """The best score of the cards in ``mask`` over every tag choice, and those choices."""
        relevant = self.relevant
        start = self.base_state(mask).copy()
        stages = self.stages(mask)
        if any(rule is not None and rule.choice for _, _, rule in stages):
            keeps = self._keeps(start, stages)
        else:
            keeps = [((), ())] * (len(stages) + 1)  # one branch: nothing to merge
        layer: list[tuple[State, tuple[tuple[int, Any], ...]]] = [(start, ())]
        for number, (_, pos, rule) in enumerate(stages):
            if rule is None:
                for s, _ in layer:
                    self.apply_gains(s, pos, relevant)
                continue
            if not rule.choice:
                for s, _ in layer:
                    rule.apply(s, pos, None, relevant)
                continue
            keep, pooled = keeps[number]
            merged: dict[Any, tuple[State, tuple[tuple[int, Any], ...]]] = {}
            for s, path in layer:
                if restrict is not None and pos in restrict:
                    options = rule.restricted(s, pos, relevant, self.btags, restrict[pos])
                else:
                    options = rule.options(s, pos, relevant)
                for option in options:
                    s2 = s.copy()
                    rule.apply(s2, pos, option, relevant)
                    key = s2.key() if not pooled else _pooled_key(s2, keep, pooled)
                    if key not in merged:
                        merged[key] = (s2, (*path, (pos, option)))
            layer = list(merged.values())
        keep, pooled = keeps[len(stages)]
        if pooled and len(layer) > 1:
            leaves: dict[Any, tuple[State, tuple[tuple[int, Any], ...]]] = {}
            for s, path in layer:
                leaves.setdefault(_pooled_key(s, keep, pooled), (s, path))
            layer = list(leaves.values())
        best = None
        best_path: tuple[tuple[int, Any], ...] = ()
        for s, path in layer:
            value = self.points(s)
            if best is None or value > best:
                best, best_path = value, path
        assert best is not None
        return best, dict(best_path)

    def _keeps(
        self, s: State, stages: list[tuple[int, int, Rule | None]]
    ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """For the state after each step: the cards whose own tags must be kept exactly (a later
        step reads them, or their own count matters) and the HERO/ALLY cards that can be pooled:
        for those only how many carry each tag matters to the score."""
        hand = self.hand
        fixed = {i for i in s.alive if not hand[i].hero_or_ally or hand[i].own_reads}
        if any(t in ("HERO", "ALLY") for c in hand for t in c.typed):
            fixed = set(s.alive)  # a card reads which HERO/ALLY carries a tag: keep them all

        def split(keep: set[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
            return tuple(sorted(keep)), tuple(i for i in s.alive if i not in keep)

        # result[k]: for merging the states after step k (the readers of later steps kept);
        # the last entry is for the finished states.
        result = [split(fixed)] * (len(stages) + 1)
        later: set[int] = set()
        for k in range(len(stages) - 1, -1, -1):
            result[k] = split(fixed | later)
            _, pos, rule = stages[k]
            later |= {pos} if rule is None else rule.readers(s, pos)
        return result

    def search(self) -> Choices:
        """The owner's best choices (maximum total; on a tie, a valid hand first)."""
        plans: list[tuple[dict[int, Any], dict[int, Any] | None]] = [({}, None)]
        if self.sensitive:
            plans = self._commitment_plans()
        # Which plans can end the blanking in each way: when every plan can, the tag search
        # for that ending needs no restriction (the plans' option groups cover every option).
        endings: dict[tuple[int, Any], list[tuple[Outcome, int]]] = {}
        for number, (blank_options, _) in enumerate(plans):
            for outcome in self.blank_outcomes(blank_options):
                endings.setdefault((outcome.blanked, outcome.selene), []).append((outcome, number))
        best_key: tuple[int, bool] | None = None
        best = Choices()
        for reached in endings.values():
            outcome = reached[0][0]
            mask = self.full & ~outcome.blanked
            candidates: list[tuple[tuple[int, bool], int, dict[int, Any]]]
            if not self.valid(self.base_state(mask)):
                candidates = [((0, False), reached[0][1], {})]
            elif len(plans) > 1 and len(reached) == len(plans):
                value, options = self.best_tags(mask)
                candidates = [((value - self.selene_penalty(outcome), True), -1, options)]
            else:
                candidates = []
                for _, number in reached:
                    value, options = self.best_tags(mask, plans[number][1])
                    key = (value - self.selene_penalty(outcome), True)
                    candidates.append((key, number, options))
            for key, number, options in candidates:
                if best_key is None or key > best_key:
                    best_key = key
                    if number < 0:  # unrestricted: find a blanking script for these choices
                        merged = dict(options)
                        script = self._script_for(options, outcome)
                    else:
                        script = next(o.script for o, n in reached if n == number)
                        merged = dict(plans[number][0])
                        for rule, pos in self.sensitive:
                            if pos in options:
                                options[pos] = rule.combine(merged[pos], options[pos], self.btags)
                        merged.update(options)
                    best = Choices(merged, script)
        self.best_value = 0 if best_key is None else best_key[0]
        return best

    def _script_for(self, options: dict[int, Any], outcome: Outcome) -> tuple[Any, ...]:
        """A blanking script that reaches ``outcome`` with these (final) tag choices."""
        for found in self.blank_outcomes(options):
            if (found.blanked, found.selene) == (outcome.blanked, outcome.selene):
                return found.script
        return outcome.script

    def _commitment_plans(self) -> list[tuple[dict[int, Any], dict[int, Any] | None]]:
        """For hands where a choice can change a blanking condition: group each such card's
        options by what they do to the blanking conditions, and plan one blanking search per
        combination of groups, restricting the tag search to options of that group."""
        universe = self.universe()
        per_card = [
            rule.commitments(self.hand, pos, universe, self.btags) for rule, pos in self.sensitive
        ]
        plans: list[tuple[dict[int, Any], dict[int, Any] | None]] = []
        for combo in product(*per_card):
            blank_options = {}
            restrict = {}
            for (_, pos), (option, key) in zip(self.sensitive, combo, strict=True):
                blank_options[pos] = option
                restrict[pos] = key
            plans.append((blank_options, restrict))
        return plans

    def total_for(self, choices: Choices) -> int:
        """The total (Loki's known draw included) for fixed choices, without explanation."""
        outcome = self.replay(choices.options, choices.blanking)
        s = self.settle(self.full & ~outcome.blanked, choices.options)
        if not self.valid(s):
            return 0
        return self.points(s) - self.selene_penalty(outcome)


_PRESENCE_CODE: dict[tuple[int, ...], int] = {}


def _presence_code(row: tuple[int, ...]) -> int:
    """The tags a card carries, three bits per tag, so that adding codes counts cards per tag."""
    code = _PRESENCE_CODE.get(row)
    if code is None:
        code = sum(1 << (3 * t) for t, n in enumerate(row) if n)
        _PRESENCE_CODE[row] = code
    return code


def _pooled_key(s: State, keep: tuple[int, ...], pooled: tuple[int, ...]) -> tuple[Any, ...]:
    """A state's identity for merging: exact for the kept cards; for the pooled cards, how many
    of them carry each tag and their summed power."""
    rows = s.tags
    powers = s.powers
    presence = 0
    power = 0
    for i in pooled:
        row = rows[i]
        code = _PRESENCE_CODE.get(row)  # type: ignore[arg-type]
        presence += code if code is not None else _presence_code(row)  # type: ignore[arg-type]
        power += powers[i]
    return (
        tuple([rows[i] for i in keep]),
        tuple([powers[i] for i in keep]),
        presence,
        power,
        tuple(s.counts),
        s.budget,
    )


def brute_force_worlds(prepared: PreparedHand) -> int:
    """How many (options, blanking order) worlds :func:`brute_force_best` would walk (at most)."""
    universe = prepared.universe()
    worlds = math.factorial(len(prepared.blankers))
    for rule, pos in prepared.choosers:
        worlds *= len(rule.abstract_options(prepared.hand, pos, universe))
    return worlds


def brute_force_best(prepared: PreparedHand) -> int:
    """The best total by trying every option of every choice card and every blanking order
    (for tests: exponential, no pruning, no merging)."""
    universe = prepared.universe()
    lists = [rule.abstract_options(prepared.hand, pos, universe) for rule, pos in prepared.choosers]
    best: int | None = None
    for combo in product(*lists):
        options = {pos: option for (_, pos), option in zip(prepared.choosers, combo, strict=True)}
        for outcome in prepared.blank_outcomes(options, every_order=True):
            s = prepared.settle(prepared.full & ~outcome.blanked, options)
            value = 0
            if prepared.valid(s):
                value = prepared.points(s) - prepared.selene_penalty(outcome)
            if best is None or value > best:
                best = value
    assert best is not None
    return best


def prepare(
    cards: Sequence[Card | str],
    loki_draw: Card | str | None = None,
    catalogue: Catalogue | None = None,
) -> PreparedHand:
    """Check a hand (ids, names or cards) and prepare it for scoring."""
    catalogue = catalogue or default_catalogue()
    resolved = [c if isinstance(c, Card) else catalogue.lookup(c) for c in cards]
    if not resolved:
        raise ImpossibleHandError("a hand needs at least one card")
    if len(resolved) > MAX_HAND:
        raise ImpossibleHandError(
            f"a hand of {len(resolved)} cards is impossible: a final hand holds {NORMAL_HAND} "
            f"cards (the scorer accepts 1 to {MAX_HAND})"
        )
    seen: dict[str, Card] = {}
    for card in resolved:
        if card.id in seen:
            raise ImpossibleHandError(
                f"{card.name} ({card.id}) is in the hand twice; every card exists once"
            )
        seen[card.id] = card
    drawn = None
    if loki_draw is not None:
        drawn = loki_draw if isinstance(loki_draw, Card) else catalogue.lookup(loki_draw)
        if drawn.deck != "REMIX":
            raise ImpossibleHandError(
                f"Loki's draw must be a REMIX card; {drawn.name} ({drawn.id}) is a VILLAIN"
            )
        if drawn.id in seen:
            raise ImpossibleHandError(
                f"Loki's draw {drawn.name} ({drawn.id}) is already in the hand"
            )
        if "MR70" not in seen:
            raise ImpossibleHandError("a Loki draw was given but Loki is not in the hand")
    return PreparedHand(resolved, drawn, catalogue)
