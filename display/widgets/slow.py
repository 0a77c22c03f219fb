"""Slow work off the UI thread, with a busy state on screen.

:class:`SlowWork` is a mixin for screens that take a photo, read it with the recogniser, or
write enrolment files: the work runs on the app's background worker (``App.run_job``) so a slow
Pi keeps drawing and feeding the systemd watchdog; scripted runs and tests run it inline.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen

if TYPE_CHECKING:
    from concurrent.futures import Future

BUSY_READING = "Reading the cards…"


class SlowWork(Screen):
    """A screen that runs slow work with :meth:`start_job` and draws :meth:`draw_busy` while
    :attr:`busy` is set (list it first among the bases of a screen built on another one).

    The work runs on the app's background worker (``App.run_job``) and must not touch the
    screen: it returns a value, and ``landed(value)`` applies it on the UI thread, after which
    the app saves everything (the result is on disk as soon as it is on screen). In scripted
    runs and tests the job runs inline and lands before :meth:`start_job` returns, so a script's
    next line sees the result. A job is not saved: a screen restored from a snapshot taken while
    it ran says so (:meth:`interrupted`) and offers to try again. Work that must not be dropped
    half-way (writing enrolment files) is started with ``cancellable=False``: then neither BACK
    nor holding BACK leaves the screen until it has landed.
    """

    busy: str = ""  # what is being done, for the screen ("" when idle)
    busy_cancellable: bool = True
    _job: Future[Any] | None = None
    _landing: Callable[[Any], None] | None = None

    def start_job(
        self,
        label: str,
        work: Callable[[], Any],
        landed: Callable[[Any], None],
        *,
        cancellable: bool = True,
    ) -> None:
        self.busy, self.busy_cancellable = label, cancellable
        self._job, self._landing = self.app.run_job(work), landed
        if self._job.done():
            self._land()

    def update(self, now: float) -> None:
        if self._job is not None and self._job.done():
            self._land()
            self.app.save()

    def _land(self) -> None:
        job, landed = self._job, self._landing
        self._job = self._landing = None
        self.busy = ""
        if job is not None and landed is not None:
            landed(job.result())  # the job's own exception, if any, is raised here

    def busy_handle(self, action: Action) -> bool:
        """While busy: BACK cancels (the result is dropped), other buttons say to wait.
        True when busy (the action is used up)."""
        if not self.busy:
            return False
        if action is Action.BACK and self.busy_cancellable:
            self._job = self._landing = None
            self.busy = ""
            self.app.toast("Cancelled.")
        else:
            self.app.toast(f"{self.busy} One moment.")
        return True

    def handle_hold(self, action: Action) -> None:
        if self.busy and not self.busy_cancellable:
            self.app.toast(f"{self.busy} One moment.")
        else:
            super().handle_hold(action)

    def busy_legend(self) -> list[LegendItem]:
        return [(Action.BACK, "Cancel")] if self.busy_cancellable else []

    def draw_busy(self, surface: pygame.Surface) -> None:
        """The busy state over the whole content area, with dots moving on the app clock."""
        area = surface.get_rect().inflate(-2 * ui.MARGIN, -2 * ui.MARGIN)
        ui.panel(surface, area, ui.PANEL, border=ui.INFO)
        ui.text(surface, self.busy, (area.centerx, area.centery - 40), ui.LARGE, ui.INFO, "center")
        step = int(self.app.clock.now() * 3) % 3
        for dot in range(3):
            lit = dot == step
            centre = (area.centerx + (dot - 1) * 40, area.centery + 30)
            pygame.draw.circle(surface, ui.ACCENT if lit else ui.DIM, centre, 10 if lit else 7)
        note = "This takes a few seconds. " + (
            "BACK cancels." if self.busy_cancellable else "Please wait."
        )
        ui.text(surface, note, (area.centerx, area.bottom - 24), ui.SMALL, ui.DIM, "midbottom")

    def busy_snapshot(self) -> dict[str, Any]:
        return {"busy": self.busy} if self.busy else {}

    def interrupted(self, data: dict[str, Any]) -> str:
        """For restore: the message when the snapshot was taken while a job ran, else ""."""
        if not data.get("busy"):
            return ""
        message = "The appliance restarted before that finished; please do it again."
        self.app.toast(message)
        return message
