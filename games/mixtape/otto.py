"""Otto Mah, the solo opponent: which of three face-up cards he takes when he is active.

The rulebook's order is followed exactly — Balance, then Genre, then Flow — and every factor
that is "moved past" stops mattering: the next factor looks at all six options again (each single
card, each pair). Options, as the rulebook frames them, are "one card" or "two cards":

1. Balance: the options that leave Otto's cube closest to perfect Balance (the start square).
   If none moves him closer than he is, or the closest are two options with the same number of
   cards, move on. If a single two-card option is among the closest, take it (two cards beat one
   card on a tie); otherwise the single closest one-card option.
2. Genre: Otto's largest set is his biggest genre count (Wild never counts). An option "creates
   or adds to his largest set" when, after taking it, his largest set is bigger than now and every
   card of the option belongs to a set of that new largest size. Among those, the ones reaching the
   biggest set; one two-card option → take it, else one one-card option → take it, else move on.
3. Flow: a card is "in Flow" when, placed at the bottom of its column in Otto's mixtape, it
   aligns with the card above it. None or all three in Flow → two cards at random (seeded, shown).
   Otherwise a pair whose cards both end up in Flow (in the best order) beats a single card.

Anything the rulebook still leaves open (several pairs equally in Flow, several single cards in
Flow and no pair) goes to the option that leaves the human worse off, computed: the human's best
total after placing what Otto leaves, lowest first; then Otto's own total, highest first.

Cards that would push a cube off the Equalizer are discarded when placed, so they count for
nothing in any of these comparisons. Otto places his cards in the best-flow order.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from games.mixtape.deck import Deck
from games.mixtape.errors import IllegalMoveError
from games.mixtape.scoring import aligns
from games.mixtape.tape import Tape, place_best

BALANCE = "balance"
GENRE = "genre"
FLOW = "flow"
RANDOM = "random"
WORSE_FOR_YOU = "worse-for-you"

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
    def extra_card(self) -> bool:
        """Special rule: Otto keeping one card draws one more from his own deck."""
        return len(self.otto_takes) == 1

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "otto_takes": list(self.otto_takes),
            "you_get": list(self.you_get),
            "decided_by": self.decided_by,
            "extra_card": self.extra_card,
            "drawn": list(self.drawn),
            "steps": list(self.steps),
        }
        if self.decided_by == RANDOM:
            data["random"] = {"seed": self.seed, "among": [list(o) for o in self.random_among]}
        return data


def options_for(drawn: Sequence[str]) -> list[Option]:
    """Every legal pile for the active player: each single card, then each pair."""
    return [*combinations(drawn, 1), *combinations(drawn, 2)]


def is_legal_pick(drawn: Sequence[str], taken: Sequence[str]) -> bool:
    return 1 <= len(taken) <= 2 and len(set(taken)) == len(taken) and set(taken) <= set(drawn)


def _names(option: Option) -> str:
    return "+".join(option)


def otto_choose(
    deck: Deck, otto: Tape, you: Tape, drawn: Sequence[str], seed: int | str = 0
) -> OttoDecision:
    """Otto is active and three cards lie face up: decide what he takes."""
    drawn = tuple(drawn)
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

    options = options_for(drawn)
    after = {option: _otto_after(deck, otto, option) for option in options}
    steps: list[str] = []

    def decided(option: Option, by: str, **extra: Any) -> OttoDecision:
        rest = tuple(card for card in drawn if card not in option)
        return OttoDecision(drawn, option, rest, by, tuple(steps), **extra)

    picked = _by_balance(deck, otto, options, after, steps)
    if picked:
        return decided(picked, BALANCE)
    picked = _by_genre(deck, otto, options, after, steps)
    if picked:
        return decided(picked, GENRE)
    kind, candidates = _by_flow(deck, options, after, steps)
    if kind == FLOW:
        return decided(candidates[0], FLOW)
    if kind == RANDOM:
        rng = random.Random(f"otto:{seed}")
        choice = candidates[rng.randrange(len(candidates))]
        among = ", ".join(_names(o) for o in candidates)
        steps.append(f"random (seed {seed}) among {among}: {_names(choice)}")
        return decided(choice, RANDOM, random_among=tuple(candidates), seed=str(seed))
    choice = worse_for_you(deck, otto, you, drawn, candidates, after, steps)
    return decided(choice, WORSE_FOR_YOU)


def _otto_after(deck: Deck, otto: Tape, option: Option) -> tuple[Tape, list[str]]:
    trial = otto.copy()
    _, discarded = place_best(deck, trial, option)
    return trial, discarded


def _by_balance(
    deck: Deck,
    otto: Tape,
    options: list[Option],
    after: dict[Option, tuple[Tape, list[str]]],
    steps: list[str],
) -> Option | None:
    now = abs(deck.position_of(otto.square(deck)))
    distance = {o: abs(deck.position_of(after[o][0].square(deck))) for o in options}
    closest = min(distance.values())
    if closest >= now:
        steps.append(f"balance: no option moves Otto closer to perfect Balance (he is {now} away)")
        return None
    best = [o for o in options if distance[o] == closest]
    pairs = [o for o in best if len(o) == 2]
    singles = [o for o in best if len(o) == 1]
    label = ", ".join(_names(o) for o in best)
    if len(pairs) == 1:
        steps.append(f"balance: {_names(pairs[0])} brings Otto to {closest} from perfect Balance")
        return pairs[0]
    if not pairs and len(singles) == 1:
        steps.append(f"balance: {_names(singles[0])} brings Otto to {closest} from perfect Balance")
        return singles[0]
    steps.append(f"balance: tie at {closest} from perfect Balance between {label}")
    return None


def _genre_counts(deck: Deck, tape: Tape) -> Counter[str]:
    return Counter(card.genre for card in deck.cards_for(tape.card_ids()) if not card.is_wild)


def _by_genre(
    deck: Deck,
    otto: Tape,
    options: list[Option],
    after: dict[Option, tuple[Tape, list[str]]],
    steps: list[str],
) -> Option | None:
    largest_now = max(_genre_counts(deck, otto).values(), default=0)
    growing: dict[Option, int] = {}
    for option in options:
        trial, discarded = after[option]
        if discarded:
            continue
        counts = _genre_counts(deck, trial)
        largest = max(counts.values(), default=0)
        cards = deck.cards_for(option)
        if largest > largest_now and all(
            not card.is_wild and counts[card.genre] == largest for card in cards
        ):
            growing[option] = largest
    if not growing:
        steps.append(f"genre: no card creates or adds to Otto's largest set ({largest_now})")
        return None
    top = max(growing.values())
    best = [o for o in options if growing.get(o) == top]
    pairs = [o for o in best if len(o) == 2]
    singles = [o for o in best if len(o) == 1]
    if len(pairs) == 1:
        steps.append(f"genre: {_names(pairs[0])} makes Otto's largest set {top}")
        return pairs[0]
    if not pairs and len(singles) == 1:
        steps.append(f"genre: {_names(singles[0])} makes Otto's largest set {top}")
        return singles[0]
    steps.append(f"genre: tie between {', '.join(_names(o) for o in best)} (largest set {top})")
    return None


def _all_in_flow(deck: Deck, trial: Tape, option: Option, discarded: list[str]) -> bool:
    """Every card of the option sits in the trial mixtape aligned with the card above it."""
    if discarded:
        return False
    for card_id in option:
        column = trial.column(deck.card(card_id).side)
        index = column.index(card_id)
        if index == 0 or not aligns(deck.card(column[index - 1]), deck.card(card_id)):
            return False
    return True


def _by_flow(
    deck: Deck,
    options: list[Option],
    after: dict[Option, tuple[Tape, list[str]]],
    steps: list[str],
) -> tuple[str, list[Option]]:
    """(FLOW, [the option]) when Flow decides, else (RANDOM or WORSE_FOR_YOU, candidates)."""
    fully = {o for o in options if _all_in_flow(deck, after[o][0], o, after[o][1])}
    singles: list[Option] = [o for o in options if len(o) == 1 and o in fully]
    pairs_in_flow: list[Option] = [o for o in options if len(o) == 2 and o in fully]
    all_pairs: list[Option] = [o for o in options if len(o) == 2]
    if len(singles) in (0, 3):
        how = "none" if not singles else "all three"
        steps.append(f"flow: {how} of the cards would be in Flow, so two cards at random")
        return RANDOM, all_pairs
    in_flow = ", ".join(_names(o) for o in singles)
    if len(pairs_in_flow) == 1:
        steps.append(f"flow: {_names(pairs_in_flow[0])} both go in Flow (cards in Flow: {in_flow})")
        return FLOW, pairs_in_flow
    if len(pairs_in_flow) > 1:
        steps.append(f"flow: pairs {', '.join(_names(o) for o in pairs_in_flow)} are all in Flow")
        return WORSE_FOR_YOU, pairs_in_flow
    if len(singles) == 1:
        steps.append(f"flow: only {_names(singles[0])} would be in Flow")
        return FLOW, singles
    steps.append(f"flow: {in_flow} are each in Flow but not together")
    return WORSE_FOR_YOU, singles


def worse_for_you(
    deck: Deck,
    otto: Tape,
    you: Tape,
    drawn: Sequence[str],
    candidates: Sequence[Option],
    after: dict[Option, tuple[Tape, list[str]]],
    steps: list[str],
) -> Option:
    """The rulebook's rule of thumb, computed: the candidate after which the human's best
    possible total (placing what Otto leaves them) is lowest; then the one best for Otto."""

    def key(option: Option) -> tuple[int, int]:
        rest = [card for card in drawn if card not in option]
        yours = you.copy()
        place_best(deck, yours, rest)
        return (yours.score(deck).total, -after[option][0].score(deck).total)

    keys = {option: key(option) for option in candidates}
    choice = min(candidates, key=lambda o: keys[o])
    detail = ", ".join(f"Otto {_names(o)} → you at best {keys[o][0]}" for o in candidates)
    steps.append(f"worse for you: {detail}; Otto takes {_names(choice)}")
    return choice
