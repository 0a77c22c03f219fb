"""The Co-Mix sand timer as a small clock-driven model, shared by the scripting screen and
``tablekeeper bench timer``.

It knows no clock of its own: it is given the time (the app clock's ``now``) and answers how much
sand is left, whether a warning beep is due and when time is up. ``remaining`` is what survives a
power cut (the app clock restarts at an unrelated value), so :meth:`SandTimer.to_json` stores it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_SECONDS = 90.0
WARNING_SECONDS = 10  # the buzzer ticks once a second in the last ten seconds


@dataclass
class SandTimer:
    """Sand left = ``left`` minus the time since ``started_at`` while running."""

    duration: float = DEFAULT_SECONDS
    left: float = DEFAULT_SECONDS  # seconds of sand when last started or paused
    started_at: float | None = None  # app clock time of the (re)start; None = not running
    finished: bool = False  # time ran out
    last_tick: int | None = None  # last whole second a warning beep was given for

    def __post_init__(self) -> None:
        self.left = self.duration

    @property
    def running(self) -> bool:
        return self.started_at is not None

    @property
    def started(self) -> bool:
        return self.running or self.finished or self.left < self.duration

    def start(self, now: float) -> None:
        """The sand timer is flipped: full sand, running."""
        self.left = self.duration
        self.started_at = now
        self.finished = False
        self.last_tick = None

    def pause(self, now: float) -> None:
        """Every story is done: the sand stops where it is (an undo may resume it)."""
        self.left = self.remaining(now)
        self.started_at = None

    def resume(self, now: float) -> None:
        if not self.finished and self.started_at is None:
            self.started_at = now

    def reset(self) -> None:
        """Back on its base, untouched (the first declaration was taken back)."""
        self.left = self.duration
        self.started_at = None
        self.finished = False
        self.last_tick = None

    def remaining(self, now: float) -> float:
        if self.finished:
            return 0.0
        if self.started_at is None:
            return self.left
        return max(0.0, self.left - (now - self.started_at))

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

    def due_tick(self, now: float) -> int | None:
        """A warning second (10..1) that has started and not been beeped yet, else None."""
        if not self.running:
            return None
        second = math.ceil(self.remaining(now))
        if 0 < second <= WARNING_SECONDS and second != self.last_tick:
            self.last_tick = second
            return second
        return None

    def to_json(self, now: float) -> dict[str, Any]:
        return {
            "duration": self.duration,
            "running": self.running,
            "remaining": self.remaining(now),
            "finished": self.finished,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], now: float) -> SandTimer:
        timer = cls(float(data.get("duration", DEFAULT_SECONDS)))
        timer.finished = bool(data.get("finished", False))
        timer.left = 0.0 if timer.finished else float(data.get("remaining", timer.duration))
        if data.get("running") and not timer.finished:
            timer.started_at = now
        return timer
