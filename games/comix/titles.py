"""Round titles: the rulebook's example list (packaged TOML), a seeded random draw, or typed.

The random draw never repeats a title already used (or already offered and refused) in the same
game; only when the whole list has been seen does it start over. The draw is a pure function of
the game's seed and how many titles were drawn before, so a saved game restores to the same draw.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Sequence
from functools import cache
from importlib import resources

MAX_TITLE_LENGTH = 60


class TitleError(ValueError):
    """A typed title that cannot be used."""


@cache
def rulebook_titles() -> tuple[str, ...]:
    """The example titles from the rulebook, as packaged in ``titles.toml``."""
    text = resources.files(__package__).joinpath("titles.toml").read_text(encoding="utf-8")
    titles = tomllib.loads(text)["titles"]
    return tuple(str(title) for title in titles)


def draw_title(seed: int, seen: Sequence[str], titles: Sequence[str] | None = None) -> str:
    """A random title not in ``seen``; deterministic for a given seed and ``seen`` list."""
    pool = list(titles if titles is not None else rulebook_titles())
    if not pool:
        raise TitleError("The title list is empty.")
    fresh = [title for title in pool if title not in set(seen)]
    if not fresh:  # every title has been seen: start the list over
        fresh = pool
    return random.Random(f"{seed}:{len(seen)}").choice(fresh)


def typed_title(text: str) -> str:
    """A title the players typed: trimmed, non-empty, short enough for the screen."""
    title = " ".join(text.split())
    if not title:
        raise TitleError("A title cannot be empty.")
    if len(title) > MAX_TITLE_LENGTH:
        raise TitleError(f"A title can be at most {MAX_TITLE_LENGTH} characters long.")
    return title
