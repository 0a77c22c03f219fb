"""Where a photo's time goes: wall seconds per pipeline step, CPU seconds per kind of work.

:func:`vision.identify` records both. *Steps* are the pipeline's (features, find, name,
second_look, outlines, outline_naming, last_look, leftovers, last_word: :mod:`vision.recognize`),
wall clock. *Parts* are the kinds
of work a Pi owner can act on, CPU time (one OpenCV thread: one core's time even when other
programs share the machine), each charged exclusively (a part inside another pauses it):

- ``find``: ORB on the photo and the word-index votes;
- ``fit``: RANSAC fits of the voted references (card hypotheses);
- ``outline``: colour-edge outlines, and screening them (plane, edges, completion);
- ``name``: rectifying a card and naming it feature by feature (its homography fits included);
- ``look``: the look's second opinion and last word.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar

PARTS = ("find", "fit", "outline", "name", "look")


class Profile:
    """Exclusive CPU seconds per part, and wall and CPU seconds per step."""

    def __init__(self) -> None:
        self.steps: dict[str, float] = {}
        self.step_cpu: dict[str, float] = {}
        self.parts: dict[str, float] = dict.fromkeys(PARTS, 0.0)
        self._stack: list[str] = []
        self._mark = time.process_time()

    def _charge(self) -> None:
        now = time.process_time()
        if self._stack:
            self.parts[self._stack[-1]] = self.parts.get(self._stack[-1], 0.0) + now - self._mark
        self._mark = now

    @contextmanager
    def part(self, name: str) -> Iterator[None]:
        self._charge()
        self._stack.append(name)
        try:
            yield
        finally:
            self._charge()
            self._stack.pop()

    @contextmanager
    def step(self, name: str, part: str) -> Iterator[None]:
        """A pipeline step (wall and CPU time), its work charged to ``part`` unless a part
        inside it says otherwise."""
        tick, cpu_tick = time.perf_counter(), time.process_time()
        try:
            with self.part(part):
                yield
        finally:
            self.steps[name] = self.steps.get(name, 0.0) + time.perf_counter() - tick
            cpu = time.process_time() - cpu_tick
            self.step_cpu[name] = self.step_cpu.get(name, 0.0) + cpu


_ACTIVE: ContextVar[Profile | None] = ContextVar("vision_profile", default=None)


@contextmanager
def profiling() -> Iterator[Profile]:
    """Record the parts of everything run inside (one identify call)."""
    profile = Profile()
    token = _ACTIVE.set(profile)
    try:
        yield profile
    finally:
        _ACTIVE.reset(token)


def part(name: str) -> AbstractContextManager[None]:
    """Charge the time inside to part ``name`` of the identify call running (if any)."""
    profile = _ACTIVE.get()
    return profile.part(name) if profile is not None else nullcontext()
