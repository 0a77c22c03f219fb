"""I Made You a Mixtape: score mixtapes at the table - the players, one mixtape photographed
(Trk A left, Trk B right, each top to bottom), its score and the ranking."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.mixtape.common import (
    GENRE_COLOURS,
    NAMESPACE,
    chip_label,
    draw_rows_shown,
    enrolment,
    label_in_deck,
    load_table_deck,
)
from display.widgets.ranking import RankingScreen
from display.widgets.table import TableHandScreen, TableResultScreen, TableScreen
from games.mixtape import GENRE_NAMES, MixtapeError, ranking_key, score_mixtape

if TYPE_CHECKING:
    from display.app import App
    from games.mixtape import Deck, MixtapeScore


@register_screen
class MixtapeTableScreen(TableScreen):
    kind = "mixtape.table"
    title = "Mixtape - the table"
    namespace = NAMESPACE
    next_label = "Photo"  # the next mixtape

    def player_note(self, player: dict[str, Any]) -> str:
        return f"{player['score']['total']} pts"

    def hand_screen(self, who: str, replaces: int | None = None) -> TableHandScreen:
        return MixtapeTapeScreen(self.app, who, replaces)

    def ranking_screen(self) -> Screen:
        return MixtapeRankingScreen(self.app)


@register_screen
class MixtapeTapeScreen(TableHandScreen):
    """A finished mixtape: Trk A left, Trk B right, each top to bottom."""

    kind = "mixtape.tape"
    title = "Mixtape - photo"
    layout = "columns"
    finish_label = "Score this mixtape"

    def gallery(self) -> Any:
        return enrolment(self.app).gallery()

    def all_names(self) -> list[str]:
        try:
            return [card.id for card in load_table_deck(self.app).cards]
        except Exception:
            return sorted(enrolment(self.app).cards)

    def card_label(self, name: str) -> str:
        return label_in_deck(self.app, name)

    def instructions(self) -> str:
        return (
            f"{self.who}: lay your mixtape out as played: Trk A on the left, Trk B on the right, "
            "each top to bottom. Press SHUTTER."
        )

    def on_result(self, purpose: str, result: Any) -> None:
        """A card added by hand goes to the column its side says (at the bottom: if it lies
        higher up, retake the photo so the flow is read in the right order)."""
        super().on_result(purpose, result)
        if purpose == "add" and isinstance(result, str) and self.reading is not None and self.cards:
            try:
                self.cards[-1].column = load_table_deck(self.app).card(result).side
            except Exception:
                pass
            self.reading_changed()

    def columns(self) -> tuple[list[str], list[str]]:
        a = [c.name for c in self.cards if c.name and c.column != "B"]
        b = [c.name for c in self.cards if c.name and c.column == "B"]
        return a, b

    def result(self) -> MixtapeScore | str:
        try:
            deck = load_table_deck(self.app)
            a, b = self.columns()
            return score_mixtape(deck, a, b)
        except MixtapeError as error:
            return str(error)

    def player_fields(self, result: MixtapeScore) -> dict[str, Any]:
        a, b = self.columns()
        return {"a": a, "b": b, "score": result.to_json()}

    def result_screen(self, player: dict[str, Any]) -> Screen:
        return MixtapeResultScreen(self.app, player, replaces=self.replaces)


def draw_columns(
    surface: pygame.Surface,
    deck: Deck,
    a: list[str],
    b: list[str],
    score: dict[str, Any],
    top: int,
    first: int = 0,
) -> tuple[int, int]:
    """Both columns as played, each card as printed (genre and balance: the column is its side)
    with the flow points it earned: from row ``first``, as many whole rows as fit above the
    surface's bottom (a whole game's column is longer than the screen; the knob scrolls it).
    Returns (rows shown, rows in all)."""
    width = surface.get_width()
    flows = {(c["id"]): c["flow_points"] for c in score["cards"]}
    col_w = (width - 3 * ui.MARGIN) // 2
    row_h = ui.font(ui.SMALL).get_linesize()
    longest = max(len(a), len(b))
    fit = max(1, (surface.get_height() - top - row_h) // row_h)
    first = max(0, min(first, longest - fit))
    for index, (label, ids) in enumerate((("Trk A", a), ("Trk B", b))):
        x = ui.MARGIN + index * (col_w + ui.MARGIN)
        ui.text(surface, label, (x, top), ui.SMALL, ui.ACCENT)
        y = top + row_h
        for card_id in ids[first : first + fit]:
            card = deck.card(card_id)
            stripe = pygame.Rect(x, y + 3, 8, row_h - 8)
            pygame.draw.rect(surface, GENRE_COLOURS.get(card.genre, ui.DIM), stripe)
            ui.text(
                surface, chip_label(deck, card_id), (x + 16, y), ui.SMALL, max_width=col_w - 150
            )
            flow = flows.get(card_id, 0)
            ui.text(
                surface,
                f"flow {flow}" if flow else "-",
                (x + col_w, y),
                ui.SMALL,
                ui.TEXT if flow else ui.DIM,
                anchor="topright",
            )
            y += row_h
    shown = min(fit, longest)
    if longest > shown:  # where the rows shown are, on the column heads' line
        draw_rows_shown(surface, width - ui.MARGIN, top + row_h // 2, first, shown, longest)
    return shown, longest


def score_parts(score: dict[str, Any]) -> str:
    """ "Balance 30 (cube at the start) · Flow 10 · Genres 21 (Pop x6)"."""
    position = score["balance"]["position"]
    cube = (
        "at the start"
        if position == 0
        else f"{abs(position)} {'left' if position < 0 else 'right'}"
    )
    sets = ", ".join(f"{GENRE_NAMES[g]} x{v['cards']}" for g, v in score["genre_sets"].items())
    genres = f"Genres {score['genres']}" + (f" ({sets})" if sets else "")
    return f"Balance {score['balance']['points']} (cube {cube}) · Flow {score['flow']} · {genres}"


@register_screen
class MixtapeResultScreen(TableResultScreen):
    kind = "mixtape.result"
    title = "Mixtape - score"
    namespace = NAMESPACE
    table_kind = "mixtape.table"
    game_title = "Mixtape"

    def __init__(self, app: App, player: dict[str, Any], replaces: int | None = None) -> None:
        super().__init__(app, player, replaces)
        self.first_row = 0  # the knob scrolls a column longer than the screen by whole rows
        self.rows_shown = self.longest()  # set by each draw

    def points(self) -> int:
        return int(self.player["score"]["total"])

    def longest(self) -> int:
        return max(len(self.player["a"]), len(self.player["b"]))

    def handle(self, action: Action) -> None:
        if action in (Action.LEFT, Action.RIGHT):
            last = max(0, self.longest() - self.rows_shown)
            step = -1 if action is Action.LEFT else 1
            self.first_row = max(0, min(last, self.first_row + step))
        else:
            super().handle(action)

    def legend(self) -> list[LegendItem]:
        items = super().legend()
        if self.longest() > self.rows_shown:
            items.append(((Action.LEFT, Action.RIGHT), "Scroll"))
        return items

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        score = self.player["score"]
        deck = load_table_deck(self.app)
        total = ui.text(surface, str(score["total"]), (ui.MARGIN, 0), ui.BIG, ui.ACCENT)
        left = total.right + 16
        # up to three lines: the six genres' sets whole; the columns start under the words
        parts_end = ui.paragraph(
            surface,
            f"points: {score_parts(score)}",
            pygame.Rect(left, 6, width - left - ui.MARGIN, 3 * ui.font(ui.SMALL).get_linesize()),
            ui.SMALL,
        )
        top = max(total.bottom, parts_end) + 4
        self.rows_shown, _ = draw_columns(
            surface, deck, self.player["a"], self.player["b"], score, top, self.first_row
        )
        self.first_row = min(self.first_row, max(0, self.longest() - self.rows_shown))


@register_screen
class MixtapeRankingScreen(RankingScreen):
    """Ties are broken by the Balance score, then shared."""

    kind = "mixtape.ranking"
    title = "Mixtape - ranking"
    namespace = NAMESPACE
    empty = ("No mixtapes yet", "Score a mixtape first.")
    menu_kind = "mixtape"  # OK: Rematch (the menu's "New table", same players first)

    def key(self, player: dict[str, Any]) -> tuple[int, int]:
        return ranking_key(player["score"])

    def note(self, player: dict[str, Any]) -> str:
        return f"{player['score']['total']} pts (balance {player['score']['balance']['points']})"
