"""The Marvel: Remix scoring engine: check a hand, find the owner's best choices, score them.

How a hand is scored (rulebook + rulings.md, Marvel: Remix):

1. Blanking texts (Selene, Juggernaut, Hidden Lair, Magneto, Taskmaster, and the cards that blank
   themselves) act one at a time in an order the owner chooses; a card blanked before its turn
   never acts. Each text looks at the hand as it stands when it acts (games.remix.blanking).
2. On the cards left, tags are settled (games.remix.model): transforms as soon as their condition
   holds, then the tag texts one at a time in an order the owner picks, each seeing the tags as
   they are then; Magneto's ignored Tech and Hack In's Intel count everywhere.
3. Base power and every bonus and penalty are added; a hand without a non-blanked HERO or ALLY
   and a non-blanked VILLAIN scores 0. Loki's draw is subtracted last, from choices settled
   without it.

The search (games.remix.search) explores every owner choice, every order of the tag texts that
can matter and every blanking order, pruning only what cannot change the score;
``brute_force_best`` (games.remix.brute) does none of that and exists to prove the pruning safe.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from games.remix.analysis import Analysis
from games.remix.blanking import Outcome, explore, replay
from games.remix.brute import brute_force_best, brute_force_worlds
from games.remix.catalogue import Card, Catalogue, RemixError, default_catalogue
from games.remix.effects import CompiledCard, compile_card
from games.remix.model import LOKI, Choices, Hand
from games.remix.search import Settler, search, usefulness
from games.remix.state import State

MAX_HAND = 10
NORMAL_HAND = 7

__all__ = [
    "MAX_HAND",
    "NORMAL_HAND",
    "Choices",
    "ImpossibleHandError",
    "PreparedHand",
    "brute_force_best",
    "brute_force_worlds",
    "prepare",
]


Way = tuple[tuple[int, Any], ...]  # the (tag text, option) steps of a way, in the order taken


def _orders_of_two(settler: Settler) -> list[tuple[int, int]]:
    """The orders of two tag texts the search explores: one when they fall in different
    components (no order between them matters), else each order its constraints allow (a
    text that waits for the other never goes first; a text that bars the other right after
    it never goes first either)."""
    components = settler.components()
    if len(components) == 2:
        return [(components[0][0], components[1][0])]
    a, b = components[0]
    barred, waits = settler.constraints([a, b])
    bit = {a: 1, b: 2}
    return [(x, y) for x, y in ((a, b), (b, a)) if not waits[x] and not barred[x] & bit[y]]


class ImpossibleHandError(RemixError):
    """The hand cannot exist (duplicates, too many cards, a Loki draw from the hand...)."""


@lru_cache(maxsize=4)
def _compiled(catalogue: Catalogue) -> dict[str, CompiledCard]:
    names = {card.id: card.name for card in catalogue}
    return {card.id: compile_card(card, names) for card in catalogue}


class PreparedHand(Hand):
    """A hand ready for scoring: the model, plus the search for the owner's best choices."""

    def __init__(self, cards: Sequence[Card], loki_draw: Card | None, catalogue: Catalogue):
        super().__init__(cards, loki_draw, _compiled(catalogue))
        self.best_value = 0  # the total the last search found (Loki's known draw included)
        self._analysis: Analysis | None = None
        # the last settled choices, kept for one reuse: the search settles the plain choices
        # it reports, and explaining them would settle them again
        self._kept: tuple[Choices, Outcome, State] | None = None

    def release(self) -> None:
        """Drop what the search kept once the hand is explained: the analysis refers back to
        the hand, a cycle only the garbage collector would find (and a Pi has little memory)."""
        self._analysis = None
        self._kept = None

    @property
    def analysis(self) -> Analysis:
        if self._analysis is None:
            self._analysis = Analysis(self)
        return self._analysis

    @property
    def sensitive(self) -> set[int]:
        """The blanking texts whose result the tag choices can change."""
        return self.analysis.sensitive if self.texts else set()

    def search(self) -> Choices:
        """The owner's best choices (maximum total before Loki's draw; on a tie, the ending where
        the draw cannot subtract, then a valid hand). The order of the tag texts is kept only
        when the rulings' order would score less with the same options."""
        if not self.texts:
            choices, value, outcome, valid = self._search_without_texts()
            # no tag text: the cards left keep their base state, and replaying the script
            # would end as the search's ending did (each blanking text sees the base state)
            final = self.base_state(self.full & ~outcome.blanked)
            self._kept = (choices, outcome, final.copy())
            self.best_value = value - self.draw_cost(outcome.blanked, valid)
            return choices
        analysis = self.analysis
        acting = [p for p in self.texts if p not in analysis.inert]  # inert: never searched
        if len(acting) <= 2 and not analysis.sensitive:
            choices, value, outcome, valid, final = self._search_few_texts(acting, analysis)
        else:
            choices, value, outcome, valid, final = search(self, analysis)
        path = choices.order or ()  # every text the search let act, in the order they acted
        if choices.order is not None and len(choices.order) > 1:
            plain = Choices(choices.options, choices.blanking, None)
            if self.value_of(plain) == (value, outcome.blanked, valid):
                choices = plain  # value_of kept what explaining it needs
        else:
            choices = Choices(choices.options, choices.blanking, None)
        self.best_value = value - self.draw_cost(outcome.blanked, valid)
        if self._kept is None or self._kept[0] is not choices:
            self._keep_searched(choices, outcome, final, path)
        return choices

    def _keep_searched(
        self, choices: Choices, outcome: Outcome, final: State, path: tuple[int, ...]
    ) -> None:
        """Keep the search's own ending and state for explaining ``choices`` when replaying
        them would give the same: every text left out of the search as inert doubles nothing
        in a replay either (its option there is "nothing": acting, it changes no tag, and the
        transforms checked after it were checked already), and the other texts of the cards
        left act in the order the search let them act (with the search's order, a replay's
        views of the sensitive blanking texts are the search's views, so their results and the
        ending are the same too)."""
        inert = self.analysis.inert
        if inert and any(self.option_for(p, choices.options) for p in inert):
            return  # a replay would let it double something
        mask = self.full & ~outcome.blanked
        acted = [p for p in path if mask >> p & 1]
        if choices.order is None and len(path) > 1:
            return  # the rulings' order replaces the search's: the views may differ
        if acted == [p for p in self.sequence(mask, choices.order) if p not in inert]:
            self._kept = (choices, outcome, final.copy())

    def _search_few_texts(
        self, acting: list[int], analysis: Analysis
    ) -> tuple[Choices, int, Outcome, bool, State]:
        """:func:`games.remix.search.search` for a hand with one or two tag texts (``acting``,
        the inert ones left out as the search leaves them out) that no blanking text reads
        (four hands dealt in ten): no view to test, so each way the blanking ends is worth its
        best way of the texts (:meth:`_best_way`). The best key wins (value, the draw cannot
        subtract, valid); on a tie the ending found first, as the search decides."""
        value, outcome, valid, final, way = self._best_ending(acting, analysis)
        options = {pos: option for pos, option in way if self.hand[pos].tag_text is not None}
        order = tuple(pos for pos, _ in way)
        return Choices(options, outcome.script, order), value, outcome, valid, final

    def _best_ending(
        self, acting: list[int], analysis: Analysis | None
    ) -> tuple[int, Outcome, bool, State, Way]:
        """The best way the blanking can end when no blanking text reads a tag the texts
        ``acting`` (none, one or two) can change: each ending is worth its base state's points,
        or the best way of its texts (:meth:`_best_way`). The best key wins (value, the draw
        cannot subtract, valid); on a tie the ending found first of the set of blanked cards
        found first, as :func:`games.remix.search.search` decides. (value, ending, valid, the
        state it leaves, the way of the texts)."""
        endings: dict[int, list[Outcome]] = {}  # by the cards blanked, first found first
        for outcome in explore(self, set()):
            endings.setdefault(outcome.blanked, []).append(outcome)
        best: tuple[tuple[int, bool, bool], Outcome, State, Way] | None = None
        for blanked, group in endings.items():
            mask = self.full & ~blanked
            s = self.base_state(mask)
            valid = self.valid(s)
            way: Way = ()
            alive = [p for p in acting if mask >> p & 1]
            if not valid:
                points = 0
            elif not alive:
                points = self.points(s)
            else:
                assert analysis is not None  # texts to act come with the search's analysis
                points, s, way = self._best_way(s, mask, alive, analysis)
            safe = self.draw_safe(blanked, valid)
            for outcome in group:
                value = points - self.selene_penalty(outcome.selene, blanked) if valid else 0
                if best is None or (value, safe, valid) > best[0]:
                    best = ((value, safe, valid), outcome, s, way)
        assert best is not None
        (value, _, valid), outcome, final, way = best
        return value, outcome, valid, final, way

    def _best_way(
        self, s: State, mask: int, alive: list[int], analysis: Analysis
    ) -> tuple[int, State, Way]:
        """The most points the tag texts ``alive`` (one or two, their cards in play) can leave
        from ``s``, the state they leave and the first way to them: every useful option of each,
        in each order the search explores (:class:`games.remix.search.Settler`: two texts
        whose order cannot matter act in one order), each order's ways in the order the search
        finds them. The search's merging and bounds only skip ways that cannot come first to
        the most points."""
        orders: list[tuple[int, ...]] = [(alive[0],)]
        if len(alive) == 2:
            orders = [*_orders_of_two(Settler(self, analysis, [mask]))]
        best: tuple[int, State, Way] | None = None
        for order in orders:
            ways: list[tuple[State, Way]] = [(s, ())]
            for k, pos in enumerate(order):
                remaining = frozenset(order[k:])
                ways = [
                    (self._acted(before, pos, option), (*way, (pos, option)))
                    for before, way in ways
                    for option in self._text_options(before, pos, remaining, analysis)
                ]
            for after, way in ways:
                points = self.points(after)
                if best is None or points > best[0]:
                    best = (points, after, way)
        assert best is not None
        return best

    def _text_options(
        self, s: State, pos: int, remaining: frozenset[int], analysis: Analysis
    ) -> list[Any]:
        """The options the search offers the text at ``pos`` with ``remaining`` still to act
        (it included)."""
        rule = self.hand[pos].tag_text
        if rule is None or not rule.choice:
            return [None]
        return list(dict.fromkeys(rule.options(s, pos, usefulness(self, analysis, remaining))))

    def _acted(self, s: State, pos: int, option: Any) -> State:
        after = s.copy()
        self.act(after, pos, option)
        return after

    def _search_without_texts(self) -> tuple[Choices, int, Outcome, bool]:
        """The search for a hand without tag texts (half the hands dealt): nothing to choose
        but the blanking, and each way the blanking ends is worth the points of its base
        state (:meth:`_best_ending` with no text to act)."""
        value, outcome, valid, _, _ = self._best_ending([], None)
        return Choices({}, outcome.script, None), value, outcome, valid

    def replay(self, choices: Choices, views: dict[int, State] | None = None) -> Outcome:
        return replay(self, choices.options, choices.order, choices.blanking, views)

    def settled(self, choices: Choices) -> tuple[Outcome, State]:
        """How the blanking ends for fixed choices, and the tags of the cards left (a state of
        its own: the caller may change it)."""
        kept, self._kept = self._kept, None
        if kept is not None and kept[0] is choices:
            return kept[1], kept[2]
        views: dict[int, State] = {}
        outcome = self.replay(choices, views)
        mask = self.full & ~outcome.blanked
        s = views.get(mask)
        if s is None:
            s = self.settle(mask, choices.options, choices.order)
        return outcome, s

    def value_of(self, choices: Choices) -> tuple[int, int, bool]:
        """(the value before Loki's draw, the cards blanked, valid) for fixed choices."""
        outcome, s = self.settled(choices)
        self._kept = (choices, outcome, s)  # only read: as good as new for one more use
        if not self.valid(s):
            return 0, outcome.blanked, False
        value = self.points(s) - self.selene_penalty(outcome.selene, outcome.blanked)
        return value, outcome.blanked, True

    def total_for(self, choices: Choices) -> int:
        """The total (Loki's known draw included) for fixed choices, without explanation."""
        value, blanked, valid = self.value_of(choices)
        return value - self.draw_cost(blanked, valid)


def _resolve(catalogue: Catalogue, items: Iterable[Card | str]) -> list[Card]:
    return [c if isinstance(c, Card) else catalogue.lookup(c) for c in items]


def prepare(
    cards: Sequence[Card | str],
    loki_draw: Card | str | None = None,
    catalogue: Catalogue | None = None,
) -> PreparedHand:
    """Check a hand (ids, names or cards) and prepare it for scoring."""
    if catalogue is None or not catalogue.cards:  # (not ``or``: that would call __len__)
        catalogue = default_catalogue()
    resolved = _resolve(catalogue, cards)
    if not resolved:
        raise ImpossibleHandError("a hand needs at least one card")
    if len(resolved) > MAX_HAND:
        raise ImpossibleHandError(
            f"a hand of {len(resolved)} cards is impossible: a final hand holds {NORMAL_HAND} "
            f"cards (the scorer accepts 1 to {MAX_HAND})"
        )
    seen = {card.id: card for card in resolved}
    if len(seen) != len(resolved):
        ids = [card.id for card in resolved]  # the first card whose id came before
        twice = next(card for k, card in enumerate(resolved) if card.id in ids[:k])
        raise ImpossibleHandError(
            f"{twice.name} ({twice.id}) is in the hand twice; every card exists once"
        )
    drawn = None
    if loki_draw is not None:
        drawn = _resolve(catalogue, [loki_draw])[0]
        if drawn.deck != "REMIX":
            raise ImpossibleHandError(
                f"Loki's draw must be a REMIX card; {drawn.name} ({drawn.id}) is a VILLAIN"
            )
        if drawn.id in seen:
            raise ImpossibleHandError(
                f"Loki's draw {drawn.name} ({drawn.id}) is already in the hand"
            )
        if LOKI not in seen:
            raise ImpossibleHandError("a Loki draw was given but Loki is not in the hand")
    return PreparedHand(resolved, drawn, catalogue)
