"""Co-Mix on the appliance, part 4: the reveal of a round and the final podium.

The reveal has three pages (LEFT/RIGHT to move, OK for the next):

1. *tokens*: what each story received, kind by kind (Neutral included);
2. *consensus*: for each kind, which stories keep their tokens and which lose them;
3. *scores*: each player's points this round (own story + reviews) and the running total.

After the last round the podium ranks everybody: most points, then fewest Slow tokens; a tie on
both is a shared place (and a shared victory at the top).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.comix.common import TOKEN_COLOURS, GameScreen, story_colour, token_chip
from games.comix import SCORING_KINDS, Game, RoundResult, Token
from games.comix.game import OVER, REVEAL

if TYPE_CHECKING:
    from display.app import App

PAGES = ("tokens", "consensus", "scores")
PAGE_TITLES = {
    "tokens": "Tokens on each story",
    "consensus": "Consensus, kind by kind",
    "scores": "Points",
}


@register_screen
class RevealScreen(GameScreen):
    kind = "comix.reveal"

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        self.page = 0
        #: "All N ballots are in": nothing of the reveal shows until OK, with the box in the
        #: middle of the table (not on the last reviewer's lap).
        self.curtain = True

    @property
    def result(self) -> RoundResult:
        assert self.game.round.result is not None
        return self.game.round.result

    def on_show(self) -> None:
        self.app.hardware.outputs_off()
        if self.game.phase != REVEAL:
            self.next_phase()

    def handle(self, action: Action) -> None:
        if self.curtain:
            if action is Action.OK:
                self.curtain = False
            elif action is Action.BACK:
                self.leave()
            return
        if action is Action.RIGHT:
            self.page = min(self.page + 1, len(PAGES) - 1)
        elif action is Action.LEFT:
            self.page = max(self.page - 1, 0)
        elif action is Action.OK:
            if self.page < len(PAGES) - 1:
                self.page += 1
            else:
                self.game.next_round()
                self.next_phase()
        elif action is Action.BACK:
            self.leave()

    def draw_curtain(self, surface: pygame.Surface) -> None:
        """The same for every ballot: the count of ballots and what to do, nothing else."""
        width, height = surface.get_size()
        count = len(self.game.setup.players)
        ui.text(surface, f"All {count} ballots are in", (width // 2, 24), ui.BIG, ui.GOOD, "midtop")
        box = pygame.Rect(ui.MARGIN * 2, 130, width - 4 * ui.MARGIN, 90)
        ui.panel(surface, box, ui.PANEL, border=ui.INFO)
        ui.text(surface, "Put the box in the middle", box.center, ui.LARGE, ui.TEXT, "center")
        ui.text(surface, "OK to reveal", (width // 2, 250), ui.LARGE, ui.ACCENT, "midtop")

    def draw(self, surface: pygame.Surface) -> None:
        if self.curtain:
            self.draw_curtain(surface)
            return
        width, _ = surface.get_size()
        page = PAGES[self.page]
        ui.text(surface, PAGE_TITLES[page], (ui.MARGIN, 8), ui.MEDIUM, ui.ACCENT)
        ui.text(
            surface,
            f"{self.page + 1}/{len(PAGES)}",
            (width - ui.MARGIN, 8),
            ui.SMALL,
            ui.DIM,
            "topright",
        )
        area = surface.get_rect().inflate(-2 * ui.MARGIN, 0)
        area.top, area.height = 50, surface.get_height() - 54
        if page == "tokens":
            self.draw_tokens(surface, area)
        elif page == "consensus":
            self.draw_consensus(surface, area)
        else:
            self.draw_scores(surface, area)

    def story_rows(self, area: pygame.Rect) -> list[tuple[str, pygame.Rect]]:
        names = self.game.setup.story_names
        row_h = min(58, area.height // len(names))
        return [
            (name, pygame.Rect(area.left, area.top + i * row_h, area.width, row_h - 6))
            for i, name in enumerate(names)
        ]

    def draw_tokens(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        received = self.result.received
        kinds = list(Token)
        column_w = 100
        first_x = area.right - column_w * len(kinds)
        for index, (story, row) in enumerate(self.story_rows(area)):
            ui.panel(surface, row, ui.PANEL)
            pygame.draw.rect(
                surface, story_colour(index), (row.left, row.top, 10, row.height), border_radius=4
            )
            ui.text(
                surface,
                story,
                (row.left + 20, row.centery),
                ui.MEDIUM,
                ui.TEXT,
                "midleft",
                max_width=first_x - row.left - 30,
            )
            for column, kind in enumerate(kinds):
                x = first_x + column * column_w + 26
                count = received[story][str(kind)]
                token_chip(surface, kind, (x, row.centery), min(18, row.height // 2 - 3))
                ui.text(
                    surface,
                    f"x{count}",
                    (x + 24, row.centery),
                    ui.MEDIUM,
                    ui.TEXT if count else ui.DIM,
                    "midleft",
                )

    def draw_consensus(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        result = self.result
        row_h = min(92, (area.height - 40) // len(SCORING_KINDS))
        for index, kind in enumerate(SCORING_KINDS):
            row = pygame.Rect(area.left, area.top + index * row_h, area.width, row_h - 8)
            ui.panel(surface, row, ui.PANEL, border=TOKEN_COLOURS[kind])
            token_chip(surface, kind, (row.left + 30, row.centery), 20)
            keepers = result.keepers[str(kind)]
            x = row.left + 62
            if not keepers:
                ui.text(
                    surface,
                    f"{kind.label}: nobody received one",
                    (x, row.centery),
                    ui.MEDIUM,
                    ui.DIM,
                    "midleft",
                )
                continue
            most = result.kept[keepers[0]][str(kind)]
            keep = ", ".join(keepers)
            verb = "keep" if len(keepers) > 1 else "keeps"
            ui.text(
                surface,
                f"{kind.label}: {keep} {verb} {most}",
                (x, row.top + 8),
                ui.MEDIUM,
                ui.GOOD,
                max_width=row.right - x - 12,
            )
            lost = [
                f"{story} {counts[str(kind)]}"
                for story, counts in result.received.items()
                if counts[str(kind)] and story not in keepers
            ]
            note = "discarded: " + ", ".join(lost) if lost else "nothing discarded"
            ui.text(
                surface,
                note,
                (x, row.bottom - 8),
                ui.SMALL,
                ui.DIM,
                "bottomleft",
                max_width=row.right - x - 12,
            )
        ui.text(
            surface,
            "Neutral tokens are always discarded.",
            (area.centerx, area.bottom - 4),
            ui.SMALL,
            ui.DIM,
            "midbottom",
        )

    def draw_scores(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        result = self.result
        totals = self.game.totals()
        players = self.game.setup.players
        columns = 1 if len(players) <= 5 else 2
        per_column = (len(players) + columns - 1) // columns
        column_w = area.width // columns
        row_h = min(58, (area.height - 34) // per_column)
        for c in range(columns):
            x0 = area.left + c * column_w
            ui.text(
                surface,
                "own + reviews = round   total",
                (x0 + column_w - 16, area.top),
                ui.SMALL,
                ui.DIM,
                "topright",
            )
        for index, player in enumerate(players):
            column, line = divmod(index, per_column)
            row = pygame.Rect(
                area.left + column * column_w,
                area.top + 30 + line * row_h,
                column_w - 12,
                row_h - 6,
            )
            ui.panel(surface, row, ui.PANEL)
            ui.text(
                surface,
                player,
                (row.left + 12, row.centery),
                ui.MEDIUM,
                ui.TEXT,
                "midleft",
                max_width=row.width // 2 - 30 if columns == 2 else 300,
            )
            own, reviews = result.creator_points[player], result.reviewer_points[player]
            sums = f"{own} + {reviews} = +{result.points[player]}"
            size = ui.SMALL if columns == 2 else ui.MEDIUM
            ui.text(
                surface,
                sums,
                (row.right - (90 if columns == 2 else 130), row.centery),
                size,
                ui.TEXT,
                "midright",
            )
            ui.text(
                surface,
                str(totals[player]),
                (row.right - 12, row.centery),
                ui.LARGE,
                ui.ACCENT,
                "midright",
            )

    def legend(self) -> list[LegendItem]:
        if self.curtain:
            return [(Action.OK, "Reveal"), (Action.BACK, "Menu")]
        if self.page < len(PAGES) - 1:
            verb = "Next"
        elif self.game.round.number >= self.game.setup.rounds:
            verb = "Podium"
        else:
            verb = "Next round"
        return [(Action.OK, verb), ((Action.LEFT, Action.RIGHT), "Page"), (Action.BACK, "Menu")]

    def snapshot(self) -> dict[str, Any]:
        return {"page": self.page, "curtain": self.curtain}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.page = max(0, min(len(PAGES) - 1, int(data.get("page", 0))))
        screen.curtain = bool(data.get("curtain", False))  # older saves had no curtain
        return screen


@register_screen
class PodiumScreen(GameScreen):
    kind = "comix.podium"

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        self.title = "Co-Mix - final ranking"

    def on_show(self) -> None:
        self.app.hardware.outputs_off()
        if self.game.phase != OVER:
            self.next_phase()

    def handle(self, action: Action) -> None:
        if action in (Action.OK, Action.BACK):
            self.app.go_home()

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        standings = self.game.standings()
        winners = self.game.winners()
        headline = (
            f"{winners[0]} wins!" if len(winners) == 1 else "Shared victory: " + " & ".join(winners)
        )
        ui.text(
            surface,
            headline,
            (width // 2, 8),
            ui.LARGE,
            ui.ACCENT,
            "midtop",
            max_width=width - 2 * ui.MARGIN,
        )
        tie_broken = any(
            a.points == b.points and a.place != b.place
            for a, b in zip(standings, standings[1:], strict=False)
        )
        columns = 1 if len(standings) <= 5 else 2
        per_column = (len(standings) + columns - 1) // columns
        column_w = (width - 2 * ui.MARGIN) // columns
        top = 64
        row_h = min(56, (height - top - (34 if tie_broken else 4)) // per_column)
        for index, standing in enumerate(standings):
            column, line = divmod(index, per_column)
            row = pygame.Rect(
                ui.MARGIN + column * column_w, top + line * row_h, column_w - 12, row_h - 6
            )
            first = standing.place == 1
            ui.panel(surface, row, ui.ACCENT if first else ui.PANEL)
            fg = ui.ACCENT_TEXT if first else ui.TEXT
            place = f"{standing.place}."
            ui.text(surface, place, (row.left + 12, row.centery), ui.MEDIUM, fg, "midleft")
            ui.text(
                surface,
                standing.player,
                (row.left + 60, row.centery),
                ui.MEDIUM,
                fg,
                "midleft",
                max_width=row.width - 210,
            )
            slow = f"slow {standing.slow}"
            ui.text(surface, slow, (row.right - 90, row.centery), ui.SMALL, fg, "midright")
            ui.text(
                surface,
                str(standing.points),
                (row.right - 12, row.centery),
                ui.LARGE,
                fg,
                "midright",
            )
        if tie_broken:
            ui.text(
                surface,
                "Equal points: fewer Slow tokens ranks higher.",
                (width // 2, height - 4),
                ui.SMALL,
                ui.DIM,
                "midbottom",
            )

    def legend(self) -> list[LegendItem]:
        return [(Action.OK, "Home")]

    def snapshot(self) -> dict[str, Any]:
        return {}
