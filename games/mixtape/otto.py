"""Otto Mah, the solo opponent: which of three face-up cards he takes when he is active.

The rulebook's order is followed exactly — Balance, then Genre, then Flow — and a factor that is
"moved past" stops mattering. Readings (rulings.md, I Made You a Mixtape):

0. In every step an option is judged by the cards that land: a card that would push his cube off
   the Equalizer is never one of his options, and a pair of which only one card can land is a
   one-card option (the step's one-card clause applies; a tie between such cards goes on to the
   next step, which chooses between those cards).
1. Balance looks at options, "one card" or "two cards": the cards that would actually land in
   his mixtape. The options that leave him closest to perfect Balance: if none brings him closer
   than he is, or two options with the same number of cards tie, move on; a single two-card
   option among the closest is taken (two cards beat one on a tie), else the single closest card.
2. Genre counts single cards, as its clauses do: each drawn card is judged on its own against
   his mixtape as it stands. A card counts when it can land and its genre is one of his largest
   sets (all tied largest sets count; any non-Wild card when he has no set yet). One card counts:
   he takes it alone; two that can land together: those two; none or three: on to Flow.
3. Flow counts single cards the same way: a card counts when it can land and would align with
   the card above it in its column. One: alone; two that can land together: those two; none or
   three: two cards at random (seeded, and shown), from the pairs that can both land (one card
   when no pair can).

"Otto will ALWAYS get two cards per round": when fewer than two of his cards land he draws an
extra card from his own deck for each card short (`OttoDecision.extra_cards`; solo.py draws them;
an extra card that cannot land goes to the box). The drawn cards he does not take are yours.
Otto's cards go into his mixtape in the order that keeps every card that can be kept, then the
best Flow (tape.place_best).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from games.mixtape.deck import GENRE_NAMES, Deck
from games.mixtape.errors import IllegalMoveError
from games.mixtape.scoring import aligns
from games.mixtape.tape import Tape, place_best

BALANCE = "balance"
GENRE = "genre"
FLOW = "flow"
RANDOM = "random"

# "When Otto is the Active player, they will ALWAYS get two cards per round"
OTTO_CARDS_PER_ROUND = 2

Option = tuple[str, ...]


@dataclass(frozen=True)
class OttoDecision:
    drawn: tuple[str, ...]
    otto_takes: tuple[str, ...]
    you_get: tuple[str, ...]
    decided_by: str
    steps: tuple[str, ...]
    random_among: tuple[Option, ...] = ()
    seed: str = ""

    @property
    def extra_cards(self) -> int:
        """Special rule: one extra card from his own deck for each of his two cards short (every
        card he takes lands: an option is judged by the cards that land)."""
        return OTTO_CARDS_PER_ROUND - len(self.otto_takes)

    @property
    def extra_card(self) -> bool:
        return self.extra_cards > 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "otto_takes": list(self.otto_takes),
            "you_get": list(self.you_get),
            "decided_by": self.decided_by,
            "extra_card": self.extra_card,
            "extra_cards": self.extra_cards,
            "drawn": list(self.drawn),
            "steps": list(self.steps),
        }
        if self.decided_by == RANDOM:
            data["random"] = {"seed": self.seed, "among": [list(o) for o in self.random_among]}
        return data


def options_for(drawn: Sequence[str]) -> list[Option]:
    """Every legal pile for the active player: each single card, then each pair."""
    return [*combinations(drawn, 1), *combinations(drawn, 2)]


def _names(cards: Sequence[str]) -> str:
    """ "E1", "E1 and E2", "E1, E2 and E3"."""
    cards = list(cards)
    if len(cards) <= 1:
        return "".join(cards)
    return ", ".join(cards[:-1]) + " and " + cards[-1]


def _check(otto: Tape, you: Tape, drawn: tuple[str, ...], deck: Deck) -> None:
    if len(drawn) != 3 or len(set(drawn)) != 3:
        raise IllegalMoveError(
            f"Otto chooses from exactly three different cards, got {list(drawn)}"
        )
    deck.cards_for(drawn)
    shared = sorted(set(otto.card_ids()) & set(you.card_ids()))
    if shared:
        raise IllegalMoveError(f"card(s) {', '.join(shared)} are in both mixtapes")
    in_play = set(otto.card_ids()) | set(otto.discarded) | set(you.card_ids()) | set(you.discarded)
    clash = sorted(in_play & set(drawn))
    if clash:
        raise IllegalMoveError(f"drawn card(s) {', '.join(clash)} are already in a mixtape")


@dataclass
class _Judge:
    """Otto's mixtape and what the steps have said so far."""

    deck: Deck
    otto: Tape
    seed: int | str
    steps: list[str]

    def lands_together(self, pair: Sequence[str]) -> bool:
        return len(landing(self.deck, self.otto, pair)[1]) == len(pair)

    def at_random(self, cards: Sequence[str], size: int) -> tuple[Option, tuple[Option, ...]]:
        """A seeded random option of ``size`` cards that all land (one card when no pair can)."""
        among = [o for o in combinations(cards, size) if size == 1 or self.lands_together(o)]
        if not among:
            return self.at_random(cards, 1) if size > 1 else ((), ())
        rng = random.Random(f"otto:{self.seed}")
        return among[rng.randrange(len(among))], tuple(among)


def otto_choose(
    deck: Deck, otto: Tape, you: Tape, drawn: Sequence[str], seed: int | str = 0
) -> OttoDecision:
    """Otto is active and three cards lie face up: decide what he takes."""
    drawn = tuple(drawn)
    _check(otto, you, drawn, deck)
    judge = _Judge(deck, otto, seed, [])
    steps = judge.steps
    live = [card for card in drawn if otto.would_fit(deck, card)]
    dead = [card for card in drawn if card not in live]
    if dead:
        it = "it" if len(dead) == 1 else "they"
        counts = "counts" if len(dead) == 1 else "count"
        steps.append(
            f"{_names(dead)} cannot go into Otto's mixtape ({it} would push his cube off the "
            f"Equalizer): {it} {counts} for nothing"
        )

    def decided(option: Sequence[str], by: str, **extra: Any) -> OttoDecision:
        taken = tuple(card for card in drawn if card in option)
        rest = tuple(card for card in drawn if card not in taken)
        return OttoDecision(drawn, taken, rest, by, tuple(steps), **extra)

    picked = _by_balance(deck, otto, drawn, steps)
    if picked:
        return decided(picked, BALANCE)
    outcome = _by_genre(judge, live)
    if outcome is None:
        outcome = _by_flow(judge, live)
    if outcome is not None:
        option, by, among = outcome
        return decided(option, by, random_among=among, seed=str(seed) if among else "")
    choice, among = judge.at_random(live, OTTO_CARDS_PER_ROUND)
    if len(among) > 1:
        options = ", ".join(_names(o) for o in among)
        steps.append(f"At random (seed {seed}) among {options}: {_taking(choice, True, True)}")
    elif choice:
        steps.append(f"Only {choice[0]} can go into Otto's mixtape: {_taking(choice, alone=True)}")
    else:
        steps.append(f"None of the cards can go into Otto's mixtape: {_taking(())}")
    return decided(choice, RANDOM, random_among=among, seed=str(seed))


def landing(deck: Deck, otto: Tape, option: Sequence[str]) -> tuple[Tape, tuple[str, ...]]:
    """Otto's mixtape after taking ``option`` (best order) and the cards that actually land."""
    trial = otto.copy()
    order, discarded = place_best(deck, trial, option)
    return trial, tuple(card for card in order if card not in discarded)


def _taking(cards: Sequence[str], named: bool = False, alone: bool = False) -> str:
    """What Otto does with ``cards``, his whole take ("it"/"both" unless ``named``)."""
    what = _names(cards) if named else ("it" if len(cards) == 1 else "both")
    if len(cards) >= OTTO_CARDS_PER_ROUND:
        return f"Otto takes {what}"
    if len(cards) == 1:
        return f"Otto takes {what}{' alone' if alone else ''} and draws an extra card"
    return "Otto takes none and draws two extra cards"


def _by_balance(deck: Deck, otto: Tape, drawn: Sequence[str], steps: list[str]) -> Option | None:
    now = abs(deck.position_of(otto.square(deck)))
    # one option per set of cards that land; a pair with a dead card is its live card alone
    landed: dict[tuple[str, ...], int] = {}
    for option in options_for(drawn):
        trial, cards = landing(deck, otto, option)
        cards = tuple(card for card in drawn if card in cards)  # in the order drawn
        if cards:
            landed.setdefault(cards, abs(deck.position_of(trial.square(deck))))
    closest = min(landed.values(), default=now)
    if closest >= now:
        steps.append(
            f"No option brings Otto closer to perfect Balance (he is {now} away): on to Genre"
        )
        return None
    best = [cards for cards, distance in landed.items() if distance == closest]
    pairs = [cards for cards in best if len(cards) == 2]
    singles = [cards for cards in best if len(cards) == 1]
    where = f"closest to perfect Balance ({closest} away)"
    if len(pairs) == 1:
        if singles:
            steps.append(
                f"{_names(pairs[0])} bring Otto as close to perfect Balance as "
                f"{' or '.join(c[0] for c in singles)} alone ({closest} away); two cards beat "
                f"one: {_taking(pairs[0])}"
            )
        else:
            steps.append(f"{_names(pairs[0])} bring Otto {where}: {_taking(pairs[0])}")
        return pairs[0]
    if not pairs and len(singles) == 1:
        steps.append(f"{singles[0][0]} alone brings Otto {where}: {_taking(singles[0])}")
        return singles[0]
    if pairs:
        tied = _names(["+".join(cards) for cards in pairs])
        steps.append(f"The pairs {tied} tie {where}: on to Genre")
    else:
        tied = _names([cards[0] for cards in singles])
        steps.append(f"{tied} each bring Otto {where}, a tie: on to Genre")
    return None


def _largest(deck: Deck, otto: Tape) -> tuple[int, list[str]]:
    counts = Counter(card.genre for card in deck.cards_for(otto.card_ids()) if not card.is_wild)
    top = max(counts.values(), default=0)
    return top, sorted(genre for genre, n in counts.items() if n == top)


# What a step decided: the cards Otto takes, the step that decided, and the options a seeded
# random pick chose among (empty when nothing was left to chance).
Outcome = tuple[Option, str, tuple[Option, ...]]


def _by_genre(judge: _Judge, live: Sequence[str]) -> Outcome | None:
    deck = judge.deck
    top, genres = _largest(deck, judge.otto)
    if top:
        sets = _names([GENRE_NAMES[g] for g in genres])
        card_s = "card" if top == 1 else "cards"
        what = f"in one of Otto's largest genre sets ({sets}: {top} {card_s} each)"
        if len(genres) == 1:
            what = f"in Otto's largest genre set ({sets}: {top} {card_s})"
        counts = [c for c in live if deck.card(c).genre in genres]
    else:
        what = "that starts a genre set (Otto has none yet: any non-Wild card)"
        counts = [c for c in live if not deck.card(c).is_wild]
    return _single_cards(judge, GENRE, what, counts, "on to Flow")


def _in_flow(deck: Deck, otto: Tape, card_id: str) -> bool:
    card = deck.card(card_id)
    column = otto.column(card.side)
    return bool(column) and aligns(deck.card(column[-1]), card)


def _by_flow(judge: _Judge, live: Sequence[str]) -> Outcome | None:
    counts = [c for c in live if _in_flow(judge.deck, judge.otto, c)]
    if any(judge.lands_together(pair) for pair in combinations(live, 2)):
        otherwise = "Otto takes two cards at random"
    else:
        otherwise = "no two of them can both go into his mixtape"
    return _single_cards(judge, FLOW, "in Flow", counts, otherwise)


def _single_cards(
    judge: _Judge, step: str, what: str, counts: list[str], otherwise: str
) -> Outcome | None:
    """Each card judged on its own. One card counts: take it alone; two that can both land:
    take them; two of which only one can land: one-card options tied, which the next step
    breaks; none or three: ``otherwise`` (None: on to the next step)."""
    steps = judge.steps
    if len(counts) == 1:
        steps.append(f"{counts[0]} is the only card {what}: {_taking(counts)}")
        return (counts[0],), step, ()
    if len(counts) == 2 and judge.lands_together(counts):
        steps.append(f"{_names(counts)} are {what}: {_taking(counts)}")
        return tuple(counts), step, ()
    if len(counts) == 2:
        tie = f"{_names(counts)} are {what}, but only one of them can go into his mixtape"
        if step == GENRE:
            in_flow = [c for c in counts if _in_flow(judge.deck, judge.otto, c)]
            if len(in_flow) == 1:
                steps.append(f"{tie}: the Flow picks {in_flow[0]}; {_taking(in_flow, alone=True)}")
                return (in_flow[0],), FLOW, ()
            tie += ": the Flow does not tell them apart"
        choice, among = judge.at_random(counts, 1)
        steps.append(f"{tie}: at random (seed {judge.seed}) {_taking(choice, True, True)}")
        return choice, RANDOM, among
    how = "None of the cards is" if not counts else "All three cards are"
    steps.append(f"{how} {what}: {otherwise}")
    return None
