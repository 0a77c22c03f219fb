"""I Made You a Mixtape: the menu - score mixtapes, the solo game, a new table, enrolment."""

from __future__ import annotations

from display.screen import register_screen
from display.screens.enrol.mixtape import MixtapeEnrolScreen
from display.screens.mixtape.common import HISTORY_KEY, NAMESPACE, SOLO_KEY, load_table_deck
from display.screens.mixtape.solo import SoloScreen
from display.screens.mixtape.table import MixtapeTableScreen
from display.widgets.menu import MenuScreen
from display.widgets.table import load_table, save_table


@register_screen
class MixtapeMenuScreen(MenuScreen):
    kind = "mixtape"
    title = "I Made You a Mixtape"

    def rows(self) -> list[tuple[str, str, str]]:
        players = len(load_table(self.app, NAMESPACE)["players"])
        solo = self.app.store.get(NAMESPACE, SOLO_KEY)
        try:
            deck = load_table_deck(self.app)
            deck_note = f"{len(deck.cards)} cards"
        except Exception:
            deck_note = "not ready"
        return [
            ("table", "Score mixtapes", f"{players} scored" if players else ""),
            ("solo", "Solo game vs Otto", "in progress" if solo else ""),
            ("new", "New table / new solo game", ""),
            ("enrol", "Enrol cards / deck", deck_note),
        ]

    def open(self, key: str) -> None:
        if key == "enrol":
            self.app.push(MixtapeEnrolScreen(self.app))
            return
        if key == "new":
            save_table(self.app, NAMESPACE, {"players": []})
            self.app.store.delete(NAMESPACE, SOLO_KEY)
            self.app.store.put(NAMESPACE, HISTORY_KEY, [])
            self.app.toast("Scores and the solo game cleared.")
            return
        try:
            load_table_deck(self.app)
        except Exception as error:
            self.app.push(self.app.message("Deck not ready", str(error)))
            return
        if key == "table":
            self.app.push(MixtapeTableScreen(self.app))
        elif key == "solo":
            self.app.push(SoloScreen(self.app))
