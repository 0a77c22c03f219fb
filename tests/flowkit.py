"""What the photograph-to-score tests share: scripted runs of the simulated appliance fed with
generated photos, an in-process appliance for driving screens directly, the words its screens
draw, and where screenshots go.

Set FLOW_SHOTS=/some/dir to keep the screenshots (they are looked at during development).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from display import chrome, ui
from display.checks.scenes import write
from display.launch import RunOptions, run_script


def shots_dir(tmp_path: Path, name: str) -> Path:
    base = os.environ.get("FLOW_SHOTS")
    return Path(base) / name if base else tmp_path / "shots"


def run(tmp_path: Path, state: Path, script: str, images: dict[str, object], shots: Path) -> dict:
    """Write ``images`` beside the script, run it (`tablekeeper run --sim --script ...
    --dump-state`), return the state dump."""
    folder = tmp_path / "run"
    folder.mkdir(parents=True, exist_ok=True)
    for name, image in images.items():
        write(folder / name, image)  # type: ignore[arg-type]
    path = folder / f"script-{len(list(folder.glob('script-*')))}.txt"
    path.write_text(script, encoding="utf-8")
    dump = folder / "dump.json"
    run_script(RunOptions(script=path, screenshots=shots, state_dir=state, dump_state=dump))
    return json.loads(dump.read_text())


def top(dump: dict) -> dict:
    """The screen on top of the stack in a state dump."""
    return dump["screens"][-1]


@contextmanager
def sim_app(state: Path) -> Iterator[Any]:
    """A simulated appliance on ``state`` with a fake clock, strict (jobs inline), closed after."""
    from display.clock import FakeClock
    from display.launch import build_app

    app = build_app(RunOptions(simulated=True, state_dir=state), clock=FakeClock(), strict=True)
    try:
        yield app
    finally:
        app.close()


@dataclass
class Drawn:
    content: str
    size: int
    colour: tuple[int, int, int]
    rect: Any


class TextRecorder:
    """Every line of text drawn while it is active (through ``ui.text``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.drawn: list[Drawn] = []
        original = ui.text

        def recording(
            surface: Any,
            content: str,
            pos: Any,
            size: int = ui.MEDIUM,
            color: Any = ui.TEXT,
            anchor: str = "topleft",
            max_width: int | None = None,
        ) -> Any:
            rect = original(surface, content, pos, size, color, anchor, max_width)
            shown = ui.fit(content, size, max_width) if max_width is not None else content
            self.drawn.append(Drawn(shown, size, tuple(color), rect))
            return rect

        monkeypatch.setattr(ui, "text", recording)
        # the simulation's panel of LEDs (a PC only) is not what a player reads
        monkeypatch.setattr(chrome, "sim_panel", lambda *args: None)

    def frame(self, app: Any) -> list[Drawn]:
        """The words of one freshly rendered frame."""
        self.drawn = []
        app.render()
        return list(self.drawn)

    def words(self, app: Any) -> str:
        return "\n".join(d.content for d in self.frame(app))
