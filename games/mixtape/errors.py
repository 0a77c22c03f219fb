"""The one error family of the Mixtape rules: every refusal says what is wrong and where."""

from __future__ import annotations


class MixtapeError(ValueError):
    """Bad input for I Made You a Mixtape (deck file, card id, mixtape, move)."""


class DeckError(MixtapeError):
    """The deck file is missing, not TOML, or breaks the schema (names the card and field)."""


class UnknownCardError(MixtapeError):
    """A card id that the deck file does not define."""


class IllegalMixtapeError(MixtapeError):
    """A mixtape that cannot arise under the rules (wrong column, cube off the Equalizer...)."""


class IllegalMoveError(MixtapeError):
    """A move the round engine refuses (wrong phase, wrong pile, card not in hand...)."""
