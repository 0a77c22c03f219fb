"""The power-cut harness: play a scripted game in a child process, SIGKILL it at a random
moment, start it again on the same state directory and check nothing was lost or invented.

For each scenario the harness first plays the whole script once without a cut (the *reference*)
and records every committed state C[1..n] (see :mod:`display.checks.child`). Then, for each
kill point:

1. The child plays the script; when its tap shows commit ``k`` (random) the harness waits a
   random fraction of the time between commits and sends SIGKILL (the moment may fall inside a
   COMMIT, inside an update, during an ``advance`` with the sand timer running...).
2. *Nothing torn, nothing lost*: a copy of the state directory is opened the way the app opens
   it; its contents must be exactly one of the reference states C[j], with ``j`` at least the
   last commit the child acknowledged (a commit it saw return is durable).
3. *Resumed as it was*: the child is started again on the same state directory with the rest of
   the script (from the step the table would pick up from, see :class:`Scenario`). The state it
   resumes with (its first commit) must equal C[j]: same screens, same game, same ballots; a
   running sand timer comes back with the sand it had at the last save.
4. *Same ending*: at the end of the script the state equals the reference's final state - every
   ballot counted once, every score the same.

``run_powercuts`` returns a :class:`Report`; ``tablekeeper check powercut`` prints it.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from display.checks import CheckError
from display.checks.scenarios import Scenario
from display.store import Store

#: The running sand timer is saved every whole second; the app updates every 0.1 s of app time.
MAX_TIMER_STALE = 1.0 + 0.1 + 1e-6
#: A cut with less sand left than this lasts longer than the sand (the harness waits it out).
LONG_CUT_BELOW = 6.0


class HarnessError(CheckError):
    """The harness itself could not run (the reference run failed...)."""


@dataclass
class Commit:
    number: int
    step: int
    step_clock: float
    clock: float
    state: dict[str, Any]
    wall: float = 0.0


@dataclass
class Tap:
    commits: list[Commit] = field(default_factory=list)
    ticks: list[float] = field(default_factory=list)


def read_tap(path: Path) -> Tap:
    tap = Tap()
    if not path.exists():
        return tap
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            break  # the last line may be cut by the kill
        if "tick" in record:
            tap.ticks.append(float(record["tick"]))
        else:
            tap.commits.append(
                Commit(
                    int(record["commit"]),
                    int(record["step"]),
                    float(record["step_clock"]),
                    float(record["clock"]),
                    record["state"],
                    float(record.get("wall", 0.0)),
                )
            )
    return tap


def child_command(tap: Path, clock_start: float, script: Path, state_dir: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "display.checks.child",
        str(tap),
        repr(clock_start),
        "--",
        "run",
        "--sim",
        "--script",
        str(script),
        "--state-dir",
        str(state_dir),
    ]


def child_env() -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    # the child imports this very code, wherever it was imported from (a checkout, a venv)
    env["PYTHONPATH"] = os.pathsep.join(path for path in sys.path if path)
    return env


def run_child(tap: Path, clock_start: float, script: Path, state_dir: Path) -> Tap:
    result = subprocess.run(
        child_command(tap, clock_start, script, state_dir),
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        raise HarnessError(
            f"the child run failed (exit {result.returncode}): {result.stderr.strip()[-800:]}"
        )
    return read_tap(tap)


def stored_state(state_dir: Path) -> dict[str, Any]:
    """What the app would find on start-up: open a *copy* the way the app does."""

    with tempfile.TemporaryDirectory(prefix="tk-powercut-copy-") as scratch:
        copy = Path(scratch) / "state"
        shutil.copytree(state_dir, copy)
        store = Store(copy)
        try:
            if store.notices:
                raise AssertionError(f"the state was moved aside after the cut: {store.notices}")
            dump = store.dump()
        finally:
            store.close()
    return {"screens": dump["screens"], "data": dump["data"]}


def running_timer(state: dict[str, Any]) -> dict[str, Any] | None:
    for screen in state["screens"]:
        timer = screen["snapshot"].get("timer") if isinstance(screen["snapshot"], dict) else None
        if isinstance(timer, dict) and timer.get("running"):
            return timer
    return None


@dataclass
class KillResult:
    scenario: str
    target: int  # the commit after which the kill was aimed
    acknowledged: int  # last commit the child saw return before it died
    found: int  # the reference commit the state on disk equals
    phase: str
    resumed_from_step: int
    timer_left: float | None = None  # sand left in the resumed timer (seconds), if running
    timer_stale: float | None = None  # app-clock seconds the timer ran after its last save
    timer_resumed: float | None = None  # sand left in the resumed timer (after the outage)
    long_cut: bool = False  # the harness waited longer than the sand left before restarting
    problems: list[str] = field(default_factory=list)


@dataclass
class Report:
    results: list[KillResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def survived(self) -> int:
        return sum(1 for r in self.results if not r.problems)

    @property
    def ok(self) -> bool:
        return self.survived == len(self.results)

    def lines(self) -> list[str]:
        out = []
        by_scenario: dict[str, list[KillResult]] = {}
        for result in self.results:
            by_scenario.setdefault(result.scenario, []).append(result)
        for name, results in by_scenario.items():
            phases: dict[str, int] = {}
            for r in results:
                phases[r.phase] = phases.get(r.phase, 0) + 1
            ok = sum(1 for r in results if not r.problems)
            spread = ", ".join(f"{p} {n}" for p, n in phases.items())
            out.append(f"{name}: {ok}/{len(results)} kill points survived ({spread})")
            stale = [r.timer_stale for r in results if r.timer_stale is not None]
            if stale:
                out.append(
                    f"  sand timer running at {len(stale)} cuts: each resumed with the sand it had "
                    f"at the cut less the cut's length (saved every second: at most "
                    f"{max(stale):.1f} s behind)"
                )
            long_cuts = [r for r in results if r.long_cut]
            if long_cuts:
                over = sum(1 for r in long_cuts if r.timer_resumed == 0.0 and not r.problems)
                out.append(
                    f"  {len(long_cuts)} cuts outlasted the sand: {over} came back as time up"
                )
        for r in self.results:
            for problem in r.problems:
                out.append(f"FAILED {r.scenario} kill after commit {r.target}: {problem}")
        out.append(
            f"total: {self.survived}/{len(self.results)} kill points survived "
            f"in {self.seconds:.0f} s"
        )
        return out


class Harness:
    def __init__(self, scenario: Scenario, workdir: Path, rng: random.Random) -> None:
        self.scenario = scenario
        self.workdir = workdir
        self.rng = rng
        self.script = workdir / f"{scenario.name}.txt"
        self.script.write_text(scenario.text, encoding="utf-8")
        scenario.write_images(workdir)
        self.template: Path | None = None
        if scenario.prepare is not None:
            self.template = workdir / "prepared-state"
            if not self.template.exists():
                scenario.prepare(self.template)
        self.reference = run_child(
            workdir / f"{scenario.name}-reference.tap",
            1000.0,
            self.script,
            self.fresh_state(workdir / "reference"),
        )
        if not self.reference.commits:
            raise HarnessError(f"the {scenario.name} reference run committed nothing")
        self.final = comparable(self.reference.commits[-1].state)
        # kill points are spread over the phases of the game, not over commits (set-up and the
        # ballots commit on every press, the sand timer only on seat presses)
        self.by_phase: dict[str, list[int]] = {}
        for commit in self.reference.commits:
            label = scenario.phases[commit.step] if commit.step >= 0 else "start-up"
            timer = running_timer(commit.state)
            if timer is not None and float(timer["remaining"]) < LONG_CUT_BELOW:
                label = "sand running out"  # cuts that outlast the sand (waited out)
            self.by_phase.setdefault(label, []).append(commit.number)
        self.count = 0
        self.tamper: Any = None  # tests: a function(state_dir) run between the cut and resuming
        self.kill_wall = 0.0  # wall-clock time of the last SIGKILL
        self.cut_walls: dict[int, float] = {}  # commit -> wall time, in the run that was cut

    def fresh_state(self, state_dir: Path) -> Path:
        """A new state directory for a run: empty, or a copy of the prepared one."""
        if self.template is not None:
            shutil.copytree(self.template, state_dir)
        return state_dir

    def continuation(self, found: Commit) -> tuple[list[str], int]:
        """The script lines a table would play after a cut that left commit ``found`` on disk."""
        lines = self.scenario.lines
        commits = self.reference.commits
        step = found.step
        if step < 0:
            return lines, 0
        last_of_step = found.number == len(commits) or commits[found.number].step != step
        verb, _, argument = lines[step].partition(" ")
        if verb == "advance" and not last_of_step:
            # cut inside a long advance: the rest of it, then the following lines
            done = found.clock - found.step_clock
            rest = max(0.0, float(argument) - done)
            tail = [f"advance {rest:.6f}"] if rest > 1e-6 else []
            return tail + lines[step + 1 :], step
        start = step + 1 if step + 1 < len(lines) else len(lines)
        if start < len(lines):
            start = self.scenario.resume_from[start]
        return lines[start:], start

    def kill_point(self, phase: str | None = None) -> KillResult:
        """One cut, aimed at a random commit of ``phase`` (default: a random phase)."""
        self.count += 1
        commits = self.reference.commits
        phase = phase or self.rng.choice(sorted(self.by_phase))
        target = self.rng.choice(self.by_phase[phase])
        run_dir = self.workdir / f"kill-{self.count}"
        state_dir = run_dir / "state"
        run_dir.mkdir(parents=True)
        self.fresh_state(state_dir)
        tap_path = run_dir / "cut.tap"
        process = subprocess.Popen(
            child_command(tap_path, 1000.0, self.script, state_dir),
            env=child_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        delay = self.rng.choice([0.0, 0.0003, 0.001, 0.003, 0.01, self.rng.uniform(0, 0.05)])
        try:
            self._wait_for_commit(process, tap_path, target)
            time.sleep(delay)
            process.send_signal(signal.SIGKILL)
            self.kill_wall = time.time()
        finally:
            _, err = process.communicate(timeout=120)
        cut = read_tap(tap_path)
        acknowledged = cut.commits[-1].number if cut.commits else 0
        self.cut_walls = {c.number: c.wall for c in cut.commits}
        if process.returncode != -signal.SIGKILL:
            # it finished before the kill: still a valid (late) cut, after the last commit
            if process.returncode != 0:
                raise HarnessError(f"the child failed: {err.decode(errors='replace')[-800:]}")
        result = KillResult(self.scenario.name, target, acknowledged, 0, "", 0)
        on_disk = stored_state(state_dir) if (state_dir / "state.db").exists() else None
        candidates = [c for c in commits if c.number >= max(acknowledged, 1)][:2]
        found: Commit | None = None
        if on_disk is None or (acknowledged == 0 and not on_disk["screens"]):
            if acknowledged > 0:  # commits were acknowledged: the database must be there
                result.problems.append("the state database is gone after the cut")
                return result
        else:  # (killed during start-up otherwise: nothing saved yet, found stays None)
            disk = comparable(on_disk)
            found = next((c for c in candidates if comparable(c.state) == disk), None)
            if found is None:
                result.problems.append(
                    f"the state on disk is none of the committed states "
                    f"{[c.number for c in candidates]} (acknowledged {acknowledged})"
                )
                return result
        result.found = found.number if found else 0
        result.phase = self.scenario.phases[found.step] if found and found.step >= 0 else "start-up"
        if found is not None:
            timer = running_timer(found.state)
            if timer is not None:
                result.timer_left = float(timer["remaining"])
                last_tick = cut.ticks[-1] if cut.ticks else found.clock
                result.timer_stale = max(0.0, min(last_tick - found.clock, result.timer_left))
                if result.timer_stale > MAX_TIMER_STALE:
                    result.problems.append(
                        f"the sand timer had run {result.timer_stale:.1f} s since it was last "
                        "saved: it would come back with that much sand too many"
                    )
        rest, start = self.continuation(found) if found else (self.scenario.lines, 0)
        result.resumed_from_step = start
        if self.tamper is not None:
            self.tamper(state_dir)
        if result.timer_left is not None and result.timer_left < LONG_CUT_BELOW:
            # a cut that outlasts the sand: the unit stays off longer than the time that was left
            result.long_cut = True
            time.sleep(result.timer_left + 0.5)
        self._resume(found, rest, run_dir, state_dir, result)
        return result

    @staticmethod
    def _declared_over(resumed: Tap) -> bool:
        """The resumed run declared time up on its first update (before any other step)."""
        return any(_timed_out(c.state) for c in resumed.commits[:3])

    def _wait_for_commit(self, process: subprocess.Popen[bytes], tap: Path, target: int) -> None:
        """Return as soon as the child's tap shows commit ``target`` (or the child ended)."""
        deadline = time.monotonic() + 120
        offset = 0
        pending = b""
        needle = f'"commit": {target},'.encode()
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return
            try:
                with tap.open("rb") as handle:
                    handle.seek(offset)
                    chunk = handle.read()
            except FileNotFoundError:
                chunk = b""
            offset += len(chunk)
            pending += chunk
            lines = pending.split(b"\n")
            pending = lines.pop()
            if any(line.startswith(b'{"clock"') and needle in line for line in lines):
                return
            time.sleep(0.0005)
        raise HarnessError("the child never reached the commit it was to be killed after")

    def _resume(
        self,
        found: Commit | None,
        rest: list[str],
        run_dir: Path,
        state_dir: Path,
        result: KillResult,
    ) -> None:
        script = self.workdir / f"rest-{self.count}.txt"  # beside the camera images
        script.write_text("\n".join(rest) + "\n", encoding="utf-8")
        if found is None or (self.scenario.name == "comix" and "comix" not in found.state["data"]):
            # before the Co-Mix game exists: its seed will come from the clock
            clock_start = found.clock if found else 1000.0
        else:
            clock_start = self.rng.uniform(1.0, 1e6)  # after a reboot: an unrelated value
        launched = time.time()
        try:
            resumed = run_child(run_dir / "resumed.tap", clock_start, script, state_dir)
        except HarnessError as error:
            result.problems.append(f"the resumed run failed: {error}")
            return
        if not resumed.commits:
            result.problems.append("the resumed run committed nothing")
            return
        first = comparable(resumed.commits[0].state)
        if found is not None:
            before = comparable(found.state)
            timer_before, timer_after = running_timer(before), running_timer(first)
            if timer_before is not None:
                # the sand kept falling for as long as the cut (kill to restart) lasted
                left = float(timer_before["remaining"])
                # when commit j was made in the cut run: known if acknowledged, else after the
                # last acknowledged one (and before the kill)
                earliest = self.cut_walls.get(found.number, max(self.cut_walls.values(), default=0))
                shortest = launched - self.kill_wall
                longest = resumed.commits[0].wall - earliest
                most = max(0.0, left - shortest) + 0.05
                least = max(0.0, left - longest) - 0.05
                got = float(timer_after["remaining"]) if timer_after else -1.0
                result.timer_resumed = got
                if not least <= got <= most:
                    result.problems.append(
                        f"the sand timer came back with {got:.2f} s; it had {left:.2f} s at "
                        f"the last save and the cut lasted {shortest:.2f} to {longest:.2f} s"
                    )
                for timer in (timer_before, timer_after or {}):
                    timer["remaining"] = None
                if got == 0.0 and not self._declared_over(resumed):
                    result.problems.append("a cut longer than the sand left: time was not up")
            if first["data"] != before["data"]:
                result.problems.append("the resumed game differs from the one saved before the cut")
            elif first["screens"] != before["screens"]:
                result.problems.append(
                    "the resumed screens differ from those saved before the cut: "
                    f"{[s['kind'] for s in first['screens']]} vs "
                    f"{[s['kind'] for s in before['screens']]}"
                )
        final = comparable(resumed.commits[-1].state)
        if final["data"] != self.final["data"]:
            result.problems.append(_difference("the game at the end", final, self.final))
        elif [s["kind"] for s in final["screens"]] != [s["kind"] for s in self.final["screens"]]:
            result.problems.append("the game ended on another screen than without the cut")


PHOTO_NUMBER = re.compile(r"-\d+\.jpg\b")
SECONDS = re.compile(r'"seconds": [0-9.e-]+')
SAVED_AT = re.compile(r'"saved_at": [0-9.e+-]+')


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """The state with what legitimately differs between two runs blanked: photo file numbers
    (a photo taken again after a cut is saved as ``NAME-<n+1>.jpg``; the one taken before the
    cut stays on disk, unreferenced), measured recognition times (``"seconds"``) and wall-clock
    times of saves (``"saved_at"``)."""
    text = json.dumps(state, sort_keys=True)
    text = SECONDS.sub('"seconds": 0', PHOTO_NUMBER.sub("-#.jpg", text))
    text = SAVED_AT.sub('"saved_at": 0', text)
    return dict(json.loads(text))


def _timed_out(state: dict[str, Any]) -> bool:
    game = state["data"].get("comix", {}).get("game")
    return bool(game and game["rounds"][-1]["scripting"].get("timed_out"))


def _difference(what: str, got: dict[str, Any], want: dict[str, Any]) -> str:
    got_game = got["data"].get("comix", {}).get("game", {})
    want_game = want["data"].get("comix", {}).get("game", {})
    for key in sorted(set(got_game) | set(want_game)):
        if got_game.get(key) != want_game.get(key):
            return f"{what} differs from the uncut run in {key!r}"
    return f"{what} differs from the uncut run"


def run_powercuts(
    scenarios: list[Scenario],
    points: int,
    seed: int = 0,
    workdir: Path | None = None,
    progress: Any = None,
) -> Report:
    """``points`` kill points spread evenly over ``scenarios``."""
    started = time.monotonic()
    rng = random.Random(seed)
    report = Report()
    with tempfile.TemporaryDirectory(prefix="tk-powercut-") as scratch:
        base = workdir or Path(scratch)
        for index, scenario in enumerate(scenarios):
            share = points // len(scenarios) + (1 if index < points % len(scenarios) else 0)
            folder = base / scenario.name
            folder.mkdir(parents=True, exist_ok=True)
            harness = Harness(scenario, folder, rng)
            for _ in range(share):
                result = harness.kill_point()
                report.results.append(result)
                if progress is not None:
                    progress(result)
    report.seconds = time.monotonic() - started
    return report
