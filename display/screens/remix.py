"""Marvel: Remix at the table: photograph each player's final hand and score it.

Flow: ``remix`` (menu) -> ``remix.table`` (the players scored so far) -> "Next player": a name
(on-screen keyboard, BACK keeps "Player N") -> ``remix.hand`` (SHUTTER: the photo with every
card's name and confidence; unknown/doubtful cards are settled from a pick list; the total shows
as soon as every card is named) -> ``remix.result`` (the breakdown per card, the choices made,
Loki's draw asked for) -> OK saves the player and returns to the table -> ``remix.ranking``.

Undo everywhere: BACK on the breakdown returns to the photo (retake with SHUTTER, or correct a
card); on the table, a player's row reopens their breakdown to retake or remove them.

State: the table lives in the store (namespace ``remix``, key ``table``): every scored player's
name, card ids, Loki's draw, total, validity, photo file and reading. Written after every event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.flows import table
from display.flows.enrolment import Enrolment, EnrolmentError
from display.flows.widgets import (
    BUSY_READING,
    MenuScreen,
    PhotoRead,
    PickScreen,
    SlowWork,
    capture_and_read,
)
from display.screen import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App
    from games.remix import Catalogue, HandResult

NAMESPACE = "remix"
GAME = "remix"


def catalogue() -> Catalogue:
    from games.remix import default_catalogue

    return default_catalogue()


def enrolment(app: App) -> Enrolment:
    from display.screens.enrol import enrolment as enrolled

    return enrolled(app, GAME)


def ranking(players: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """(place, player) best first; equal totals share a place (the rulebook: ties share
    victory)."""
    return table.ranking(players, lambda p: int(p["total"]))


def ids_for(names: list[str]) -> list[str]:
    """Catalogue ids for card names (exact names from the gallery or the pick list)."""
    cards = catalogue()
    return [cards.lookup(name).id for name in names]


def score_names(names: list[str], loki_draw: str | None = None) -> HandResult:
    from games.remix import score_hand

    return score_hand(ids_for(names), loki_draw)


@register_screen
class RemixMenuScreen(MenuScreen):
    kind = "remix"
    title = "Marvel: Remix"
    back_label = "Home"
    blurb = "Lay each final hand out face up; the camera reads it, the scorer explains it."

    def rows(self) -> list[tuple[str, str, str]]:
        players = len(table.load_table(self.app, NAMESPACE)["players"])
        try:
            enrolled = len(enrolment(self.app))
        except EnrolmentError:
            enrolled = 0
        return [
            ("table", "Score the table", f"{players} scored" if players else ""),
            ("new", "New table", "clears the scores"),
            ("enrol", "Enrol / verify cards", f"{enrolled}/{len(catalogue())}"),
        ]

    def open(self, key: str) -> None:
        if key == "table":
            self.app.push(RemixTableScreen(self.app))
        elif key == "new":
            scores = table.load_table(self.app, NAMESPACE)
            if scores["players"]:
                self.app.store.put(NAMESPACE, "previous_table", scores)
            table.save_table(self.app, NAMESPACE, {"players": []})
            self.app.toast("New table: the previous scores are kept as 'previous_table'.")
            self.app.push(RemixTableScreen(self.app))
        elif key == "enrol":
            from display.screens.enrol import RemixEnrolScreen

            self.app.push(RemixEnrolScreen(self.app))


@register_screen
class RemixTableScreen(table.TableScreen):
    """The players scored so far, then "Next player" and "Ranking"."""

    kind = "remix.table"
    title = "Remix - the table"
    namespace = NAMESPACE

    def player_note(self, player: dict[str, Any]) -> str:
        return f"{player['total']} pts" + ("" if player["valid"] else " (invalid)")

    def hand_screen(self, who: str, replaces: int | None = None) -> table.TableHandScreen:
        return RemixHandScreen(self.app, who, replaces)

    def ranking_screen(self) -> Screen:
        return RemixRankingScreen(self.app)


@register_screen
class RemixHandScreen(table.TableHandScreen):
    """One player's hand: photo, names and confidences, corrections, then the score."""

    kind = "remix.hand"
    title = "Remix - photograph the hand"
    score_hint = "OK: breakdown"

    def gallery(self) -> Any:
        return enrolment(self.app).gallery()

    def all_names(self) -> list[str]:
        return [card.name for card in catalogue()]

    def instructions(self) -> str:
        return (
            f"{self.who}: lay your final hand out face up, cards apart, in rows. "
            "Press SHUTTER to photograph it."
        )

    def result(self) -> HandResult | str:
        from games.remix import RemixError

        try:
            return score_names([c.name for c in self.cards if c.name])
        except RemixError as error:
            return str(error)

    def score_note(self, result: HandResult) -> str:
        if result.loki_owed:
            return "points\n+ Loki's draw (OK)"
        if not result.valid:
            return "points\nnot valid (OK: why)"
        return super().score_note(result)

    def player_fields(self, result: HandResult) -> dict[str, Any]:
        return {
            "cards": ids_for([c.name for c in self.cards if c.name]),
            "loki_draw": None,
            "total": result.total,
            "valid": result.valid,
        }

    def result_screen(self, player: dict[str, Any]) -> Screen:
        return RemixResultScreen(self.app, player, replaces=self.replaces)


@register_screen
class RemixResultScreen(SlowWork, table.TableResultScreen):
    """The breakdown: per card its state, points and why; the choices; Loki's draw (named from
    a list, or photographed: read off the UI thread)."""

    kind = "remix.result"
    title = "Remix - score"
    namespace = NAMESPACE
    table_kind = "remix.table"
    game_title = "Remix"

    def __init__(self, app: App, player: dict[str, Any], replaces: int | None = None) -> None:
        super().__init__(app, player, replaces)
        self.scroll = 0
        self._result: HandResult | None = None

    def result(self) -> HandResult:
        if self._result is None:
            from games.remix import score_hand

            self._result = score_hand(self.player["cards"], self.player.get("loki_draw"))
            self.player["total"] = self._result.total
            self.player["valid"] = self._result.valid
        return self._result

    def points(self) -> int:
        return self.result().total

    def lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        result = self.result()
        out: list[tuple[str, tuple[int, int, int]]] = []
        for card in result.cards:
            state = card.state
            if card.side:
                state = f"-> {card.side}"
            if card.blanked_by:
                state = "BLANKED"
            colour = ui.DIM if card.state == "blanked" else ui.TEXT
            out.append((f"{card.name}  {state}  = {card.points}", colour))
            for line in card.lines:
                out.append((f"    {line}", ui.DIM))
        for choice in result.choices:
            out.append((f"Choice: {choice['choice']}", ui.INFO))
        if result.loki_draw is not None:
            out.append((f"Loki's draw: {result.loki_draw.name}", ui.INFO))
        for note in result.notes:
            out.append((f"Note: {note}", ui.ACCENT))
        return out

    def handle(self, action: Action) -> None:
        if self.busy_handle(action):
            return
        owed = self.result().loki_owed
        if action is Action.LEFT:
            self.scroll = max(0, self.scroll - 3)
        elif action is Action.RIGHT:
            self.scroll = min(max(0, len(self.lines()) - 3), self.scroll + 3)
        elif action is Action.OK and owed:
            self.ask_loki()
        elif action is Action.SHUTTER and owed:
            self.photograph_loki()
        else:
            super().handle(action)

    def ask_loki(self) -> None:
        hand = set(self.player["cards"])
        options = [
            (card.id, card.name, "")
            for card in sorted(catalogue(), key=lambda c: c.name.lower())
            if card.deck == "REMIX" and card.id not in hand
        ]
        self.app.push(
            PickScreen(
                self.app,
                "Remix - Loki's draw",
                "Loki: draw the top card of the REMIX deck. Which card is it? "
                "(or BACK and photograph it with SHUTTER)",
                options,
                "loki",
            )
        )

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
        self.picked("loki", ids_for([named[0].name or ""])[0])

    def picked(self, purpose: str, value: str) -> None:
        if purpose != "loki":
            return
        from games.remix import RemixError, score_hand

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
        result = self.result()
        head = pygame.Rect(ui.MARGIN, 6, width - 2 * ui.MARGIN, 60)
        verdict = "valid" if result.valid else "NOT valid: needs a HERO/ALLY and a VILLAIN"
        ui.text(surface, f"{result.total}", (head.left, head.top), ui.BIG, ui.ACCENT)
        ui.text(
            surface,
            "points",
            (head.left + ui.text_width(f"{result.total}", ui.BIG) + 12, head.top + 26),
            ui.MEDIUM,
        )
        status = verdict
        if result.loki_owed:
            status = "Loki's draw still owed: OK to name it, SHUTTER to photograph it"
        ui.text(
            surface,
            status,
            (head.right, head.top + 30),
            ui.SMALL,
            ui.ACCENT if result.loki_owed else (ui.GOOD if result.valid else ui.BAD),
            anchor="midright",
            max_width=width - 260,
        )
        lines = self.lines()
        line_h = ui.font(ui.SMALL).get_linesize()
        y = head.bottom + 8
        visible = (height - y - 6) // line_h
        for text, colour in lines[self.scroll : self.scroll + visible]:
            ui.text(
                surface, text, (ui.MARGIN, y), ui.SMALL, colour, max_width=width - 2 * ui.MARGIN
            )
            y += line_h
        if self.scroll + visible < len(lines):
            ui.text(
                surface,
                "more: RIGHT",
                (width - ui.MARGIN, height - 4),
                ui.SMALL,
                ui.DIM,
                anchor="bottomright",
            )

    def legend(self) -> list[LegendItem]:
        if self.busy:
            return self.busy_legend()
        base = super().legend()  # OK saves, BACK to the photo, SEAT 1 removes
        first: list[LegendItem] = base[:1]
        if self.result().loki_owed:
            first = [(Action.OK, "Loki's draw"), (Action.SHUTTER, "Photo of it")]
        return [*first, ((Action.LEFT, Action.RIGHT), "Scroll"), *base[1:]]

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "scroll": self.scroll, **self.busy_snapshot()}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, data["player"], data.get("replaces"))
        screen.scroll = int(data.get("scroll", 0))
        screen.interrupted(data)
        return screen


@register_screen
class RemixRankingScreen(table.RankingScreen):
    kind = "remix.ranking"
    title = "Remix - ranking"
    namespace = NAMESPACE
    empty = ("No hands yet", "Score a hand first.")

    def key(self, player: dict[str, Any]) -> int:
        return int(player["total"])

    def note(self, player: dict[str, Any]) -> str:
        return f"{player['total']} pts" + ("" if player["valid"] else " (invalid)")
