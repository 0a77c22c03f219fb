"""The abstract buttons every screen understands.

Physical buttons (GPIO), the rotary encoder, the keyboard (simulated mode), taps on the legend bar
and the script runner all turn into these. A screen never sees a pin, a key code or a coordinate
unless it asks for taps itself (see :meth:`display.screen.Screen.handle_tap`).
"""

from __future__ import annotations

from enum import Enum


class Action(Enum):
    SEAT_1 = "SEAT_1"
    SEAT_2 = "SEAT_2"
    SEAT_3 = "SEAT_3"
    SEAT_4 = "SEAT_4"
    SEAT_5 = "SEAT_5"
    LEFT = "LEFT"
    RIGHT = "RIGHT"
    OK = "OK"
    BACK = "BACK"
    SHUTTER = "SHUTTER"

    @property
    def script_name(self) -> str:
        """The name used in scripts: ``seat1``, ``left``, ``ok``..."""
        return self.value.lower().replace("_", "")

    @property
    def label(self) -> str:
        """The name printed on the legend bar (and on the physical button)."""
        if self.seat is not None:
            return f"SEAT {self.seat}"
        return self.value

    @property
    def seat(self) -> int | None:
        """1..5 for a seat button, else None."""
        if self.value.startswith("SEAT_"):
            return int(self.value[5:])
        return None

    @classmethod
    def from_script_name(cls, name: str) -> Action:
        """``seat1`` / ``SEAT_1`` / ``ok`` -> Action; KeyError for anything else."""
        wanted = name.strip().lower().replace("_", "")
        for action in cls:
            if action.script_name == wanted:
                return action
        raise KeyError(name)


SEAT_ACTIONS = (Action.SEAT_1, Action.SEAT_2, Action.SEAT_3, Action.SEAT_4, Action.SEAT_5)
