"""The Co-Mix sand timer screen, driven by injected button presses on the app's fake clock:
the sand drawn by area, the round's title, who is still working (on screen and on the LEDs),
the end notices, leaving with a hold of BACK and resuming with a count-in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest

from device import simulated
from display import ui
from display.clock import FakeClock
from display.launch import RunOptions, build_app
from display.screens.comix.common import NAMESPACE, TIMER_KEY, save_game
from display.screens.comix.menu import ComixMenuScreen
from display.screens.comix.timer import ScriptingScreen
from display.widgets.hourglass import sand_depths
from games.comix import Game, TableSetup

TITLE = "The Craziest Day of My Life"
FOUR = ["Ann", "Ben", "Cat", "Dan"]


pytestmark = pytest.mark.usefixtures("isolated_app")


class Table:
    """An appliance on a fake clock showing the sand timer of a fresh game (over the Co-Mix
    menu, as "Continue the game" or the title screen leaves it)."""

    def __init__(self, state: Path, players: list[str] = FOUR, config: Path | None = None):
        self.state, self.config = state, config
        self.start()
        game = Game.new(TableSetup.create(players))
        game.set_title(TITLE)
        save_game(self.app, game)
        self.app.push(ComixMenuScreen(self.app))
        self.app.push(ScriptingScreen(self.app, game))
        self.app.save()

    def start(self, clock_start: float = 1000.0) -> None:
        self.clock = FakeClock(clock_start)
        options = RunOptions(simulated=True, state_dir=self.state, config=self.config)
        self.app = build_app(options, self.clock, True)

    def restart(self) -> None:
        """A power cut and a restart: a new app (and app clock) on the same saved state."""
        self.app.close()
        self.start(clock_start=5.0)

    @property
    def screen(self) -> ScriptingScreen:
        top = self.app.top
        assert isinstance(top, ScriptingScreen)
        return top

    def press(self, name: str) -> None:
        simulated.press(self.app.hardware, name)
        self.app.update()
        simulated.release(self.app.hardware, name)
        self.app.update()

    def hold(self, name: str, seconds: float) -> None:
        simulated.press(self.app.hardware, name)
        self.app.update()
        self.advance(seconds)
        simulated.release(self.app.hardware, name)
        self.app.update()

    def advance(self, seconds: float) -> None:
        """Let the clock run in 0.1 s frames, as the loop would."""
        for _ in range(round(seconds * 10)):
            self.clock.advance(0.1)
            self.app.update()

    def render(self) -> np.ndarray:
        """The frame as an (x, y, rgb) array."""
        return pygame.surfarray.array3d(self.app.render())

    def close(self) -> None:
        self.app.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    table = Table(tmp_path / "state")
    yield table
    table.close()


def sand_fractions(table: Table) -> tuple[float, float]:
    """Pixels of sand colour in the (upper, lower) bulb of the hourglass on screen."""
    frame = table.render()
    glass = table.screen.glass.move(0, ui.HEADER_H)
    region = frame[glass.left : glass.right, glass.top : glass.bottom]
    sand = np.zeros(region.shape[:2], dtype=bool)
    for colour in (ui.ACCENT, ui.BAD):
        sand |= np.all(region == colour, axis=2)
    middle = glass.height // 2
    return float(sand[:, :middle].sum()), float(sand[:, middle:].sum())


def test_sand_depths_give_areas_proportional_to_the_time_left() -> None:
    bulb, half, neck = 150.0, 60.0, 6.0
    slope = (half - neck) / bulb
    full = bulb * (half + neck) / 2
    for fraction in (0.0, 0.1, 0.25, 41 / 90, 0.75, 1.0):
        top, pile = sand_depths(fraction, bulb, half, neck)
        assert neck * top + slope * top * top / 2 == pytest.approx(fraction * full)
        assert half * pile - slope * pile * pile / 2 == pytest.approx((1 - fraction) * full)


def test_the_sand_on_screen_is_proportional_to_the_time_left(table: Table) -> None:
    table.press("seat_3")  # Cat is done first: the sand timer flips
    full_top, _ = sand_fractions(table)
    seen = {}
    for left in (80.0, 60.0, 41.0, 20.0, 11.0):
        table.advance(table.screen.timer.remaining(table.clock.now()) - left)
        top, bottom = sand_fractions(table)
        seen[left] = top / full_top
        assert top / full_top == pytest.approx(left / 90, abs=0.03), left
        # the lower bulb holds what fell (the falling stream adds a thin line)
        assert bottom / full_top == pytest.approx(1 - left / 90, abs=0.05), left
    # at 0:41 of 1:30 nearly half the sand is still up (drawn by height it looked a fifth full)
    assert seen[41.0] > 0.43


def drawn_texts(table: Table, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, tuple]]:
    """(text, size, colour) of every line of text drawn in one frame of the real screen."""
    seen: list[tuple[str, int, tuple]] = []
    real_text = ui.text

    def spy(surface, content, pos, size=ui.MEDIUM, color=ui.TEXT, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen.append((content, size, tuple(color)))
        return real_text(surface, content, pos, size, color, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(ui, "text", spy)
        table.app.render()
    return seen


def test_the_rounds_title_is_on_the_timer_screen(table: Table, monkeypatch) -> None:
    texts = drawn_texts(table, monkeypatch)
    assert ("\u201cThe Craziest Day of My Life\u201d", ui.MEDIUM, ui.TEXT) in texts
    table.press("seat_1")
    table.advance(30)
    assert any(TITLE in t for t, _, _ in drawn_texts(table, monkeypatch))


def test_a_long_typed_title_wraps_in_readable_type(tmp_path: Path, monkeypatch) -> None:
    table = Table(tmp_path / "state")
    try:
        long = "The Night the Whole Village Forgot How to Whistle at Noon!!"  # 59 characters
        table.screen.game.round.title = long
        lines = [(t, size) for t, size, _ in drawn_texts(table, monkeypatch) if size == ui.SMALL]
        words = " ".join(t for t, _ in lines)
        assert "\u201cThe Night" in words and "Noon!!\u201d" in words  # nothing cut
        frame = table.render()
        assert frame.shape[:2] == (800, 480)
    finally:
        table.close()


def colour_share(frame: np.ndarray, rect: pygame.Rect, colour: tuple[int, int, int]) -> float:
    """Share of the pixels of ``rect`` (content coordinates) that are exactly ``colour``."""
    area = rect.move(0, ui.HEADER_H)
    region = frame[area.left : area.right, area.top : area.bottom]
    return float(np.all(region == colour, axis=2).mean())


def test_finished_seats_are_solid_and_those_still_working_large(table: Table) -> None:
    from display.screens.comix.common import story_colour

    table.press("seat_3")
    table.advance(3)
    frame = table.render()
    tiles = table.screen._tiles
    assert tiles[2].height < min(tiles[i].height for i in (0, 1, 3))  # Cat is done: smaller
    assert min(tiles[i].height for i in (0, 1, 3)) >= 70
    assert colour_share(frame, tiles[2], story_colour(2)) > 0.6  # solid in Cat's colour
    for working in (0, 1, 3):  # dark tiles outlined in the story's colour
        assert colour_share(frame, tiles[working], ui.PANEL) > 0.5


def test_one_seat_left_is_spotlit_with_its_time(table: Table, monkeypatch) -> None:
    for seat in ("seat_3", "seat_1", "seat_4"):
        table.press(seat)
        table.advance(3)
    table.advance(74.5)  # 90 - 9 - 74.5 = 6.5 s left
    texts = drawn_texts(table, monkeypatch)
    big = [(t, size) for t, size, _ in texts if size >= ui.BIG]
    assert ("BEN \u2014 ", ui.HUGE) in big and ("0:07", ui.HUGE) in big
    assert any(t == "SEAT 2 is still scripting" for t, _, _ in texts)
    # the finished seats stay on screen, solid, and a tap on one still takes it back in time
    tiles = table.screen._tiles
    assert tiles[1].width > 3 * tiles[0].width


def test_a_team_left_alone_is_spotlit_as_big_as_its_names_allow(tmp_path: Path, monkeypatch):
    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]  # three teams
    for long_names, expected in ((False, ui.BIG), (True, ui.MEDIUM)):
        if long_names:
            players[2:4] = ["Maximilian", "Bartholomew"]
        table = Table(tmp_path / f"state-{long_names}", players)
        try:
            table.press("seat_1")
            table.press("seat_3")
            table.advance(30)
            sizes = {t: size for t, size, _ in drawn_texts(table, monkeypatch)}
            team = " & ".join(players[2:4]).upper()
            if long_names:  # the names on one line, the time below, still huge
                assert sizes[team] >= expected and sizes["1:00"] == ui.HUGE
                spot = table.screen._tiles[1]
                assert ui.text_width(team, sizes[team]) <= spot.width - 32  # in full
            else:
                assert sizes[f"{team} \u2014 "] == sizes["1:00"] == expected
        finally:
            table.close()


def test_seat_leds_light_the_seats_still_working(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[pins]\nseat_leds = [2, 3, 7, 8, 14]\n")
    table = Table(tmp_path / "state", config=config)  # four players: SEAT 5 has no story
    try:
        hardware = table.app.hardware
        table.advance(0.1)
        assert hardware.seat_leds == [True, True, True, True, False]
        table.press("seat_3")
        table.advance(45)
        assert hardware.seat_leds == [True, True, False, True, False]
        assert hardware.bar_value == pytest.approx(0.5, abs=0.02)  # the bar: time left
        table.press("seat_1")
        table.press("seat_4")
        table.advance(1)
        assert hardware.seat_leds == [False, True, False, False, False]  # Ben, alone
        table.advance(50)  # time is up: nobody is scripting any more
        assert hardware.seat_leds == [False] * 5 and hardware.bar_value == 0
    finally:
        table.close()


def test_all_done_is_green_and_its_undo_key_goes_after_two_seconds(table: Table, monkeypatch):
    for seat in ("seat_2", "seat_4", "seat_1"):
        table.press(seat)
        table.advance(3)
    table.press("seat_3")  # the last story: all done, the sand stops
    table.advance(1)
    texts = drawn_texts(table, monkeypatch)
    assert ("ALL DONE!", ui.LARGE, ui.ACCENT_TEXT) in texts  # dark on a green banner
    assert colour_share(table.render(), table.screen.banner, ui.GOOD) > 0.6
    assert not any(t == "TIME IS UP!" for t, _, _ in texts)
    assert ("Cat", ui.LARGE, ui.TEXT) in texts  # the Slow token, in big letters
    assert any(t == "Undo" for t, _, _ in texts)  # the legend offers the quick undo...
    table.advance(1.1)
    texts = drawn_texts(table, monkeypatch)
    assert not any(t == "Undo" for t, _, _ in texts)  # ...for 2 s, then a hold
    assert any(t == "Hold to undo" for t, _, _ in texts)
    table.press("seat_3")  # a press, too late: it stays done
    assert table.screen.scripting.all_done


def test_time_up_is_a_red_alarm_with_no_undo(table: Table, monkeypatch) -> None:
    table.press("seat_1")
    table.advance(89)
    table.press("seat_2")
    table.advance(1.1)  # time is up less than two seconds after Ben's press
    texts = drawn_texts(table, monkeypatch)
    assert ("TIME IS UP!", ui.LARGE, ui.ACCENT_TEXT) in texts
    assert colour_share(table.render(), table.screen.banner, ui.BAD) > 0.6
    assert not any("Undo" in t or "undo" in t for t, _, _ in texts)
    assert table.app.hardware.buzzing  # the long tone


def test_the_undo_window_shows_in_the_legend_while_scripting(table: Table, monkeypatch) -> None:
    table.press("seat_1")
    assert any(t == "Story done / undo" for t, _, _ in drawn_texts(table, monkeypatch))
    table.advance(2.1)
    assert any(t == "Done; hold to undo" for t, _, _ in drawn_texts(table, monkeypatch))


def test_one_back_press_does_not_leave_a_hold_does_and_pauses_the_sand(table, monkeypatch):
    table.press("seat_1")
    table.advance(10)  # 80 s of sand left
    table.press("back")
    assert table.app.top is table.screen and table.screen.timer.running  # still there, running
    texts = [t for t, _, _ in drawn_texts(table, monkeypatch)]
    assert "Keep holding to leave - the sand pauses" in texts
    table.advance(3)
    assert "Hold to leave" in [t for t, _, _ in drawn_texts(table, monkeypatch)]
    table.hold("back", 1.6)  # the sand runs while BACK is held, then pauses
    assert table.app.top.kind == "comix"  # the Co-Mix menu
    away = table.app.store.get(NAMESPACE, TIMER_KEY)
    assert away["paused"] and away["remaining"] == pytest.approx(77 - 1.6 + 0.1, abs=0.15)
    assert table.app.hardware.bar_value == 0 and not table.app.hardware.seat_leds
    table.advance(300)  # five minutes away: nothing falls
    texts = [t for t, _, _ in drawn_texts(table, monkeypatch)]
    assert "sand PAUSED 1:16" in texts  # the menu says so


def continue_from_the_menu(table: Table) -> None:
    assert table.app.top.kind == "comix"
    table.press("ok")  # "Continue the game" (the first row)
    assert table.app.top.kind == "comix.scripting"


def test_continue_counts_in_3_2_1_before_the_sand_runs(table: Table, monkeypatch) -> None:
    table.press("seat_1")
    table.advance(10)
    table.hold("back", 1.5)
    left = table.app.store.get(NAMESPACE, TIMER_KEY)["remaining"]
    table.advance(60)
    hardware = table.app.hardware
    beeps: list[float] = []
    real_beep = hardware.beep

    def beep(hz: float, seconds: float) -> None:
        beeps.append(hz)
        real_beep(hz, seconds)

    monkeypatch.setattr(hardware, "beep", beep)
    continue_from_the_menu(table)
    timer = table.screen.timer
    seen: list[str] = []
    table.advance(0.5)  # look in the middle of each second
    for _ in range(3):
        texts = drawn_texts(table, monkeypatch)
        assert ("GET READY", ui.LARGE, ui.ACCENT_TEXT) in texts
        seen += [t for t, size, _ in texts if size == ui.HUGE and t in "123"]
        assert timer.remaining(table.clock.now()) == left  # no sand falls during the count
        table.advance(1)
    assert seen == ["3", "2", "1"]
    words = [t for t, _, _ in drawn_texts(table, monkeypatch)]
    assert "GET READY" not in words and "PAUSED" not in words
    assert beeps == [1320.0, 1320.0, 1320.0, 1760.0]  # 3, 2, 1 and, higher, the sand runs
    table.advance(10)
    assert timer.remaining(table.clock.now()) == pytest.approx(left - 10.5, abs=0.15)


def test_a_power_cut_at_the_menu_keeps_the_sand_paused(table: Table) -> None:
    table.press("seat_2")
    table.advance(20)
    table.hold("back", 1.5)
    left = table.app.store.get(NAMESPACE, TIMER_KEY)["remaining"]
    table.restart()
    table.advance(100)
    continue_from_the_menu(table)
    assert table.screen.timer.counting_in(table.clock.now())
    table.advance(3.1)
    assert table.screen.timer.remaining(table.clock.now()) == pytest.approx(left - 0.1, abs=0.15)


def test_a_power_cut_during_the_count_in_comes_back_paused(table: Table, monkeypatch) -> None:
    table.press("seat_2")
    table.advance(20)
    table.hold("back", 1.5)
    left = table.app.store.get(NAMESPACE, TIMER_KEY)["remaining"]
    continue_from_the_menu(table)
    table.advance(1.5)  # "2" on screen: the power goes
    table.restart()
    assert table.app.top.kind == "comix.scripting"
    timer = table.screen.timer
    table.advance(30)
    assert timer.paused and timer.remaining(table.clock.now()) == left
    texts = drawn_texts(table, monkeypatch)
    assert ("PAUSED", ui.LARGE, ui.ACCENT_TEXT) in texts and "Continue" in [t for t, _, _ in texts]
    frame = table.render()
    glass = table.screen.glass.move(0, ui.HEADER_H)
    hourglass = frame[glass.left : glass.right, glass.top : glass.bottom]
    assert not np.all(hourglass == ui.ACCENT, axis=2).any()  # the paused sand is grey
    assert np.all(hourglass == ui.DIM, axis=2).any()
    table.press("ok")  # Continue: the count-in, then the sand
    assert timer.counting_in(table.clock.now())
    table.advance(13)
    assert timer.remaining(table.clock.now()) == pytest.approx(left - 10, abs=0.15)


def test_seat_buttons_still_declare_while_paused(table: Table) -> None:
    table.press("seat_1")
    table.advance(20)
    table.hold("back", 1.5)
    continue_from_the_menu(table)
    table.restart()  # in the count-in: back paused
    for seat in ("seat_2", "seat_3", "seat_4"):
        table.press(seat)
    scripting = table.screen.scripting
    assert scripting.all_done and scripting.slow_stories() == ["Dan"]
    table.press("seat_4")  # Dan takes it back within 2 s: the sand stays paused
    assert not scripting.all_done and table.screen.timer.paused


def test_every_word_on_the_timer_is_readable_from_60_cm(tmp_path: Path, monkeypatch) -> None:
    """Nothing a player reads below ui.SMALL (capitals of ~4 mm on the 7-inch panel), in every
    state of the timer; the simulation panel's buzzer label (not on the appliance) aside."""
    table = Table(tmp_path / "state", ["Ann", "Ben", "Cat", "Dan", "Eve"])
    sizes: dict[str, int] = {}

    def look() -> None:
        for text, size, _ in drawn_texts(table, monkeypatch):
            if not text.startswith("BZ"):
                sizes[text] = min(size, sizes.get(text, size))

    try:
        look()  # on its base
        table.press("seat_1")
        look()  # running, undo open
        table.press("back")
        look()  # "keep holding"
        table.hold("back", 1.5)
        look()  # the menu, sand paused
        table.press("ok")
        look()  # count-in
        table.restart()
        look()  # paused after a power cut
        table.press("ok")
        table.advance(3.5)
        for seat in ("seat_2", "seat_3", "seat_4"):
            table.press(seat)
        look()  # one left: the spotlight
        table.press("seat_5")
        look()  # all done
        table.advance(90)
        look()
    finally:
        table.close()
    small = {text: size for text, size in sizes.items() if size < ui.SMALL}
    assert not small
    assert {"PAUSED", "GET READY", "ALL DONE!", "EVE \u2014 "} <= set(sizes)


def cursor_pixels(table: Table, index: int) -> int:
    """Accent-coloured pixels on the frame just outside story ``index``'s tile."""
    frame = table.render()
    tile = table.screen._tiles[index].move(0, ui.HEADER_H).inflate(8, 8)
    ring = frame[tile.left : tile.left + 4, tile.top + 12 : tile.bottom - 12]
    return int(np.all(ring == ui.ACCENT, axis=2).sum())


def test_ok_and_the_knob_act_only_with_more_stories_than_seats_and_show_a_cursor(
    tmp_path: Path, monkeypatch
) -> None:
    table = Table(tmp_path / "state")
    try:  # four stories, five seat buttons: no cursor, OK named nowhere, OK inert
        table.app.render()
        assert cursor_pixels(table, 0) == 0
        assert not any("Mark" in t for t, _, _ in drawn_texts(table, monkeypatch))
        table.press("ok")
        assert table.screen.scripting.done_order == []
    finally:
        table.close()
    config = tmp_path / "config.toml"
    config.write_text("[seats]\ncount = 2\n")
    table = Table(tmp_path / "few", config=config)
    try:
        table.press("right")
        table.app.render()
        assert cursor_pixels(table, 1) > 20 and cursor_pixels(table, 0) == 0
        texts = [t for t, _, _ in drawn_texts(table, monkeypatch)]
        assert "Mark done" in texts  # the legend says what OK does
        table.press("ok")
        assert table.screen.scripting.done_order == ["Ben"]
        table.advance(3)
        table.hold("ok", 2)  # a hold of OK on the chosen story takes it back
        assert table.screen.scripting.done_order == []
    finally:
        table.close()


def test_messages_leave_the_legend_in_place(table: Table, monkeypatch) -> None:
    """A press too late to take 'done' back says to hold the button - over the title, not as
    a toast in the legend's place, as the legend is what says how to undo."""
    table.press("seat_1")
    table.advance(3)
    table.press("seat_1")
    texts = [t for t, _, _ in drawn_texts(table, monkeypatch)]
    assert any("To take it back, hold SEAT 1" in t for t in texts)
    assert "Done; hold to undo" in texts  # the legend, still there
    table.advance(3.1)
    assert not any("take it back" in t for t, _, _ in drawn_texts(table, monkeypatch))
