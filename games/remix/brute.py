"""The reference the pruned search is checked against: every option of every choice card, every
order of the tag texts and every order of the blanking texts, each walked in full (exponential;
for tests and ``tablekeeper bench remix --verify``). It uses the model and nothing of the search's
pruning (no analysis, no merging)."""

from __future__ import annotations

import math
from itertools import permutations, product

from games.remix.blanking import every_outcome
from games.remix.model import Hand


def brute_force_worlds(hand: Hand) -> int:
    """How many (options, tag order, blanking order) worlds :func:`brute_force_best` walks (at
    most)."""
    universe = hand.universe()
    worlds = math.factorial(len(hand.blankers)) * math.factorial(len(hand.texts))
    for rule, pos in hand.choosers:
        worlds *= len(rule.abstract_options(hand.hand, pos, universe))
    return worlds


def brute_force_best(hand: Hand) -> int:
    """The best total, Loki's known draw included: the best value before the draw over every
    world; among the worlds with that value, one where the draw cannot subtract if there is one
    (rulings); then the draw is subtracted."""
    universe = hand.universe()
    lists = [rule.abstract_options(hand.hand, pos, universe) for rule, pos in hand.choosers]
    best: tuple[int, bool] | None = None
    cost = 0
    for combo in product(*lists):
        options = {pos: option for (_, pos), option in zip(hand.choosers, combo, strict=True)}
        for order in permutations(hand.texts):
            for outcome in every_outcome(hand, options, order):
                s = hand.settle(hand.full & ~outcome.blanked, options, order)
                valid = hand.valid(s)
                value = 0
                if valid:
                    value = hand.points(s) - hand.selene_penalty(outcome.selene, outcome.blanked)
                key = (value, hand.draw_safe(outcome.blanked, valid))
                if best is None or key > best:
                    best = key
                    cost = hand.draw_cost(outcome.blanked, valid)
    assert best is not None
    return best[0] - cost
