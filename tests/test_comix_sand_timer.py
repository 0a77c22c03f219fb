"""The sand timer model (games/comix/timer.py), pure: given times, it answers what is left -
flipped, stopped and resumed, paused by the table, counted in 3-2-1, saved and restored."""

from __future__ import annotations

import json

import pytest

from games.comix.timer import COUNT_IN_SECONDS, SandTimer


def saved(timer: SandTimer, now: float) -> dict:
    return json.loads(json.dumps(timer.to_json(now)))


def test_a_paused_timer_waits_then_counts_in_before_the_sand_runs() -> None:
    timer = SandTimer(90)
    timer.start(100.0)
    timer.pause(130.0)  # the table leaves the timer with 60 s of sand
    assert timer.paused and not timer.running and timer.started
    assert timer.remaining(500.0) == 60.0  # nothing falls while paused
    assert timer.due_tick(500.0) is None and not timer.expired(500.0)
    timer.count_in(1000.0)
    assert not timer.paused and timer.running
    assert [timer.count(t) for t in (1000.0, 1000.5, 1001.2, 1002.9, 1003.0)] == [3, 3, 2, 1, 0]
    assert timer.counting_in(1002.9) and not timer.counting_in(1003.0)
    assert timer.remaining(1002.9) == 60.0  # the count-in costs no sand
    assert timer.remaining(1013.0) == pytest.approx(50.0)
    assert timer.expired(1063.0) and not timer.expired(1062.9)


def test_no_warning_tick_during_a_count_in_even_with_few_seconds_left() -> None:
    timer = SandTimer(90)
    timer.start(0.0)
    timer.pause(85.0)  # 5 s left
    timer.count_in(200.0)
    assert [timer.due_tick(t) for t in (200.5, 201.5, 202.5)] == [None, None, None]
    assert timer.due_tick(203.1) == 5  # the sand runs: the ticks come back


def test_only_a_running_timer_pauses_and_only_a_paused_one_counts_in() -> None:
    timer = SandTimer(90)
    timer.pause(10.0)  # on its base: nothing to pause
    assert not timer.paused and not timer.started
    timer.count_in(10.0)
    assert not timer.running
    timer.start(20.0)
    timer.stop(50.0)  # every story done: stopped, not paused
    timer.pause(60.0)
    assert not timer.paused and timer.remaining(60.0) == 60.0
    timer.count_in(70.0)
    assert not timer.running  # a stopped timer is not counted in
    timer.resume(80.0)  # the last declaration taken back: the sand runs again at once
    assert timer.remaining(90.0) == pytest.approx(50.0)
    timer.time_up()
    timer.pause(100.0)
    assert timer.finished and not timer.paused


def test_undo_of_a_stop_leaves_a_paused_timer_paused() -> None:
    timer = SandTimer(90)
    timer.start(0.0)
    timer.pause(30.0)
    timer.stop(40.0)  # the last story declared done while paused
    timer.resume(41.0)  # ...and taken back
    assert timer.paused and not timer.running and timer.remaining(100.0) == 60.0
    timer.count_in(100.0)
    timer.stop(101.0)  # all done during the count-in: taken back, it is paused again
    timer.resume(102.0)
    assert timer.paused and timer.remaining(200.0) == 60.0


def test_pausing_during_a_count_in_keeps_the_sand() -> None:
    timer = SandTimer(90)
    timer.start(0.0)
    timer.pause(30.0)
    timer.count_in(40.0)
    timer.pause(41.0)
    assert timer.paused and timer.remaining(41.0) == 60.0


def test_a_power_cut_while_paused_or_counting_in_comes_back_paused() -> None:
    timer = SandTimer(90)
    timer.start(0.0)
    timer.pause(30.0)
    data = saved(timer, 40.0)
    assert data == {
        "duration": 90, "running": False, "remaining": 60.0, "finished": False, "paused": True,
    }  # fmt: skip
    again = SandTimer.from_json(data, 5.0)  # a new app clock
    assert again.paused and not again.running and again.remaining(500.0) == 60.0
    timer.count_in(50.0)
    during = saved(timer, 50.0 + COUNT_IN_SECONDS / 2)  # cut in the middle of the count-in
    assert during["paused"] and not during["running"] and during["remaining"] == 60.0
    back = SandTimer.from_json(during, 0.0)
    assert back.paused and back.remaining(100.0) == 60.0
    back.count_in(100.0)
    assert back.remaining(113.0) == pytest.approx(50.0)


def test_a_running_timer_restores_running_and_old_saves_still_load() -> None:
    timer = SandTimer(90)
    timer.start(0.0)
    data = saved(timer, 30.0)
    assert data["running"] and not data["paused"]
    assert SandTimer.from_json(data, 7.0).remaining(17.0) == pytest.approx(50.0)
    old = {"duration": 90, "running": False, "remaining": 42.0, "finished": False}  # no "paused"
    assert not SandTimer.from_json(old, 0.0).paused
