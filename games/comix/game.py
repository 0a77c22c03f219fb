"""A whole game of Co-Mix as a small state machine that serialises to plain JSON.

Each round goes through the rulebook's phases::

    title -> scripting -> storytelling -> reviewing -> reveal -> (next round's title | over)

Every method is one table event; after each one the appliance saves :meth:`Game.to_json` and can
rebuild the game with :meth:`Game.from_json` after a power cut. Ballots are kept in the state (so
a reviewer's work survives a power cut) but nothing here prints or logs them; the round result is
only computed when the last ballot is in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from games.comix.ballot import Ballot, Token, ballot_to_json, validate_ballot
from games.comix.scoring import RoundResult, Standing, rank, score_round, winners
from games.comix.scripting import Scripting
from games.comix.storytelling import Part, allowed_first_parts, tellers, telling_order
from games.comix.table import TableSetup
from games.comix.titles import draw_title, typed_title

STATE_VERSION = 1


class Phase(StrEnum):
    """The phases of a round, in order; the values are what the saved state stores."""

    TITLE = "title"
    SCRIPTING = "scripting"
    STORYTELLING = "storytelling"
    REVIEWING = "reviewing"
    REVEAL = "reveal"
    OVER = "over"


TITLE, SCRIPTING, STORYTELLING, REVIEWING, REVEAL, OVER = Phase
PHASES = tuple(Phase)


class PhaseError(RuntimeError):
    """An event that does not belong to the current phase."""


@dataclass
class Round:
    number: int
    scripting: Scripting
    title: str | None = None
    first_parts: dict[str, int] = field(default_factory=dict)  # team story -> panels of 1st part
    first_tellers: dict[str, str] = field(default_factory=dict)  # team story -> who starts
    storyteller: int = 0  # index in the telling order of the story being told
    ballots: dict[str, Ballot] = field(default_factory=dict)
    result: RoundResult | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "title": self.title,
            "scripting": self.scripting.to_json(),
            "first_parts": dict(self.first_parts),
            "first_tellers": dict(self.first_tellers),
            "storyteller": self.storyteller,
            "ballots": {p: ballot_to_json(b) for p, b in self.ballots.items()},
            "result": self.result.to_json() if self.result else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        return cls(
            number=int(data["number"]),
            scripting=Scripting.from_json(data["scripting"]),
            title=data.get("title"),
            first_parts={k: int(v) for k, v in data.get("first_parts", {}).items()},
            first_tellers=dict(data.get("first_tellers", {})),
            storyteller=int(data.get("storyteller", 0)),
            ballots={
                p: {s: [Token(t) for t in tokens] for s, tokens in b.items()}
                for p, b in data.get("ballots", {}).items()
            },
            result=RoundResult.from_json(data["result"]) if data.get("result") else None,
        )


@dataclass
class Game:
    setup: TableSetup
    seed: int = 0
    phase: Phase = Phase.TITLE
    rounds: list[Round] = field(default_factory=list)
    titles_seen: list[str] = field(default_factory=list)

    @classmethod
    def new(cls, setup: TableSetup, seed: int = 0) -> Game:
        game = cls(setup, seed)
        game.rounds.append(Round(1, Scripting(setup.story_names)))
        return game

    # -- where we are --------------------------------------------------------------------------
    @property
    def round(self) -> Round:
        return self.rounds[-1]

    def _expect(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise PhaseError(
                f"This cannot be done during {self.phase} (needs {', '.join(phases)})."
            )

    def rematch(self, seed: int = 0) -> Game:
        """A new game for the same table: the same players in the same seats, the same teams
        and story names, rounds and board; nothing of this game's rounds carries over."""
        return Game.new(self.setup, seed)

    # -- preparation: the title ----------------------------------------------------------------
    def propose_title(self) -> str:
        """A random rulebook title not yet used or offered in this game."""
        self._expect(TITLE)
        title = draw_title(self.seed, self.titles_seen)
        self.titles_seen.append(title)
        return title

    def set_title(self, title: str) -> None:
        """Choose the round's title (drawn or typed); scripting starts."""
        self._expect(TITLE)
        chosen = typed_title(title)
        if chosen not in self.titles_seen:
            self.titles_seen.append(chosen)
        self.round.title = chosen
        self.phase = SCRIPTING

    # -- scripting -----------------------------------------------------------------------------
    def declare_done(self, story: str) -> None:
        self._expect(SCRIPTING)
        self.round.scripting.declare_done(story)

    def undo_done(self, story: str) -> None:
        self._expect(SCRIPTING)
        self.round.scripting.undo_done(story)

    def time_up(self) -> None:
        self._expect(SCRIPTING)
        self.round.scripting.time_up()

    def start_storytelling(self) -> None:
        self._expect(SCRIPTING)
        if not self.round.scripting.over:
            raise PhaseError("Storytelling starts when every story is done or time ran out.")
        self.phase = STORYTELLING

    # -- storytelling --------------------------------------------------------------------------
    def telling_order(self) -> list[str]:
        scripting = self.round.scripting
        if not scripting.done_order:
            return list(self.setup.story_names)
        return telling_order(self.setup.story_names, scripting.done_order[0])

    def parts(self, story: str) -> list[Part]:
        """Who tells which panels of ``story`` this round."""
        return tellers(
            self.setup.story(story),
            self.setup.panels,
            self.round.first_tellers.get(story),
            self.round.first_parts.get(story),
        )

    def set_split(self, story: str, first_teller: str, first_part: int | None = None) -> None:
        """A team decides who tells first and (9 panels) whether the split is 4/5 or 5/4."""
        self._expect(SCRIPTING, STORYTELLING)
        part = allowed_first_parts(self.setup.panels)[0] if first_part is None else first_part
        tellers(self.setup.story(story), self.setup.panels, first_teller, part)  # validates
        self.round.first_tellers[story] = first_teller
        self.round.first_parts[story] = part

    @property
    def current_story(self) -> str | None:
        order = self.telling_order()
        index = self.round.storyteller
        return order[index] if self.phase == STORYTELLING and index < len(order) else None

    def next_storyteller(self) -> None:
        """The current story has been told; the next one starts (or reviewing, after the last)."""
        self._expect(STORYTELLING)
        self.round.storyteller += 1
        if self.round.storyteller >= len(self.setup.stories):
            self.phase = REVIEWING

    def previous_storyteller(self) -> None:
        self._expect(STORYTELLING)
        self.round.storyteller = max(0, self.round.storyteller - 1)

    # -- reviewing -----------------------------------------------------------------------------
    @property
    def next_reviewer(self) -> str | None:
        """Players review one at a time, in seat order."""
        if self.phase != REVIEWING:
            return None
        for player in self.setup.players:
            if player not in self.round.ballots:
                return player
        return None

    @property
    def reviewed(self) -> list[str]:
        return [p for p in self.setup.players if p in self.round.ballots]

    def submit_ballot(self, player: str, ballot: Any) -> None:
        """Record one player's whole ballot (refused with the rule it breaks if invalid)."""
        self._expect(REVIEWING)
        if player in self.round.ballots:
            raise PhaseError(f"{player} has already reviewed this round.")
        self.round.ballots[player] = validate_ballot(self.setup, player, ballot)
        if len(self.round.ballots) == len(self.setup.players):
            self.round.result = score_round(self.setup, self.round.ballots)
            self.phase = REVEAL

    # -- reveal, next round, end ---------------------------------------------------------------
    def next_round(self) -> None:
        """Leave the reveal: a new round, or the end of the game after the last one."""
        self._expect(REVEAL)
        if len(self.rounds) >= self.setup.rounds:
            self.phase = OVER
            return
        self.rounds.append(Round(len(self.rounds) + 1, Scripting(self.setup.story_names)))
        self.phase = TITLE

    def round_slow(self, game_round: Round) -> dict[str, int]:
        return game_round.scripting.slow_tokens(self.setup)

    def totals(self) -> dict[str, int]:
        """Points so far (revealed rounds only)."""
        totals = {p: 0 for p in self.setup.players}
        for game_round in self.rounds:
            if game_round.result:
                for player, points in game_round.result.points.items():
                    totals[player] += points
        return totals

    def slow_totals(self) -> dict[str, int]:
        """Slow tokens so far (awarded when a round's scripting is over)."""
        slow = {p: 0 for p in self.setup.players}
        for game_round in self.rounds:
            for player, count in self.round_slow(game_round).items():
                slow[player] += count
        return slow

    def standings(self) -> list[Standing]:
        return rank(self.setup.players, self.totals(), self.slow_totals())

    def winners(self) -> list[str]:
        return winners(self.standings())

    # -- persistence ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "game": "comix",
            "version": STATE_VERSION,
            "setup": self.setup.to_json(),
            "seed": self.seed,
            "phase": str(self.phase),
            "rounds": [r.to_json() for r in self.rounds],
            "titles_seen": list(self.titles_seen),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        if data.get("game") != "comix" or data.get("version") != STATE_VERSION:
            raise ValueError("This is not a saved Co-Mix game this version can read.")
        phase = str(data["phase"])
        if phase not in PHASES:
            raise ValueError(f"Unknown phase {phase!r} in saved Co-Mix game.")
        game = cls(
            setup=TableSetup.from_json(data["setup"]),
            seed=int(data["seed"]),
            phase=Phase(phase),
            rounds=[Round.from_json(r) for r in data["rounds"]],
            titles_seen=list(data.get("titles_seen", [])),
        )
        if not game.rounds:
            raise ValueError("A saved Co-Mix game has at least one round.")
        return game
