"""The Co-Mix reveal as a show, driven by injected presses and the fake app clock: behind the
curtain nothing shows; tokens land one at a time, story by story; each kind's keepers light up;
points count up into the totals; OK skips a page's show to its end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_comix_ballot import Table

from display.checks.scenarios import FOUR, FOUR_BALLOTS, ballot_presses, comix_setup
from display.screens.comix.reveal import COUNT_SECONDS, Show, counted


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    table = Table(tmp_path / "state")
    lines = comix_setup(FOUR, rounds=2) + ["press ok"]
    lines += ["press seat1", "press seat2", "press seat3", "press seat4", "press ok"]
    lines += ["press ok"] * 4
    for player in FOUR:
        lines += ballot_presses(FOUR, FOUR_BALLOTS[player])
    table.play(*lines)
    assert table.screen.kind == "comix.reveal" and table.screen.curtain
    try:
        yield table
    finally:
        table.app.close()


def landed(table: Table) -> int:
    screen = table.screen
    show = screen.show()
    return sum(
        show.landed(story, n, screen.elapsed())
        for story in show.stories
        for n in range(len(show.tokens[story]))
    )


def test_tokens_land_one_at_a_time_story_by_story(table: Table) -> None:
    table.play("advance 60")
    assert table.screen.curtain  # nothing moves behind the curtain
    table.play("press ok")
    show: Show = table.screen.show()
    assert sum(len(t) for t in show.tokens.values()) == 16
    counts = []
    for _ in range(20):
        counts.append(landed(table))
        table.play("advance 0.5")
    assert counts[0] == 0 and counts[-1] == 16
    assert all(0 <= b - a <= 2 for a, b in zip(counts, counts[1:], strict=False))  # one by one
    # story by story: every token of a story lands before any of the next one
    times = [show.lands_at[(s, n)] for s in show.stories for n in range(len(show.tokens[s]))]
    assert times == sorted(times)
    assert table.app.hardware.buzzing or table.screen.beeped >= 16


def test_keepers_light_up_kind_by_kind(table: Table) -> None:
    table.play("press ok")
    screen = table.screen
    show = screen.show()
    table.play(f"advance {show.kinds_at[0] + 0.1:.2f}")
    assert show.step(screen.elapsed()) == ("kind", "original")
    assert "Original: Ann, Ben keep 2" == screen.caption(show, screen.elapsed())[0]
    table.play(f"advance {show.kinds_at[1] - show.kinds_at[0]:.2f}")
    assert screen.caption(show, screen.elapsed())[0] == "Exciting: Cat keeps 2"


def test_ok_skips_the_show_then_points_count_up_into_the_totals(table: Table) -> None:
    table.play("press ok", "advance 1", "press ok")
    screen = table.screen
    assert screen.page == 0 and not screen.playing() and landed(table) == 16
    table.play("press ok")  # the points page
    assert screen.page == 1 and screen.playing()
    table.play(f"advance {COUNT_SECONDS / 2}")
    assert 0.45 <= screen.elapsed() / COUNT_SECONDS <= 0.55
    assert counted(6, 0.5) == 3 and counted(6, 1.2) == 6
    table.play(f"advance {COUNT_SECONDS}", "press ok")  # next round
    assert table.app.top.kind == "comix.title"
    assert table.game().totals() == {"Ann": 6, "Ben": 8, "Cat": 6, "Dan": 4}


def test_the_reveal_page_after_a_restart_is_shown_finished(tmp_path: Path) -> None:
    table = Table(tmp_path / "state")
    try:
        lines = comix_setup(FOUR, rounds=1) + ["press ok", "press seat1", "press seat2"]
        lines += ["press seat3", "press seat4", "press ok"] + ["press ok"] * 4
        for player in FOUR:
            lines += ballot_presses(FOUR, FOUR_BALLOTS[player])
        table.play(*lines, "press ok", "advance 2")
        assert table.screen.playing()
    finally:
        table.app.close()
    again = Table(tmp_path / "state")
    try:
        assert again.screen.kind == "comix.reveal" and not again.screen.curtain
        assert not again.screen.playing()
    finally:
        again.app.close()
