"""A night of play, short version (`tablekeeper check soak` runs six simulated hours): random
legal presses, names and photos across every game on the injected clock. No exception (the app
runs strict), no stuck screen, and resident memory after the first simulated hour does not grow
by 10 MB or more."""

from __future__ import annotations

from display.checks.soak import MAX_GROWTH_MB, run_soak


def test_a_short_night_of_play() -> None:
    report = run_soak(hours=1.25, seed=5)
    print("\n".join(report.lines()))
    assert report.problems == []
    assert report.simulated_hours >= 1.25 - 1e-6
    assert report.presses > 200 and report.photos > 5 and report.frames > 2000
    assert report.comix_rounds >= 1  # whole rounds: timer, ballots, reveal, podium
    assert len(report.screens) >= 8  # the walk reached every corner, not just home
    assert report.growth_mb < MAX_GROWTH_MB
