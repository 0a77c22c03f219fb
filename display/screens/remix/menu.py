"""Marvel: Remix: the menu - score the table, start a new table, enrol or verify the cards.

On a fresh appliance (no card enrolled) "Score the table" stays, and says so: it offers to
enrol now rather than asking for a name and then finding nothing to read the cards with."""

from __future__ import annotations

from typing import Any

from display.cards.enrolment import EnrolmentError
from display.screen import register_screen
from display.screens.enrol.remix import RemixEnrolScreen
from display.screens.remix.common import NAMESPACE, catalogue, enrolment
from display.screens.remix.table import RemixTableScreen
from display.widgets.confirm import ConfirmScreen, UndoOffer, keep_for_undo, scores_cleared
from display.widgets.keyboard import remember_names
from display.widgets.menu import MenuScreen
from display.widgets.message import OfferScreen
from display.widgets.table import TABLE_KEY, load_table, save_table

PREVIOUS_KEY = "previous_table"


@register_screen
class RemixMenuScreen(MenuScreen):
    kind = "remix"
    title = "Marvel: Remix"
    back_label = "Home"
    blurb = "Lay each final hand out face up; the camera reads it, the scorer explains it."

    def enrolled(self) -> int:
        try:
            return len(enrolment(self.app))
        except EnrolmentError:
            return 0

    def rows(self) -> list[tuple[str, str, str]]:
        players = len(load_table(self.app, NAMESPACE)["players"])
        enrolled, total = self.enrolled(), len(catalogue())
        score_note = f"{players} scored" if players else ("" if enrolled else "enrol first")
        rows = [("table", "Score the table", score_note)]
        if players:  # only what can be cleared is offered
            rows.append(("new", "New table", "same players first"))
        enrol = "Enrol / verify cards" if enrolled else "Start enrolment"
        rows.append(("enrol", enrol, f"{enrolled} of {total}"))
        return rows

    def open(self, key: str) -> None:
        if key == "table":
            if not self.enrolled():
                body = (
                    "The camera reads a hand once the cards are enrolled: the 79 cards are "
                    "photographed 12 at a time, once."
                )
                offer = OfferScreen(self.app, "No cards enrolled yet", body, "Enrol now")
                self.app.push(offer, purpose="enrol_first")
                return
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
        if purpose == "enrol_first" and result:
            self.app.push(RemixEnrolScreen(self.app))
        elif purpose == "new" and result:
            table = load_table(self.app, NAMESPACE)
            saved = keep_for_undo(self.app, [(NAMESPACE, TABLE_KEY), (NAMESPACE, PREVIOUS_KEY)])
            self.app.store.put(NAMESPACE, PREVIOUS_KEY, table)
            save_table(self.app, NAMESPACE, {"players": []})
            # a rematch: the keyboard offers the same players again, in the same order
            remember_names(self.app, [player["name"] for player in table["players"]])
            self.undo = UndoOffer.start(self.app, "Scores cleared.", saved)
            self.selected = 0  # on "Score the table": OK starts the new table
