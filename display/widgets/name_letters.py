"""Likely next letters of a player's name, for the on-screen keyboard's knob: the letters that
follow what is typed so far in common given names are offered first, so a name is reached in
a few knob steps instead of a trip round the alphabet.

The model is a list of common given names (English-speaking tables, short forms included):
after a typed prefix, the letters that continue names with that prefix, most names first; where
fewer names share the prefix, the letters that follow its last letter anywhere in the list;
then the letters most common in names. Only the order the knob offers letters changes: the
keys, taps and typing are the same for every name.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

COMMON_NAMES = """
Aaron Abby Adam Adrian Aidan Al Alan Alex Alice Alicia Alison Amanda Amber Amy Andrea Andrew
Andy Angela Anita Ann Anna Anne Annie Anthony Anton Arthur Ava Barbara Bea Becky Ben Beth Betty
Bill Billy Bob Bobby Bonnie Brad Brenda Brian Bruce Bryan Carl Carla Carol Caroline Cat Cathy
Charles Charlie Chloe Chris Claire Clara Colin Connor Craig Dan Dana Daniel Danny Dave David
Dawn Dean Debbie Dennis Diana Diane Dick Don Donna Doug Dylan Ed Eddie Edward Eleanor Eli
Elizabeth Ella Ellen Emily Emma Eric Erin Ethan Eva Eve Evan Faye Fiona Frank Fred Gail Gary
Gavin George Gina Glen Grace Greg Gus Hank Hannah Harry Heather Helen Henry Holly Hugo Ian Ida
Isaac Isabel Ivan Ivy Jack Jackie Jake James Jamie Jan Jane Janet Jason Jay Jean Jeff Jen
Jenny Jerry Jess Jill Jim Jimmy Joan Joanne Joe Joel John Jon Josh Joy Joyce Judy Julia Julie
June Justin Karen Kate Katie Kay Keith Kelly Ken Kevin Kim Kyle Lara Laura Lauren Leah Lee Leo
Leon Lily Linda Lisa Liz Logan Lou Louise Lucy Luke Lynn Mae Maggie Mandy Marc Maria Mark Martin
Mary Matt Max Megan Mel Mia Mike Milo Molly Nancy Nat Neil Nick Nicole Nina Noah Noel Nora Olive
Oliver Olivia Oscar Owen Pam Pat Paul Paula Peggy Penny Pete Peter Phil Polly Rachel Ray
Rebecca Rick Rita Rob Robert Robin Rod Ron Rosa Rose Ruby Ruth Ryan Sally Sam Sandra Sara Sarah
Scott Sean Seth Sharon Sheila Simon Sophie Stan Steve Sue Susan Tara Ted Teresa Terry Tim Tina
Toby Todd Tom Tommy Tony Tracy Troy Ulla Uma Val Vera Vic Vicky Vince Wade Walt Wanda Wendy Will
Yara Yves Zack Zara Zoe
""".split()

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@cache
def _names() -> tuple[str, ...]:
    return tuple(name.upper() for name in COMMON_NAMES)


@cache
def _after_letter() -> dict[str, Counter[str]]:
    """For each letter, how often each letter follows it inside the names."""
    follows: dict[str, Counter[str]] = {letter: Counter() for letter in LETTERS}
    for name in _names():
        for here, after in zip(name, name[1:], strict=False):
            if here in follows and after in LETTERS:
                follows[here][after] += 1
    return follows


@cache
def _overall() -> tuple[str, ...]:
    counts = Counter(letter for name in _names() for letter in name if letter in LETTERS)
    return tuple(letter for letter, _ in counts.most_common()) + tuple(
        letter for letter in LETTERS if letter not in counts
    )


def next_letters(typed: str, count: int) -> list[str]:
    """The ``count`` letters most likely to come next after ``typed`` (upper case)."""
    prefix = typed.upper()
    if prefix and not prefix[-1].isalpha():
        prefix = ""  # after a space or hyphen a new part of the name starts
    chosen: list[str] = []

    def take(letters: list[str] | tuple[str, ...]) -> None:
        for letter in letters:
            if letter in LETTERS and letter not in chosen and len(chosen) < count:
                chosen.append(letter)

    words = prefix.split()[-1:] if prefix else []
    start = words[0] if words else ""
    continuing = Counter(
        name[len(start)] for name in _names() if name.startswith(start) and len(name) > len(start)
    )
    take([letter for letter, _ in continuing.most_common()])
    if start:
        take([letter for letter, _ in _after_letter()[start[-1]].most_common()])
    take(_overall())
    return chosen
