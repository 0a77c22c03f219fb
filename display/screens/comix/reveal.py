"""Co-Mix on the appliance, part 4: the reveal of a round and the final podium.

The reveal starts behind a curtain - "All N ballots are in - put the box in the middle - OK to
reveal" - then is a show on two pages, driven by the app clock (scripts and tests advance it):

1. *tokens*: story by story, the tokens each story received land one at a time; then, kind by
   kind, the stories that keep that kind light up (a green ring) while the same kind on the
   other stories is discarded (dimmed), and the Neutral tokens last. Each story ends with the
   points its tokens give its creators.
2. *points*: each player's points this round (own story + reviews) count up into the running
   total, beside their story's colour and their Slow tokens (which break ties).

OK during a page's show skips to its end; OK on a finished page goes on (the last one to the
next round or the podium). LEFT/RIGHT move between the pages, finished.

After the last round the podium ranks everybody: most points, then fewest Slow tokens; a tie on
both is a shared place (and a shared victory at the top). "Rematch" sets up a new game with the
same players, names, rounds and board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.comix.common import (
    GameScreen,
    go_to_phase,
    load_last_game,
    rematch,
    story_colour,
    token_chip,
)
from games.comix import SCORING_KINDS, Game, RoundResult, Token
from games.comix.game import OVER, REVEAL

if TYPE_CHECKING:
    from display.app import App

PAGES = ("tokens", "points")
KIND_ORDER = (Token.ORIGINAL, Token.EXCITING, Token.COMPOSED, Token.NEUTRAL)
LAND_SECONDS = 0.4  # one token landing (shorter when there are many: see Show)
LANDING_MAX = 9.0  # every token of the round lands within this many seconds
STORY_PAUSE = 0.5  # between two stories
LIGHT_SECONDS = 1.5  # each kind's keepers lit, then the next kind
COUNT_SECONDS = 2.0  # points counting up into the totals
LAND_HZ, KEEP_HZ = 1480.0, 1980.0


@dataclass(frozen=True)
class Show:
    """The timeline of the tokens page: when each token lands and when each kind is settled."""

    stories: tuple[str, ...]
    tokens: dict[str, tuple[Token, ...]]  # story -> tokens received, in KIND_ORDER
    lands_at: dict[tuple[str, int], float]  # (story, n-th token) -> seconds into the show
    kinds_at: tuple[float, ...]  # when each of KIND_ORDER is settled (Neutral last)
    length: float

    @classmethod
    def of(cls, stories: list[str], result: RoundResult) -> Show:
        tokens = {
            story: tuple(k for k in KIND_ORDER for _ in range(result.received[story][str(k)]))
            for story in stories
        }
        count = sum(len(t) for t in tokens.values())
        land = min(LAND_SECONDS, LANDING_MAX / max(1, count))
        lands_at: dict[tuple[str, int], float] = {}
        t = 0.0
        for story in stories:
            for index in range(len(tokens[story])):
                t += land
                lands_at[(story, index)] = t
            t += STORY_PAUSE
        kinds_at = tuple(t + i * LIGHT_SECONDS for i in range(len(KIND_ORDER)))
        return cls(tuple(stories), tokens, lands_at, kinds_at, kinds_at[-1] + LIGHT_SECONDS)

    def landed(self, story: str, index: int, elapsed: float) -> bool:
        return elapsed >= self.lands_at[(story, index)]

    def settled(self, kind: Token, elapsed: float) -> bool:
        return elapsed >= self.kinds_at[KIND_ORDER.index(kind)]

    def step(self, elapsed: float) -> tuple[str, str | None]:
        """What the caption says at ``elapsed``: ("story", name) while landing, ("kind", kind)
        while a kind is settled, ("done", None) after."""
        settled = [k for k in KIND_ORDER if self.settled(k, elapsed)]
        if elapsed >= self.length:
            return ("done", None)
        if settled:
            return ("kind", str(settled[-1]))
        for story in self.stories:
            count = len(self.tokens[story])
            if count and not self.landed(story, count - 1, elapsed):
                return ("story", story)
        return ("story", self.stories[-1])


def counted(value: int, progress: float) -> int:
    """``value`` counted up to ``progress`` (0..1) of the way."""
    return round(value * max(0.0, min(1.0, progress)))


@register_screen
class RevealScreen(GameScreen):
    kind = "comix.reveal"

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        self.page = 0
        #: "All N ballots are in": nothing of the reveal shows until OK, with the box in the
        #: middle of the table (not on the last reviewer's lap).
        self.curtain = True
        self.page_started: float | None = None  # app time the page's show began; None = over
        self.beeped = 0  # show events already beeped (tokens landed, kinds settled)

    @property
    def result(self) -> RoundResult:
        assert self.game.round.result is not None
        return self.game.round.result

    def show(self) -> Show:
        return Show.of(self.game.setup.story_names, self.result)

    def on_show(self) -> None:
        self.app.hardware.outputs_off()
        if self.game.phase != REVEAL:
            self.next_phase()

    # -- the show's clock ---------------------------------------------------------------------
    def elapsed(self) -> float:
        if self.page_started is None:
            return 1e9
        return self.app.clock.now() - self.page_started

    def page_length(self) -> float:
        return self.show().length if PAGES[self.page] == "tokens" else COUNT_SECONDS

    def playing(self) -> bool:
        return self.elapsed() < self.page_length()

    def start_page(self, page: int, animate: bool = True) -> None:
        self.page = page
        self.page_started = self.app.clock.now() if animate else None
        self.beeped = 0

    def update(self, now: float) -> None:
        if self.curtain or self.page_started is None or PAGES[self.page] != "tokens":
            return
        show = self.show()
        elapsed = now - self.page_started
        events = sorted(show.lands_at.values())
        landed = sum(1 for t in events if t <= elapsed)
        settled = sum(1 for t in show.kinds_at[:-1] if t <= elapsed)
        if landed + settled > self.beeped:
            self.app.hardware.beep(KEEP_HZ if settled else LAND_HZ, 0.04)
            self.beeped = landed + settled

    # -- input --------------------------------------------------------------------------------
    def handle(self, action: Action) -> None:
        if self.curtain:
            if action is Action.OK:
                self.curtain = False
                self.start_page(0)
            elif action is Action.BACK:
                self.leave()
            return
        if action is Action.RIGHT:
            self.start_page(min(self.page + 1, len(PAGES) - 1), animate=False)
        elif action is Action.LEFT:
            self.start_page(max(self.page - 1, 0), animate=False)
        elif action is Action.OK:
            if self.playing():
                self.page_started = None  # skip to the end of this page's show
            elif self.page < len(PAGES) - 1:
                self.start_page(self.page + 1)
            else:
                self.game.next_round()
                self.next_phase()
        elif action is Action.BACK:
            self.leave()

    # -- drawing ------------------------------------------------------------------------------
    def draw_curtain(self, surface: pygame.Surface) -> None:
        """The same for every ballot: the count of ballots and what to do, nothing else."""
        width, _ = surface.get_size()
        count = len(self.game.setup.players)
        ui.text(surface, f"All {count} ballots are in", (width // 2, 24), ui.BIG, ui.GOOD, "midtop")
        box = pygame.Rect(ui.MARGIN * 2, 130, width - 4 * ui.MARGIN, 90)
        ui.panel(surface, box, ui.PANEL, border=ui.INFO)
        ui.text(surface, "Put the box in the middle", box.center, ui.LARGE, ui.TEXT, "center")
        ui.text(surface, "OK to reveal", (width // 2, 250), ui.LARGE, ui.ACCENT, "midtop")

    def draw(self, surface: pygame.Surface) -> None:
        if self.curtain:
            self.draw_curtain(surface)
        elif PAGES[self.page] == "tokens":
            self.draw_tokens(surface)
        else:
            self.draw_points(surface)

    def caption(self, show: Show, elapsed: float) -> tuple[str, tuple[int, int, int]]:
        step, what = show.step(elapsed)
        if step == "story":
            return f"Tokens on {what}...", ui.TEXT
        if step == "kind":
            kind = Token(str(what))
            if kind is Token.NEUTRAL:
                return "Neutral: always discarded", ui.DIM
            keepers = self.result.keepers[str(kind)]
            if not keepers:
                return f"{kind.label}: nobody got one", ui.DIM
            most = self.result.kept[keepers[0]][str(kind)]
            verb = "keep" if len(keepers) > 1 else "keeps"
            return f"{kind.label}: {', '.join(keepers)} {verb} {most}", ui.GOOD
        return "Kept tokens score", ui.ACCENT

    def draw_tokens(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        show = self.show()
        elapsed = self.elapsed()
        words, colour = self.caption(show, elapsed)
        ui.text(surface, words, (ui.MARGIN, 4), ui.MEDIUM, colour, max_width=width - 2 * ui.MARGIN)
        stories = show.stories
        top = 48
        row_h = min(64, (height - top) // len(stories))
        most = max(len(t) for t in show.tokens.values())
        radius = min(28, row_h // 2 - 6)
        step = min(2 * radius + 8, (width - 2 * ui.MARGIN - 330) // max(1, most))
        first_x = width - ui.MARGIN - 90 - step * most + radius
        for index, story in enumerate(stories):
            row = pygame.Rect(ui.MARGIN, top + index * row_h, width - 2 * ui.MARGIN, row_h - 6)
            ui.panel(surface, row, ui.PANEL)
            pygame.draw.rect(
                surface, story_colour(index), (row.left, row.top, 12, row.height), border_radius=4
            )
            ui.text(
                surface,
                story,
                (row.left + 22, row.centery),
                ui.MEDIUM,
                ui.TEXT,
                "midleft",
                max_width=first_x - radius - row.left - 34,
            )
            for n, token in enumerate(show.tokens[story]):
                if not show.landed(story, n, elapsed):
                    continue
                centre = (first_x + n * step, row.centery)
                settled = show.settled(token, elapsed)
                kept = token in SCORING_KINDS and story in self.result.keepers[str(token)]
                token_chip(surface, token, centre, radius, dim=settled and not kept)
                if settled and kept:
                    pygame.draw.circle(surface, ui.GOOD, centre, radius + 4, width=4)
            if elapsed >= show.length:
                points = self.result.story_points[story]
                ui.text(
                    surface,
                    f"+{points}",
                    (row.right - 14, row.centery),
                    ui.LARGE,
                    ui.GOOD if points else ui.DIM,
                    "midright",
                )

    def draw_points(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        result = self.result
        totals = self.game.totals()
        slow = self.game.slow_totals()
        setup = self.game.setup
        players = setup.players
        progress = min(1.0, self.elapsed() / COUNT_SECONDS)
        columns = 1 if len(players) <= 5 else 2
        per_column = (len(players) + columns - 1) // columns
        area = pygame.Rect(ui.MARGIN, 0, width - 2 * ui.MARGIN, height)
        column_w = area.width // columns
        top = 36
        footer = 34  # the tie-break line, however many players
        row_h = min(72, (height - top - footer) // per_column)
        two_lines = row_h >= 64
        # two columns: the breakdown goes under the round's points ("3+4": story + reviews)
        split_round = columns == 2 and two_lines
        names = setup.story_names
        for c in range(columns):
            right = area.left + (c + 1) * column_w - (12 if columns == 2 else 0)
            for label, x in (("round", right - 200), ("total", right - 92), ("slow", right - 4)):
                ui.text(surface, label, (x, 0), ui.SMALL, ui.DIM, "topright")
        for index, player in enumerate(players):
            column, line = divmod(index, per_column)
            row = pygame.Rect(
                area.left + column * column_w,
                top + line * row_h,
                column_w - (12 if columns == 2 else 0),
                row_h - 6,
            )
            ui.panel(surface, row, ui.PANEL)
            story_index = names.index(setup.story_of(player).name)
            pygame.draw.rect(
                surface, story_colour(story_index), (row.left, row.top, 12, row.height),
                border_radius=4,
            )  # fmt: skip
            gained = result.points[player]
            before = totals[player] - gained
            shown = counted(gained, progress)
            name_w = row.width - 22 - 236
            size = ui.MEDIUM if columns == 1 else ui.SMALL
            own, reviews = result.creator_points[player], result.reviewer_points[player]
            if two_lines and not split_round:
                ui.text(surface, player, (row.left + 22, row.top + 2), size, ui.TEXT,
                        max_width=name_w)  # fmt: skip
                ui.text(
                    surface,
                    f"{own} story + {reviews} reviews",
                    (row.left + 22, row.bottom - 2),
                    ui.SMALL,
                    ui.DIM,
                    "bottomleft",
                    max_width=name_w,
                )
            else:
                ui.text(surface, player, (row.left + 22, row.centery), size, ui.TEXT, "midleft",
                        max_width=name_w)  # fmt: skip
            if split_round:
                ui.text(surface, f"+{shown}", (row.right - 200, row.top + 2), ui.SMALL,
                        ui.GOOD if gained else ui.DIM, "topright")  # fmt: skip
                ui.text(surface, f"{own}+{reviews}", (row.right - 200, row.bottom - 2), ui.SMALL,
                        ui.DIM, "bottomright")  # fmt: skip
            else:
                ui.text(surface, f"+{shown}", (row.right - 200, row.centery), ui.MEDIUM,
                        ui.GOOD if gained else ui.DIM, "midright")  # fmt: skip
            ui.text(surface, str(before + shown), (row.right - 92, row.centery), ui.LARGE,
                    ui.ACCENT, "midright")  # fmt: skip
            ui.text(surface, str(slow[player]), (row.right - 14, row.centery), ui.MEDIUM,
                    ui.BAD if slow[player] else ui.DIM, "midright")  # fmt: skip
        if footer:
            words = "Equal points: fewer Slow tokens wins"
            if split_round:
                words = "Round: story+reviews. Ties: fewer Slow tokens win"
            ui.text(
                surface,
                words,
                (width // 2, height - 2),
                ui.SMALL,
                ui.DIM,
                "midbottom",
            )

    def legend(self) -> list[LegendItem]:
        if self.curtain:
            return [(Action.OK, "Reveal"), (Action.BACK, "Menu")]
        if not self.curtain and self.playing():
            verb = "Skip"
        elif self.page < len(PAGES) - 1:
            verb = "Points"
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
        screen.page_started = None  # after a restart the page is shown finished
        return screen


@register_screen
class PodiumScreen(GameScreen):
    """The final ranking. OK: a rematch (same players, names, rounds and board; this game
    stays on the menu as "Last game's podium"); BACK: home. Shown from the menu for the game a
    rematch replaced (``archived``), OK and BACK only go back."""

    kind = "comix.podium"

    def __init__(self, app: App, game: Game | None = None, archived: bool = False) -> None:
        if archived and game is None:
            game = load_last_game(app)
        super().__init__(app, game)
        self.archived = archived
        self.title = "Co-Mix - last game" if archived else "Co-Mix - final ranking"

    def on_show(self) -> None:
        self.app.hardware.outputs_off()
        if self.game.phase != OVER and not self.archived:
            self.next_phase()

    def handle(self, action: Action) -> None:
        if self.archived:
            if action in (Action.OK, Action.BACK):
                self.app.pop()
        elif action is Action.OK:
            go_to_phase(self.app, rematch(self.app, self.game))
        elif action is Action.BACK:
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
        if self.archived:
            return [(Action.BACK, "Back")]
        return [(Action.OK, "Rematch"), (Action.BACK, "Home")]

    def snapshot(self) -> dict[str, Any]:
        return {"archived": True} if self.archived else {}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        return cls(app, archived=bool(data.get("archived", False)))
