"""A table of players scored from photos: what the Marvel: Remix and Mixtape tables share.

* the table in the store (``<namespace>/table`` = ``{"players": [...]}``; each player a dict
  with at least ``name``, ``photo`` and ``reading``, plus the game's own fields);
* :class:`TableScreen` - the players so far, "Next player" (SHUTTER: straight to the photo),
  "Ranking"; a player's row reopens their photo with their score on top (retake or correct);
* :class:`TableHandScreen` - one player's photo (a :class:`PhotoReviewScreen`) that scores and
  opens the game's result screen;
* :class:`TableResultScreen` - the score: OK saves the player (or replaces them), SEAT 1 removes
  a saved player, BACK returns to the photo.

Everyone ranked: :class:`display.widgets.ranking.RankingScreen`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from display import ui
from display.actions import Action
from display.cards.reading import Reading
from display.screen import SCREENS, LegendItem, Screen
from display.widgets.confirm import ConfirmScreen
from display.widgets.keyboard import KeyboardScreen
from display.widgets.menu import MenuScreen
from display.widgets.photo_review import PhotoReviewScreen
from display.widgets.words import count

if TYPE_CHECKING:
    from display.app import App

TABLE_KEY = "table"


def load_table(app: App, namespace: str) -> dict[str, Any]:
    table = app.store.get(namespace, TABLE_KEY)
    if not isinstance(table, dict) or not isinstance(table.get("players"), list):
        table = {"players": []}
    return table


def save_table(app: App, namespace: str, table: dict[str, Any]) -> None:
    app.store.put(namespace, TABLE_KEY, table)


class TableScreen(MenuScreen):
    """The players scored so far; subclasses give ``namespace``, :meth:`player_note`,
    :meth:`hand_screen` and :meth:`ranking_screen`."""

    namespace: ClassVar[str] = ""
    next_label: ClassVar[str] = "Photo"  # the next hand
    back_label = "Menu"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.selected = len(self.players())

    def players(self) -> list[dict[str, Any]]:
        players: list[dict[str, Any]] = load_table(self.app, self.namespace)["players"]
        return players

    def player_note(self, player: dict[str, Any]) -> str:
        raise NotImplementedError

    def hand_screen(self, who: str, replaces: int | None = None) -> TableHandScreen:
        raise NotImplementedError

    def ranking_screen(self) -> Screen:
        raise NotImplementedError

    def rows(self) -> list[tuple[str, str, str]]:
        players = self.players()
        rows = [(f"player:{i}", p["name"], self.player_note(p)) for i, p in enumerate(players)]
        rows.append(("next", f"Next player (Player {len(players) + 1})", "SHUTTER"))
        if players:
            count = len(players)
            rows.append(("ranking", "Ranking", f"{count} player{'' if count == 1 else 's'}"))
        return rows

    def on_show(self) -> None:
        self.selected = min(self.selected, len(self.rows()) - 1)

    def handle(self, action: Action) -> None:
        if action is Action.SHUTTER:
            self.open("next", shoot=True)
        else:
            super().handle(action)

    def open(self, key: str, shoot: bool = False) -> None:
        players = self.players()
        if key == "next":
            number = len(players) + 1
            hand = self.hand_screen(f"Player {number}")
            self.app.push(hand)
            if shoot:
                hand.shoot()
            else:
                prompt = f"Player {number}'s name"
                seated = [player["name"] for player in players]
                keyboard = KeyboardScreen(self.app, prompt, names=True, exclude=seated)
                self.app.push(keyboard, purpose="name")
        elif key == "ranking":
            self.app.push(self.ranking_screen())
        elif key.startswith("player:"):
            index = int(key.split(":")[1])
            player = players[index]
            hand = self.hand_screen(player["name"], replaces=index)
            hand.photo = player.get("photo")
            if player.get("reading"):
                hand.reading = Reading.from_json(player["reading"])
                hand.selected = len(hand.reading.cards) + 1  # on "score"
            self.app.push(hand)  # BACK on the score returns here: correct or retake
            self.app.push(hand.result_screen(player))

    def legend(self) -> list[LegendItem]:
        return [*super().legend()[:2], (Action.SHUTTER, self.next_label), (Action.BACK, "Menu")]


class TableHandScreen(PhotoReviewScreen):
    """One player's photo; once every card is named, the score shows beside it and OK on the
    last row opens :meth:`result_screen`. Subclasses give :meth:`result` (the game's score, or
    why it cannot score), :meth:`player_fields` and :meth:`result_screen`."""

    score_hint: ClassVar[str] = "OK: details"
    #: how many cards a hand normally holds (None: any number)
    expected_cards: ClassVar[int | None] = None

    def __init__(self, app: App, who: str = "", replaces: int | None = None) -> None:
        super().__init__(app, who)
        self.replaces = replaces
        self._result: Any = None  # the score of the current cards (None: not worked out)

    def result(self) -> Any:
        """The game's result for the named cards (with ``total``), or a reason (str)."""
        raise NotImplementedError

    def player_fields(self, result: Any) -> dict[str, Any]:
        raise NotImplementedError

    def result_screen(self, player: dict[str, Any]) -> Screen:
        raise NotImplementedError

    def score_note(self, result: Any) -> str:
        return f"points\n{self.score_hint}"

    def reading_changed(self) -> None:
        self._result = None

    def on_result(self, purpose: str, result: Any) -> None:
        """The player's name from the keyboard (``name``; a keyboard saved by an older version
        has no purpose), else the pick list's answer."""
        if purpose in ("name", ""):
            if isinstance(result, str):
                self.who = result[:24] or self.who
            return
        if purpose == "count":  # the wrong count confirmed with a hold: score these cards
            if result:
                self.finish()
            return
        super().on_result(purpose, result)

    def scored(self) -> Any:
        """:meth:`result`, worked out once per change of the cards (not once per frame)."""
        if self._result is None:
            self._result = self.result()
        return self._result

    def count_short(self) -> int:
        found, expected = len(self.cards), self.expected_cards
        if self.reading is None or expected is None or not found:
            return 0
        return expected - found

    def activate(self, row: int) -> None:
        """OK on "Score this hand" with the wrong number of cards asks first: scoring them
        needs a hold of OK on the confirm (a second hasty OK keeps the photo)."""
        if row == len(self.cards) + 1 and self.ready() and self.count_problem():
            found, expected = len(self.cards), self.expected_cards
            cards = "1 card" if found == 1 else f"{found} cards"
            self.app.push(
                ConfirmScreen(
                    self.app,
                    f"Score {cards}?",
                    f"A hand holds {expected} cards and {found} were found. Retake the photo "
                    "or add the missing cards, or score these as they are.",
                    destroy=f"Score {cards}",
                    keep="Back to the cards",
                ),
                purpose="count",
            )
            return
        super().activate(row)

    def count_problem(self) -> str:
        found, expected = len(self.cards), self.expected_cards
        if self.reading is None or expected is None or found == expected or not found:
            return ""
        if found < expected:
            return f"{found} of {expected} cards found — retake or add one"
        return f"{found} cards found, a hand holds {expected} — retake or remove one"

    def score_text(self) -> str:
        if self.reading is None:
            return ""
        if not self.ready():
            return f"{count(len(self.reading.unresolved), 'card')} to settle before scoring."
        if self.count_problem():
            return self.count_problem()
        result = self.scored()
        return f"Cannot score: {result}" if isinstance(result, str) else self.score_note(result)

    def score_tone(self) -> tuple[int, int, int]:
        if self.count_problem():
            return ui.ACCENT
        return ui.BAD if isinstance(self.scored(), str) else ui.GOOD

    def score_value(self) -> int | None:
        if self.count_problem():
            return None  # the count first: a total of the wrong cards misleads
        result = self.scored()
        return None if isinstance(result, str) else int(result.total)

    def finish(self) -> None:
        result = self.scored()
        if isinstance(result, str):
            self.app.toast(result)
            return
        player = {
            "name": self.who,
            **self.player_fields(result),
            "photo": self.photo,
            "reading": self.reading.to_json() if self.reading else None,
        }
        self.app.push(self.result_screen(player))

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "replaces": self.replaces}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app, data.get("who", ""), data.get("replaces"))
        screen.restore_into(data)
        return screen


class TableResultScreen(Screen):
    """A player's score. Subclasses give ``namespace``, ``table_kind``, ``game_title`` and
    :meth:`points`, and draw the breakdown."""

    namespace: ClassVar[str] = ""
    table_kind: ClassVar[str] = ""
    game_title: ClassVar[str] = ""

    def __init__(self, app: App, player: dict[str, Any], replaces: int | None = None) -> None:
        super().__init__(app)
        self.player = dict(player)
        self.replaces = replaces
        self.title = f"{self.game_title} - {player['name']}"

    def points(self) -> int:
        raise NotImplementedError

    def handle(self, action: Action) -> None:
        if action is Action.OK:
            self.save_player()
        elif action is Action.SEAT_1 and self.replaces is not None:
            self.remove_player()
        elif action is Action.BACK:
            self.app.pop()  # back to the photo: retake or correct

    def save_player(self) -> None:
        points = self.points()
        table = load_table(self.app, self.namespace)
        if self.replaces is not None and self.replaces < len(table["players"]):
            table["players"][self.replaces] = self.player
        else:
            table["players"].append(self.player)
        save_table(self.app, self.namespace, table)
        self.back_to_table()
        self.app.toast(f"{self.player['name']}: {points} points saved.")

    def remove_player(self) -> None:
        table = load_table(self.app, self.namespace)
        if self.replaces is not None and self.replaces < len(table["players"]):
            removed = table["players"].pop(self.replaces)
            save_table(self.app, self.namespace, table)
            self.app.toast(f"{removed['name']} removed from the table.")
        self.back_to_table()

    def back_to_table(self) -> None:
        while self.app.top.kind != self.table_kind and len(self.app.screens) > 1:
            self.app.pop()
        if self.app.top.kind != self.table_kind:
            self.app.push(SCREENS[self.table_kind](self.app))
        top = self.app.top
        if isinstance(top, TableScreen):
            top.selected = len(top.players())

    def legend(self) -> list[LegendItem]:
        items: list[LegendItem] = [(Action.OK, "Save, next"), (Action.BACK, "Photo")]
        if self.replaces is not None:
            items.append((Action.SEAT_1, "Remove"))
        return items

    def snapshot(self) -> dict[str, Any]:
        return {"player": self.player, "replaces": self.replaces}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        return cls(app, data["player"], data.get("replaces"))
