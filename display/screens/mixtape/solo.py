"""I Made You a Mixtape: the solo game against Otto at a real table (``SoloGame.at_table``), and
the photo of a few cards it needs (set-up, the draw, Otto's extra card)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.mixtape.common import (
    HISTORY_KEY,
    HISTORY_LIMIT,
    NAMESPACE,
    SOLO_KEY,
    card_words,
    enrolment,
    load_table_deck,
    placement_text,
    tape_line,
)
from display.widgets.photo_review import PhotoReviewScreen
from games.mixtape import FACE_DOWN, MixtapeError, SoloGame, best_order
from games.mixtape.solo import (
    DRAW,
    OTTO,
    OTTO_EXTRA,
    OTTO_TURN,
    OVER,
    TURN_UP,
    YOU,
    YOU_CHOOSE,
    YOU_PLACE,
)

if TYPE_CHECKING:
    from display.app import App


@register_screen
class MixtapeCardsScreen(PhotoReviewScreen):
    """Photograph a few cards for the solo game (set-up, the draw, Otto's extra card); OK on the
    last row dismisses it with the settled card ids."""

    kind = "mixtape.cards"
    title = "Mixtape - photograph the cards"
    finish_label = "Use these cards"

    def __init__(self, app: App, expected: int = 3, what: str = "") -> None:
        super().__init__(app, "")
        self.expected = expected
        self.what = what

    def gallery(self) -> Any:
        return enrolment(self.app).gallery()

    def all_names(self) -> list[str]:
        return [card.id for card in load_table_deck(self.app).cards]

    def instructions(self) -> str:
        return self.what

    def score_text(self) -> str:
        if self.reading is None:
            return ""
        count = len(self.names_read())
        if count != self.expected:
            return f"{count} card(s) read; {self.expected} expected. Retake, add or remove."
        if not self.ready():
            return f"{len(self.reading.unresolved)} card(s) to settle."
        return "All read. OK on the last row to use them."

    def activate(self, row: int) -> None:
        count = len(self.names_read())
        if row == len(self.cards) + 1 and self.reading is not None and count != self.expected:
            if not self.reading.unresolved:
                self.app.toast(
                    f"{count} card(s) read, {self.expected} needed: add the missing one, "
                    "remove an extra one, or SHUTTER to retake."
                )
                return
        super().activate(row)

    def names_read(self) -> list[str]:
        return [c.name for c in self.cards if c.name]

    def ready(self) -> bool:
        return super().ready() and len(self.names_read()) == self.expected

    def finish(self) -> None:
        self.dismiss(self.names_read())

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "expected": self.expected, "what": self.what}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, int(data.get("expected", 3)), data.get("what", ""))
        screen.restore_into(data)
        return screen


@register_screen
class SoloScreen(Screen):
    """The solo game against Otto at a real table; see the module docstring."""

    kind = "mixtape.solo"
    title = "Mixtape - solo vs Otto"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.choice = 0
        self.message = ""  # what happened in the last step (placements), shown on top
        self._game: SoloGame | None = None  # the stored game, read once per change

    # -- state --------------------------------------------------------------------------------
    def game(self) -> SoloGame | None:
        if self._game is not None:
            return self._game
        data = self.app.store.get(NAMESPACE, SOLO_KEY)
        if data is None:
            return None
        try:
            self._game = SoloGame.from_json(load_table_deck(self.app), data)
            return self._game
        except MixtapeError as error:
            self.app.store.put(NAMESPACE, "unreadable_solo", data)
            self.app.store.delete(NAMESPACE, SOLO_KEY)
            self.app.toast(f"The saved solo game could not be read ({error}); set aside.")
            return None

    def save(self, game: SoloGame, before: dict[str, Any] | None) -> None:
        if before is not None:
            history = list(self.app.store.get(NAMESPACE, HISTORY_KEY) or [])
            history.append({"game": before, "message": self.message})
            self.app.store.put(NAMESPACE, HISTORY_KEY, history[-HISTORY_LIMIT:])
        self.app.store.put(NAMESPACE, SOLO_KEY, game.to_json())
        self._game = None

    def undo(self) -> None:
        history = list(self.app.store.get(NAMESPACE, HISTORY_KEY) or [])
        if not history:
            self.app.toast("Nothing to undo.")
            return
        last = history.pop()
        self._game = None
        self.app.store.put(NAMESPACE, HISTORY_KEY, history)
        if last["game"] is None:
            self.app.store.delete(NAMESPACE, SOLO_KEY)
        else:
            self.app.store.put(NAMESPACE, SOLO_KEY, last["game"])
        self.message = "Undone. " + (last.get("message") or "")
        self.choice = 0

    # -- photos -------------------------------------------------------------------------------
    def photograph(self, purpose: str, expected: int, what: str) -> None:
        screen = MixtapeCardsScreen(self.app, expected, what)
        self.app.push(screen, purpose=purpose)
        screen.shoot()

    def prompt(self, game: SoloGame | None) -> tuple[str, int, str]:
        """(purpose, cards expected, what to lay out) for the photo this step needs."""
        if game is None:
            return (
                "setup",
                2,
                "Set-up: deal your set-up card and Otto's. Lay yours on the LEFT and Otto's on "
                "the RIGHT, then SHUTTER.",
            )
        if game.phase == DRAW and game.active == YOU:
            return (
                "draw",
                2,
                "Your turn: draw three cards, turn two face up and leave one face down. Lay the "
                "two face-up cards in a row, then SHUTTER.",
            )
        if game.phase == TURN_UP:
            whose = "your" if FACE_DOWN in game.taken else "Otto's"
            return (
                "hidden",
                1,
                f"The face-down card goes into {whose} mixtape: turn it face up, lay it alone "
                "under the camera, then SHUTTER.",
            )
        if game.phase == DRAW:
            return (
                "draw",
                3,
                "Otto's turn: draw three cards face up and lay them in a row, then SHUTTER.",
            )
        if game.phase == OTTO_EXTRA:
            return (
                "extra",
                1,
                "Otto keeps one card, so he draws one more from his own deck: lay it alone "
                "under the camera, then SHUTTER.",
            )
        return ("", 0, "")

    def on_result(self, purpose: str, result: Any) -> None:
        """The cards photographed for ``purpose`` (setup, draw, extra, hidden); None: BACK."""
        if isinstance(result, list):
            self.cards_read(purpose, [str(card) for card in result])

    def cards_read(self, purpose: str, ids: list[str]) -> None:
        game = self.game()
        before = None if game is None else game.to_json()
        try:
            if purpose == "setup":
                seed = int(self.app.store.get(NAMESPACE, "solo_games", 0)) + 1
                self.app.store.put(NAMESPACE, "solo_games", seed)
                game = SoloGame.at_table(load_table_deck(self.app), ids[0], ids[1], seed=seed)
                self.message = f"Set up: your mixtape starts with {ids[0]}, Otto's with {ids[1]}."
            elif game is not None and purpose == "draw":
                game.draw(ids)
                if game.phase == OTTO_TURN:
                    decision = game.otto_turn()
                    keeps = ", ".join(decision.otto_takes)
                    self.message = f"Otto keeps {keeps} (decided by {decision.decided_by})."
                    if decision.decided_by == "random":
                        self.message += f" Random pick, seed {decision.seed}."
                else:
                    self.message = "Choose what you take."
            elif game is not None and purpose == "extra":
                game.otto_extra(ids[0])
            elif game is not None and purpose == "hidden":
                game.turn_up(ids[0])
                self.message = f"The face-down card was {ids[0]}. " + self.placed(game)
            else:
                return
        except MixtapeError as error:
            self._game = None  # a refused move may have half-changed the object
            self.app.toast(str(error))
            return
        self.choice = 0
        self.save(game, before)

    # -- input --------------------------------------------------------------------------------
    def handle(self, action: Action) -> None:
        game = self.game()
        if action is Action.BACK:
            self.app.pop()
            return
        if action is Action.SEAT_1:
            self.undo()
            return
        purpose, expected, what = self.prompt(game)
        if purpose and action in (Action.SHUTTER, Action.OK):
            self.photograph(purpose, expected, what)
            return
        if game is None:
            return
        before = game.to_json()
        try:
            if game.phase == YOU_CHOOSE:
                options = game.your_options()
                if action is Action.LEFT:
                    self.choice = (self.choice - 1) % len(options)
                elif action is Action.RIGHT:
                    self.choice = (self.choice + 1) % len(options)
                elif action is Action.OK:
                    taken = options[self.choice]
                    game.you_choose(taken)
                    if game.phase == TURN_UP:  # the face-down card is still to be turned up
                        self.message = f"You take {card_words(taken)}."
                    else:
                        self.message = self.placed(game)
                    self.save(game, before)
            elif game.phase == YOU_PLACE and action is Action.OK:
                entry = game.log[-1]
                pending = list(game.pending)
                game.you_place()
                entry = game.log[-1]
                mine = placement_text(
                    game.deck, entry.get("you_placed", pending), entry["discarded"]
                )
                self.message = (
                    f"Otto placed {placement_text(game.deck, entry['otto_placed'])}; "
                    f"you placed {mine}."
                )
                self.save(game, before)
            elif game.phase == OVER and action is Action.OK:
                self.app.pop()
        except MixtapeError as error:
            self._game = None
            self.app.toast(str(error))

    @staticmethod
    def placed(game: SoloGame) -> str:
        """What your choice did: where your cards and Otto's went (after the choice only)."""
        entry = game.log[-1]
        mine = placement_text(game.deck, entry["you_placed"], entry["discarded"])
        his = placement_text(game.deck, entry["otto_placed"], entry["discarded"])
        return (
            f"You take {', '.join(entry['you_take'])}: {mine}. "
            f"Otto gets {', '.join(entry['otto_gets']) or 'nothing'}: {his}."
        )

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        game = self.game()
        y = 6
        if self.message:
            area = pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, 62)
            y = ui.paragraph(surface, self.message, area, ui.SMALL, ui.INFO) + 4
        if game is None:
            area = pygame.Rect(ui.MARGIN, y + 10, width - 2 * ui.MARGIN, 200)
            ui.paragraph(surface, self.prompt(None)[2], area, ui.MEDIUM)
            return
        y = self.draw_tapes(surface, game, y)
        area = pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, height - y - 4)
        purpose, _, what = self.prompt(game)
        if game.phase == OVER:
            self.draw_over(surface, game, area)
        elif purpose:
            ui.paragraph(surface, f"Round {game.round}. {what}", area, ui.SMALL, ui.TEXT)
        elif game.phase == YOU_CHOOSE:
            self.draw_options(surface, game, area)
        elif game.phase == YOU_PLACE:
            ui.paragraph(surface, self.placing_text(game), area, ui.SMALL)

    def draw_tapes(self, surface: pygame.Surface, game: SoloGame, y: int) -> int:
        """Both mixtapes and their points so far; returns the y under them."""
        scores = game.scores()
        box = pygame.Rect(ui.MARGIN, y, surface.get_width() - 2 * ui.MARGIN, 92)
        ui.panel(surface, box, ui.PANEL)
        for row, (who, tape) in enumerate(((YOU, game.you), (OTTO, game.otto))):
            label = "You " if who == YOU else "Otto"
            line = f"{label}  {scores[who].total:>3} pts   {tape_line(tape.to_json())}"
            position = (box.left + 12, box.top + 10 + row * 38)
            ui.text(surface, line, position, ui.SMALL, max_width=box.width - 24)
        return box.bottom + 8

    def draw_over(self, surface: pygame.Surface, game: SoloGame, area: pygame.Rect) -> None:
        scores = game.scores()
        you, otto = scores[YOU].total, scores[OTTO].total
        verdict = "You win!" if game.winner() == YOU else "Otto wins."
        text = f"Game over. You {you}, Otto {otto}. {verdict}"
        if you == otto:
            text += " (A tie goes to Otto: you must beat him.)"
        y = ui.paragraph(surface, text, area, ui.MEDIUM, ui.ACCENT) + 6
        for who, label in ((YOU, "You"), (OTTO, "Otto")):
            s = scores[who]
            line = (
                f"{label}: balance {s.balance_points} + flow {s.flow} + genres {s.genres}"
                f" = {s.total}"
            )
            ui.text(surface, line, (area.left, y), ui.SMALL, max_width=area.width)
            y += 32

    def draw_options(self, surface: pygame.Surface, game: SoloGame, area: pygame.Rect) -> None:
        """Your turn: the legal takes, each with what Otto gets."""
        heading = f"Round {game.round}: what do you take?"
        ui.text(surface, heading, (area.left, area.top), ui.SMALL, ui.ACCENT)
        every = [*game.face_up(), FACE_DOWN]
        items = [
            ui.MenuItem(
                card_words(o)[:1].upper() + card_words(o)[1:],
                "Otto gets " + card_words([c for c in every if c not in o]),
            )
            for o in game.your_options()
        ]
        rows = pygame.Rect(area.left, area.top + 32, area.width, area.height - 32)
        ui.menu(surface, items, self.choice, rows, ui.SMALL, row_gap=2)

    def placing_text(self, game: SoloGame) -> str:
        entry = game.log[-1]
        return (
            f"Otto keeps {', '.join(entry['decision']['otto_takes'])}"
            + (f" + {entry['extra']} from his deck" if entry.get("extra") else "")
            + " and places: "
            + placement_text(game.deck, entry["otto_placed"], entry["discarded"])
            + ". "
            + f"You take {', '.join(game.pending)}: place "
            + placement_text(game.deck, self.best_order(game))
            + ". OK when placed."
        )

    @staticmethod
    def best_order(game: SoloGame) -> list[str]:
        return best_order(game.deck, game.you, list(game.pending))

    def legend(self) -> list[LegendItem]:
        game = self.game()
        purpose = self.prompt(game)[0]
        items: list[LegendItem] = []
        if purpose:
            items.append((Action.SHUTTER, "Photo"))
        elif game is not None and game.phase == YOU_CHOOSE:
            items += [((Action.LEFT, Action.RIGHT), "Option"), (Action.OK, "Take it")]
        elif game is not None and game.phase == YOU_PLACE:
            items.append((Action.OK, "Placed"))
        elif game is not None and game.phase == OVER:
            items.append((Action.OK, "Done"))
        items += [(Action.SEAT_1, "Undo"), (Action.BACK, "Menu")]
        return items

    def snapshot(self) -> dict[str, Any]:
        return {"choice": self.choice, "message": self.message}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.choice = int(data.get("choice", 0))
        screen.message = data.get("message", "")
        return screen
