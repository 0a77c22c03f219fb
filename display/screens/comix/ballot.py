"""Co-Mix on the appliance, part 3: the private review ballot box.

Players review one at a time, in seat order:

1. *pass*: "Pass the box to NAME - everybody else, look away". Nothing of any ballot is shown.
   Opening the ballot needs a hold of OK (a press only says so), so a bumped box opens nothing.
2. *assign*: story by story, the story being reviewed in big letters. Each step opens on a
   grey "?" disc: the knob (LEFT/RIGHT) brings up the tokens still in hand one at a time, the
   one being chosen as a big coloured disc, OK places it, BACK takes the last one back. Tokens
   still in hand and tokens already placed are rows of identical grey dots, and which token the
   step opens on never depends on what was placed: a glance at the box shows how far the
   reviewer is, never what they gave or kept. When the rules force a token (the last slot must
   be Neutral if none was placed yet) one line says why, once the reviewer turns the knob.
3. *summary*: the only page with the placed tokens in colour. LEFT/RIGHT pick a token, OK changes
   just that one (from the hand, or swapped with another story's token); "Seal ballot" (where the
   cursor starts) seals it. BACK goes back one step: it takes the last token back, never the
   whole ballot.
4. The screen is wiped (back to *pass* for the next player); after the last ballot, the reveal
   screen's curtain ("All N ballots are in - put the box in the middle - OK to reveal").

An open ballot blanks itself back to the *pass* screen after :data:`IDLE_BLANK` seconds without a
press (the box put down on the table); the tokens placed so far stay in memory and the next hold of
OK reopens on the step it was at (its "?" disc) - a complete ballot on *ready* ("every token
placed - OK to check it"), never on the coloured summary, whoever holds OK. A ballot being
filled in is never written to the store, the screen snapshot or any log: only a sealed ballot
is saved (inside the game state, needed to survive a power cut). After a power cut mid-ballot
the box comes back on the *pass* screen for the same reviewer.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.comix.common import GameScreen, token_chip
from games.comix import TOKEN_SET, BallotError, Game, Token, ballot_slots
from games.comix.game import REVIEWING

if TYPE_CHECKING:
    from display.app import App

PICK_ORDER = (Token.ORIGINAL, Token.EXCITING, Token.COMPOSED, Token.NEUTRAL)
PASS, ASSIGN, SUMMARY, CHANGE, REFUSED = "pass", "assign", "summary", "change", "refused"
READY = "ready"  # a complete ballot reopened after a blank: no token shown until OK
OPEN_STAGES = (ASSIGN, SUMMARY, CHANGE, REFUSED, READY)
NONE_CHOSEN = -1  # assign: the step's "?" disc, before the knob brings up a token
IDLE_BLANK = 20.0  # seconds without a press before an open ballot blanks to the pass screen
HINT_SECONDS = 3.0  # how long "hold OK to open" stays after a short press on the pass screen
PLACED_DOT = (150, 150, 160)  # every placed token, whatever its kind, while placing
NEUTRAL_NEEDED = "Neutral only: every ballot needs one."


@register_screen
class BallotScreen(GameScreen):
    kind = "comix.ballot"

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        self.stage = PASS
        self.picks: list[Token] = []  # tokens placed so far, in slot order (never saved)
        #: assign: index in offered() (NONE_CHOSEN: the "?" disc); change: in change_options()
        self.cursor = NONE_CHOSEN
        self.review = 0  # summary: a slot index, or len(slots) for "Seal ballot"
        self.refusal = ""
        self.last_input = app.clock.now()
        self.hint_until = -1.0
        self.ok_down_on_pass = False  # a hold of OK opens only if its press began on *pass*
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

    def hand(self, picks: list[Token] | None = None) -> Counter[Token]:
        """Tokens still in the reviewer's hand."""
        left = Counter(TOKEN_SET)
        left.subtract(self.picks if picks is None else picks)
        return left

    def offered(self) -> list[Token]:
        """Tokens that can go on the current slot without making the ballot impossible: any
        token still in hand, except that the last slot must be Neutral if none was placed."""
        hand = self.hand()
        tokens = [t for t in PICK_ORDER if hand[t] > 0]
        if self.neutral_forced():
            tokens = [Token.NEUTRAL]
        return tokens

    def neutral_forced(self) -> bool:
        last = len(self.picks) == len(self.slots()) - 1
        return last and Token.NEUTRAL not in self.picks

    def ballot(self) -> dict[str, list[str]]:
        ballot: dict[str, list[str]] = {}
        for (story, _), token in zip(self.slots(), self.picks, strict=False):
            ballot.setdefault(story, []).append(str(token))
        return ballot

    def open_ballot(self) -> None:
        """The reviewer held OK: their ballot, where they left it (or a new one) - on the step's
        "?" disc, or *ready* if every token is placed; never on the coloured summary, as whoever
        holds OK after the box was put down may not be its reviewer."""
        self.refusal = ""
        self.cursor = NONE_CHOSEN
        self.stage = READY if len(self.picks) == len(self.slots()) else ASSIGN

    def place(self, token: Token) -> None:
        if token not in self.offered():
            self.app.toast(f"You have no {token.label} token left to place.")
            return
        self.picks.append(token)
        self.cursor = NONE_CHOSEN
        if len(self.picks) == len(self.slots()):
            self.stage = SUMMARY
            self.review = len(self.slots())  # on "Seal ballot": sealing stays one press

    def change_options(self, slot: int) -> list[tuple[Token, int | None]]:
        """What the token on ``slot`` can become: (token, slot it swaps with or None). The
        current token first; then any token still in hand (if a Neutral stays on the ballot);
        then a token on another story, swapped."""
        current = self.picks[slot]
        story = self.slots()[slot][0]
        hand = self.hand()
        options: list[tuple[Token, int | None]] = [(current, None)]
        for token in PICK_ORDER:
            if token == current:
                continue
            if hand[token] > 0:
                changed = list(self.picks)
                changed[slot] = token
                if Token.NEUTRAL in changed:
                    options.append((token, None))
                continue
            for other, (other_story, _) in enumerate(self.slots()):
                if other_story != story and self.picks[other] == token:
                    options.append((token, other))
                    break
        return options

    def apply_change(self, slot: int, token: Token, swap: int | None) -> None:
        if swap is not None:
            self.picks[swap] = self.picks[slot]
        self.picks[slot] = token

    def confirm(self) -> None:
        player = self.reviewer
        try:
            self.game.submit_ballot(player, self.ballot())
        except BallotError as error:
            self.refusal = str(error)
            self.stage = REFUSED
            return
        self.picks = []  # wipe before anything else is drawn
        self.cursor = NONE_CHOSEN
        self.stage = PASS
        self.hint_until = -1.0
        self.save()
        if self.game.phase != REVIEWING:
            self.next_phase()  # the reveal's curtain: "All N ballots are in"
        else:
            self.app.hardware.beep(990.0, 0.1)

    # -- input --------------------------------------------------------------------------------
    def handle(self, action: Action) -> None:
        self.last_input = self.app.clock.now()
        self.ok_down_on_pass = self.stage == PASS and action is Action.OK
        if self.stage == PASS:
            if action is Action.OK:
                self.hint_until = self.last_input + HINT_SECONDS
            elif action is Action.BACK:
                self.leave()
        elif self.stage == ASSIGN:
            self.handle_assign(action)
        elif self.stage == SUMMARY:
            self.handle_summary(action)
        elif self.stage == CHANGE:
            self.handle_change(action)
        elif self.stage == READY:
            if action is Action.OK:
                self.stage, self.review = SUMMARY, len(self.slots())
            elif action is Action.BACK:  # one step back, as from the summary
                self.picks.pop()
                self.stage, self.cursor = ASSIGN, NONE_CHOSEN
        elif self.stage == REFUSED and action in (Action.OK, Action.BACK):
            self.stage = SUMMARY

    def handle_assign(self, action: Action) -> None:
        offered = self.offered()
        self.cursor = min(self.cursor, len(offered) - 1)
        if action in (Action.LEFT, Action.RIGHT):
            if self.cursor == NONE_CHOSEN:  # from the "?" disc: RIGHT the first, LEFT the last
                self.cursor = 0 if action is Action.RIGHT else len(offered) - 1
            else:
                step = -1 if action is Action.LEFT else 1
                self.cursor = (self.cursor + step) % len(offered)
        elif action is Action.OK:
            if self.cursor == NONE_CHOSEN:
                self.app.toast("Turn the knob to choose a token first.")
            else:
                self.place(offered[self.cursor])
        elif action is Action.BACK:
            if self.picks:
                self.picks.pop()
                self.cursor = NONE_CHOSEN
            else:
                self.stage = PASS

    def handle_summary(self, action: Action) -> None:
        rows = len(self.slots()) + 1  # every token, then "Seal ballot"
        if action in (Action.LEFT, Action.RIGHT):
            step = -1 if action is Action.LEFT else 1
            self.review = (self.review + step) % rows
        elif action is Action.OK:
            if self.review >= len(self.slots()):
                self.confirm()
            else:
                self.stage, self.cursor = CHANGE, 0
        elif action is Action.BACK:  # one step back: the last token returns to the hand
            self.picks.pop()
            self.stage, self.cursor = ASSIGN, NONE_CHOSEN

    def handle_change(self, action: Action) -> None:
        options = self.change_options(self.review)
        self.cursor = min(self.cursor, len(options) - 1)
        if action in (Action.LEFT, Action.RIGHT):
            step = -1 if action is Action.LEFT else 1
            self.cursor = (self.cursor + step) % len(options)
        elif action is Action.OK:
            token, swap = options[self.cursor]
            self.apply_change(self.review, token, swap)
            self.stage = SUMMARY
        elif action is Action.BACK:
            self.stage = SUMMARY

    def handle_hold(self, action: Action) -> None:
        if action is Action.OK:
            if self.stage == PASS and self.ok_down_on_pass:
                self.ok_down_on_pass = False
                self.last_input = self.app.clock.now()
                self.open_ballot()
            return
        self.picks = []  # leaving mid-ballot (hold BACK: home) forgets it
        super().handle_hold(action)

    def handle_tap(self, x: int, y: int) -> bool:
        if self.stage != ASSIGN or self.cursor == NONE_CHOSEN:
            return False
        for rect, token in self._chips:
            if rect.collidepoint(x, y):
                self.last_input = self.app.clock.now()
                self.place(token)
                return True
        return False

    def update(self, now: float) -> None:
        if self.stage in OPEN_STAGES and now - self.last_input >= IDLE_BLANK:
            self.stage = PASS  # the box was put down: blank it (what was placed stays in memory)
            self.hint_until = -1.0

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        self._chips = []
        if self.stage == PASS:
            self.draw_pass(surface)
        elif self.stage == REFUSED:
            ui.message_box(surface, "Ballot refused", self.refusal + " Change a token.")
        elif self.stage == ASSIGN:
            self.draw_assign(surface)
        elif self.stage == CHANGE:
            self.draw_change(surface)
        elif self.stage == READY:
            self.draw_ready(surface)
        else:
            self.draw_summary(surface)

    def draw_pass(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        done = len(self.game.reviewed)
        total = len(self.game.setup.players)
        ui.text(surface, "Pass the box to", (width // 2, 10), ui.MEDIUM, ui.DIM, "midtop")
        ui.text(
            surface,
            self.reviewer,
            (width // 2, 52),
            ui.BIG,
            ui.ACCENT,
            "midtop",
            max_width=width - 2 * ui.MARGIN,
        )
        box = pygame.Rect(ui.MARGIN * 2, 132, width - 4 * ui.MARGIN, 76)
        ui.panel(surface, box, ui.PANEL, border=ui.INFO)
        ui.text(surface, "Everybody else: look away", box.center, ui.LARGE, ui.TEXT, "center")
        hinted = self.app.clock.now() < self.hint_until
        line = "Keep holding OK..." if hinted else "Hold OK to open your ballot"
        ui.text(
            surface,
            line,
            (width // 2, 226),
            ui.MEDIUM,
            ui.ACCENT if hinted else ui.TEXT,
            "midtop",
            max_width=width - 2 * ui.MARGIN,
        )
        ui.text(
            surface,
            f"Sealed: {done} of {total}",
            (width // 2, height - 8),
            ui.SMALL,
            ui.DIM,
            "midbottom",
        )

    def progress_dots(self, surface: pygame.Surface, right: int, centre_y: int) -> None:
        """One dot per slot: placed ones identical and grey, whatever the token."""
        count = len(self.slots())
        x = right - 14
        for slot in reversed(range(count)):
            if slot < len(self.picks):
                pygame.draw.circle(surface, PLACED_DOT, (x, centre_y), 12)
            else:
                pygame.draw.circle(surface, ui.DIM, (x, centre_y), 12, width=3)
            x -= 34

    def story_heading(self, surface: pygame.Surface, story: str, label: str) -> None:
        width, _ = surface.get_size()
        own = self.game.setup.story_of(self.reviewer).name
        ui.text(surface, label, (ui.MARGIN, 6), ui.SMALL, ui.DIM)
        self.progress_dots(surface, width - ui.MARGIN, 26)
        name = story + ("  (yours)" if story == own else "")
        ui.text(surface, name, (ui.MARGIN, 34), ui.BIG, ui.TEXT, max_width=width - 2 * ui.MARGIN)

    def carousel(
        self, surface: pygame.Surface, tokens: list[Token], chosen: int, top: int, kept: int
    ) -> None:
        """The chosen token as a big coloured disc with its name (``chosen`` NONE_CHOSEN: a grey
        "?" disc, "Turn < > to choose"); below it ``kept`` identical grey dots, the tokens
        still in hand - their kinds are never drawn, so a glance tells nothing placed."""
        centre = (170, top + 80)
        if chosen == NONE_CHOSEN:
            pygame.draw.circle(surface, ui.PANEL, centre, 74)
            pygame.draw.circle(surface, ui.DIM, centre, 74, width=4)
            ui.text(surface, "?", centre, ui.HUGE, ui.DIM, "center")
            ui.text(surface, "Turn < > to choose", (330, top + 52), ui.LARGE, ui.TEXT, "topleft")
        else:
            token = tokens[chosen]
            rect = token_chip(surface, token, centre, 74)
            self._chips.append((rect, token))
            ui.text(surface, token.label, (330, top + 44), ui.BIG, ui.TEXT, "topleft")
        ui.text(surface, "<", (centre[0] - 112, centre[1]), ui.BIG, ui.ACCENT, "center")
        ui.text(surface, ">", (centre[0] + 112, centre[1]), ui.BIG, ui.ACCENT, "center")
        label = ui.text(surface, "In hand:", (330, top + 146), ui.SMALL, ui.DIM, "midleft")
        x = label.right + 24
        for _ in range(kept):
            pygame.draw.circle(surface, PLACED_DOT, (x, top + 146), 12)
            x += 34

    def draw_assign(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        slots = self.slots()
        story = slots[len(self.picks)][0]
        label = f"{self.reviewer} - token {len(self.picks) + 1} of {len(slots)}, for"
        self.story_heading(surface, story, label)
        offered = self.offered()
        self.cursor = min(self.cursor, len(offered) - 1)
        kept = sum(self.hand().values())
        self.carousel(surface, offered, self.cursor, 112, kept)
        if self.neutral_forced() and self.cursor != NONE_CHOSEN:
            ui.text(
                surface,
                NEUTRAL_NEEDED,
                (ui.MARGIN, height - 4),
                ui.SMALL,
                ui.ACCENT,
                "bottomleft",
                max_width=width - 2 * ui.MARGIN,
            )

    def draw_change(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        story = self.slots()[self.review][0]
        self.story_heading(surface, story, f"{self.reviewer} - change the token on")
        options = self.change_options(self.review)
        self.cursor = min(self.cursor, len(options) - 1)
        self.carousel(surface, [t for t, _ in options], self.cursor, 112, sum(self.hand().values()))
        token, swap = options[self.cursor]
        if len(options) == 1:
            note = "No other token can go here."
        elif swap is not None:
            note = f"Swaps: {self.picks[self.review].label} goes to {self.slots()[swap][0]}"
        elif token == self.picks[self.review]:
            note = "Unchanged."
        else:
            note = f"{self.picks[self.review].label} goes back to your hand."
        ui.text(
            surface,
            note,
            (ui.MARGIN, height - 4),
            ui.SMALL,
            ui.ACCENT,
            "bottomleft",
            max_width=width - 2 * ui.MARGIN,
        )

    def draw_ready(self, surface: pygame.Surface) -> None:
        """A complete ballot reopened after a blank: how far, never which tokens."""
        width, height = surface.get_size()
        count = len(self.slots())
        ui.text(surface, f"{self.reviewer} - ballot", (ui.MARGIN, 6), ui.SMALL, ui.DIM)
        self.progress_dots(surface, width - ui.MARGIN, 26)
        ui.text(
            surface,
            f"All {count} tokens placed",
            (ui.MARGIN, 34),
            ui.BIG,
            ui.TEXT,
            max_width=width - 2 * ui.MARGIN,
        )
        ui.paragraph(
            surface,
            "OK shows your ballot to check and seal. Nobody else should be looking.",
            pygame.Rect(ui.MARGIN, 130, width - 2 * ui.MARGIN, height - 140),
            ui.MEDIUM,
            ui.TEXT,
        )

    def draw_summary(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        setup = self.game.setup
        own = setup.story_of(self.reviewer).name
        slots = self.slots()
        ui.text(
            surface,
            f"{self.reviewer}: check your ballot",
            (ui.MARGIN, 4),
            ui.MEDIUM,
            ui.ACCENT,
            max_width=width - 2 * ui.MARGIN,
        )
        stories = setup.story_names
        top = 46
        row_h = min(60, (height - top) // (len(stories) + 1))
        for index, story in enumerate(stories):
            row = pygame.Rect(ui.MARGIN, top + index * row_h, width - 2 * ui.MARGIN, row_h - 6)
            story_slots = [i for i, (s, _) in enumerate(slots) if s == story]
            selected = self.review in story_slots
            ui.panel(surface, row, ui.PANEL, border=ui.ACCENT if selected else None)
            label = story + (" (yours)" if story == own else "")
            x = row.right - 12
            radius = min(26, row.height // 2 - 2)
            for slot in reversed(story_slots):
                token = self.picks[slot]
                words = ui.text(
                    surface, token.label, (x, row.centery), ui.SMALL, ui.TEXT, "midright"
                )
                chip = token_chip(surface, token, (words.left - radius - 8, row.centery), radius)
                if slot == self.review:
                    pygame.draw.rect(surface, ui.ACCENT, chip.inflate(10, 10), 4, border_radius=8)
                x = chip.left - 22
            ui.text(
                surface,
                label,
                (row.left + 14, row.centery),
                ui.MEDIUM,
                ui.TEXT,
                "midleft",
                max_width=x - row.left - 24,
            )
        seal = pygame.Rect(ui.MARGIN, top + len(stories) * row_h, width - 2 * ui.MARGIN, row_h - 6)
        chosen = self.review >= len(slots)
        ui.panel(surface, seal, ui.ACCENT if chosen else ui.PANEL)
        ui.text(
            surface,
            ("> " if chosen else "") + "Seal ballot",
            seal.center,
            ui.MEDIUM,
            ui.ACCENT_TEXT if chosen else ui.TEXT,
            "center",
        )

    def legend(self) -> list[LegendItem]:
        if self.stage == PASS:
            return [(Action.OK, "Hold: open"), (Action.BACK, "Menu")]
        if self.stage == READY:
            return [(Action.OK, "Check"), (Action.BACK, "Undo")]
        if self.stage == ASSIGN:
            if self.cursor == NONE_CHOSEN:
                return [
                    ((Action.LEFT, Action.RIGHT), "Choose a token"),
                    (Action.BACK, "Undo" if self.picks else "Not me"),
                ]
            return [
                ((Action.LEFT, Action.RIGHT), "Token"),
                (Action.OK, "Place"),
                (Action.BACK, "Undo" if self.picks else "Not me"),
            ]
        if self.stage == SUMMARY:
            on_seal = self.review >= len(self.slots())
            return [
                (Action.OK, "Seal" if on_seal else "Change"),
                ((Action.LEFT, Action.RIGHT), "Pick"),
                (Action.BACK, "Undo"),
            ]
        if self.stage == CHANGE:
            return [
                ((Action.LEFT, Action.RIGHT), "Token"),
                (Action.OK, "Use"),
                (Action.BACK, "Keep"),
            ]
        return [(Action.OK, "Change a token")]

    def snapshot(self) -> dict[str, Any]:
        return {}  # deliberately nothing: an unsealed ballot is never saved

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        return cls(app)
