"""Power cuts (short version of `tablekeeper check powercut`): a Co-Mix round played by a child
`tablekeeper run --sim --script` process is SIGKILLed at random moments - in the set-up, with the
sand timer running, in the middle of the ballots, on the reveal - and started again on the same
state directory. The state on disk must be a committed one (no later than the last commit the
child saw return), the resumed game must equal it, and the game must end exactly as without
the cut: every ballot counted once, the same scores."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from display.checks.powercut import Harness, running_timer
from display.checks.scenarios import comix_game, mixtape_solo_game
from display.cli import main
from display.store import Store


@pytest.fixture(scope="module")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Harness:
    return Harness(comix_game(rounds=1), tmp_path_factory.mktemp("powercut"), random.Random(8))


def test_the_reference_run_plays_a_whole_round(harness: Harness) -> None:
    game = harness.final["data"]["comix"]["game"]
    assert game["rounds"][0]["result"] is not None and len(game["rounds"][0]["ballots"]) == 4
    assert set(harness.by_phase) >= {"set-up", "timer", "storytelling", "ballots", "reveal"}
    # the running sand timer is saved every second: over 90 s it is in ~90 commits
    timed = [c for c in harness.reference.commits if running_timer(c.state)]
    assert len(timed) >= 85


def test_kills_in_every_phase_lose_nothing(harness: Harness) -> None:
    results = []
    for phase in ("timer", "ballots", "sand running out", "ballots", "reveal"):
        results.append(harness.kill_point(phase))
    assert [r.problems for r in results] == [[]] * len(results)
    assert all(r.found >= r.acknowledged >= 1 for r in results)
    cut_timers = [r for r in results if r.timer_left is not None]
    for result in cut_timers:
        assert result.timer_stale is not None and result.timer_stale <= 1.1


def test_the_harness_notices_a_lost_ballot(harness: Harness) -> None:
    def lose_a_ballot(state_dir: Path) -> None:
        db = sqlite3.connect(state_dir / "state.db")
        (text,) = db.execute(
            "SELECT value FROM data WHERE namespace = 'comix' AND key = 'game'"
        ).fetchone()
        game = json.loads(text)
        game["rounds"][-1]["ballots"].pop(next(iter(game["rounds"][-1]["ballots"])), None)
        game["seed"] += 1  # and a changed game, in case no ballot was sealed yet
        db.execute(
            "UPDATE data SET value = ? WHERE namespace = 'comix' AND key = 'game'",
            (json.dumps(game),),
        )
        db.commit()
        db.close()

    harness.tamper = lose_a_ballot
    try:
        result = harness.kill_point("ballots")
    finally:
        harness.tamper = None
    assert any("differs" in problem for problem in result.problems)


def test_check_powercut_command_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "powercut", "--points", "0"]) == 2
    assert main(["check", "powercut", "--games", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_a_solo_mixtape_against_otto_survives_cuts(tmp_path: Path) -> None:
    mixtape = Harness(mixtape_solo_game(), tmp_path, random.Random(3))
    assert mixtape.final["data"]["mixtape"]["solo"]["phase"] == "over"
    results = [mixtape.kill_point(phase) for phase in ("your turn", "Otto's turn")]
    assert [r.problems for r in results] == [[], []]


def _timer_game(tmp_path: Path) -> Path:
    from display.checks.scenarios import FOUR, comix_setup
    from display.launch import RunOptions, run_script

    script = tmp_path / "timer.txt"
    script.write_text("\n".join([*comix_setup(FOUR, 1), "press ok", "press seat1", "advance 80"]))
    state = tmp_path / "state"
    run_script(RunOptions(simulated=True, script=script, state_dir=state))
    return state  # ten seconds of sand left when the power goes


@pytest.mark.parametrize(
    ("cut_seconds", "left", "over"),
    [(4.0, 6.0, False), (30.0, 0.0, True), (-3600.0, 10.0, False)],  # -1 h: no real-time clock
)
def test_the_sand_timer_after_a_cut_of_some_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut_seconds: float, left: float, over: bool
) -> None:
    import time

    from display.launch import RunOptions, run_script
    from display.screens.comix import timer as comix_timer
    from games.comix import Game

    state = _timer_game(tmp_path)
    monkeypatch.setattr(comix_timer, "wall_clock", lambda: time.time() + cut_seconds)
    script = tmp_path / "after.txt"
    script.write_text("advance 0.1\n")
    dump_path = tmp_path / "after.json"
    run_script(RunOptions(simulated=True, script=script, state_dir=state, dump_state=dump_path))
    dump = json.loads(dump_path.read_text())
    scripting = Game.from_json(dump["store"]["comix"]["game"]).round.scripting
    assert scripting.timed_out is over
    timer = dump["screens"][-1]["snapshot"]["timer"]
    assert timer["remaining"] == pytest.approx(max(0.0, left - 0.1), abs=0.15)
    if over:
        assert scripting.slow_stories() == ["Ben", "Cat", "Dan"]  # declared over: Slow tokens


def test_an_acknowledged_press_survives_a_kill_under_write_behind(tmp_path: Path) -> None:
    """The appliance's store writes behind, on a thread, and sounds a press's beep only once the
    press is on the disk: a child pressing OK as fast as its (slowed) commits allow is killed
    right after the beep of press N, while press N + 1's commit is on its way."""
    import os
    import signal
    import subprocess
    import sys

    for round_, wanted in enumerate((3, 7)):
        state = tmp_path / f"state{round_}"
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        child = subprocess.Popen(
            [sys.executable, "-m", "display.checks.acknowledged", str(state), "30"],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            assert child.stdout is not None
            acknowledged = 0
            for line in child.stdout:
                acknowledged = int(line.split()[1])
                if acknowledged == wanted:
                    os.kill(child.pid, signal.SIGKILL)
                    break
        finally:
            if child.poll() is None:
                child.kill()
            child.wait(10)
        assert acknowledged == wanted, "the child stopped before its presses were acknowledged"
        store = Store(state)
        try:
            top = store.load_stack()[-1]
        finally:
            store.close()
        assert top["kind"] == "hardware_test"
        assert top["snapshot"]["counts"]["OK"] >= wanted
