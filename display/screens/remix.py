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
from display.flows.enrolment import Enrolment, EnrolmentError
from display.flows.reading import Reading
from display.flows.widgets import NameKeyboardScreen, PhotoReviewScreen, PickScreen
from display.screens.base import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App
    from games.remix import Catalogue, HandResult

NAMESPACE = "remix"
TABLE_KEY = "table"
GAME = "remix"


def catalogue() -> Catalogue:
    from games.remix import default_catalogue

    return default_catalogue()


def enrolment(app: App) -> Enrolment:
    from display.screens.enrol import enrolment as enrolled

    return enrolled(app, GAME)


def load_table(app: App) -> dict[str, Any]:
    table = app.store.get(NAMESPACE, TABLE_KEY)
    if not isinstance(table, dict) or not isinstance(table.get("players"), list):
        table = {"players": []}
    return table


def save_table(app: App, table: dict[str, Any]) -> None:
    app.store.put(NAMESPACE, TABLE_KEY, table)


def ranking(players: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """(place, player) best first; equal totals share a place (the rulebook: ties share
    victory)."""
    ordered = sorted(players, key=lambda p: -int(p["total"]))
    return [(1 + sum(int(o["total"]) > int(p["total"]) for o in players), p) for p in ordered]


def ids_for(names: list[str]) -> list[str]:
    """Catalogue ids for card names (exact names from the gallery or the pick list)."""
    cards = catalogue()
    return [cards.lookup(name).id for name in names]


def score_names(names: list[str], loki_draw: str | None = None) -> HandResult:
    from games.remix import score_hand

    return score_hand(ids_for(names), loki_draw)


@register_screen
class RemixMenuScreen(Screen):
    kind = "remix"
    title = "Marvel: Remix"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.selected = 0
        self._rows: list[pygame.Rect] = []

    def entries(self) -> list[tuple[str, str, str]]:
        players = len(load_table(self.app)["players"])
        try:
            enrolled = len(enrolment(self.app))
        except EnrolmentError:
            enrolled = 0
        return [
            ("table", "Score the table", f"{players} scored" if players else ""),
            ("new", "New table", "clears the scores"),
            ("enrol", "Enrol / verify cards", f"{enrolled}/{len(catalogue())}"),
        ]

    def handle(self, action: Action) -> None:
        count = len(self.entries())
        if action is Action.LEFT:
            self.selected = (self.selected - 1) % count
        elif action is Action.RIGHT:
            self.selected = (self.selected + 1) % count
        elif action is Action.OK:
            self.open(self.entries()[self.selected][0])
        elif action is Action.BACK:
            self.app.pop()

    def open(self, what: str) -> None:
        if what == "table":
            self.app.push(RemixTableScreen(self.app))
        elif what == "new":
            table = load_table(self.app)
            if table["players"]:
                self.app.store.put(NAMESPACE, "previous_table", table)
            save_table(self.app, {"players": []})
            self.app.toast("New table: the previous scores are kept as 'previous_table'.")
            self.app.push(RemixTableScreen(self.app))
        elif what == "enrol":
            from display.screens.enrol import RemixEnrolScreen

            self.app.push(RemixEnrolScreen(self.app))

    def handle_tap(self, x: int, y: int) -> bool:
        for index, row in enumerate(self._rows):
            if row.collidepoint(x, y):
                if index == self.selected:
                    self.open(self.entries()[index][0])
                self.selected = index
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        items = [ui.MenuItem(label, note) for _, label, note in self.entries()]
        area = pygame.Rect(ui.MARGIN, 16, width - 2 * ui.MARGIN, height - 70)
        self._rows = ui.menu(surface, items, self.selected, area)
        ui.text(
            surface,
            "Lay each final hand out face up; the camera reads it, the scorer explains it.",
            (width // 2, height - 12),
            ui.SMALL,
            ui.DIM,
            anchor="midbottom",
            max_width=width - 2 * ui.MARGIN,
        )

    def legend(self) -> list[LegendItem]:
        return [((Action.LEFT, Action.RIGHT), "Choose"), (Action.OK, "Open"), (Action.BACK, "Home")]

    def snapshot(self) -> dict[str, Any]:
        return {"selected": self.selected}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.selected = int(data.get("selected", 0))
        return screen


@register_screen
class RemixTableScreen(Screen):
    """The players scored so far, then "Next player" and "Ranking"."""

    kind = "remix.table"
    title = "Remix - the table"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.selected = len(load_table(app)["players"])
        self._rows: list[pygame.Rect] = []

    def rows(self) -> list[tuple[str, str, str]]:
        players = load_table(self.app)["players"]
        rows = [
            (
                f"player:{i}",
                f"{p['name']}",
                f"{p['total']} pts" + ("" if p["valid"] else " (invalid)"),
            )
            for i, p in enumerate(players)
        ]
        rows.append(("next", f"Next player (Player {len(players) + 1})", "SHUTTER"))
        if players:
            rows.append(("ranking", "Ranking", f"{len(players)} players"))
        return rows

    def on_show(self) -> None:
        self.selected = min(self.selected, len(self.rows()) - 1)

    def handle(self, action: Action) -> None:
        rows = self.rows()
        if action is Action.LEFT:
            self.selected = (self.selected - 1) % len(rows)
        elif action is Action.RIGHT:
            self.selected = (self.selected + 1) % len(rows)
        elif action is Action.OK:
            self.open(rows[self.selected][0])
        elif action is Action.SHUTTER:
            self.open("next", shoot=True)
        elif action is Action.BACK:
            self.app.pop()

    def open(self, what: str, shoot: bool = False) -> None:
        players = load_table(self.app)["players"]
        if what == "next":
            hand = RemixHandScreen(self.app, f"Player {len(players) + 1}")
            self.app.push(hand)
            if shoot:
                hand.shoot()
            else:
                self.app.push(
                    NameKeyboardScreen(
                        self.app, f"Name of player {len(players) + 1} (BACK: keep)", ""
                    )
                )
        elif what == "ranking":
            self.app.push(RemixRankingScreen(self.app))
        elif what.startswith("player:"):
            index = int(what.split(":")[1])
            player = players[index]
            hand = RemixHandScreen(self.app, player["name"], replaces=index)
            hand.photo = player.get("photo")
            if player.get("reading"):
                hand.reading = Reading.from_json(player["reading"])
                hand.selected = len(hand.reading.cards) + 1  # on "score"
            self.app.push(hand)
            self.app.push(RemixResultScreen(self.app, player, replaces=index))

    def handle_tap(self, x: int, y: int) -> bool:
        for index, row in enumerate(self._rows):
            if row.collidepoint(x, y):
                if index == self.selected:
                    self.open(self.rows()[index][0])
                self.selected = index
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        items = [ui.MenuItem(label, note) for _, label, note in self.rows()]
        area = pygame.Rect(ui.MARGIN, 12, width - 2 * ui.MARGIN, height - 24)
        self._rows = ui.menu(surface, items, self.selected, area, ui.MEDIUM, row_gap=6)

    def legend(self) -> list[LegendItem]:
        return [
            ((Action.LEFT, Action.RIGHT), "Choose"),
            (Action.OK, "Open"),
            (Action.SHUTTER, "Next hand"),
            (Action.BACK, "Menu"),
        ]

    def snapshot(self) -> dict[str, Any]:
        return {"selected": self.selected}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.selected = int(data.get("selected", 0))
        return screen


@register_screen
class RemixHandScreen(PhotoReviewScreen):
    """One player's hand: photo, names and confidences, corrections, then the score."""

    kind = "remix.hand"
    title = "Remix - photograph the hand"

    def __init__(self, app: App, who: str = "", replaces: int | None = None) -> None:
        super().__init__(app, who)
        self.replaces = replaces

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

    def score_text(self) -> str:
        if self.reading is None:
            return ""
        if not self.ready():
            return f"{len(self.reading.unresolved)} card(s) to settle before scoring."
        if self._score_cache is None:
            result = self.result()
            if isinstance(result, str):
                text = f"Cannot score: {result}"
            else:
                note = "OK: breakdown"
                if result.loki_owed:
                    note = "+ Loki's draw (OK)"
                elif not result.valid:
                    note = "not valid (OK: why)"
                text = f"points\n{note}"
            self._score_cache = (text, "")
        return self._score_cache[0]

    def score_value(self) -> int | None:
        result = self.result()
        return None if isinstance(result, str) else result.total

    def finish(self) -> None:
        result = self.result()
        if isinstance(result, str):
            self.app.toast(result)
            return
        player = {
            "name": self.who,
            "cards": ids_for([c.name for c in self.cards if c.name]),
            "loki_draw": None,
            "total": result.total,
            "valid": result.valid,
            "photo": self.photo,
            "reading": self.reading.to_json() if self.reading else None,
        }
        self.app.push(RemixResultScreen(self.app, player, replaces=self.replaces))

    def handle_text(self, text: str) -> None:
        super().handle_text(text)

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "replaces": self.replaces}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, data.get("who", ""), data.get("replaces"))
        screen.restore_into(data)
        return screen


@register_screen
class RemixResultScreen(Screen):
    """The breakdown: per card its state, points and why; the choices; Loki's draw."""

    kind = "remix.result"
    title = "Remix - score"

    def __init__(self, app: App, player: dict[str, Any], replaces: int | None = None) -> None:
        super().__init__(app)
        self.player = dict(player)
        self.replaces = replaces
        self.scroll = 0
        self._result: HandResult | None = None
        self.title = f"Remix - {player['name']}"

    def result(self) -> HandResult:
        if self._result is None:
            from games.remix import score_hand

            self._result = score_hand(self.player["cards"], self.player.get("loki_draw"))
            self.player["total"] = self._result.total
            self.player["valid"] = self._result.valid
        return self._result

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
        result = self.result()
        if action is Action.LEFT:
            self.scroll = max(0, self.scroll - 3)
        elif action is Action.RIGHT:
            self.scroll = min(max(0, len(self.lines()) - 3), self.scroll + 3)
        elif action is Action.OK:
            if result.loki_owed:
                self.ask_loki()
            else:
                self.save()
        elif action is Action.SHUTTER and result.loki_owed:
            self.photograph_loki()
        elif action is Action.SEAT_1 and self.replaces is not None:
            self.remove()
        elif action is Action.BACK:
            self.app.pop()  # back to the photo: retake or correct

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
        from display.flows.reading import read_photo

        image, problem = self.app.capture()
        if image is None:
            self.app.toast(f"No photo: {problem}")
            return
        try:
            reading = read_photo(image, enrolment(self.app).gallery())
        except Exception as error:
            if self.app.strict:
                raise
            self.app.toast(f"Cannot read the photo: {error}")
            return
        named = [c for c in reading.cards if c.name and c.status == "ok"]
        if len(named) != 1:
            self.app.toast(f"Lay only Loki's drawn card under the camera ({len(named)} read).")
            return
        self.picked("loki", ids_for([named[0].name or ""])[0])

    def picked(self, purpose: str, value: str) -> None:
        if purpose != "loki":
            return
        from games.remix import RemixError

        try:
            from games.remix import score_hand

            score_hand(self.player["cards"], value)
        except RemixError as error:
            self.app.toast(str(error))
            return
        self.player["loki_draw"] = value
        self._result = None
        self.result()

    def save(self) -> None:
        table = load_table(self.app)
        self.result()
        if self.replaces is not None and self.replaces < len(table["players"]):
            table["players"][self.replaces] = self.player
        else:
            table["players"].append(self.player)
        save_table(self.app, table)
        self.back_to_table()
        self.app.toast(f"{self.player['name']}: {self.player['total']} points saved.")

    def remove(self) -> None:
        table = load_table(self.app)
        if self.replaces is not None and self.replaces < len(table["players"]):
            removed = table["players"].pop(self.replaces)
            save_table(self.app, table)
            self.app.toast(f"{removed['name']} removed from the table.")
        self.back_to_table()

    def back_to_table(self) -> None:
        while self.app.top.kind != RemixTableScreen.kind and len(self.app.screens) > 1:
            self.app.pop()
        if self.app.top.kind != RemixTableScreen.kind:
            self.app.push(RemixTableScreen(self.app))
        top = self.app.top
        if isinstance(top, RemixTableScreen):
            top.selected = len(load_table(self.app)["players"])

    def draw(self, surface: pygame.Surface) -> None:
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
        items: list[LegendItem] = []
        if self.result().loki_owed:
            items += [(Action.OK, "Loki's draw"), (Action.SHUTTER, "Photo of it")]
        else:
            items.append((Action.OK, "Save, next"))
        items += [((Action.LEFT, Action.RIGHT), "Scroll"), (Action.BACK, "Photo")]
        if self.replaces is not None:
            items.append((Action.SEAT_1, "Remove"))
        return items

    def snapshot(self) -> dict[str, Any]:
        return {"player": self.player, "replaces": self.replaces, "scroll": self.scroll}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, data["player"], data.get("replaces"))
        screen.scroll = int(data.get("scroll", 0))
        return screen


@register_screen
class RemixRankingScreen(Screen):
    kind = "remix.ranking"
    title = "Remix - ranking"

    def handle(self, action: Action) -> None:
        if action in (Action.BACK, Action.OK):
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        placed = ranking(load_table(self.app)["players"])
        if not placed:
            ui.message_box(surface, "No hands yet", "Score a hand first.", ui.INFO)
            return
        winners = [p["name"] for place, p in placed if place == 1]
        if len(winners) > 1:
            headline = "Shared victory: " + " & ".join(winners)
        else:
            headline = f"{winners[0]} wins"
        ui.text(
            surface,
            headline,
            (width // 2, 10),
            ui.LARGE,
            ui.ACCENT,
            anchor="midtop",
            max_width=width - 40,
        )
        y = 70
        row_h = 44
        for place, player in placed:
            if y + row_h > height:
                break
            row = pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, row_h - 6)
            ui.panel(surface, row, ui.PANEL, border=ui.ACCENT if place == 1 else None)
            shared = "=" if sum(1 for p, _ in placed if p == place) > 1 else ""
            ui.text(
                surface,
                f"{place}{shared}.",
                (row.left + 14, row.centery),
                ui.MEDIUM,
                anchor="midleft",
            )
            ui.text(
                surface,
                player["name"],
                (row.left + 80, row.centery),
                ui.MEDIUM,
                anchor="midleft",
                max_width=row.width - 260,
            )
            note = f"{player['total']} pts" + ("" if player["valid"] else " (invalid)")
            ui.text(surface, note, (row.right - 14, row.centery), ui.MEDIUM, anchor="midright")
            y += row_h

    def legend(self) -> list[LegendItem]:
        return [(Action.OK, "Back to table"), (Action.BACK, "Back")]
