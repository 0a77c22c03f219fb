"""What the photograph-to-score tests share: scripted runs of the simulated appliance fed with
generated photos, an in-process appliance for driving screens directly, and where screenshots go.

Set FLOW_SHOTS=/some/dir to keep the screenshots (they are looked at during development).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
