"""Enrolment: what both games' enrolment menus offer - re-enrol one card (from a pick list) and
verify the enrolled deck."""

from __future__ import annotations

from typing import Any

from display.screens.enrol.batch import EnrolBatchScreen
from display.screens.enrol.common import enrolment
from display.screens.enrol.verify import VerifyScreen
from display.widgets.menu import MenuScreen
from display.widgets.pick import PickScreen


class GameEnrolScreen(MenuScreen):
    """One game's enrolment menu; what both games offer: re-enrol one card (from a pick list of
    :meth:`reenrol_options`) and verify the enrolled deck."""

    game: str = ""

    def reenrol_options(self) -> list[tuple[str, str, str]]:
        return []

    def open(self, key: str) -> None:
        if key == "reenrol":
            options = self.reenrol_options()
            if not options:
                self.app.toast("No cards enrolled yet.")
                return
            picker = PickScreen(self.app, "Re-enrol which card?", "", options)
            self.app.push(picker, purpose="reenrol")
        elif key == "verify" and len(enrolment(self.app, self.game)):
            self.app.push(VerifyScreen(self.app, self.game))

    def on_result(self, purpose: str, result: Any) -> None:
        if purpose == "reenrol" and isinstance(result, str):
            self.app.push(EnrolBatchScreen(self.app, self.game, [result], "reenrol"))
