"""Enrolment: the menu (home, "Enrol cards") - Remix, Mixtape, export and import."""

from __future__ import annotations

from pathlib import Path

import pygame

from display.actions import Action
from display.cards.enrolment import (
    EnrolmentError,
    export_all,
    export_path,
    forget_enrolments,
    import_all,
)
from display.screen import LegendItem, register_screen
from display.screens.enrol.common import MIXTAPE, REMIX, enrolment, remix_checklist
from display.screens.enrol.mixtape import MixtapeEnrolScreen
from display.screens.enrol.remix import RemixEnrolScreen
from display.widgets.menu import MenuScreen
from display.widgets.slow import SlowWork


@register_screen
class EnrolMenuScreen(SlowWork, MenuScreen):
    """Remix, Mixtape, export and import (the file jobs run off the UI thread)."""

    kind = "enrol"
    title = "Enrol cards"
    blurb = "Enrolment is kept in the state folder; export makes one file of it."

    def rows(self) -> list[tuple[str, str, str]]:
        enrolled = 0
        try:
            enrolled = len(enrolment(self.app, REMIX)) + len(enrolment(self.app, MIXTAPE))
            remix = f"{len(enrolment(self.app, REMIX))}/{len(remix_checklist())}"
            mixtape = f"{len(enrolment(self.app, MIXTAPE))} cards"
        except EnrolmentError:
            remix = mixtape = "damaged"
        rows = [(REMIX, "Marvel: Remix", remix), (MIXTAPE, "I Made You a Mixtape", mixtape)]
        if enrolled:  # only what can be done is offered: an export of nothing is no file
            rows.append(("export", "Export to one file", ""))
        rows.append(("import", "Import from the file", ""))
        return rows

    def open(self, key: str) -> None:
        state = self.app.store.state_dir
        if key == REMIX:
            self.app.push(RemixEnrolScreen(self.app))
        elif key == MIXTAPE:
            self.app.push(MixtapeEnrolScreen(self.app))
        elif key == "export":
            self.start_job(
                "Writing the export file…",
                lambda: export_job(state),
                self.message,
                cancellable=False,
            )
        elif key == "import":
            path = export_path(state)
            if not path.is_file():
                self.message(("Nothing to import", f"Put the enrolment file at {path} first."))
                return
            self.start_job(
                "Importing the enrolment…",
                lambda: import_job(state),
                self.imported,
                cancellable=False,
            )

    def imported(self, outcome: tuple[str, str, str]) -> None:
        forget_enrolments(self.app)
        self.message(outcome)

    def message(self, outcome: tuple[str, ...]) -> None:
        self.app.push(self.app.message(*outcome))

    def handle(self, action: Action) -> None:
        if not self.busy_handle(action):
            super().handle(action)

    def handle_tap(self, x: int, y: int) -> bool:
        return not self.busy and super().handle_tap(x, y)

    def draw(self, surface: pygame.Surface) -> None:
        if self.busy:
            self.draw_busy(surface)
        else:
            super().draw(surface)

    def legend(self) -> list[LegendItem]:
        return self.busy_legend() if self.busy else super().legend()


def export_job(state: Path) -> tuple[str, str, str]:
    """(heading, body, tone) after writing the export file (on the background worker)."""
    try:
        path, count = export_all(state)
    except (EnrolmentError, OSError) as error:
        return ("Export failed", str(error), "bad")
    return ("Exported", f"{count} files written to {path}. Copy it anywhere safe.", "good")


def import_job(state: Path) -> tuple[str, str, str]:
    """(heading, body, tone) after importing the export file (on the background worker)."""
    try:
        counts = import_all(state)
    except (EnrolmentError, OSError) as error:
        return ("Import failed", str(error), "bad")
    what = ", ".join(f"{game}: {n} cards" for game, n in sorted(counts.items()))
    return (
        "Imported",
        f"{what or 'no cards'} from {export_path(state)}. The previous enrolment was kept in "
        "enrolment.before-import.",
        "good",
    )
