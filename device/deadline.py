"""Calls that may hang (a camera driver waiting for a frame that never comes) run with a deadline.

A Python thread cannot be killed, so :class:`Deadline` runs each call on a fresh daemon thread
and stops *waiting* for it when its time is up: the caller gets :class:`Stalled` (a message,
never a hang), the stuck call is left behind, and until it returns every further call is refused
at once instead of queueing behind it. Daemon threads never keep the process from exiting.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class Stalled(TimeoutError):
    """A call did not return within its deadline (or an earlier one is still stuck)."""


class Deadline:
    """Runs one call at a time for ``owner`` (a name for messages), each within a deadline."""

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self._stuck: threading.Thread | None = None
        self._stuck_what = ""

    @property
    def stuck(self) -> bool:
        """True while a call that missed its deadline has still not returned."""
        if self._stuck is not None and not self._stuck.is_alive():
            self._stuck = None
        return self._stuck is not None

    def call(self, work: Callable[[], T], seconds: float, what: str) -> T:
        """``work()``'s result or exception; :class:`Stalled` after ``seconds``."""
        if self.stuck:
            raise Stalled(
                f"{self.owner} is still stuck ({self._stuck_what} has not returned); "
                "check its cable, or restart the appliance if this persists"
            )
        outcome: dict[str, Any] = {}
        done = threading.Event()

        def run() -> None:
            try:
                outcome["result"] = work()
            except BaseException as error:  # handed to the caller's thread below
                outcome["error"] = error
            finally:
                done.set()

        thread = threading.Thread(target=run, name=f"deadline: {what}", daemon=True)
        thread.start()
        if not done.wait(seconds):
            self._stuck, self._stuck_what = thread, what
            raise Stalled(f"{self.owner} did not answer within {seconds:g} s ({what})")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["result"]
