"""Marvel: Remix: the menu - score the table, start a new table, enrol or verify the cards."""

from __future__ import annotations

from display.cards.enrolment import EnrolmentError
from display.screen import register_screen
from display.screens.enrol.remix import RemixEnrolScreen
from display.screens.remix.common import NAMESPACE, catalogue, enrolment
from display.screens.remix.table import RemixTableScreen
from display.widgets.menu import MenuScreen
from display.widgets.table import load_table, save_table


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
        return [
            ("table", "Score the table", f"{players} scored" if players else ""),
            ("new", "New table", "clears the scores"),
            ("enrol", "Enrol / verify cards", f"{enrolled}/{len(catalogue())}"),
        ]

    def open(self, key: str) -> None:
        if key == "table":
            self.app.push(RemixTableScreen(self.app))
        elif key == "new":
            scores = load_table(self.app, NAMESPACE)
            if scores["players"]:
                self.app.store.put(NAMESPACE, "previous_table", scores)
            save_table(self.app, NAMESPACE, {"players": []})
            self.app.toast("New table: the previous scores are kept as 'previous_table'.")
            self.app.push(RemixTableScreen(self.app))
        elif key == "enrol":
            self.app.push(RemixEnrolScreen(self.app))
