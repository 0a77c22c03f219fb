"""Scoring a hand and explaining the result (what the CLI and the appliance show)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.remix.blanking import Outcome
from games.remix.catalogue import Card, Catalogue, RemixError
from games.remix.effects import CompiledCard, tag_names
from games.remix.engine import NORMAL_HAND, Choices, PreparedHand, prepare
from games.remix.names import signed
from games.remix.state import State


@dataclass(slots=True)  # one per card of every hand explained
class CardResult:
    id: str
    name: str
    type: str
    state: str  # "normal", "transformed" or "blanked"
    base: int
    points: int
    tags: list[str]
    lines: list[str]
    blanked_by: str | None = None
    side: str | None = None  # the transformed side's name

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "state": self.state,
            "blanked_by": self.blanked_by,
            "side": self.side,
            "base": self.base,
            "points": self.points,
            "tags": self.tags,
            "lines": self.lines,
        }


@dataclass
class HandResult:
    total: int
    valid: bool
    cards: list[CardResult]
    choices: list[dict[str, Any]]
    loki_owed: bool
    chosen: Choices
    points_before_validity: int
    notes: list[str] = field(default_factory=list)
    loki_draw: Card | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "valid": self.valid,
            "cards": [card.to_json() for card in self.cards],
            "choices": self.choices,
            "loki_owed": self.loki_owed,
            "loki_draw": None if self.loki_draw is None else self.loki_draw.id,
            "hand_size": len(self.cards),
            "points_before_validity": self.points_before_validity,
            "notes": self.notes,
        }

    def card(self, key: str) -> CardResult:
        for card in self.cards:
            if key in (card.id, card.name):
                return card
        raise KeyError(key)

    def text(self) -> str:
        """A plain-text explanation, one card per block."""
        out: list[str] = []
        add = out.append  # every hand shown is explained: its blocks are built in one go
        for card in self.cards:
            state = card.state
            if card.blanked_by:
                state = f"blanked ({card.blanked_by})"
            elif card.side:
                state = f"transformed into {card.side}"
            tags = ", ".join(card.tags) or "no tags"
            add(
                f"{card.name} ({card.id}) {state}: {card.points} points\n"
                f"    base {card.base}; tags: {tags}"
            )
            if card.lines:
                add("    " + "\n    ".join(card.lines))
        for choice in self.choices:
            out.append(f"choice: {choice['choice']}")
        for note in self.notes:
            out.append(f"note: {note}")
        verdict = "valid" if self.valid else "NOT valid (needs a HERO or ALLY and a VILLAIN): 0"
        owed = "  (Loki's draw still owed)" if self.loki_owed else ""
        out.append(f"TOTAL {self.total}  [{verdict}]{owed}")
        return "\n".join(out)


def explain(prepared: PreparedHand, choices: Choices) -> HandResult:
    """Score a hand with fixed choices, explaining every card."""
    outcome, s = prepared.settled(choices)
    blanked = outcome.blanked
    mask = prepared.full & ~blanked
    s.loki_draw = prepared.loki_draw
    valid = prepared.valid(s)
    selene_penalty = prepared.selene_penalty(outcome.selene, blanked)
    cards = []
    points_sum = 0
    for i, c in enumerate(prepared.hand):  # every hand shown is explained: kept lean
        if blanked >> i & 1:
            explained = _blanked_card(c, outcome.reasons.get(i, "blanked"))
        else:
            explained = _explain_card(prepared, s, outcome, i, selene_penalty)
        points_sum += explained.points
        cards.append(explained)
    notes = []
    if prepared.n != NORMAL_HAND:
        notes.append(f"a final hand normally holds {NORMAL_HAND} cards; this one has {prepared.n}")
    loki_pos = s.ids.get("MR70")
    loki_owed = loki_pos is not None and prepared.loki_draw is None
    if not valid:
        notes.append("no non-blanked HERO or ALLY and VILLAIN together: the hand scores 0")
    return HandResult(
        total=points_sum if valid else 0,
        valid=valid,
        cards=cards,
        choices=_described_choices(prepared, choices, outcome, mask),
        loki_owed=loki_owed,
        chosen=choices,
        points_before_validity=points_sum,
        notes=notes,
        loki_draw=prepared.loki_draw,
    )


def _blanked_card(c: CompiledCard, why: str) -> CardResult:
    """A blanked card: why it scores nothing."""
    card = c.card
    gone = [f"0: {why}; a blanked card scores nothing and has no tags or text"]
    return CardResult(card.id, card.name, card.type, "blanked", c.power, 0, [], gone, why)


def _explain_card(
    prepared: PreparedHand, s: State, outcome: Outcome, i: int, selene_penalty: int
) -> CardResult:
    """The points of a card in play, line by line; ``selene_penalty`` is what Selene subtracts
    in this ending."""
    c = prepared.hand[i]
    card = c.card
    lines: list[str] = []
    if c.is_blanker:
        if c.self_blank is not None:
            held = "it held" if c.self_blank.unless else "it did not hold"
            lines.append(f"0: not blanked ({c.self_blank.text}: {held} when its turn came)")
        if c.blank_others is not None:
            hand = prepared.hand
            mine = c.blank_others.why
            victims = [hand[j].card.name for j, why in outcome.reasons.items() if why == mine]
            lines.append(f"0: blanks {', '.join(victims)}" if victims else "0: blanks nothing")
    transformed = s.transformed[i]
    base = s.powers[i]
    if base != (c.side_power if transformed else c.power):
        lines.append(f"base power {base} copied")
    points = base
    for scorer in c.scorers:
        points += scorer(s, i, lines)
    if selene_penalty and outcome.selene is not None and outcome.selene[0] == i:
        victim = prepared.hand[outcome.selene[1]].card
        lines.append(
            f"{signed(-selene_penalty)}: subtracts the base power of {victim.name}, "
            "which it blanked"
        )
        points -= selene_penalty
    row = s.tags[i]
    assert row is not None  # a card in play has its tags
    if row is c.printed:  # most cards end with their printed tags: named once per card
        names = c.printed_names
    else:
        found = _TAG_NAMES.get(row)
        if found is None:  # rows repeat from hand to hand: each row's names are written once
            found = _TAG_NAMES[row] = tag_names(row)
        names = found
    side = None
    if transformed:
        side = card.transform.name if card.transform else None
    return CardResult(
        card.id,
        card.name,
        card.type,
        "transformed" if transformed else "normal",
        base,
        points,
        list(names),
        lines,
        None,
        side,
    )


# a card's tags by name, each as many times as it has it, by its row of counts
_TAG_NAMES: dict[tuple[int, ...], tuple[str, ...]] = {}


def _described_choices(
    prepared: PreparedHand, choices: Choices, outcome: Outcome, mask: int
) -> list[dict[str, Any]]:
    """The owner's choices as the result reports them (the ``choices`` of the JSON)."""
    hand = prepared.hand
    described: list[dict[str, Any]] = []
    for rule, pos in prepared.choosers:
        if pos not in choices.options:
            continue
        if not mask >> pos & 1 and not prepared.sensitive:
            continue  # a blanked card's choice changed nothing (no blanking text saw it)
        option = choices.options[pos]
        described.append(
            {
                "card": hand[pos].id,
                "name": hand[pos].card.name,
                "rule": rule.name,
                "choice": rule.describe(hand, pos, option),
                "value": rule.to_json(hand, pos, option),
            }
        )
    for b, target in outcome.script:
        other = hand[b].blank_others
        if other is not None and other.one and target is not None:
            described.append(
                {
                    "card": hand[b].id,
                    "name": hand[b].card.name,
                    "rule": "blank_target",
                    "choice": f"{hand[b].card.name} blanks {hand[target].card.name}",
                    "value": hand[target].id,
                }
            )
    if choices.order is not None and len(choices.order) > 1:
        described.append(
            {
                "card": None,
                "name": None,
                "rule": "tag_order",
                "choice": "tag texts act in this order: "
                + ", ".join(hand[p].card.name for p in choices.order),
                "value": [hand[p].id for p in choices.order],
            }
        )
    acted = [b for b, _ in outcome.script]
    # The order matters with two acting blanking texts or more, and also when one text acts
    # first and blanks another that hand order would have let act first (without saying so, a
    # replay of these choices would run the hand's first blanking text first).
    if len(acted) > 1 or (
        len(acted) == 1 and prepared.blankers and acted[0] != prepared.blankers[0]
    ):
        names = [hand[b].card.name for b in acted]
        described.append(
            {
                "card": None,
                "name": None,
                "rule": "blanking_order",
                "choice": "blanking texts act in this order: " + ", ".join(names)
                if len(names) > 1
                else f"{names[0]}'s blanking text acts first",
                "value": [hand[b].id for b in acted],
            }
        )
    return described


def choices_from_json(prepared: PreparedHand, described: list[dict[str, Any]]) -> Choices:
    """Turn a result's reported ``choices`` back into fixed :class:`Choices` for this hand."""
    where = {c.id: i for i, c in enumerate(prepared.hand)}
    rules = {(prepared.hand[pos].id, rule.name): (rule, pos) for rule, pos in prepared.choosers}
    options: dict[int, Any] = {}
    targets: dict[int, int] = {}
    order: list[int] = []
    tag_order: tuple[int, ...] | None = None
    try:
        for entry in described:
            if entry["rule"] == "tag_order":
                tag_order = tuple(where[card_id] for card_id in entry["value"])
            elif entry["rule"] == "blanking_order":
                order = [where[card_id] for card_id in entry["value"]]
            elif entry["rule"] == "blank_target":
                targets[where[entry["card"]]] = where[entry["value"]]
            else:
                rule, pos = rules[(entry["card"], entry["rule"])]
                options[pos] = rule.from_json(where, entry["value"])
    except (KeyError, TypeError, ValueError) as error:
        raise RemixError(f"choices do not fit this hand: {error}") from error
    if not order:
        order = list(targets)
    return Choices(options, tuple((b, targets.get(b)) for b in order), tag_order)


def score_hand(
    cards: Sequence[Card | str],
    loki_draw: Card | str | None = None,
    *,
    choices: Choices | None = None,
    catalogue: Catalogue | None = None,
) -> HandResult:
    """Score a final hand: the best legal score over every owner choice, explained.

    ``cards`` are ids ("MR06"), names (forgiving: "captain america") or :class:`Card` objects.
    ``loki_draw`` is the REMIX card drawn for Loki; without it a hand with Loki reports
    ``loki_owed`` and the score before the draw. ``choices`` fixes the owner's choices instead
    of searching for the best ones. Raises :class:`games.remix.RemixError` on bad input.
    """
    prepared = prepare(cards, loki_draw, catalogue)
    if choices is None:
        choices = prepared.search()
    result = explain(prepared, choices)
    prepared.release()
    return result
