"""Counts said as players say them: "1 card", "3 cards" (never "1 card(s)")."""

from __future__ import annotations


def count(number: int, noun: str, plural: str = "") -> str:
    """``number`` and ``noun``, plural unless it is one: ``count(1, "card")`` is "1 card"."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
