"""Co-Mix on the appliance, part 3: the private review ballot box.

Players review one at a time, in seat order:

1. *pass*: "Pass the box to NAME - everybody else, look away". Nothing of any ballot is shown.
2. *assign*: the reviewer places their tokens story by story (two per other story with three
   players). LEFT/RIGHT pick a token (only tokens still in their hand are offered), OK places it,
   BACK takes the last one back; a tap on a token places it.
3. *summary*: the whole ballot; OK confirms and seals it, BACK starts the ballot again.
4. The screen is wiped (back to *pass* for the next player) - or, after the last ballot, the
   reveal. A ballot the rules refuse is shown with the rule it breaks; the player starts again.

A ballot being filled in is never written to the store, the screen snapshot or any log: only a
confirmed ballot is saved (inside the game state, needed to survive a power cut). After a power
cut mid-ballot the box comes back on the *pass* screen for the same reviewer.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.comix.common import GameScreen, story_colour, token_chip
from games.comix import TOKEN_SET, BallotError, Game, Token, ballot_slots
from games.comix.game import REVIEWING

if TYPE_CHECKING:
    from display.app import App

PICK_ORDER = (Token.ORIGINAL, Token.EXCITING, Token.COMPOSED, Token.NEUTRAL)
PASS, ASSIGN, SUMMARY, REFUSED = "pass", "assign", "summary", "refused"


@register_screen
class BallotScreen(GameScreen):
    kind = "comix.ballot"

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        self.stage = PASS
        self.picks: list[Token] = []  # tokens placed so far, in slot order (never saved)
        self.cursor = 0  # index in PICK_ORDER
        self.refusal = ""
        self._chips: list[tuple[pygame.Rect, Token]] = []

    def on_show(self) -> None:
        self.app.hardware.outputs_off()
        if self.game.phase != REVIEWING:
            self.next_phase()

    # -- the ballot being filled ----------------------------------------------------------------
    @property
    def reviewer(self) -> str:
        return self.game.next_reviewer or ""

    def slots(self) -> list[tuple[str, int]]:
        return ballot_slots(self.game.setup, self.reviewer)

    def hand(self) -> Counter[Token]:
        """Tokens still in the reviewer's hand."""
        left = Counter(TOKEN_SET)
        left.subtract(self.picks)
        return left

    def offered(self) -> list[Token]:
        """Tokens that can go on the current slot without making the ballot impossible: any
        token still in hand, except that the last slot must be Neutral if none was placed."""
        hand = self.hand()
        tokens = [t for t in PICK_ORDER if hand[t] > 0]
        last = len(self.picks) == len(self.slots()) - 1
        if last and Token.NEUTRAL not in self.picks:
            tokens = [Token.NEUTRAL]
        return tokens

    def ballot(self) -> dict[str, list[str]]:
        ballot: dict[str, list[str]] = {}
        for (story, _), token in zip(self.slots(), self.picks, strict=False):
            ballot.setdefault(story, []).append(str(token))
        return ballot

    def restart_ballot(self) -> None:
        self.picks = []
        self.cursor = 0
        self.refusal = ""
        self.stage = ASSIGN

    def place(self, token: Token) -> None:
        if token not in self.offered():
            self.app.toast(f"You have no {token.label} token left to place.")
            return
        self.picks.append(token)
        if len(self.picks) == len(self.slots()):
            self.stage = SUMMARY
        else:
            self.cursor = 0

    def confirm(self) -> None:
        player = self.reviewer
        try:
            self.game.submit_ballot(player, self.ballot())
        except BallotError as error:
            self.refusal = str(error)
            self.stage = REFUSED
            return
        self.picks = []  # wipe before anything else is drawn
        self.cursor = 0
        self.stage = PASS
        self.save()
        if self.game.phase != REVIEWING:
            self.next_phase()
        else:
            self.app.hardware.beep(990.0, 0.1)

    # -- input --------------------------------------------------------------------------------
    def handle(self, action: Action) -> None:
        if self.stage == PASS:
            if action is Action.OK:
                self.restart_ballot()
            elif action is Action.BACK:
                self.leave()
        elif self.stage == ASSIGN:
            offered = self.offered()
            self.cursor = min(self.cursor, len(offered) - 1)
            if action in (Action.LEFT, Action.RIGHT):
                step = -1 if action is Action.LEFT else 1
                self.cursor = (self.cursor + step) % len(offered)
            elif action is Action.OK:
                self.place(offered[self.cursor])
            elif action is Action.BACK:
                if self.picks:
                    self.picks.pop()
                else:
                    self.stage = PASS
        elif self.stage == SUMMARY:
            if action is Action.OK:
                self.confirm()
            elif action is Action.BACK:
                self.restart_ballot()
        elif self.stage == REFUSED and action in (Action.OK, Action.BACK):
            self.restart_ballot()

    def handle_hold(self, action: Action) -> None:
        self.picks = []  # leaving mid-ballot forgets it
        super().handle_hold(action)

    def handle_tap(self, x: int, y: int) -> bool:
        if self.stage != ASSIGN:
            return False
        for rect, token in self._chips:
            if rect.collidepoint(x, y):
                self.place(token)
                return True
        return False

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if self.stage == PASS:
            self.draw_pass(surface)
        elif self.stage == REFUSED:
            ui.message_box(surface, "Ballot refused", self.refusal + " Start your ballot again.")
        else:
            self.draw_ballot(surface)

    def draw_pass(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        done = len(self.game.reviewed)
        total = len(self.game.setup.players)
        ui.text(surface, "Pass the box to", (width // 2, 16), ui.MEDIUM, ui.DIM, "midtop")
        ui.text(
            surface,
            self.reviewer,
            (width // 2, 54),
            ui.BIG,
            ui.ACCENT,
            "midtop",
            max_width=width - 2 * ui.MARGIN,
        )
        box = pygame.Rect(ui.MARGIN * 3, 150, width - 6 * ui.MARGIN, 70)
        ui.panel(surface, box, ui.PANEL, border=ui.BAD)
        ui.text(surface, "Everybody else: look away!", box.center, ui.LARGE, ui.TEXT, "center")
        ui.text(
            surface,
            f"{self.reviewer}: press OK when only you can see the screen.",
            (width // 2, 240),
            ui.SMALL,
            ui.TEXT,
            "midtop",
            max_width=width - 2 * ui.MARGIN,
        )
        ui.text(
            surface,
            f"Ballots sealed: {done} of {total}",
            (width // 2, height - 14),
            ui.SMALL,
            ui.DIM,
            "midbottom",
        )

    def draw_ballot(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        setup = self.game.setup
        own = setup.story_of(self.reviewer).name
        slots = self.slots()
        heading = (
            f"{self.reviewer}: check your ballot"
            if self.stage == SUMMARY
            else f"{self.reviewer}: place your tokens"
        )
        ui.text(
            surface, heading, (ui.MARGIN, 8), ui.MEDIUM, ui.ACCENT, max_width=width - 2 * ui.MARGIN
        )
        stories = setup.story_names
        list_w = 470
        top = 48
        row_h = min(58, (height - top - 4) // len(stories))
        current = len(self.picks)
        for index, story in enumerate(stories):
            row = pygame.Rect(ui.MARGIN, top + index * row_h, list_w, row_h - 6)
            story_slots = [i for i, (s, _) in enumerate(slots) if s == story]
            is_current = self.stage == ASSIGN and current in story_slots
            ui.panel(surface, row, ui.PANEL, border=ui.ACCENT if is_current else None)
            pygame.draw.rect(
                surface, story_colour(index), (row.left, row.top, 10, row.height), border_radius=4
            )
            label = story + ("  (yours)" if story == own else "")
            ui.text(
                surface,
                label,
                (row.left + 20, row.centery),
                ui.MEDIUM if len(stories) <= 5 else ui.SMALL,
                ui.TEXT,
                "midleft",
                max_width=row.width - 140,
            )
            x = row.right - 30
            for slot in reversed(story_slots):
                centre = (x, row.centery)
                if slot < len(self.picks):
                    token_chip(surface, self.picks[slot], centre, min(20, row.height // 2 - 3))
                else:
                    mark = "?" if slot == current and self.stage == ASSIGN else "-"
                    ui.text(surface, mark, centre, ui.MEDIUM, ui.ACCENT, "center")
                x -= 48
        side = pygame.Rect(
            list_w + 2 * ui.MARGIN, top, width - list_w - 3 * ui.MARGIN, height - top - 4
        )
        if self.stage == SUMMARY:
            ui.paragraph(
                surface,
                "OK seals this ballot and wipes the screen. BACK starts "
                "again. Nobody sees a ballot before the reveal.",
                side,
                ui.SMALL,
                ui.TEXT,
            )
            return
        self.draw_hand(surface, side)

    def draw_hand(self, surface: pygame.Surface, side: pygame.Rect) -> None:
        hand = self.hand()
        offered = self.offered()
        self.cursor = min(self.cursor, len(offered) - 1)
        story = self.slots()[len(self.picks)][0]
        ui.text(surface, "Token for", (side.left, side.top), ui.SMALL, ui.DIM)
        ui.text(
            surface, story, (side.left, side.top + 26), ui.MEDIUM, ui.TEXT, max_width=side.width
        )
        self._chips = []
        y = side.top + 70
        step = min(52, (side.bottom - y) // len(PICK_ORDER))
        for token in PICK_ORDER:
            row = pygame.Rect(side.left, y, side.width, step - 6)
            usable = token in offered
            chosen = usable and offered.index(token) == self.cursor
            ui.panel(surface, row, ui.ACCENT if chosen else ui.PANEL)
            token_chip(surface, token, (row.left + 24, row.centery), min(18, row.height // 2 - 2))
            fg = ui.ACCENT_TEXT if chosen else (ui.TEXT if usable else ui.DIM)
            ui.text(surface, token.label, (row.left + 50, row.centery), ui.SMALL, fg, "midleft")
            ui.text(
                surface, f"x{hand[token]}", (row.right - 10, row.centery), ui.SMALL, fg, "midright"
            )
            if usable:
                self._chips.append((row, token))
            y += step

    def legend(self) -> list[LegendItem]:
        if self.stage == PASS:
            return [(Action.OK, f"I am {self.reviewer}"), (Action.BACK, "Menu")]
        if self.stage == ASSIGN:
            return [
                ((Action.LEFT, Action.RIGHT), "Token"),
                (Action.OK, "Place"),
                (Action.BACK, "Take back" if self.picks else "Not me"),
            ]
        if self.stage == SUMMARY:
            return [(Action.OK, "Seal ballot"), (Action.BACK, "Start again")]
        return [(Action.OK, "Start again")]

    def snapshot(self) -> dict[str, Any]:
        return {}  # deliberately nothing: an unsealed ballot is never saved

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        return cls(app)
