"""The multiplayer round engine (2–4 players): Split → Pass → Keep → Return → Add → Repeat.

Seats are numbered clockwise; a player passes to the left (seat + 1) and gets piles from the
right (seat − 1). Every player acts in each phase before the game moves on (the rulebook has them
act simultaneously); the state is plain JSON after every call (`to_json` / `from_json`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from games.mixtape.deck import Deck
from games.mixtape.errors import IllegalMoveError, MixtapeError
from games.mixtape.scoring import MixtapeScore, winners
from games.mixtape.setup import (
    CARDS_PER_SPLIT,
    SETUP_REMOVALS,
    checked_order,
    setup_tapes,
    shuffled,
)
from games.mixtape.tape import Tape, best_order, points_gained

STATE_KIND = "mixtape-multiplayer"


class Step(StrEnum):
    """The steps of a multiplayer round the engine waits in (Pass and Return happen at once);
    the values are what the saved state stores."""

    SPLIT = "split"
    KEEP = "keep"
    ADD = "add"
    OVER = "over"


SPLIT, KEEP, ADD, OVER = Step


@dataclass
class MixtapeGame:
    deck: Deck
    players: list[str]
    seed: int | str
    pile: list[str]  # the face-down Track deck, top first
    box: list[str]
    tapes: list[Tape]
    phase: Step = Step.SPLIT
    round: int = 0
    hands: list[list[str]] = field(default_factory=list)
    piles: list[list[list[str]] | None] = field(default_factory=list)
    kept: list[int | None] = field(default_factory=list)
    to_add: list[list[str]] = field(default_factory=list)
    added: list[bool] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)

    # ---- set-up ---------------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        deck: Deck,
        players: int | Sequence[str],
        seed: int | str = 0,
        order: Sequence[str] | None = None,
    ) -> MixtapeGame:
        names = (
            [f"Player {i + 1}" for i in range(players)]
            if isinstance(players, int)
            else list(players)
        )
        if len(names) not in SETUP_REMOVALS:
            raise IllegalMoveError(
                f"the multiplayer game is for 2 to 4 players, not {len(names)} "
                "(1 player: the solo game against Otto)"
            )
        if len(set(names)) != len(names):
            raise IllegalMoveError("player names must differ")
        rng = random.Random(f"mixtape:{seed}")
        wanted = [card.id for card in deck.for_players(len(names))]
        if order is None:
            pile = shuffled(wanted, rng)
        else:
            pile = checked_order(deck, wanted, order, "the Track deck")
        tapes = setup_tapes(deck, pile, len(names), rng)
        removed = SETUP_REMOVALS[len(names)]
        box, pile = pile[:removed], pile[removed:]
        game = cls(deck=deck, players=names, seed=seed, pile=pile, box=box, tapes=tapes)
        game._next_round()
        return game

    # ---- the round ---------------------------------------------------------------------
    @property
    def count(self) -> int:
        return len(self.players)

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.count

    def right_of(self, seat: int) -> int:
        return (seat - 1) % self.count

    def _next_round(self) -> None:
        need = CARDS_PER_SPLIT * self.count
        if 0 < len(self.pile) < need:
            # Assumption (README): a round needs three cards per player; leftovers go unseen
            # to the box and the game ends. A deck sized for the player count never gets here.
            self.box.extend(self.pile)
            self.log.append({"event": "leftover", "cards": list(self.pile)})
            self.pile = []
        if not self.pile:
            self.phase = OVER
            self.hands, self.piles, self.kept, self.to_add, self.added = [], [], [], [], []
            return
        self.round += 1
        self.hands = []
        for _ in range(self.count):
            self.hands.append(self.pile[:CARDS_PER_SPLIT])
            del self.pile[:CARDS_PER_SPLIT]
        self.piles = [None] * self.count
        self.kept = [None] * self.count
        self.to_add = [[] for _ in range(self.count)]
        self.added = [False] * self.count
        self.phase = SPLIT

    def _seat(self, player: int | str) -> int:
        if isinstance(player, str):
            if player not in self.players:
                raise IllegalMoveError(f"no player called {player!r}")
            return self.players.index(player)
        if not 0 <= player < self.count:
            raise IllegalMoveError(f"no seat {player} (seats 0 to {self.count - 1})")
        return player

    def _expect(self, phase: Step) -> None:
        if self.phase != phase:
            raise IllegalMoveError(f"it is the {self.phase} step, not {phase}")

    def split(self, player: int | str, pair: Sequence[str]) -> None:
        """Step 1: the player's three cards become a pile of two (`pair`) and a pile of one."""
        self._expect(SPLIT)
        seat = self._seat(player)
        hand = self.hands[seat]
        if self.piles[seat] is not None:
            raise IllegalMoveError(f"{self.players[seat]} has already split")
        if len(pair) != 2 or len(set(pair)) != 2 or not set(pair) <= set(hand):
            raise IllegalMoveError(
                f"{self.players[seat]} must put two of their cards {hand} in the pile of two"
            )
        single = [card for card in hand if card not in pair]
        self.piles[seat] = [list(pair), single]
        if all(p is not None for p in self.piles):
            self.phase = KEEP  # step 2: every split is passed to the left at once

    def received(self, player: int | str) -> list[list[str]]:
        """The two piles this player was passed (from the player on their right)."""
        seat = self._seat(player)
        piles = self.piles[self.right_of(seat)] if self.piles else None
        if piles is None:
            raise IllegalMoveError("the piles have not been passed yet")
        return [list(p) for p in piles]

    def keep(self, player: int | str, pile: Sequence[str] | int) -> None:
        """Step 3: keep one of the two received piles (by index 0/1 or by its cards)."""
        self._expect(KEEP)
        seat = self._seat(player)
        piles = self.received(seat)
        if isinstance(pile, int):
            index = pile
        else:
            matches = [i for i, p in enumerate(piles) if sorted(p) == sorted(pile)]
            if not matches:
                raise IllegalMoveError(
                    f"{self.players[seat]} can keep {piles[0]} or {piles[1]}, not {list(pile)}"
                )
            index = matches[0]
        if index not in (0, 1):
            raise IllegalMoveError("a pile is 0 (two cards) or 1 (one card)")
        self.kept[seat] = index
        if all(k is not None for k in self.kept):
            self._return_piles()

    def _return_piles(self) -> None:
        """Step 4: each unwanted pile goes back to the player who split it."""
        for seat in range(self.count):
            passer = self.right_of(seat)
            piles = self.piles[passer]
            index = self.kept[seat]
            assert piles is not None and index is not None
            self.to_add[seat].extend(piles[index])
            self.to_add[passer].extend(piles[1 - index])
        self.phase = ADD

    def add(self, player: int | str, order: Sequence[str] | None = None) -> list[str]:
        """Step 5: place the kept and returned cards (in `order`, or the best-flow order).
        Returns the cards discarded because the cube would have left the Equalizer."""
        self._expect(ADD)
        seat = self._seat(player)
        if self.added[seat]:
            raise IllegalMoveError(f"{self.players[seat]} has already added their cards")
        cards = self.to_add[seat]
        if order is None:
            order = best_order(self.deck, self.tapes[seat], cards)
        elif sorted(order) != sorted(cards):
            raise IllegalMoveError(f"{self.players[seat]} must place exactly {cards}")
        discarded = self.tapes[seat].place_all(self.deck, order)
        self.box.extend(discarded)
        self.added[seat] = True
        self.log.append(
            {
                "round": self.round,
                "player": self.players[seat],
                "placed": [c for c in order if c not in discarded],
                "discarded": discarded,
            }
        )
        if all(self.added):
            self._next_round()
        return discarded

    # ---- results & persistence -------------------------------------------------------
    def scores(self) -> dict[str, MixtapeScore]:
        return {
            name: tape.score(self.deck) for name, tape in zip(self.players, self.tapes, strict=True)
        }

    def winners(self) -> list[str]:
        return winners(self.scores())

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": STATE_KIND,
            "version": 1,
            "deck_name": self.deck.name,
            "seed": self.seed,
            "players": list(self.players),
            "phase": str(self.phase),
            "round": self.round,
            "pile": list(self.pile),
            "box": list(self.box),
            "tapes": [tape.to_json() for tape in self.tapes],
            "hands": [list(h) for h in self.hands],
            "piles": [None if p is None else [list(x) for x in p] for p in self.piles],
            "kept": list(self.kept),
            "to_add": [list(x) for x in self.to_add],
            "added": list(self.added),
            "log": list(self.log),
        }

    @classmethod
    def from_json(cls, deck: Deck, data: Mapping[str, Any]) -> MixtapeGame:
        if data.get("kind") != STATE_KIND:
            raise MixtapeError("saved state is not a multiplayer Mixtape game")
        try:
            game = cls(
                deck=deck,
                players=list(data["players"]),
                seed=data["seed"],
                pile=list(data["pile"]),
                box=list(data["box"]),
                tapes=[Tape.from_json(t, deck) for t in data["tapes"]],
                phase=_step(data["phase"]),
                round=int(data["round"]),
                hands=[list(h) for h in data["hands"]],
                piles=[None if p is None else [list(x) for x in p] for p in data["piles"]],
                kept=list(data["kept"]),
                to_add=[list(x) for x in data["to_add"]],
                added=list(data["added"]),
                log=list(data["log"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, MixtapeError):
                raise
            raise MixtapeError(f"saved multiplayer state is malformed: {error}") from None
        deck.cards_for(game.pile)
        deck.cards_for(game.box)
        return game


def _step(value: Any) -> Step:
    try:
        return Step(value)
    except ValueError:
        raise MixtapeError(f"saved state has an unknown step {value!r}") from None


# ---- a simple automatic player (simulations and tests) -----------------------------------
def simple_split(game: MixtapeGame, seat: int) -> list[str]:
    """Keep together the two cards the player on the left would gain least from as a pair."""
    hand = game.hands[seat]
    neighbour = game.tapes[game.left_of(seat)]
    pairs = [[a, b] for i, a in enumerate(hand) for b in hand[i + 1 :]]
    return min(pairs, key=lambda pair: points_gained(game.deck, neighbour, pair))


def simple_keep(game: MixtapeGame, seat: int) -> int:
    piles = game.received(seat)
    gains = [points_gained(game.deck, game.tapes[seat], pile) for pile in piles]
    return 0 if gains[0] >= gains[1] else 1


def play_simple(game: MixtapeGame) -> MixtapeGame:
    """Run the game to the end with every seat using the simple strategy."""
    while game.phase != OVER:
        if game.phase == SPLIT:
            for seat in range(game.count):
                game.split(seat, simple_split(game, seat))
        elif game.phase == KEEP:
            choices = [simple_keep(game, seat) for seat in range(game.count)]
            for seat, choice in enumerate(choices):
                game.keep(seat, choice)
        else:
            for seat in range(game.count):
                game.add(seat)
    return game
