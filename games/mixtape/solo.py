"""The solo game against Otto (rulebook "Solo Rules", variant by Mike DiLisio).

Set-up is the two-player one: the main Track deck holds the 2-line cards, both areas get their
set-up card, four cards go to the box unseen; the 3- and 4-line cards, shuffled, are Otto's own
deck. The Active player alternates, you first.

- You active: three cards are drawn, two face up and one (the third) face down. You take one card
  (any) or two cards (one of them the face-down one); the rest go into Otto's mixtape, in the best
  Flow. Your options name the face-down card ``FACE_DOWN`` ("?"), never by its id: nobody sees it
  before your choice (rulings).
- Otto active: three cards face up; Otto chooses (see otto.py); he always gets two cards: for
  each card short (he keeps one, or none can land) he draws one more from his own deck; you take
  the rest.
- The game ends when the main deck runs out; you win only with strictly more points than Otto.

Every random thing comes from the seed: the shuffles from "mixtape-solo:<seed>", Otto's random
picks from "<seed>:<round>", so a game replays exactly. The whole state is plain JSON
(`to_json` / `from_json`), meant to be saved after every event.

At a real table (`SoloGame.at_table`) nothing is drawn by the engine: each round waits in the
"draw" step for the cards actually drawn (`draw`): Otto's three, or on your turn only the two
face-up ones. After your choice the face-down card goes into a mixtape (yours or Otto's), so the
game waits in "turn-up" for it (`turn_up`) and only then places the cards. When Otto is short of
his two cards it waits in "otto-extra" for each card drawn from his deck (`otto_extra`). (Saved
games that photographed all three cards on your turn, the face-down one last, still play on.) The
four cards removed unseen at set-up stay counted in `unseen`, so the game still ends when the real
deck runs out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from games.mixtape.deck import FACE_DOWN, Deck
from games.mixtape.errors import IllegalMoveError, MixtapeError
from games.mixtape.otto import OttoDecision, otto_choose
from games.mixtape.scoring import MixtapeScore
from games.mixtape.setup import (
    CARDS_PER_SPLIT,
    SETUP_REMOVALS,
    checked_order,
    setup_tapes,
    shuffled,
)
from games.mixtape.tape import Tape, place_best, points_gained

YOU, OTTO = "you", "otto"


class SoloStep(StrEnum):
    """The steps a solo round waits in; the values are what the saved state stores."""

    DRAW = "draw"
    YOU_CHOOSE = "you-choose"
    TURN_UP = "turn-up"
    OTTO_TURN = "otto-turn"
    OTTO_EXTRA = "otto-extra"
    YOU_PLACE = "you-place"
    OVER = "over"


DRAW, YOU_CHOOSE, TURN_UP, OTTO_TURN, OTTO_EXTRA, YOU_PLACE, OVER = SoloStep
PHASES = tuple(SoloStep)
STATE_KIND = "mixtape-solo"
SOLO_SETUP_REMOVALS = SETUP_REMOVALS[2]  # "Set up the solo game as for a two-player game"


@dataclass
class SoloGame:
    deck: Deck
    seed: int | str
    main: list[str]  # the main (2-line) Track deck, top first
    otto_deck: list[str]  # Otto's own deck of 3- and 4-line cards, top first
    box: list[str]
    you: Tape
    otto: Tape
    active: str = YOU
    phase: SoloStep = SoloStep.YOU_CHOOSE
    round: int = 0
    drawn: list[str] = field(default_factory=list)
    face_down: str | None = None
    hidden: bool = False  # your turn at a real table: the face-down card is not known yet
    taken: list[str] = field(default_factory=list)  # your choice, while it is turned up
    pending: list[str] = field(default_factory=list)
    otto_taking: list[str] = field(default_factory=list)
    otto_extras: list[str] = field(default_factory=list)  # drawn from his deck this round
    extras_due: int = 0  # extra cards Otto still draws this round
    physical: bool = False
    unseen: int = 0  # cards of `main` that really went to the box unseen (real table)
    log: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        deck: Deck,
        seed: int | str = 0,
        main_order: Sequence[str] | None = None,
        otto_order: Sequence[str] | None = None,
    ) -> SoloGame:
        rng = random.Random(f"mixtape-solo:{seed}")
        main_ids = [card.id for card in deck.for_players(2)]
        otto_ids = [card.id for card in deck.otto_deck()]
        main = (
            shuffled(main_ids, rng)
            if main_order is None
            else checked_order(deck, main_ids, main_order, "the main deck")
        )
        otto_pile = (
            shuffled(otto_ids, rng)
            if otto_order is None
            else checked_order(deck, otto_ids, otto_order, "Otto's deck")
        )
        you, otto = setup_tapes(deck, main, 2, rng)
        box, main = main[:SOLO_SETUP_REMOVALS], main[SOLO_SETUP_REMOVALS:]
        game = cls(
            deck=deck, seed=seed, main=main, otto_deck=otto_pile, box=box, you=you, otto=otto
        )
        game.log.append({"event": "setup", "you": you.to_json(), "otto": otto.to_json()})
        game._begin_round(first=True)
        return game

    @classmethod
    def at_table(cls, deck: Deck, you_setup: str, otto_setup: str, seed: int | str = 0) -> SoloGame:
        """A game with a real deck: the set-up cards you and Otto actually drew."""
        main_ids = [card.id for card in deck.for_players(2)]
        for who, card_id in (("your", you_setup), ("Otto's", otto_setup)):
            card = deck.card(card_id)
            if card.id not in main_ids or card.is_wild:
                raise IllegalMoveError(
                    f"{who} set-up card {card_id} must be a non-Wild card of the 2-line deck"
                )
        if you_setup == otto_setup:
            raise IllegalMoveError("you and Otto cannot have the same set-up card")
        you, otto = Tape(), Tape()
        you.place(deck, you_setup)
        otto.place(deck, otto_setup)
        main = sorted(card for card in main_ids if card not in (you_setup, otto_setup))
        otto_pile = sorted(card.id for card in deck.otto_deck())
        game = cls(
            deck=deck,
            seed=seed,
            main=main,
            otto_deck=otto_pile,
            box=[],
            you=you,
            otto=otto,
            physical=True,
            unseen=min(SOLO_SETUP_REMOVALS, len(main)),
        )
        game.log.append({"event": "setup", "you": you.to_json(), "otto": otto.to_json()})
        game._begin_round(first=True)
        return game

    # ---- rounds ---------------------------------------------------------------------------
    def _begin_round(self, first: bool = False) -> None:
        if not first:
            self.active = OTTO if self.active == YOU else YOU
        if 0 < len(self.main) - self.unseen < CARDS_PER_SPLIT:
            # Assumption (README): a round needs three cards; leftovers go to the box unseen.
            self.log.append({"event": "leftover", "cards": list(self.main)})
            self.box.extend(self.main)
            self.main = []
        if len(self.main) <= self.unseen:
            self.box.extend(self.main)  # a real table's unseen set-up removals
            self.main, self.unseen = [], 0
            self.phase, self.drawn, self.face_down, self.pending = OVER, [], None, []
            self.hidden, self.taken = False, []
            return
        self.round += 1
        self.drawn, self.face_down, self.phase = [], None, DRAW
        self.hidden, self.taken = False, []
        if not self.physical:
            self.draw(self.main[:CARDS_PER_SPLIT])

    def draw(self, drawn: Sequence[str]) -> None:
        """The round's cards (a real table: the ones actually drawn). Otto's turn: the three face
        up. Your turn at a real table: the two face-up cards (the face-down one is asked for once
        it goes into a mixtape: :meth:`turn_up`), or all three with the face-down one last."""
        if self.phase not in (DRAW, YOU_CHOOSE, OTTO_TURN):
            raise IllegalMoveError("cards are drawn only at the start of a round")
        drawn = list(drawn)
        self.deck.cards_for(drawn)
        hidden = self.physical and self.active == YOU and len(drawn) == CARDS_PER_SPLIT - 1
        if not hidden and len(drawn) != CARDS_PER_SPLIT or len(set(drawn)) != len(drawn):
            turn = " (on your turn: the two face-up ones)" if self.physical else ""
            raise IllegalMoveError(f"a round draws three different cards{turn}")
        pool = self.main + self.drawn
        missing = [card for card in drawn if card not in pool]
        if missing:
            raise IllegalMoveError(f"card(s) {missing} are not in the main deck any more")
        self.main = [card for card in pool if card not in drawn]
        self.drawn = drawn
        self.hidden = hidden
        self.face_down = drawn[-1] if self.active == YOU and not hidden else None
        self.phase = YOU_CHOOSE if self.active == YOU else OTTO_TURN

    def face_up(self) -> list[str]:
        """Your turn: the two face-up cards."""
        return [card for card in self.drawn if card != self.face_down]

    def your_options(self) -> list[list[str]]:
        """Legal takes when you are active: one card (any), or two including the face-down one
        (``FACE_DOWN``: nobody knows it before your choice)."""
        self._expect(YOU_CHOOSE)
        up = self.face_up()
        return [[card] for card in up] + [[FACE_DOWN]] + [[card, FACE_DOWN] for card in up]

    def you_choose(self, taken: Sequence[str], order: Sequence[str] | None = None) -> list[str]:
        """You are active: take `taken` (face-up ids and/or ``FACE_DOWN``); the rest go into
        Otto's mixtape in the best order. Returns the order Otto's cards were placed in, or []
        when the face-down card is still to be turned up (:meth:`turn_up` places them)."""
        self._expect(YOU_CHOOSE)
        taken = [FACE_DOWN if card == self.face_down else card for card in taken]
        legal = [sorted(option) for option in self.your_options()]
        if sorted(taken) not in legal:
            raise IllegalMoveError(
                f"take one card ({', '.join(self.face_up())} or the face-down card {FACE_DOWN}), "
                f"or two: one of them the face-down card; not {taken}"
            )
        if self.hidden:
            self.taken, self.phase = taken, TURN_UP
            return []
        return self._settle_choice(taken, order)

    def turn_up(self, card_id: str, order: Sequence[str] | None = None) -> list[str]:
        """A real table, after your choice: the face-down card, turned up as it goes into a
        mixtape. Places your cards (in `order`, or the best order) and Otto's; returns his."""
        self._expect(TURN_UP)
        self.deck.card(card_id)
        if card_id in self.drawn or card_id not in self.main:
            raise IllegalMoveError(f"card {card_id} is not in the main deck any more")
        self.main.remove(card_id)
        self.drawn = [*self.drawn, card_id]
        self.face_down, self.hidden = card_id, False
        taken, self.taken = self.taken, []
        return self._settle_choice(taken, order)

    def _settle_choice(self, taken: list[str], order: Sequence[str] | None) -> list[str]:
        assert self.face_down is not None
        mine = [self.face_down if card == FACE_DOWN else card for card in taken]
        rest = [card for card in self.drawn if card not in mine]
        your_order, your_discards = self._place(self.you, mine, order)
        otto_order, otto_discards = place_best(self.deck, self.otto, rest)
        self.box.extend(your_discards + otto_discards)
        self.log.append(
            {
                "round": self.round,
                "active": YOU,
                "drawn": list(self.drawn),
                "face_down": self.face_down,
                "you_take": mine,
                "you_placed": your_order,
                "otto_gets": rest,
                "otto_placed": otto_order,
                "discarded": your_discards + otto_discards,
            }
        )
        self._begin_round()
        return otto_order

    def otto_turn(self, extras: Sequence[str] | None = None) -> OttoDecision:
        """Otto is active: he chooses and places his cards, plus an extra card from his own deck
        for each of his two cards short (the top cards; at a real table the step waits for
        `otto_extra` unless `extras` names them). Then you place what he left (`you_place`)."""
        self._expect(OTTO_TURN)
        decision = otto_choose(
            self.deck, self.otto, self.you, self.drawn, seed=f"{self.seed}:{self.round}"
        )
        due = min(decision.extra_cards, len(self.otto_deck))
        if extras is not None and (
            len(extras) != due or len(set(extras)) != due or not set(extras) <= set(self.otto_deck)
        ):
            raise IllegalMoveError(
                f"Otto draws {due} extra card(s) from his own deck, not {list(extras)}"
            )
        self.log.append(
            {
                "round": self.round,
                "active": OTTO,
                "drawn": list(self.drawn),
                "decision": decision.to_json(),
                "extras": [],
                "otto_placed": [],
                "discarded": [],
            }
        )
        self.pending = list(decision.you_get)
        self.otto_taking = list(decision.otto_takes)
        # Assumption (README): with Otto's own deck empty, he goes without the extra card.
        self.extras_due = due
        if extras is None and self.physical and due:
            self.phase = OTTO_EXTRA
            return decision
        for card_id in self.otto_deck[:due] if extras is None else extras:
            self._draw_extra(card_id)
        self._finish_otto()
        return decision

    def otto_extra(self, card_id: str) -> list[str]:
        """A real table: a card drawn from Otto's own deck. Once he has every extra card he is
        due, places his cards and returns the order (before that, [])."""
        self._expect(OTTO_EXTRA)
        self._draw_extra(card_id)
        if self.extras_due:
            return []
        return self._finish_otto()

    def _draw_extra(self, card_id: str) -> None:
        if card_id not in self.otto_deck:
            raise IllegalMoveError(f"card {card_id} is not in Otto's own deck")
        self.otto_deck.remove(card_id)
        self.otto_extras.append(card_id)
        self.extras_due -= 1

    def _finish_otto(self) -> list[str]:
        extras = list(self.otto_extras)
        # The cards he chose land first; an extra card that cannot land goes to the box.
        otto_order, discards = place_best(
            self.deck, self.otto, [*self.otto_taking, *extras], must_keep=self.otto_taking
        )
        self.box.extend(discards)
        self.log[-1].update(
            extras=extras,
            otto_placed=otto_order,
            discarded=discards,
        )
        self.otto_taking, self.otto_extras, self.extras_due = [], [], 0
        self.phase = YOU_PLACE
        return otto_order

    def you_place(self, order: Sequence[str] | None = None) -> list[str]:
        """Place the cards Otto left you (in `order`, or the best-flow order); returns the
        order used."""
        self._expect(YOU_PLACE)
        your_order, discards = self._place(self.you, self.pending, order)
        self.box.extend(discards)
        self.log[-1]["you_placed"] = your_order
        self.log[-1]["discarded"] = self.log[-1]["discarded"] + discards
        self.pending = []
        self._begin_round()
        return your_order

    def _place(
        self, tape: Tape, cards: Sequence[str], order: Sequence[str] | None
    ) -> tuple[list[str], list[str]]:
        if order is None:
            return place_best(self.deck, tape, cards)
        if sorted(order) != sorted(cards):
            raise IllegalMoveError(f"place exactly the cards {list(cards)}, not {list(order)}")
        return list(order), tape.place_all(self.deck, order)

    def _expect(self, phase: SoloStep) -> None:
        if self.phase != phase:
            raise IllegalMoveError(f"the game is at step {str(self.phase)!r}, not {str(phase)!r}")

    # ---- results & persistence -------------------------------------------------------
    def scores(self) -> dict[str, MixtapeScore]:
        return {YOU: self.you.score(self.deck), OTTO: self.otto.score(self.deck)}

    def winner(self) -> str:
        """Solo: you win only with more points than Otto; equal or fewer, Otto wins."""
        scores = self.scores()
        return YOU if scores[YOU].total > scores[OTTO].total else OTTO

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": STATE_KIND,
            "version": 1,
            "deck_name": self.deck.name,
            "seed": self.seed,
            "phase": str(self.phase),
            "active": self.active,
            "round": self.round,
            "main": list(self.main),
            "otto_deck": list(self.otto_deck),
            "box": list(self.box),
            "you": self.you.to_json(),
            "otto": self.otto.to_json(),
            "drawn": list(self.drawn),
            "face_down": self.face_down,
            "hidden": self.hidden,
            "taken": list(self.taken),
            "pending": list(self.pending),
            "otto_taking": list(self.otto_taking),
            "otto_extras": list(self.otto_extras),
            "extras_due": self.extras_due,
            "physical": self.physical,
            "unseen": self.unseen,
            "log": list(self.log),
        }

    @classmethod
    def from_json(cls, deck: Deck, data: Mapping[str, Any]) -> SoloGame:
        if not isinstance(data, Mapping) or data.get("kind") != STATE_KIND:
            raise MixtapeError("saved state is not a solo Mixtape game")
        try:
            game = cls(
                deck=deck,
                seed=data["seed"],
                main=list(data["main"]),
                otto_deck=list(data["otto_deck"]),
                box=list(data["box"]),
                you=Tape.from_json(data["you"], deck),
                otto=Tape.from_json(data["otto"], deck),
                active=data["active"],
                phase=_step(data["phase"]),
                round=int(data["round"]),
                drawn=list(data["drawn"]),
                face_down=data["face_down"],
                hidden=bool(data.get("hidden", False)),
                taken=list(data.get("taken", [])),
                pending=list(data["pending"]),
                otto_taking=list(data.get("otto_taking", [])),
                otto_extras=list(data.get("otto_extras", [])),
                # saved before Otto could be two cards short: waiting meant one extra card
                extras_due=int(data.get("extras_due", 1 if data["phase"] == OTTO_EXTRA else 0)),
                physical=bool(data.get("physical", False)),
                unseen=int(data.get("unseen", 0)),
                log=list(data["log"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, MixtapeError):
                raise
            raise MixtapeError(f"saved solo state is malformed: {error}") from None
        if game.active not in (YOU, OTTO):
            raise MixtapeError("saved solo state has an unknown step or active player")
        for ids in (
            game.main,
            game.otto_deck,
            game.box,
            game.drawn,
            game.pending,
            game.otto_taking,
            game.otto_extras,
        ):
            deck.cards_for(ids)
        return game


def _step(value: Any) -> SoloStep:
    try:
        return SoloStep(value)
    except ValueError:
        raise MixtapeError("saved solo state has an unknown step or active player") from None


def next_step(game: SoloGame | None) -> str:
    """What a real table does next, in words (the face-down card is never named before your
    choice: nobody knows it)."""
    if game is None:
        return "set-up: deal your set-up card and Otto's"
    if game.phase == DRAW and game.active == YOU:
        return (
            f"round {game.round}, your turn: draw three cards, turn two face up and leave one "
            "face down; give the two face-up cards"
        )
    if game.phase == DRAW:
        return f"round {game.round}, Otto's turn: draw three cards face up and give them"
    if game.phase == YOU_CHOOSE:
        options = ", ".join("+".join(option) for option in game.your_options())
        return f"choose what you take ({FACE_DOWN} is the face-down card): {options}"
    if game.phase == TURN_UP:
        whose = "your" if FACE_DOWN in game.taken else "Otto's"
        return f"the face-down card goes into {whose} mixtape: turn it face up and give it"
    if game.phase == OTTO_EXTRA:
        return f"{otto_short(game)}: draw his extra card from his own deck and give it"
    if game.phase == YOU_PLACE:
        return f"place the cards Otto left you: {', '.join(game.pending)}"
    return "the game is over"


def otto_short(game: SoloGame) -> str:
    """Why Otto draws from his own deck, in words ("Otto keeps one card", "... one of two")."""
    kept = len(game.otto_taking)
    keeps = f"Otto keeps {'one card' if kept == 1 else 'no card'}"
    drawn = len(game.otto_extras)
    if drawn + game.extras_due > 1:
        return f"{keeps} (extra card {drawn + 1} of {drawn + game.extras_due})"
    return keeps


# ---- the simulated human ----------------------------------------------------------------
def simple_choice(game: SoloGame) -> list[str]:
    """A simple human: without peeking at the face-down card (the options never name it), take
    the option whose face-up cards gain you the most minus what the face-up cards you leave gain
    Otto; ties → more cards, then the first option."""
    up = game.face_up()

    def value(option: list[str]) -> tuple[int, int]:
        mine = [c for c in option if c != FACE_DOWN]
        his = [c for c in up if c not in option]
        gain = points_gained(game.deck, game.you, mine) - points_gained(game.deck, game.otto, his)
        return (gain, len(option))

    options = game.your_options()
    return max(options, key=value)


def play_solo(game: SoloGame) -> SoloGame:
    """Play to the end: the simple human against Otto; your cards always in best flow."""
    if game.physical:
        raise IllegalMoveError("a game at a real table is played with the cards really drawn")
    while game.phase != OVER:
        if game.phase == YOU_CHOOSE:
            game.you_choose(simple_choice(game))
        elif game.phase == OTTO_TURN:
            game.otto_turn()
        elif game.phase == YOU_PLACE:
            game.you_place()
        else:
            raise IllegalMoveError(f"cannot simulate the {str(game.phase)!r} step")
    return game
