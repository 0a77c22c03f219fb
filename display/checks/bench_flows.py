"""Figures for the photograph-to-score flows, measured on the real screens in-process
(``tablekeeper bench flows [--hands 15] [--seed 7] [--skip-enrol]``):

1. **Button presses to enrol all 79 Remix cards.** A fresh appliance is driven from the home
   screen through Enrol cards -> Marvel: Remix -> Continue, then every batch of the checklist is
   laid out (a generated photo of exactly those cards), SHUTTER, OK. Every press goes through the
   script runner (mock pins) and is counted; the run must end with all 79 cards enrolled. The
   count from the flow itself is 4 (home to Enrol cards) + 1 (Remix) + 1 (Continue) + 2 per
   batch x ceil(79 / 12) = 7 batches = 20 presses; a photo whose cards were not all found costs
   one more SHUTTER (a retake), and the bench reports those separately.
2. **Seconds from shutter to score on screen** (median, wall clock): with all 79 cards enrolled,
   a 7-card hand photo (1280 x 960) is queued and SHUTTER pressed; the recogniser runs on the
   app's background worker (``App.run_job``) while frames are drawn at the configured frame rate
   ("Reading the cards..."), until the frame that shows the photo with the names and the hand's
   total (when every card was read). The same for a 6-card mixtape (1640 x 1232, two columns)
   against the example deck. Also reported: frames drawn while reading and the longest gap
   between two frames (what the systemd watchdog and the player see).
3. **Per step, for each flow** (median over its photos, wall ms): ``capture`` (the camera's
   still), ``save`` (the photo kept as a JPEG, fsynced), ``decode`` (the photo made ready: the
   recogniser's light-balanced work copy and grey, the screen-sized preview), ``find`` (ORB
   features, word-index votes, fits, outlines, second looks), ``name`` (each card rectified and
   named, the look's last word, reading order), ``score`` (the frame on the UI thread that lands
   the reading and draws the score), and the ``total`` from SHUTTER to that frame (it also holds
   the wait for the next frame, so it is more than the sum). Steps as in
   ``display.cards.reading.FLOW_STEPS``; what a Pi owner reports.
"""

from __future__ import annotations

import math
import os
import random
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.camera import ScriptedCamera
from display.actions import Action
from display.cards.enrolment import Enrolment
from display.cards.reading import FLOW_STEPS, card_quads
from display.checks.scenes import columns_scene, enrol_directly, example_mixtape_enrolment, scene
from display.clock import FakeClock
from display.launch import RunOptions, build_app
from display.screens.enrol.common import BATCH, remix_checklist
from display.script import ScriptRunner, parse_script
from display.widgets.words import count
from games.mixtape import load_example_deck
from games.remix import default_catalogue


def _app(state: Path) -> tuple[Any, Any, Any]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

    clock = FakeClock()
    app = build_app(RunOptions(simulated=True, state_dir=state), clock=clock, strict=True)
    camera = app.camera if isinstance(app.camera, ScriptedCamera) else None
    runner = ScriptRunner(app, clock, camera, None)
    return app, runner, clock


def _steps(text: str) -> list[Any]:

    return parse_script(text)


def enrol_all(seed: int) -> dict[str, Any]:
    """Drive the enrolment of the whole Remix checklist; count the presses."""

    checklist = remix_checklist()
    state = Path(tempfile.mkdtemp(prefix="tablekeeper-bench-enrol-"))
    app, runner, _ = _app(state)
    presses = 0
    retakes = 0
    try:
        navigation = "press right\npress right\npress right\npress ok\npress ok\npress ok\n"
        runner.run(_steps(navigation))
        presses += navigation.count("press")
        for start in range(0, len(checklist), BATCH):
            names = [name for _, name in checklist[start : start + BATCH]]
            attempt = 0
            while True:
                image = scene(names, seed + start * 10 + attempt, size=(1640, 1232))
                app.camera.queue_image(image)
                runner.run(_steps("press shutter"))
                presses += 1
                if len(card_quads(image)) == len(names):
                    break
                retakes += 1
                attempt += 1
                if attempt > 5:
                    raise RuntimeError(f"batch at {start}: cards not found in 6 photos")
            runner.run(_steps("press ok"))
            presses += 1
        enrolled = len(Enrolment(state, "remix"))
    finally:
        app.close()
        shutil.rmtree(state, ignore_errors=True)
    batches = math.ceil(len(checklist) / BATCH)
    return {
        "cards": len(checklist),
        "enrolled": enrolled,
        "batches": batches,
        "presses": presses,
        "retakes": retakes,
        "presses_first_time_right": 6 + 2 * batches,
    }


Timed = tuple[float, float, int, float, dict[str, float]]


def _time_shutter(app: Any, image: Any) -> Timed:
    """Queue ``image``, press SHUTTER and draw frames at the appliance's frame rate until the
    reading has landed (the recogniser runs off the UI thread, as on the Pi). Returns (wall
    seconds, CPU seconds, frames drawn while reading, longest gap between two frames, seconds
    per step of :data:`FLOW_STEPS` and the total)."""
    app.camera.queue_image(image)
    period = 1.0 / max(1, app.config.screen.fps)
    started, cpu = time.perf_counter(), time.process_time()
    app.press(_action("SHUTTER"))
    frames, longest, last = 0, 0.0, started
    while True:
        began = time.perf_counter()
        app.update()
        app.render()
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
        if not getattr(app.top, "busy", ""):
            break
        frames += 1
        time.sleep(max(0.0, period - (time.perf_counter() - now)))
    total = time.perf_counter() - started
    reading = getattr(app.top, "reading", None)
    steps = dict(getattr(reading, "steps", {}))
    steps["score"] = now - began  # the last frame: the reading landed and the score drawn
    steps = {name: steps.get(name, 0.0) for name in FLOW_STEPS} | {"total": total}
    return total, time.process_time() - cpu, frames, longest, steps


def _summary(key: str, rows: list[Timed], read: int) -> dict[str, Any]:
    steps = {
        f"{key}_step_{name}_median_s": statistics.median(r[4][name] for r in rows)
        for name in (*FLOW_STEPS, "total")
    }
    return steps | {
        f"{key}_count": len(rows),
        f"{key}_median_s": statistics.median(r[0] for r in rows),
        f"{key}_cpu_median_s": statistics.median(r[1] for r in rows),
        f"{key}_max_s": max(r[0] for r in rows),
        f"{key}_frames_median": statistics.median(r[2] for r in rows),
        f"{key}_longest_frame_median_s": statistics.median(r[3] for r in rows),
        f"{key}_longest_frame_s": max(r[3] for r in rows),
        f"{key}_read_without_help": read,
    }


def shutter_to_score(hands: int, seed: int) -> dict[str, Any]:
    """Median seconds from SHUTTER to the frame showing the score (Remix hands, mixtapes), with
    the recogniser on the background worker as in the appliance (not inline as in scripts)."""

    catalogue = list(default_catalogue())
    state = Path(tempfile.mkdtemp(prefix="tablekeeper-bench-score-"))
    enrol_directly(state, "remix", {card.id: card.name for card in catalogue})
    example_mixtape_enrolment(state)
    rng = random.Random(seed)
    app, runner, _ = _app(state)
    remix: list[Timed] = []
    remix_read_all = 0
    tapes: list[Timed] = []
    tape_read_all = 0
    try:
        runner.run(_steps("press right\npress right\npress ok\npress ok\n"))  # Remix table
        app.jobs_inline = False  # the script steps above ran inline; the timed part does not
        for number in range(hands):
            names = [card.name for card in rng.sample(catalogue, 7)]
            image = scene(names, seed * 1000 + number)
            runner.run(_steps("press ok\npress back"))  # next player; keep the default name
            remix.append(_time_shutter(app, image))
            top = app.top
            if top.ready() and sorted(top.reading.names) == sorted(names):
                remix_read_all += 1
            runner.run(_steps("press back"))  # back to the table, nothing saved
        deck = load_example_deck()
        a_cards = [c.id for c in deck.cards if c.side == "A" and c.players == 2]
        b_cards = [c.id for c in deck.cards if c.side == "B" and c.players == 2]
        runner.run(_steps("hold back 2\npress left\npress ok\npress ok\n"))  # Mixtape table
        for number in range(max(3, hands // 3)):
            a = rng.sample(a_cards, 3)
            b = rng.sample(b_cards, 3)
            image = columns_scene(a, b, seed * 2000 + number)
            runner.run(_steps("press ok\npress back"))
            tapes.append(_time_shutter(app, image))
            top = app.top
            if top.ready() and top.columns() == (a, b):
                tape_read_all += 1
            runner.run(_steps("press back"))
    finally:
        app.close()
        shutil.rmtree(state, ignore_errors=True)
    return _summary("remix", remix, remix_read_all) | _summary("mixtape", tapes, tape_read_all)


def _action(name: str) -> Any:

    return Action(name)


@dataclass
class FlowsReport:
    enrol: dict[str, Any] | None = None  # enrol_all's figures (None: skipped)
    timing: dict[str, Any] = field(default_factory=dict)  # shutter_to_score's figures
    ok: bool = True

    def lines(self) -> list[str]:
        out = []
        enrol = self.enrol
        if enrol is not None:
            out.append(
                f"enrol all {enrol['cards']} Remix cards: {enrol['presses']} button presses "
                f"({enrol['batches']} photos of up to 12; "
                f"{count(enrol['retakes'], 'retake')} when a card was not found; "
                f"{enrol['presses_first_time_right']} when every photo is right first time); "
                f"{enrol['enrolled']} enrolled at the end"
            )
        timing = self.timing
        for label, key in (("Remix 7-card hand", "remix"), ("6-card mixtape", "mixtape")):
            prefix = f"{key}_"
            figure = {k[len(prefix) :]: v for k, v in timing.items() if k.startswith(prefix)}
            out.append(
                f"shutter to score on screen, {label}: median {figure['median_s']:.2f} s "
                f"wall, {figure['cpu_median_s']:.2f} s CPU (max {figure['max_s']:.2f} s, "
                f"{figure['count']} photos, {figure['read_without_help']} read with no "
                f"correction needed); while reading: {figure['frames_median']:.0f} frames drawn "
                f"(median), longest gap between two frames median "
                f"{figure['longest_frame_median_s'] * 1000:.0f} ms, worst "
                f"{figure['longest_frame_s'] * 1000:.0f} ms"
            )
        for label, key in (("Remix hand", "remix"), ("Mixtape tape", "mixtape")):
            steps = [
                f"{name} {timing[f'{key}_step_{name}_median_s'] * 1000:.0f}"
                for name in (*FLOW_STEPS, "total")
            ]
            out.append(f"per step, {label} (median ms): {', '.join(steps)}")
        return out


def measure_flows(hands: int, seed: int, skip_enrol: bool = False) -> FlowsReport:
    enrol = None if skip_enrol else enrol_all(seed)
    return FlowsReport(enrol, shutter_to_score(hands, seed))
