"""Scripting: the order in which stories are declared done, and who takes Slow tokens.

The engine knows no clock: the appliance tells it when a story is declared done (a seat button),
when a declaration is taken back (the same button again within two seconds) and when the sand
timer ran out. The first declaration is the moment the first creator flips the sand timer.

Slow tokens (rulings.md): when every story was declared done before the timer ran out, the last
one declared gets a Slow token -- both members of a team. When the timer runs out, every story not
yet declared gets one instead (both members of a team), and nobody else does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.comix.table import TableSetup


class ScriptingError(ValueError):
    """An event that cannot happen now (e.g. declaring a story done twice)."""


@dataclass
class Scripting:
    stories: list[str]
    done_order: list[str] = field(default_factory=list)
    timed_out: bool = False

    @property
    def timer_started(self) -> bool:
        """The sand timer runs from the first story declared done."""
        return bool(self.done_order) or self.timed_out

    @property
    def all_done(self) -> bool:
        return len(self.done_order) == len(self.stories)

    @property
    def over(self) -> bool:
        return self.all_done or self.timed_out

    @property
    def unfinished(self) -> list[str]:
        return [story for story in self.stories if story not in self.done_order]

    def declare_done(self, story: str) -> None:
        if story not in self.stories:
            raise ScriptingError(f"{story!r} is not a story this round.")
        if self.timed_out:
            raise ScriptingError("The sand timer has run out: no more stories can be declared.")
        if story in self.done_order:
            raise ScriptingError(f"{story!r} was already declared done.")
        self.done_order.append(story)

    def undo_done(self, story: str) -> None:
        """Take back a declaration (pressed by mistake); the panels may move again."""
        if self.timed_out:
            raise ScriptingError("The sand timer has run out: declarations are final.")
        if story not in self.done_order:
            raise ScriptingError(f"{story!r} was not declared done.")
        self.done_order.remove(story)

    def time_up(self) -> None:
        """The sand timer ran out (ignored once every story is done)."""
        if not self.done_order:
            raise ScriptingError("The sand timer only runs after the first story is done.")
        if not self.all_done:
            self.timed_out = True

    def slow_stories(self) -> list[str]:
        """The stories whose creators take a Slow token (only once scripting is over)."""
        if self.timed_out:
            return self.unfinished
        if self.all_done:
            return [self.done_order[-1]]
        return []

    def slow_tokens(self, setup: TableSetup) -> dict[str, int]:
        """Slow tokens per player for this round (both members of a team)."""
        slow = {player: 0 for player in setup.players}
        for story in self.slow_stories():
            for member in setup.story(story).members:
                slow[member] += 1
        return slow

    def to_json(self) -> dict[str, Any]:
        return {
            "stories": list(self.stories),
            "done_order": list(self.done_order),
            "timed_out": self.timed_out,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Scripting:
        return cls(list(data["stories"]), list(data["done_order"]), bool(data["timed_out"]))
