"""Review tokens and the validation of one player's whole ballot.

A ballot says which of the reviewer's tokens go on which story: ``{story: [token, ...]}``.
The rules it must follow (rulebook "Reviewing", settled by rulings.md):

* every story of the round gets tokens from every reviewer, their own (or their team's) included;
* exactly one token per story -- except with three players, where each of the two other stories
  gets two tokens and the reviewer's own story one;
* the tokens come from the reviewer's own set of five: one Original, one Exciting, one Composed
  and two Neutral, each used at most once;
* at least one of them is Neutral.

A ballot that breaks a rule raises :class:`BallotError`, whose message names the player and the
rule in words a player understands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from games.comix.table import TableSetup


class Token(StrEnum):
    ORIGINAL = "original"
    EXCITING = "exciting"
    COMPOSED = "composed"
    NEUTRAL = "neutral"

    @property
    def label(self) -> str:
        return self.value.capitalize()


#: The non-neutral kinds, in the order the consensus is checked and shown.
SCORING_KINDS: tuple[Token, ...] = (Token.ORIGINAL, Token.EXCITING, Token.COMPOSED)

#: Each player's set of five review tokens (rulings: two of them Neutral).
TOKEN_SET: Mapping[Token, int] = {
    Token.ORIGINAL: 1,
    Token.EXCITING: 1,
    Token.COMPOSED: 1,
    Token.NEUTRAL: 2,
}

Ballot = dict[str, list[Token]]

# The rules, as a player would say them. BallotError.rule is one of these keys.
RULES: Mapping[str, str] = {
    "not-a-ballot": "a ballot lists, for each story, the tokens placed on it",
    "known-story": "tokens go only on this round's stories",
    "known-token": "review tokens are Original, Exciting, Composed or Neutral",
    "every-story": "every story gets tokens from every reviewer, their own story included",
    "own-story": "exactly one token on your own story",
    "one-per-story": "exactly one token on each story",
    "two-per-story": "with three players, two tokens on each of the other two stories",
    "own-set": "use only your own five tokens: one Original, one Exciting, one Composed and "
    "two Neutral, each at most once",
    "one-neutral": "at least one of your tokens must be Neutral",
    "reviewer": "only players of this game review",
}


class BallotError(ValueError):
    """A ballot refused: ``player`` broke ``rule`` (a key of :data:`RULES`)."""

    def __init__(self, player: str, rule: str, detail: str) -> None:
        self.player = player
        self.rule = rule
        self.detail = detail
        super().__init__(f"{player}'s ballot breaks the rule '{RULES[rule]}': {detail}")


def tokens_per_story(setup: TableSetup, player: str) -> dict[str, int]:
    """How many tokens ``player`` must place on each story (2 on other stories with 3 players)."""
    own = setup.story_of(player).name
    others = 2 if len(setup.players) == 3 else 1
    return {story: 1 if story == own else others for story in setup.story_names}


def parse_token(player: str, value: Any) -> Token:
    if isinstance(value, Token):
        return value
    if isinstance(value, str):
        try:
            return Token(value.strip().lower())
        except ValueError:
            pass
    raise BallotError(player, "known-token", f"{value!r} is not a review token.")


def validate_ballot(setup: TableSetup, player: str, ballot: Any) -> Ballot:
    """Check one player's whole ballot; return it normalised (stories in table order)."""
    if player not in setup.players:
        raise BallotError(player, "reviewer", f"{player!r} is not playing this game.")
    if not isinstance(ballot, Mapping):
        raise BallotError(player, "not-a-ballot", "the ballot is not a list of stories.")
    story_names = setup.story_names
    parsed: dict[str, list[Token]] = {}
    for story, tokens in ballot.items():
        if story not in story_names:
            raise BallotError(
                player,
                "known-story",
                f"{story!r} is not a story this round (stories: {', '.join(story_names)}).",
            )
        if isinstance(tokens, str) or not isinstance(tokens, Sequence):
            raise BallotError(
                player, "not-a-ballot", f'the tokens on {story!r} must be a list, like ["neutral"].'
            )
        parsed[story] = [parse_token(player, token) for token in tokens]

    wanted = tokens_per_story(setup, player)
    own = setup.story_of(player).name
    for story in story_names:
        if not parsed.get(story):
            whose = "your own story" if story == own else "the story"
            raise BallotError(player, "every-story", f"{whose} {story!r} got no token.")
    for story in story_names:
        count, need = len(parsed[story]), wanted[story]
        if count == need:
            continue
        if story == own:
            raise BallotError(player, "own-story", f"{count} tokens on own story {story!r}.")
        rule = "two-per-story" if need == 2 else "one-per-story"
        raise BallotError(player, rule, f"{story!r} got {count} tokens instead of {need}.")

    used = Counter(token for tokens in parsed.values() for token in tokens)
    for token, allowed in TOKEN_SET.items():
        if used[token] > allowed:
            have = "one" if allowed == 1 else "two"
            raise BallotError(
                player,
                "own-set",
                f"{used[token]} {token.label} tokens used, but a player has only {have}.",
            )
    if used[Token.NEUTRAL] == 0:
        raise BallotError(player, "one-neutral", "no Neutral token was placed.")
    return {story: parsed[story] for story in story_names}


def ballot_to_json(ballot: Mapping[str, Sequence[Token]]) -> dict[str, list[str]]:
    return {story: [str(token) for token in tokens] for story, tokens in ballot.items()}


def ballot_slots(setup: TableSetup, player: str) -> list[tuple[str, int]]:
    """The places a reviewer fills, in table order: ``(story, n-th token on it)``."""
    wanted = tokens_per_story(setup, player)
    return [(story, slot) for story in setup.story_names for slot in range(wanted[story])]
