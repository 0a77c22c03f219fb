"""Marvel: Remix: one player's score - the breakdown per card, the choices made, and Loki's draw
(named from a list, or photographed: read off the UI thread)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.cards.capture import PhotoRead, capture_and_read
from display.screen import LegendItem, Screen, register_screen
from display.screens.remix.common import NAMESPACE, catalogue, enrolment, ids_for
from display.widgets.pick import PickScreen
from display.widgets.slow import BUSY_READING, SlowWork
from display.widgets.table import TableResultScreen
from games.remix import RemixError, score_hand

if TYPE_CHECKING:
    from display.app import App
    from games.remix import HandResult


#: one piece of text on a breakdown line: (x from the left edge, text, colour, anchor)
Cell = tuple[int, str, tuple[int, int, int], str]
RULE = "rule"  # a cell anchored so is a line across the table above its line (between cards)

#: the columns' widths on the 752 pixels between the margins of an 800-wide panel; wider
#: screens give the extra room to the reasons
CARD_W, BASE_W, POINTS_W, GAP = 230, 64, 84, 14
HEADINGS = ("card", "base", "bonuses and penalties", "points")


def columns(width: int) -> tuple[int, int, int, int]:
    """The left x of the card and reasons columns and the right x of base and points."""
    base_right = CARD_W + GAP + BASE_W
    reasons_left = base_right + GAP + 6
    return 0, base_right, reasons_left, width


def reasons_width(width: int) -> int:
    return width - POINTS_W - GAP - columns(width)[2]


def decision(choice: str) -> str:
    """A choice the search made for the hand's owner, said as the owner's decision."""
    return f"You chose: {choice}"


def breakdown_lines(result: HandResult, width: int) -> list[list[Cell]]:
    """The breakdown as lines of cells (see :class:`RemixResultScreen`)."""
    return [line for row in breakdown_rows(result, width) for line in row]


def breakdown_rows(result: HandResult, width: int) -> list[list[list[Cell]]]:
    """The breakdown as rows - a card with its reasons, a decision, a note - each its lines of
    cells: the knob pages by whole rows, so none is ever cut at the top."""
    card_x, base_right, reasons_x, points_right = columns(width)
    reasons_w = reasons_width(width)
    rows: list[list[list[Cell]]] = []
    out: list[list[Cell]] = []
    for card in result.cards:
        blanked = card.state == "blanked"
        colour = ui.DIM if blanked else ui.TEXT
        name = ui.wrap(card.name, ui.SMALL, CARD_W)
        if card.side:
            name += ui.wrap(f"becomes {card.side}", ui.SMALL, CARD_W)
        if blanked:
            name += ["blanked"]
        reasons: list[str] = []
        for line in card.lines:
            reasons += ui.wrap(line, ui.SMALL, reasons_w)
        block: list[list[Cell]] = []
        for row in range(max(len(name), len(reasons), 1)):
            cells: list[Cell] = []
            if row < len(name):
                state_word = blanked and row == len(name) - 1
                cells.append((card_x, name[row], ui.BAD if state_word else colour, "topleft"))
            if row < len(reasons):
                cells.append((reasons_x, reasons[row], ui.TEXT, "topleft"))
            if row == 0:
                if out:
                    cells.append((0, "", ui.PANEL, RULE))
                cells.append((base_right, str(card.base), colour, "topright"))
                cells.append((points_right, str(card.points), colour, "topright"))
            block.append(cells)
        out += block
        rows.append(block)
    extras: list[tuple[str, tuple[int, int, int]]] = [
        (decision(choice["choice"]), ui.INFO) for choice in result.choices
    ]
    if result.loki_draw is not None:
        extras.append((f"Loki's draw: {result.loki_draw.name}", ui.INFO))
    for note in result.notes:  # the one saying why an invalid hand scores 0 is a problem
        extras.append((note[:1].upper() + note[1:], ui.BAD if "scores 0" in note else ui.ACCENT))
    for content, colour in extras:
        rows.append([[(0, line, colour, "topleft")] for line in ui.wrap(content, ui.SMALL, width)])
    return rows


@register_screen
class RemixResultScreen(SlowWork, TableResultScreen):
    """The breakdown: per card its state, points and why; the choices; Loki's draw (named from
    a list, or photographed: read off the UI thread)."""

    kind = "remix.result"
    title = "Remix - score"
    namespace = NAMESPACE
    table_kind = "remix.table"
    game_title = "Remix"

    def __init__(self, app: App, player: dict[str, Any], replaces: int | None = None) -> None:
        super().__init__(app, player, replaces)
        self.scroll = 0  # the first line shown: always the first line of a row
        self.last_scroll = 0  # the furthest scroll that still fills the screen (set by draw)
        self.visible = 1  # lines the breakdown shows at once (set by draw)
        self._result: HandResult | None = None

    def result(self) -> HandResult:
        if self._result is None:
            self._result = score_hand(self.player["cards"], self.player.get("loki_draw"))
            self.player["total"] = self._result.total
            self.player["valid"] = self._result.valid
        return self._result

    def points(self) -> int:
        return self.result().total

    def table(self, width: int) -> list[list[Cell]]:
        """The breakdown as display lines of cells, laid out for ``width``: one block per card
        (card | base | bonuses and penalties | points, reasons wrapped), then the choices as
        decisions, Loki's draw and the notes across the whole width."""
        return breakdown_lines(self.result(), width)

    def handle(self, action: Action) -> None:
        if self.busy_handle(action):
            return
        owed = self.result().loki_owed
        if action in (Action.LEFT, Action.RIGHT):
            self.page(1 if action is Action.RIGHT else -1)
        elif action is Action.OK and owed:
            self.ask_loki()
        elif action is Action.SHUTTER and owed:
            self.photograph_loki()
        else:
            super().handle(action)

    def row_starts(self) -> list[int]:
        """The line each row of the breakdown starts on."""
        starts, line = [], 0
        for row in breakdown_rows(self.result(), self.app.size[0] - 2 * ui.MARGIN):
            starts.append(line)
            line += len(row)
        return starts

    def page(self, step: int) -> None:
        """A knob step: the next page starts on the row the page cut (or the next one); the
        previous page on the earliest row from which this page's first row is still in view."""
        starts = self.row_starts()
        if step > 0:
            if self.scroll >= self.last_scroll:
                return
            cut = max(s for s in starts if s <= self.scroll + self.visible)
            self.scroll = cut if cut > self.scroll else min(s for s in starts if s > self.scroll)
        else:
            back = [s for s in starts if self.scroll - self.visible <= s < self.scroll]
            self.scroll = back[0] if back else max([0, *(s for s in starts if s < self.scroll)])

    def ask_loki(self) -> None:
        hand = set(self.player["cards"])
        options = [
            (card.id, card.name, "")
            for card in sorted(catalogue(), key=lambda c: c.name.lower())
            if card.deck == "REMIX" and card.id not in hand
        ]
        prompt = (
            "Loki: draw the top card of the REMIX deck. Which card is it? "
            "(Or BACK, then SHUTTER to photograph it.)"
        )
        self.app.push(PickScreen(self.app, "Remix - Loki's draw", prompt, options), purpose="loki")

    def photograph_loki(self) -> None:
        app = self.app
        self.start_job(
            BUSY_READING,
            lambda: capture_and_read(app, lambda: enrolment(app).gallery()),
            self.loki_read,
        )

    def loki_read(self, outcome: PhotoRead) -> None:
        if outcome.reading is None:
            self.app.toast(outcome.error)
            return
        named = [c for c in outcome.reading.cards if c.name and c.status == "ok"]
        if len(named) != 1:
            self.app.toast(f"Lay only Loki's drawn card under the camera ({len(named)} read).")
            return
        self.use_loki_draw(ids_for([named[0].name or ""])[0])

    def on_result(self, purpose: str, result: Any) -> None:
        if purpose == "loki" and isinstance(result, str):
            self.use_loki_draw(result)

    def use_loki_draw(self, value: str) -> None:
        try:
            score_hand(self.player["cards"], value)
        except RemixError as error:
            self.app.toast(str(error))
            return
        self.player["loki_draw"] = value
        self._result = None
        self.result()

    def draw(self, surface: pygame.Surface) -> None:
        if self.busy:
            self.draw_busy(surface)
            return
        width, height = surface.get_size()
        inner = width - 2 * ui.MARGIN
        y = self.draw_total(surface, pygame.Rect(ui.MARGIN, 4, inner, 70))
        line_h = ui.font(ui.SMALL).get_linesize()
        card_x, base_right, reasons_x, points_right = columns(inner)
        for x, heading, anchor in (
            (card_x, HEADINGS[0], "topleft"),
            (base_right, HEADINGS[1], "topright"),
            (reasons_x, HEADINGS[2], "topleft"),
            (points_right, HEADINGS[3], "topright"),
        ):
            ui.text(surface, heading, (ui.MARGIN + x, y), ui.SMALL, ui.DIM, anchor=anchor)
        y += line_h
        pygame.draw.line(surface, ui.DIM, (ui.MARGIN, y), (width - ui.MARGIN, y), 2)
        y += 4
        lines = self.table(inner)
        visible = max(1, (height - y) // line_h)
        self.last_scroll = max(0, len(lines) - visible)
        self.visible = visible - 1  # a line for "more below"
        if self.scroll > self.last_scroll:  # the end in view, from a row's first line
            self.scroll = min(s for s in [*self.row_starts(), len(lines)] if s >= self.last_scroll)
        if self.scroll + visible < len(lines):
            visible -= 1  # room for "more below"
        for cells in lines[self.scroll : self.scroll + visible]:
            for x, content, colour, anchor in cells:
                if anchor == RULE:
                    pygame.draw.line(
                        surface, colour, (ui.MARGIN, y - 1), (width - ui.MARGIN, y - 1), 2
                    )
                else:
                    ui.text(surface, content, (ui.MARGIN + x, y), ui.SMALL, colour, anchor=anchor)
            y += line_h
        if self.scroll + visible < len(lines):
            ui.text(
                surface,
                "more below: turn",
                (width - ui.MARGIN, height - 2),
                ui.SMALL,
                ui.DIM,
                anchor="bottomright",
            )

    def draw_total(self, surface: pygame.Surface, area: pygame.Rect) -> int:
        """The total, and a badge: "Loki's draw needed" (the total is "so far"), "not valid"
        framed as a problem, or "valid". Returns the y below."""
        result = self.result()
        shown = ui.text(surface, f"{result.total}", area.topleft, ui.BIG, ui.ACCENT)
        words = "points so far" if result.loki_owed else "points"
        ui.text(
            surface, words, (shown.right + 12, shown.bottom - 10), ui.MEDIUM, anchor="bottomleft"
        )
        if result.loki_owed:
            badge, colour = "Loki's draw needed", ui.ACCENT
        elif not result.valid:
            badge = f"Not valid: scores 0 ({result.points_before_validity})"
            colour = ui.BAD
        else:
            badge, colour = "valid hand", ui.GOOD
        badge_w = ui.text_width(badge, ui.SMALL) + 24
        box = pygame.Rect(0, 0, badge_w, ui.font(ui.SMALL).get_linesize() + 12)
        box.midright = (area.right, shown.centery)
        if colour is ui.GOOD:
            ui.text(surface, badge, box.midright, ui.SMALL, colour, anchor="midright")
        else:
            ui.panel(surface, box, ui.PANEL, border=colour)
            ui.text(surface, badge, box.center, ui.SMALL, colour, anchor="center")
        return shown.bottom + 2

    def legend(self) -> list[LegendItem]:
        if self.busy:
            return self.busy_legend()
        base = super().legend()  # OK saves, BACK to the photo, SEAT 1 removes
        first: list[LegendItem] = base[:1]
        if self.result().loki_owed:
            # both say they are for Loki's card (BACK's photo is the hand's)
            first = [(Action.OK, "Pick Loki"), (Action.SHUTTER, "Photo Loki")]
        scroll: list[LegendItem] = [((Action.LEFT, Action.RIGHT), "Scroll")]
        items = [*first, *scroll, *base[1:]]
        if ui.legend_width(items) > self.app.size[0]:
            # Every key must show: the knob's scrolling is said on the table instead, where
            # "more below: turn" appears whenever there is more.
            items = [*first, *base[1:]]
        return items

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "scroll": self.scroll, **self.busy_snapshot()}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, data["player"], data.get("replaces"))
        screen.scroll = int(data.get("scroll", 0))
        screen.interrupted(data)
        return screen
