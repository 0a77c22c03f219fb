"""Storytelling: who tells when, and how a team splits its panels.

Order (rulings.md): the story declared done first starts (its creator holds the sand timer), then
the others follow clockwise, i.e. in table order of the stories.

A team's two members each tell part of the story: 3 and 3 panels on a 6-panel board; 4 and 5 or
5 and 4 on a 9-panel board, the team's choice (default 4 then 5). Panels are told from the top
left to the bottom right, so the first teller has panels 1..k and the second k+1..end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.comix.table import Story


def telling_order(stories: Sequence[str], first: str) -> list[str]:
    """Stories in telling order: ``first``, then clockwise around the table."""
    start = list(stories).index(first)
    return list(stories[start:]) + list(stories[:start])


def allowed_first_parts(panels: int) -> tuple[int, ...]:
    """How many panels the first teller of a team may take."""
    return (3,) if panels == 6 else (4, 5)


@dataclass(frozen=True)
class Part:
    teller: str
    first_panel: int  # 1-based, inclusive
    last_panel: int

    @property
    def label(self) -> str:
        return f"panels {self.first_panel}-{self.last_panel}"


def tellers(
    story: Story, panels: int, first_teller: str | None = None, first_part: int | None = None
) -> list[Part]:
    """Who tells which panels of a story (one part for a solo player, two for a team)."""
    if not story.is_team:
        return [Part(story.members[0], 1, panels)]
    first_teller = first_teller or story.members[0]
    if first_teller not in story.members:
        raise ValueError(f"{first_teller} is not in the team of {story.name!r}.")
    second = next(member for member in story.members if member != first_teller)
    choices = allowed_first_parts(panels)
    first_part = choices[0] if first_part is None else first_part
    if first_part not in choices:
        raise ValueError(
            f"On a {panels}-panel board a team splits its story "
            + ("3 and 3." if panels == 6 else "4 and 5, or 5 and 4.")
        )
    return [Part(first_teller, 1, first_part), Part(second, first_part + 1, panels)]
