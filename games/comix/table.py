"""Table set-up for Co-Mix: players in their seats, stories (solo players or teams), rounds, boards.

Seats go clockwise: ``players[0]`` sits in seat 1, ``players[1]`` in seat 2, and so on. Stories
are listed clockwise too (story *i* is the *i*-th Comic Page board around the table); that order
is the one storytelling follows after the first story done.

The rulebook's team table (Team Game box): with 3 to 5 players everybody plays alone; with 6 to 10
players, players form teams of two, and an odd player out plays solo:

====== ===== ==== =======
players teams solo stories
====== ===== ==== =======
6       3     0    3
7       3     1    4
8       4     0    4
9       4     1    5
10      5     0    5
====== ===== ==== =======

The rulebook does not say *who* pairs with whom. By default neighbours pair up in seat order
(seats 1+2, 3+4, ...) and the player in the last seat is the solo player; a table may choose any
other pairing as long as the numbers match the table above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MIN_PLAYERS = 3
MAX_PLAYERS = 10
MIN_ROUNDS = 1
MAX_ROUNDS = 5
DEFAULT_ROUNDS = 3
BOARD_PANELS = (6, 9)
DEFAULT_PANELS = 6
MAX_NAME_LENGTH = 16


class SetupError(ValueError):
    """A table set-up that breaks the rules; the message says which rule, in plain words."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


def team_table(player_count: int) -> tuple[int, int]:
    """The rulebook's team table: ``(teams of two, solo players)`` for a number of players."""
    if not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise SetupError(
            "player-count",
            f"Co-Mix is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {player_count}.",
        )
    if player_count <= 5:
        return 0, player_count
    return player_count // 2, player_count % 2


@dataclass(frozen=True)
class Story:
    """One Comic Page board: its name (shown on screen) and its creators (1 player or a team)."""

    name: str
    members: tuple[str, ...]

    @property
    def is_team(self) -> bool:
        return len(self.members) == 2


def default_stories(players: Sequence[str]) -> list[Story]:
    """Stories for players in seat order: everybody alone up to 5; neighbours pair up from 6."""
    teams, solos = team_table(len(players))
    stories: list[Story] = []
    for index in range(teams):
        first, second = players[2 * index], players[2 * index + 1]
        stories.append(Story(f"{first} & {second}", (first, second)))
    for player in players[2 * teams : 2 * teams + solos]:
        stories.append(Story(player, (player,)))
    return stories


def check_names(players: Sequence[str]) -> None:
    """Names must be present, short enough for the screen, and different from each other."""
    team_table(len(players))
    seen: set[str] = set()
    for seat, name in enumerate(players, start=1):
        if not isinstance(name, str) or not name.strip():
            raise SetupError("player-name", f"The player in seat {seat} needs a name.")
        if name != name.strip():
            raise SetupError("player-name", f"The name {name!r} starts or ends with a space.")
        if len(name) > MAX_NAME_LENGTH:
            raise SetupError(
                "player-name",
                f"The name {name!r} is longer than {MAX_NAME_LENGTH} characters.",
            )
        if name.casefold() in seen:
            raise SetupError("player-name", f"Two players are called {name!r}: names must differ.")
        seen.add(name.casefold())


def check_stories(players: Sequence[str], stories: Sequence[Story]) -> None:
    """Every player creates exactly one story; the number of teams follows the rulebook table."""
    teams, solos = team_table(len(players))
    names = set(players)
    owner: dict[str, str] = {}
    story_names: set[str] = set()
    for story in stories:
        if not story.name.strip():
            raise SetupError("story-name", "Every story needs a name.")
        if story.name in story_names:
            raise SetupError("story-name", f"Two stories are called {story.name!r}.")
        story_names.add(story.name)
        if not 1 <= len(story.members) <= 2:
            raise SetupError(
                "team-size",
                f"Story {story.name!r} has {len(story.members)} creators; a story is made by "
                "one player alone or by a team of two.",
            )
        for member in story.members:
            if member not in names:
                raise SetupError(
                    "story-member", f"Story {story.name!r} names {member!r}, who is not playing."
                )
            if member in owner:
                raise SetupError(
                    "story-member",
                    f"{member} is a creator of both {owner[member]!r} and {story.name!r}; "
                    "each player works on exactly one story.",
                )
            owner[member] = story.name
    for player in players:
        if player not in owner:
            raise SetupError("story-member", f"{player} is not a creator of any story.")
    team_count = sum(1 for story in stories if story.is_team)
    solo_count = len(stories) - team_count
    if (team_count, solo_count) != (teams, solos):
        if teams == 0:
            expected = f"with {len(players)} players everybody plays alone"
        else:
            expected = f"with {len(players)} players the rulebook forms {teams} teams of two" + (
                f" and {solos} solo player" if solos else " and no solo player"
            )
        raise SetupError(
            "team-table",
            f"{expected}, but this set-up has {team_count} teams and {solo_count} solo players.",
        )


@dataclass(frozen=True)
class TableSetup:
    """Who plays, where they sit, which stories they make, how many rounds, which board side."""

    players: tuple[str, ...]
    stories: tuple[Story, ...] = field(default=())
    rounds: int = DEFAULT_ROUNDS
    panels: int = DEFAULT_PANELS

    @classmethod
    def create(
        cls,
        players: Sequence[str],
        stories: Sequence[Story] | None = None,
        rounds: int = DEFAULT_ROUNDS,
        panels: int = DEFAULT_PANELS,
    ) -> TableSetup:
        """Check everything and build a set-up (default teams: neighbours in seat order)."""
        check_names(players)
        chosen = list(stories) if stories is not None else default_stories(players)
        check_stories(players, chosen)
        if isinstance(rounds, bool) or not isinstance(rounds, int):
            raise SetupError("rounds", "The number of rounds must be a whole number.")
        if not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
            raise SetupError(
                "rounds",
                f"A game lasts {MIN_ROUNDS} to {MAX_ROUNDS} rounds (usually {DEFAULT_ROUNDS}), "
                f"not {rounds}.",
            )
        if panels not in BOARD_PANELS:
            raise SetupError("board", f"Comic Page boards have 6 or 9 panels, not {panels}.")
        return cls(tuple(players), tuple(chosen), rounds, panels)

    @property
    def story_names(self) -> list[str]:
        return [story.name for story in self.stories]

    def story(self, name: str) -> Story:
        for story in self.stories:
            if story.name == name:
                return story
        raise KeyError(name)

    def story_of(self, player: str) -> Story:
        """The story a player creates (alone or with a team mate)."""
        for story in self.stories:
            if player in story.members:
                return story
        raise KeyError(player)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "stories": [{"name": s.name, "members": list(s.members)} for s in self.stories],
            "rounds": self.rounds,
            "panels": self.panels,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSetup:
        stories = [Story(str(s["name"]), tuple(s["members"])) for s in data["stories"]]
        return cls.create(list(data["players"]), stories, int(data["rounds"]), int(data["panels"]))
