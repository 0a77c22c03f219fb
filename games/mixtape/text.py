"""The score in words: the plain-text block ``tablekeeper mixtape score`` and ``solo`` print."""

from __future__ import annotations

from games.mixtape.deck import GENRE_NAMES, Deck
from games.mixtape.scoring import MixtapeScore, genre_set_points


def describe_score(deck: Deck, score: MixtapeScore, title: str = "Mixtape") -> str:
    """Balance (where the cube stands), Flow (each column's cards with their points), the genre
    sets and the total, one line each."""
    position = score.balance_position
    where = (
        "on the start square"
        if position == 0
        else f"{abs(position)} square{'s' * (abs(position) != 1)} "
        f"{'left' if position < 0 else 'right'} of the start square"
    )
    lines = [f"{title} (deck: {deck.name})"]
    lines.append(f"  Balance: {score.balance_points:>3}  (cube {where})")
    lines.append(f"  Flow:    {score.flow:>3}")
    for column in ("A", "B"):
        cards = [c for c in score.cards if c.column == column]
        detail = ", ".join(f"{c.id} {c.flow_points}" for c in cards) or "empty"
        lines.append(f"           Trk {column}: {detail}")
    sets = ", ".join(
        f"{GENRE_NAMES[g]} {n}→{genre_set_points(n)}" for g, n in score.genre_sets.items()
    )
    lines.append(f"  Genres:  {score.genres:>3}  ({sets or 'no genre cards'})")
    lines.append(f"  Total:   {score.total:>3}")
    return "\n".join(lines)
