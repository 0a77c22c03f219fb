"""I Made You a Mixtape: the menu - score mixtapes, the solo game, a new table or solo game,
enrolment. Clearing scores or a solo game asks first (a hold of OK) and can be undone."""

from __future__ import annotations

from typing import Any

from display.screen import register_screen
from display.screens.enrol.mixtape import MixtapeEnrolScreen
from display.screens.mixtape.common import (
    HISTORY_KEY,
    NAMESPACE,
    SOLO_KEY,
    enrolment,
    load_table_deck,
)
from display.screens.mixtape.solo import SoloScreen
from display.screens.mixtape.table import MixtapeTableScreen
from display.widgets.confirm import ConfirmScreen, UndoOffer, keep_for_undo, scores_cleared
from display.widgets.keyboard import remember_names
from display.widgets.menu import MenuScreen
from display.widgets.message import OfferScreen
from display.widgets.table import TABLE_KEY, load_table, save_table


@register_screen
class MixtapeMenuScreen(MenuScreen):
    kind = "mixtape"
    title = "I Made You a Mixtape"

    def rows(self) -> list[tuple[str, str, str]]:
        players = len(load_table(self.app, NAMESPACE)["players"])
        solo = self.app.store.get(NAMESPACE, SOLO_KEY)
        solo_note = ""
        if isinstance(solo, dict):
            solo_note = "game over" if solo.get("phase") == "over" else "in progress"
        ready = self.deck_problem() is None
        deck_note = f"{len(load_table_deck(self.app).cards)} cards" if ready else "not ready"
        first = "" if ready else "enrol first"
        rows = [
            ("table", "Score mixtapes", f"{players} scored" if players else first),
            ("solo", "Solo game vs Otto", solo_note or first),
        ]
        if players:  # only what can be cleared is offered
            rows.append(("new", "New table", "same players first"))
        if solo:
            rows.append(("new_solo", "New solo game", "ends this one"))
        enrolled = self.enrolled()
        enrol = "Enrol cards / deck" if enrolled else "Start enrolment"
        rows.append(("enrol", enrol, deck_note if enrolled else "0 cards"))
        return rows

    def enrolled(self) -> int:
        try:
            return len(enrolment(self.app))
        except Exception:  # a damaged enrolment: the enrol screens say what is wrong
            return 0

    def deck_problem(self) -> str | None:
        """Why the deck cannot score yet (None: ready)."""
        try:
            load_table_deck(self.app)
        except Exception as error:
            return str(error)
        return None

    def open(self, key: str) -> None:
        if key == "enrol":
            self.app.push(MixtapeEnrolScreen(self.app))
            return
        if key == "new":
            players = len(load_table(self.app, NAMESPACE)["players"])
            body = scores_cleared(players)
            confirm = ConfirmScreen(
                self.app, "Start a new table?", body, "Clear scores", "Keep scores"
            )
            self.app.push(confirm, purpose="new")
            return
        if key == "new_solo":
            body = "The solo game in progress against Otto is ended and forgotten."
            confirm = ConfirmScreen(
                self.app, "New solo game?", body, "End the game", "Keep playing"
            )
            self.app.push(confirm, purpose="new_solo")
            return
        problem = self.deck_problem()
        if problem is not None:
            if self.enrolled():
                heading, body, offer = "Deck not ready", problem, "Finish enrolment"
            else:
                heading, offer = "No cards enrolled yet", "Enrol now"
                body = (
                    "The camera reads a mixtape once the deck is enrolled: photograph the "
                    "cards, then enter each card's genre, side and balance."
                )
            self.app.push(OfferScreen(self.app, heading, body, offer), purpose="enrol_first")
            return
        if key == "table":
            self.app.push(MixtapeTableScreen(self.app))
        elif key == "solo":
            self.app.push(SoloScreen(self.app))

    def on_result(self, purpose: str, result: Any) -> None:
        if not result:
            return
        if purpose == "enrol_first":
            self.app.push(MixtapeEnrolScreen(self.app))
            return
        if purpose == "new":
            table = load_table(self.app, NAMESPACE)
            saved = keep_for_undo(self.app, [(NAMESPACE, TABLE_KEY)])
            save_table(self.app, NAMESPACE, {"players": []})
            # a rematch: the keyboard offers the same players again, in the same order
            remember_names(self.app, [player["name"] for player in table["players"]])
            self.undo = UndoOffer.start(self.app, "Scores cleared.", saved)
        elif purpose == "new_solo":
            saved = keep_for_undo(self.app, [(NAMESPACE, SOLO_KEY), (NAMESPACE, HISTORY_KEY)])
            self.app.store.delete(NAMESPACE, SOLO_KEY)
            self.app.store.put(NAMESPACE, HISTORY_KEY, [])
            self.undo = UndoOffer.start(self.app, "Solo game ended.", saved)
        else:
            return
        self.selected = 0
