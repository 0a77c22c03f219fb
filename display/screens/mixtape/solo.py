"""I Made You a Mixtape: the solo game against Otto at a real table (``SoloGame.at_table``), and
the photo of a few cards it needs (set-up, the draw, Otto's extra card)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.mixtape.common import (
    GENRE_COLOURS,
    HISTORY_KEY,
    HISTORY_LIMIT,
    NAMESPACE,
    SOLO_KEY,
    card_label,
    card_words,
    chip_label,
    draw_rows_shown,
    enrolment,
    in_words,
    label_in_deck,
    load_table_deck,
    placement_text,
)
from display.widgets import words
from display.widgets.photo_review import PhotoReviewScreen
from games.mixtape import FACE_DOWN, MixtapeError, OttoDecision, SoloGame, best_order, points_gained
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
    otto_short,
)

if TYPE_CHECKING:
    from display.app import App

LINE = 31  # a line of SMALL type
CHIP_H = 36  # a card in a drawn mixtape
CHIP_ROWS = 3  # during play, the last cards of each column shown (the rest counted: "A +2")
TILE_H = 48  # a drawn card on your turn


@register_screen
class MixtapeCardsScreen(PhotoReviewScreen):
    """Photograph a few cards for the solo game (set-up, the draw, Otto's extra card); OK on the
    last row dismisses it with the settled card ids."""

    kind = "mixtape.cards"
    title = "Mixtape - cards photo"
    finish_label = "Use these cards"

    def __init__(self, app: App, expected: int = 3, what: str = "") -> None:
        super().__init__(app, "")
        self.expected = expected
        self.what = what

    def gallery(self) -> Any:
        return enrolment(self.app).gallery()

    def all_names(self) -> list[str]:
        return [card.id for card in load_table_deck(self.app).cards]

    def card_label(self, name: str) -> str:
        return label_in_deck(self.app, name)

    def instructions(self) -> str:
        return self.what

    def score_text(self) -> str:
        if self.reading is None:
            return ""
        count = len(self.names_read())
        if count != self.expected:
            found = words.count(count, "card")
            return f"{found} read; {self.expected} expected. Retake, add or remove."
        if not self.ready():
            return f"{words.count(len(self.reading.unresolved), 'card')} to settle."
        return "All read: OK on the last row."

    def activate(self, row: int) -> None:
        count = len(self.names_read())
        if row == len(self.cards) + 1 and self.reading is not None and count != self.expected:
            if not self.reading.unresolved:
                self.app.toast(
                    f"{words.count(count, 'card')} read, {self.expected} needed: "
                    "add the missing one, remove an extra one, or SHUTTER to retake."
                )
                return
        super().activate(row)

    def names_read(self) -> list[str]:
        return [c.name for c in self.cards if c.name]

    def count_short(self) -> int:
        return self.expected - len(self.cards) if self.reading is not None and self.cards else 0

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
        self.end_row = 0  # game over: the first row of the whole mixtapes shown (the knob)
        self.end_rows_shown = 1  # game over: how many rows fit (set when drawn)
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
                "Set-up: deal your card on the LEFT and Otto's on the RIGHT, then SHUTTER.",
            )
        if game.phase == DRAW and game.active == YOU:
            return (
                "draw",
                2,
                "Your turn: draw three cards, turn two face up (one stays face down), lay the "
                "two in a row, then SHUTTER.",
            )
        if game.phase == TURN_UP:
            whose = "your" if FACE_DOWN in game.taken else "Otto's"
            return (
                "hidden",
                1,
                f"The face-down card goes into {whose} mixtape: turn it up, lay it alone, "
                "then SHUTTER.",
            )
        if game.phase == DRAW:
            return ("draw", 3, "Otto's turn: draw three cards face up in a row, then SHUTTER.")
        if game.phase == OTTO_EXTRA:
            return (
                "extra",
                1,
                f"{otto_short(game)}: draw one from his own deck, lay it alone, then SHUTTER.",
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
                deck = load_table_deck(self.app)
                game = SoloGame.at_table(deck, ids[0], ids[1], seed=seed)
                self.message = (
                    f"Set up: you start with {card_label(deck, ids[0])}, "
                    f"Otto with {card_label(deck, ids[1])}."
                )
            elif game is not None and purpose == "draw":
                game.draw(ids)
                self.message = (
                    self.otto_reason(game, game.otto_turn()) if game.phase == OTTO_TURN else ""
                )
            elif game is not None and purpose == "extra":
                game.otto_extra(ids[0])
                # the reason for keeping one card stays; his extra card is outlined on his tape
            elif game is not None and purpose == "hidden":
                game.turn_up(ids[0])
                self.message = (
                    f"The face-down card was {card_label(game.deck, ids[0])}. " + self.placed(game)
                )
            else:
                return
        except MixtapeError as error:
            self._game = None  # a refused move may have half-changed the object
            self.app.toast(in_words(load_table_deck(self.app), str(error)))
            return
        self.choice = 0
        self.save(game, before)

    @staticmethod
    def otto_reason(game: SoloGame, decision: OttoDecision) -> str:
        """Why Otto took what he took, in words: the step of his rules that decided it."""
        reason = decision.steps[-1] if decision.steps else f"decided by {decision.decided_by}"
        return in_words(game.deck, reason[:1].upper() + reason[1:]) + "."

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
                self.choose(game, action, before)
            elif game.phase == YOU_PLACE and action is Action.OK:
                game.you_place()
                self.message = "" if game.phase == OVER else "Placed. Next round."
                self.save(game, before)
            elif game.phase == OVER and action is Action.OK:
                self.app.pop()
            elif game.phase == OVER and action in (Action.LEFT, Action.RIGHT):
                self.scroll_end(game, -1 if action is Action.LEFT else 1)
        except MixtapeError as error:
            self._game = None
            self.app.toast(in_words(game.deck, str(error)))

    def scroll_end(self, game: SoloGame, step: int) -> None:
        """Game over: the knob moves the whole mixtapes by one row of cards."""
        last = max(0, self.longest(game) - self.end_rows_shown)
        self.end_row = max(0, min(last, self.end_row + step))

    @staticmethod
    def longest(game: SoloGame) -> int:
        return max(len(column) for t in (game.you, game.otto) for column in (t.a, t.b))

    def choose(self, game: SoloGame, action: Action, before: dict[str, Any]) -> None:
        options = game.your_options()
        if action is Action.LEFT:
            self.choice = (self.choice - 1) % len(options)
        elif action is Action.RIGHT:
            self.choice = (self.choice + 1) % len(options)
        elif action is Action.OK:
            taken = options[self.choice]
            game.you_choose(taken)
            if game.phase == TURN_UP:  # the face-down card is still to be turned up
                self.message = f"You take {card_words(game.deck, taken)}."
            else:
                self.message = self.placed(game)
            self.save(game, before)

    @staticmethod
    def placed(game: SoloGame) -> str:
        """What your choice did: where your cards and Otto's went (after the choice only)."""
        entry = game.log[-1]
        mine = placement_text(game.deck, entry["you_placed"], entry["discarded"])
        his = placement_text(game.deck, entry["otto_placed"], entry["discarded"])
        return f"You placed {mine}. Otto got {his}."

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        game = self.game()
        if game is not None and game.phase == YOU_CHOOSE:
            self.draw_choice(surface, game)
            return
        if game is not None and game.phase == OVER:
            self.draw_over(surface, game)
            return
        y = 6
        if self.message:
            # three lines: Otto's longest reasons whole (the tapes move down to make room)
            area = pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, 3 * LINE)
            y = ui.paragraph(surface, self.message, area, ui.SMALL, ui.INFO) + 6
        if game is None:
            area = pygame.Rect(ui.MARGIN, y + 10, width - 2 * ui.MARGIN, height - y - 10)
            ui.paragraph(surface, self.prompt(None)[2], area, ui.SMALL)
            return
        y = self.draw_tapes(surface, game, y) + 6
        area = pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, height - y - 2)
        purpose, _, what = self.prompt(game)
        if purpose:
            ui.paragraph(surface, f"Round {game.round}. {what}", area, ui.SMALL)
        elif game.phase == YOU_PLACE:
            ui.paragraph(surface, self.placing_text(game), area, ui.SMALL)

    def fresh_cards(self, game: SoloGame) -> set[str]:
        """The cards the last step put into a mixtape (outlined on the tapes)."""
        if not game.log:
            return set()
        entry = game.log[-1]
        return {*entry.get("you_placed", []), *entry.get("otto_placed", [])}

    def draw_tapes(self, surface: pygame.Surface, game: SoloGame, y: int) -> int:
        """Both mixtapes side by side, each as its two columns of cards (the last
        ``CHIP_ROWS`` of each column; the cards placed by the last step outlined); returns the
        y under them."""
        longest = self.longest(game)
        rows = max(1, min(CHIP_ROWS, longest))
        height = LINE + 14 + rows * (CHIP_H + 4)
        self.draw_panels(surface, game, y, height, None)
        return y + height

    def draw_panels(
        self, surface: pygame.Surface, game: SoloGame, y: int, height: int, first: int | None
    ) -> tuple[int, int]:
        """Both mixtapes in panels ``height`` high from ``y``: the score on top, then the two
        columns - from row ``first`` (game over: the whole mixtape, scrolled by the knob) or,
        with ``first`` None, the last :data:`CHIP_ROWS` of each column, the earlier ones
        counted in the panel's top right corner ("A +2"), clear of the score. Returns (rows
        shown, rows in all)."""
        scores = game.scores()
        fresh = self.fresh_cards(game) if first is None else set()
        gap = 12
        panel_w = (surface.get_width() - 2 * ui.MARGIN - gap) // 2
        longest = self.longest(game)
        rows = max(1, (height - LINE - 14) // (CHIP_H + 4))
        winner = game.winner() if game.phase == OVER else None
        for index, (who, tape) in enumerate(((YOU, game.you), (OTTO, game.otto))):
            box = pygame.Rect(ui.MARGIN + index * (panel_w + gap), y, panel_w, height)
            ui.panel(surface, box, ui.PANEL, border=ui.GOOD if who == winner else None)
            name = "You" if who == YOU else "Otto"
            score = ui.text(
                surface,
                f"{name}  {scores[who].total} pts",
                (box.left + 10, box.top + 6),
                ui.SMALL,
                ui.ACCENT,
            )
            column_w = (box.width - 30) // 2
            earlier: list[str] = []
            top = box.top + LINE + 10
            for side_index, side in enumerate(("A", "B")):
                column = tape.column(side)
                left = box.left + 10 + side_index * (column_w + 10)
                if first is None:
                    shown = column[-rows:]
                    if len(column) > len(shown):
                        earlier.append(f"{side} +{len(column) - len(shown)}")
                else:
                    shown = column[first : first + rows]
                for row, card_id in enumerate(shown):
                    chip = pygame.Rect(left, top + row * (CHIP_H + 4), column_w, CHIP_H)
                    self.draw_chip(surface, game, card_id, chip, card_id in fresh)
                if not column:
                    ui.text(surface, f"Trk {side}", (left + 8, top + 2), ui.SMALL, ui.DIM)
            note = "  ".join(earlier)
            if who == winner:
                note = "WINS"
            if note:
                ui.text(
                    surface,
                    note,
                    (box.right - 10, box.top + 6),
                    ui.SMALL,
                    ui.GOOD if who == winner else ui.DIM,
                    anchor="topright",
                    max_width=box.right - 10 - score.right - 16,
                )
        return min(rows, longest), longest

    @staticmethod
    def draw_chip(
        surface: pygame.Surface, game: SoloGame, card_id: str, chip: pygame.Rect, fresh: bool
    ) -> None:
        """One card of a drawn mixtape: its genre's stripe, genre and balance."""
        card = game.deck.card(card_id)
        pygame.draw.rect(surface, ui.BACKGROUND, chip, border_radius=6)
        stripe = pygame.Rect(chip.left, chip.top, 10, chip.height)
        pygame.draw.rect(surface, GENRE_COLOURS.get(card.genre, ui.DIM), stripe, border_radius=4)
        if fresh:
            pygame.draw.rect(surface, ui.INFO, chip, width=3, border_radius=6)
        label = chip_label(game.deck, card_id)
        ui.text(
            surface,
            label,
            (chip.left + 18, chip.centery),
            ui.SMALL,
            anchor="midleft",
            max_width=chip.width - 24,
        )

    def draw_over(self, surface: pygame.Surface, game: SoloGame) -> None:
        """Game over: both whole mixtapes (the knob scrolls them by whole rows when they are
        longer than the screen), each score in its panel's corner, the winner's panel framed
        in green; under them each score's parts and the verdict."""
        width, height = surface.get_size()
        scores = game.scores()
        you, otto = scores[YOU].total, scores[OTTO].total
        verdict = "You win!" if game.winner() == YOU else "Otto wins."
        if you == otto:
            verdict += " A tie goes to Otto."
        lines = [
            f"{label} {s.total}: balance {s.balance_points} + flow {s.flow} + genres {s.genres}"
            for label, s in (("You", scores[YOU]), ("Otto", scores[OTTO]))
        ]
        lines.append(f"Game over. {verdict}")
        panels_h = height - 6 - len(lines) * LINE - 8
        self.end_rows_shown, longest = self.draw_panels(surface, game, 6, panels_h, self.end_row)
        self.end_row = max(0, min(self.end_row, longest - self.end_rows_shown))
        y = 6 + panels_h + 6
        if longest > self.end_rows_shown:  # where the rows shown are, beside the verdict
            centre_y = y + (len(lines) - 1) * LINE + LINE // 2
            draw_rows_shown(
                surface, width - ui.MARGIN, centre_y, self.end_row, self.end_rows_shown, longest
            )
        for index, line in enumerate(lines):
            colour = ui.ACCENT if index == len(lines) - 1 else ui.TEXT
            ui.text(
                surface, line, (ui.MARGIN, y), ui.SMALL, colour, max_width=width - 2 * ui.MARGIN
            )
            y += LINE

    def draw_choice(self, surface: pygame.Surface, game: SoloGame) -> None:
        """Your turn: the two face-up cards and the face-down one, then every legal take with
        what it does to your score and what Otto gets."""
        width = surface.get_width()
        scores = game.scores()
        y = 6
        ui.text(
            surface, f"Round {game.round}: what do you take?", (ui.MARGIN, y), ui.SMALL, ui.ACCENT
        )
        standing = f"You {scores[YOU].total} · Otto {scores[OTTO].total}"
        ui.text(surface, standing, (width - ui.MARGIN, y), ui.SMALL, anchor="topright")
        y += LINE + 8
        up = game.face_up()
        unknown_w = 200
        tile_w = (width - 2 * ui.MARGIN - unknown_w - 2 * 10) // 2
        left = ui.MARGIN
        for number, card_id in enumerate(up, start=1):
            tile = pygame.Rect(left, y, tile_w, TILE_H)
            self.draw_tile(surface, str(number), card_label(game.deck, card_id), tile)
            left = tile.right + 10
        self.draw_tile(surface, "?", "face down", pygame.Rect(left, y, unknown_w, TILE_H))
        y += TILE_H + 10
        items = [
            ui.MenuItem(self.option_label(up, o), self.option_note(game, o))
            for o in game.your_options()
        ]
        rows = pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, surface.get_height() - y - 2)
        ui.menu(surface, items, self.choice, rows, ui.SMALL, row_gap=2)

    @staticmethod
    def draw_tile(surface: pygame.Surface, badge: str, label: str, tile: pygame.Rect) -> None:
        ui.panel(surface, tile, ui.PANEL)
        ui.text(
            surface, badge, (tile.left + 12, tile.centery), ui.MEDIUM, ui.INFO, anchor="midleft"
        )
        ui.text(
            surface,
            label,
            (tile.left + 46, tile.centery),
            ui.SMALL,
            anchor="midleft",
            max_width=tile.width - 54,
        )

    @staticmethod
    def option_label(up: list[str], option: list[str]) -> str:
        """ "Take 1", "Take ?", "Take 2 + ?": the cards by their tile numbers."""
        marks = ["?" if card == FACE_DOWN else str(up.index(card) + 1) for card in option]
        return "Take " + " + ".join(marks)

    @staticmethod
    def option_note(game: SoloGame, option: list[str]) -> str:
        """What the option does: your points and Otto's from the face-up cards each gets ("+?"
        for the face-down card, which nobody may know yet)."""
        up = game.face_up()
        mine = [card for card in option if card != FACE_DOWN]
        his = [card for card in up if card not in option]
        you = " ".join(
            [f"{points_gained(game.deck, game.you, mine):+d}"] * bool(mine)
            + ["+?"] * (FACE_DOWN in option)
        )
        otto = f"{points_gained(game.deck, game.otto, his):+d}"
        otto += "" if FACE_DOWN in option else " +?"
        return f"you {you} · Otto {otto}"

    def placing_text(self, game: SoloGame) -> str:
        cards = placement_text(game.deck, self.best_order(game))
        return f"Otto's cards are outlined. Place yours: {cards}. OK when placed."

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
            if self.longest(game) > self.end_rows_shown:
                items.append(((Action.LEFT, Action.RIGHT), "Scroll"))
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
