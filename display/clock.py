"""The app's clocks: the real monotonic one, and the fake one scripts and tests move.

Screens read time only through ``app.clock.now()`` (seconds, monotonic, arbitrary origin), so a
script can play ninety seconds of sand timer in a few milliseconds.
"""

from __future__ import annotations

import time


class MonotonicClock:
    """The real clock: seconds from an arbitrary origin, never going backwards."""

    def now(self) -> float:
        return time.monotonic()


class FakeClock:
    """A clock that moves only when told (scripts' ``advance``, tests)."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the clock cannot go backwards")
        self._now += seconds


Clock = MonotonicClock | FakeClock
