"""The Co-Mix sand timer as a small clock-driven model, shared by the scripting screen and
``tablekeeper bench timer``.

It knows no clock of its own: it is given the time (the app clock's ``now``) and answers how much
sand is left, whether a warning beep is due and when time is up. ``remaining`` is what survives a
power cut (the app clock restarts at an unrelated value), so :meth:`SandTimer.to_json` stores it.

Its states: *on its base* (full, waiting to be flipped), *running*, *stopped* (every story done;
an undo may resume it), *paused* (the table left the timer: the sand waits), *counting in*
(resuming a paused timer: 3, 2, 1, then the sand runs again from where it was) and *finished*
(time ran out). A power cut while paused or counting in comes back paused.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_SECONDS = 90.0
WARNING_SECONDS = 10  # the buzzer ticks once a second in the last ten seconds
COUNT_IN_SECONDS = 3  # a paused timer counts in 3, 2, 1 before its sand runs again


@dataclass
class SandTimer:
    """Sand left = ``left`` minus the time since ``started_at`` while running. During a count-in
    ``started_at`` lies ahead: the sand waits until then."""

    duration: float = DEFAULT_SECONDS
    left: float = DEFAULT_SECONDS  # seconds of sand when last started or paused
    started_at: float | None = None  # app clock time the sand (re)starts; None = not running
    finished: bool = False  # time ran out
    last_tick: int | None = None  # last whole second a warning beep was given for
    paused: bool = False  # the table paused it (left the timer); it waits for a count-in

    def __post_init__(self) -> None:
        self.left = self.duration

    @property
    def running(self) -> bool:
        """Running or counting in (the sand will run without anybody doing anything)."""
        return self.started_at is not None

    @property
    def started(self) -> bool:
        return self.running or self.finished or self.paused or self.left < self.duration

    def start(self, now: float) -> None:
        """The sand timer is flipped: full sand, running."""
        self.left = self.duration
        self.started_at = now
        self.finished = False
        self.paused = False
        self.last_tick = None

    def stop(self, now: float) -> None:
        """Every story is done: the sand stops where it is (an undo may :meth:`resume` it).
        Stopped during a count-in, it is paused again."""
        if self.counting_in(now):
            self.paused = True
        self.left = self.remaining(now)
        self.started_at = None

    def resume(self, now: float) -> None:
        """A stop taken back: the sand runs again at once (a paused timer stays paused)."""
        if not self.finished and not self.paused and self.started_at is None:
            self.started_at = now

    def pause(self, now: float) -> None:
        """The table pauses the sand (it left the timer screen): it stops where it is and waits
        for :meth:`count_in`. Only a running (or counting-in) timer pauses."""
        if self.running and not self.finished:
            self.left = self.remaining(now)
            self.started_at = None
            self.paused = True

    def count_in(self, now: float) -> None:
        """Resume a paused timer: 3, 2, 1 (:meth:`count`), then the sand runs from where it
        stopped - no sand is lost to the count-in."""
        if self.paused and not self.finished:
            self.paused = False
            self.started_at = now + COUNT_IN_SECONDS

    def counting_in(self, now: float) -> bool:
        return self.started_at is not None and now < self.started_at

    def count(self, now: float) -> int:
        """The count-in number to show (3, 2, 1), 0 when not counting in."""
        if self.started_at is None or now >= self.started_at:
            return 0
        return math.ceil(self.started_at - now)

    def reset(self) -> None:
        """Back on its base, untouched (the first declaration was taken back)."""
        self.left = self.duration
        self.started_at = None
        self.finished = False
        self.paused = False
        self.last_tick = None

    def remaining(self, now: float) -> float:
        if self.finished:
            return 0.0
        if self.started_at is None:
            return self.left
        return max(0.0, self.left - max(0.0, now - self.started_at))

    def fraction(self, now: float) -> float:
        """Sand left in the top bulb, 1.0 (full) to 0.0."""
        return self.remaining(now) / self.duration if self.duration > 0 else 0.0

    def expired(self, now: float) -> bool:
        """True once, at the frame the sand runs out (then :meth:`time_up` must be called)."""
        return self.running and self.remaining(now) <= 0.0

    def time_up(self) -> None:
        self.left = 0.0
        self.started_at = None
        self.finished = True
        self.paused = False

    def due_tick(self, now: float) -> int | None:
        """A warning second (10..1) that has started and not been beeped yet, else None (never
        during a count-in: the sand is not falling)."""
        if not self.running or self.counting_in(now):
            return None
        second = math.ceil(self.remaining(now))
        if 0 < second <= WARNING_SECONDS and second != self.last_tick:
            self.last_tick = second
            return second
        return None

    def to_json(self, now: float) -> dict[str, Any]:
        """What to save. A count-in is saved as paused: after a power cut the table says when
        to go on."""
        counting = self.counting_in(now)
        return {
            "duration": self.duration,
            "running": self.running and not counting,
            "remaining": self.remaining(now),
            "finished": self.finished,
            "paused": self.paused or counting,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], now: float) -> SandTimer:
        timer = cls(float(data.get("duration", DEFAULT_SECONDS)))
        timer.finished = bool(data.get("finished", False))
        timer.left = 0.0 if timer.finished else float(data.get("remaining", timer.duration))
        timer.paused = bool(data.get("paused", False)) and not timer.finished
        if data.get("running") and not timer.finished and not timer.paused:
            timer.started_at = now
        return timer
