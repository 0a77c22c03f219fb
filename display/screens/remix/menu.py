"""Marvel: Remix: the menu - score the table, start a new table, enrol or verify the cards."""

from __future__ import annotations

from typing import Any

from display.cards.enrolment import EnrolmentError
from display.screen import register_screen
from display.screens.enrol.remix import RemixEnrolScreen
from display.screens.remix.common import NAMESPACE, catalogue, enrolment
from display.screens.remix.table import RemixTableScreen
from display.widgets.confirm import ConfirmScreen, UndoOffer, keep_for_undo, scores_cleared
from display.widgets.menu import MenuScreen
from display.widgets.table import TABLE_KEY, load_table, save_table

PREVIOUS_KEY = "previous_table"


@register_screen
class RemixMenuScreen(MenuScreen):
    kind = "remix"
    title = "Marvel: Remix"
    back_label = "Home"
    blurb = "Lay each final hand out face up; the camera reads it, the scorer explains it."

    def rows(self) -> list[tuple[str, str, str]]:
        players = len(load_table(self.app, NAMESPACE)["players"])
        try:
            enrolled = len(enrolment(self.app))
        except EnrolmentError:
            enrolled = 0
        rows = [("table", "Score the table", f"{players} scored" if players else "")]
        if players:  # only what can be cleared is offered
            rows.append(("new", "New table", "clears the scores"))
        rows.append(("enrol", "Enrol / verify cards", f"{enrolled}/{len(catalogue())}"))
        return rows

    def open(self, key: str) -> None:
        if key == "table":
            self.app.push(RemixTableScreen(self.app))
        elif key == "new":
            players = load_table(self.app, NAMESPACE)["players"]
            confirm = ConfirmScreen(
                self.app,
                "Start a new table?",
                scores_cleared(len(players)),
                destroy="Clear scores",
                keep="Keep scores",
            )
            self.app.push(confirm, purpose="new")
        elif key == "enrol":
            self.app.push(RemixEnrolScreen(self.app))

    def on_result(self, purpose: str, result: Any) -> None:
        if purpose == "new" and result:
            saved = keep_for_undo(self.app, [(NAMESPACE, TABLE_KEY), (NAMESPACE, PREVIOUS_KEY)])
            self.app.store.put(NAMESPACE, PREVIOUS_KEY, load_table(self.app, NAMESPACE))
            save_table(self.app, NAMESPACE, {"players": []})
            self.undo = UndoOffer.start(self.app, "Scores cleared.", saved)
            self.selected = 0  # on "Score the table": OK starts the new table
