"""Consensus, points and the final ranking (rulebook "Reviewing, Consensus and Scoring").

Consensus (rulings.md): neutral tokens are always discarded. For each other kind, the stories
holding the most tokens of that kind keep them -- all tied stories keep theirs -- and the tokens of
that kind on every other story are discarded. A kind that no story received does nothing.

Points: each creator of a story (both members of a team) gets 1 point per token left on it; every
player also gets 2 points per token of their own left on a story that is not theirs.

So over a round, with teams, the points add up to
``sum(kept tokens on a story x its number of creators)``
``+ 2 x (kept tokens placed on other players' stories)``, which, when everybody plays alone,
is "kept tokens + 2 x kept tokens placed on other stories".

Ranking: most points first; on a tie, fewer Slow tokens ranks higher; a tie on both is shared
(same place; the winners are everybody in first place).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.comix.ballot import SCORING_KINDS, Ballot, Token, validate_ballot
from games.comix.table import TableSetup


@dataclass(frozen=True)
class RoundResult:
    """Everything the reveal shows, kind by kind and player by player."""

    received: dict[str, dict[str, int]]  # story -> kind -> tokens placed (neutral included)
    kept: dict[str, dict[str, int]]  # story -> scoring kind -> tokens left after consensus
    keepers: dict[str, list[str]]  # scoring kind -> stories that keep it ([] if nobody got any)
    story_points: dict[str, int]  # points each creator of the story gets from it
    creator_points: dict[str, int]  # player -> points from their own story
    reviewer_points: dict[str, int]  # player -> 2 x own tokens kept on others' stories
    points: dict[str, int]  # player -> total for the round

    def to_json(self) -> dict[str, Any]:
        return {
            "received": self.received,
            "kept": self.kept,
            "keepers": self.keepers,
            "story_points": self.story_points,
            "creator_points": self.creator_points,
            "reviewer_points": self.reviewer_points,
            "points": self.points,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundResult:
        return cls(
            received={s: dict(k) for s, k in data["received"].items()},
            kept={s: dict(k) for s, k in data["kept"].items()},
            keepers={k: list(s) for k, s in data["keepers"].items()},
            story_points=dict(data["story_points"]),
            creator_points=dict(data["creator_points"]),
            reviewer_points=dict(data["reviewer_points"]),
            points=dict(data["points"]),
        )


class MissingBallotError(ValueError):
    def __init__(self, player: str) -> None:
        super().__init__(f"{player} has not reviewed yet: every player places tokens.")
        self.player = player
        self.rule = "every-reviewer"


def score_round(setup: TableSetup, ballots: Mapping[str, Any]) -> RoundResult:
    """Validate every player's ballot and score the round."""
    for player in ballots:
        if player not in setup.players:
            validate_ballot(setup, player, ballots[player])  # raises "reviewer"
    checked: dict[str, Ballot] = {}
    for player in setup.players:
        if player not in ballots:
            raise MissingBallotError(player)
        checked[player] = validate_ballot(setup, player, ballots[player])

    stories = setup.story_names
    received = {s: {str(kind): 0 for kind in Token} for s in stories}
    for ballot in checked.values():
        for story, tokens in ballot.items():
            for token in tokens:
                received[story][str(token)] += 1

    keepers: dict[str, list[str]] = {}
    kept = {s: {str(kind): 0 for kind in SCORING_KINDS} for s in stories}
    for kind in SCORING_KINDS:
        most = max(received[s][kind] for s in stories)
        keepers[str(kind)] = [s for s in stories if most > 0 and received[s][kind] == most]
        for story in keepers[str(kind)]:
            kept[story][str(kind)] = most

    story_points = {s: sum(kept[s].values()) for s in stories}
    creator_points = {p: story_points[setup.story_of(p).name] for p in setup.players}
    reviewer_points = {p: 0 for p in setup.players}
    for player, ballot in checked.items():
        own = setup.story_of(player).name
        for story, tokens in ballot.items():
            if story == own:
                continue
            for token in tokens:
                if token in SCORING_KINDS and story in keepers[str(token)]:
                    reviewer_points[player] += 2
    points = {p: creator_points[p] + reviewer_points[p] for p in setup.players}
    return RoundResult(
        received, kept, keepers, story_points, creator_points, reviewer_points, points
    )


@dataclass(frozen=True)
class Standing:
    place: int  # 1 = winner; equal places share
    player: str
    points: int
    slow: int


def rank(
    players: Sequence[str], points: Mapping[str, int], slow: Mapping[str, int]
) -> list[Standing]:
    """Final ranking: most points, then fewest Slow tokens; a tie on both shares the place."""
    order = sorted(players, key=lambda p: (-points[p], slow.get(p, 0), players.index(p)))
    standings: list[Standing] = []
    for index, player in enumerate(order):
        key = (points[player], slow.get(player, 0))
        previous = standings[-1] if standings else None
        if previous and (previous.points, previous.slow) == key:
            place = previous.place
        else:
            place = index + 1
        standings.append(Standing(place, player, points[player], slow.get(player, 0)))
    return standings


def winners(standings: Sequence[Standing]) -> list[str]:
    """Everybody in first place (more than one: a shared victory)."""
    return [s.player for s in standings if s.place == 1]
