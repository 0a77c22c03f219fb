"""Co-Mix on the simulated appliance, driven end to end by scripts (the same runner as
`tablekeeper run --sim --script FILE --dump-state FILE`), asserting the game state in the dump.

The scripts are generated from plain descriptions (names, done order, ballots) so each test reads
as a game: the helpers (``display.checks.scenarios``) turn a wanted ballot into the button
presses a player would make.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_comix_rules import FOUR_BALLOTS, SEVEN_BALLOTS

from display.checks.scenarios import ballot_presses, comix_setup, reveal_presses
from display.launch import RunOptions, run_script
from games.comix import Game


def round_presses(
    stories: list[str],
    players: list[str],
    done_seats: list[int],
    ballots: dict[str, dict[str, list[str]]],
    *,
    time_up: bool,
    shots: str = "",
    while_telling: tuple[str, ...] = (),
) -> list[str]:
    lines = ["press ok"]  # accept the drawn title
    for seat in done_seats:
        lines += [f"press seat{seat}", "advance 5"]
    if time_up:
        lines += ["advance 95"]
    if shots:
        lines += [f"shot {shots}-slow"]
    lines += ["press ok", *while_telling]  # storytelling
    lines += ["press ok"] * len(stories)  # every story told
    for player in players:
        lines += ballot_presses(stories, ballots[player])
    reveal = reveal_presses()
    lines += reveal[:2]  # "All N ballots are in": OK to reveal; the show
    if shots:
        lines += [f"shot {shots}-reveal"]
    lines += reveal[2:]  # the points page; then the next round
    return lines


def run(tmp_path: Path, lines: list[str], name: str = "game", state: str = "state") -> dict:
    script = tmp_path / f"{name}.txt"
    script.write_text("\n".join(lines) + "\n")
    dump = tmp_path / f"{name}.json"
    run_script(
        RunOptions(
            simulated=True,
            script=script,
            screenshots=tmp_path / "shots",
            state_dir=tmp_path / state,
            dump_state=dump,
        )
    )
    return json.loads(dump.read_text())


def game_of(dump: dict) -> Game:
    return Game.from_json(dump["store"]["comix"]["game"])


def top_kind(dump: dict) -> str:
    return dump["screens"][-1]["kind"]


FOUR = ["Ann", "Ben", "Cat", "Dan"]


def test_complete_three_round_game_for_four_players(tmp_path: Path) -> None:
    lines = comix_setup(FOUR)
    # round 1: Cat flips the timer, Ann and Ben finish, Dan is still scripting when time runs out
    lines += round_presses(FOUR, FOUR, [3, 1, 2], FOUR_BALLOTS, time_up=True, shots="r1")
    # rounds 2 and 3: everybody finishes; Dan is last, then Ben is last
    lines += round_presses(FOUR, FOUR, [1, 2, 3, 4], FOUR_BALLOTS, time_up=False)
    lines += round_presses(FOUR, FOUR, [4, 3, 1, 2], FOUR_BALLOTS, time_up=False)
    lines += ["shot podium"]
    dump = run(tmp_path, lines)
    game = game_of(dump)
    assert game.phase == "over" and top_kind(dump) == "comix.podium"
    assert [r.scripting.done_order for r in game.rounds] == [
        ["Cat", "Ann", "Ben"], ["Ann", "Ben", "Cat", "Dan"], ["Dan", "Cat", "Ann", "Ben"],
    ]  # fmt: skip
    assert game.rounds[0].scripting.timed_out
    assert game.slow_totals() == {"Ann": 0, "Ben": 1, "Cat": 0, "Dan": 2}
    assert game.totals() == {"Ann": 18, "Ben": 24, "Cat": 18, "Dan": 12}  # 3 x (6, 8, 6, 4)
    assert [r.ballots[p] for r in game.rounds for p in FOUR][:4] == [
        {s: list(t) for s, t in FOUR_BALLOTS[p].items()} for p in FOUR
    ]
    titles = [r.title for r in game.rounds]
    assert len(set(titles)) == 3
    assert (tmp_path / "shots" / "podium.png").is_file()


SEVEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
SEVEN_STORIES = ["Ann & Ben", "Cat & Dan", "Eve & Fay", "Gus"]
# the hand-worked 7-player ballots, on the default teams (same boards in the same order)
SEVEN_ON_DEFAULT = {
    p: dict(zip(SEVEN_STORIES, SEVEN_BALLOTS[p].values(), strict=True)) for p in SEVEN
}


def test_team_game_for_seven_players(tmp_path: Path) -> None:
    lines = comix_setup(SEVEN, rounds=2, panels=9)
    # round 1: the Gus story is done first, then the teams; Cat & Dan finish last
    # while telling, the Ann & Ben team swaps its split: Ben tells panels 1-4, Ann 5-9
    swap = ("press seat1",)
    lines += round_presses(SEVEN_STORIES, SEVEN, [4, 1, 3, 2], SEVEN_ON_DEFAULT, time_up=False,
                           shots="seven", while_telling=swap)  # fmt: skip
    # round 2: only Ann & Ben finish in time: every other story's creators take a Slow token
    lines += round_presses(SEVEN_STORIES, SEVEN, [1], SEVEN_ON_DEFAULT, time_up=True)
    dump = run(tmp_path, lines)
    game = game_of(dump)
    assert game.setup.panels == 9 and game.setup.rounds == 2
    assert [s.members for s in game.setup.stories] == [
        ("Ann", "Ben"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus",),
    ]  # fmt: skip
    assert game.phase == "over"
    first = game.rounds[0]
    assert (first.first_tellers, first.first_parts) == ({"Ann & Ben": "Ben"}, {"Ann & Ben": 4})
    once = {"Ann": 9, "Ben": 5, "Cat": 5, "Dan": 11, "Eve": 4, "Fay": 8, "Gus": 7}
    assert game.totals() == {p: 2 * n for p, n in once.items()}
    assert game.slow_totals() == {
        "Ann": 0, "Ben": 0, "Cat": 2, "Dan": 2, "Eve": 1, "Fay": 1, "Gus": 1,
    }  # fmt: skip
    standings = game.standings()
    assert [(s.place, s.player) for s in standings][:3] == [(1, "Dan"), (2, "Ann"), (3, "Fay")]
    # Ben and Cat both have 10 points; Ben has no Slow token, so Ben ranks above Cat
    order = [s.player for s in standings]
    assert order.index("Ben") < order.index("Cat")


def test_sand_timer_undo_led_bar_and_buzzer(tmp_path: Path) -> None:
    lines = comix_setup(FOUR) + ["press ok"]  # title accepted: scripting
    lines += ["press seat2", "advance 1", "press seat2"]  # Ben takes it back within 2 s
    lines += ["shot undo"]
    base = run(tmp_path, lines, "undo")
    game = game_of(base)
    assert game.round.scripting.done_order == []
    assert base["screens"][-1]["snapshot"]["timer"]["running"] is False  # back on its base
    lines += ["press seat2", "advance 3", "press seat2"]  # too late to take back
    lines += ["advance 42"]  # 45 s of 90 gone
    half = run(tmp_path, lines, "half", state="state2")
    assert game_of(half).round.scripting.done_order == ["Ben"]
    assert half["hardware"]["led_bar"] == pytest.approx(0.5, abs=0.02)
    assert not half["hardware"]["buzzing"]
    lines += ["advance 39.1"]  # 5.9 s left: the buzzer ticks (a quarter second) every second
    tick = run(tmp_path, lines, "tick", state="state3")
    assert tick["hardware"]["buzzing"] and tick["hardware"]["led_bar"] < 0.07
    lines += ["advance 6"]  # time is up
    up = run(tmp_path, lines, "up", state="state4")
    scripting = game_of(up).round.scripting
    assert scripting.timed_out and scripting.slow_stories() == ["Ann", "Cat", "Dan"]
    assert up["hardware"]["buzzing"] and up["hardware"]["led_bar"] == 0.0


def test_nothing_of_a_ballot_is_saved_or_shown_before_it_is_sealed(tmp_path: Path) -> None:
    lines = comix_setup(FOUR) + round_presses(FOUR, FOUR, [1, 2, 3, 4], FOUR_BALLOTS,
                                                time_up=False)[:-len(reveal_presses())]  # fmt: skip
    # stop in the middle of Dan's ballot: two tokens placed, not sealed
    cut = len(lines) - len(ballot_presses(FOUR, FOUR_BALLOTS["Dan"])) + 3
    dump = run(tmp_path, lines[:cut] + ["shot mid-ballot"], "mid")
    game = game_of(dump)
    assert game.reviewed == ["Ann", "Ben", "Cat"] and game.round.result is None
    assert dump["screens"][-1] == {"kind": "comix.ballot", "snapshot": {}}
    assert "Dan" not in game.round.ballots
    # power cut now: the box comes back on "pass the box to Dan", with nothing of his ballot
    again = run(tmp_path, ["shot after-power-cut"], "again")  # same state dir
    assert again["screens"][-1] == {"kind": "comix.ballot", "snapshot": {}}
    assert game_of(again).next_reviewer == "Dan"


def test_a_game_survives_a_restart_mid_round(tmp_path: Path) -> None:
    first = comix_setup(FOUR) + ["press ok", "press seat1", "advance 30"]
    dump = run(tmp_path, first, "first")
    assert top_kind(dump) == "comix.scripting"
    # the appliance restarts: the timer resumes with the sand that was left at the last event
    second = ["advance 1", "press seat2", "press seat3", "press seat4", "shot resumed"]
    dump = run(tmp_path, second, "second")
    scripting = game_of(dump).round.scripting
    assert scripting.done_order == ["Ann", "Ben", "Cat", "Dan"] and not scripting.timed_out
    assert scripting.slow_stories() == ["Dan"]


def test_setup_refuses_duplicate_names_with_the_rule(tmp_path: Path) -> None:
    names = ["type Ann", "press ok", "type Ann", "press ok", "type Cat", "press ok"]
    names += ["type Dan", "press ok"]
    lines = ["press ok", "press ok", "press right", "press ok", *names, "press ok"]
    lines += ["press right"] * 6 + ["press ok", "shot dup"]
    dump = run(tmp_path, lines, "dup")
    assert top_kind(dump) == "comix.setup" and "game" not in dump["store"].get("comix", {})


def test_more_stories_than_seat_buttons_use_left_right_and_ok(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[seats]\ncount = 2\n")
    lines = comix_setup(FOUR) + ["press ok", "press seat2", "press right", "press right"]
    lines += ["press ok", "press right", "press ok", "press seat1", "shot few-buttons"]
    script = tmp_path / "few.txt"
    script.write_text("\n".join(lines) + "\n")
    dump = tmp_path / "few.json"
    run_script(
        RunOptions(
            simulated=True,
            script=script,
            state_dir=tmp_path / "state",
            dump_state=dump,
            config=config,
            screenshots=tmp_path / "shots",
        )
    )
    scripting = game_of(json.loads(dump.read_text())).round.scripting
    assert scripting.done_order == ["Ben", "Cat", "Dan", "Ann"]


@pytest.mark.parametrize(
    ("cut", "kind"),
    [
        (0, "comix.title"),  # right after set-up
        (2, "comix.scripting"),  # the title chosen, one story done
        (10, "comix.storytelling"),  # four stories done, storytelling started
        (14, "comix.ballot"),  # every story told
        (-1, "comix.reveal"),  # on the reveal's last page
    ],
)
def test_every_phase_screen_comes_back_after_a_restart(tmp_path: Path, cut: int, kind: str) -> None:
    game = round_presses(FOUR, FOUR, [1, 2, 3, 4], FOUR_BALLOTS, time_up=False)
    before = run(tmp_path, comix_setup(FOUR) + game[:cut])
    assert top_kind(before) == kind
    after = run(tmp_path, ["shot restored"], "after")  # same state dir: a restart
    assert top_kind(after) == kind
    assert after["store"]["comix"]["game"] == before["store"]["comix"]["game"]
    after_snap, before_snap = (dict(d["screens"][-1]["snapshot"]) for d in (after, before))
    for snap in (after_snap, before_snap):
        snap.pop("saved_at", None)  # wall-clock time of the save (measures a power cut)
    if "timer" in before_snap:  # a running sand timer kept falling during the real restart
        left = [dict(snap.pop("timer")) for snap in (after_snap, before_snap)]
        assert left[0].pop("remaining") == pytest.approx(left[1].pop("remaining"), abs=2)
        assert left[0] == left[1]
    assert after_snap == before_snap


def test_names_on_the_on_screen_keyboard(tmp_path: Path) -> None:
    # the cursor starts on the likeliest first letter (J), one step left of A; then N, N
    keyboard = ["press right", "press ok", "press ok", "press ok"]
    keyboard += ["hold ok 2"]  # Done (the letter the hold's press typed is taken back)
    lines = ["press ok", "press ok", "press right", "press ok", "press ok", *keyboard]
    lines += ["type Bob", "press ok", "type Cy", "press ok", "type Di", "press ok", "press ok"]
    lines += ["press right"] * 6 + ["press ok"]
    dump = run(tmp_path, lines, "keyboard")
    assert game_of(dump).setup.players == ("Ann", "Bob", "Cy", "Di")


def test_leaving_the_timer_screen_pauses_the_sand(tmp_path: Path) -> None:
    lines = comix_setup(FOUR) + ["press ok", "press seat1", "advance 10", "press back"]
    lines += ["advance 3", "hold back 1.5"]  # a press stays on the timer; a hold leaves: 75.5 s
    lines += ["advance 300", "press ok"]  # five minutes at the menu, then "Continue the game"
    away = run(tmp_path, [*lines, "advance 68.5"], "away")  # 3 s of count-in, 65.5 s of sand
    assert top_kind(away) == "comix.scripting"
    assert away["screens"][-1]["snapshot"]["timer"]["remaining"] == pytest.approx(10, abs=0.15)
    assert not game_of(away).round.scripting.timed_out
    up = run(tmp_path, [*lines, "advance 78.6"], "up", state="state2")
    assert game_of(up).round.scripting.timed_out


def test_demo_tour_through_the_tablekeeper_command(tmp_path: Path) -> None:
    """The README's demo script, through `tablekeeper run --sim --script` in a real process."""
    import subprocess
    import sys

    demo = Path(__file__).resolve().parent.parent / "display" / "demos" / "20-comix.txt"
    dump = tmp_path / "dump.json"
    command = [sys.executable, "-m", "display", "run", "--sim", "--script", str(demo),
               "--state-dir", str(tmp_path / "state"), "--screenshots", str(tmp_path / "shots"),
               "--dump-state", str(dump)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    state = json.loads(dump.read_text())
    game = Game.from_json(state["store"]["comix"]["last_game"])  # kept by the closing rematch
    assert game.winners() == ["Ben", "Cat"]  # a shared victory, as the script's header says
    assert game.totals() == {"Ann": 6, "Ben": 8, "Cat": 8, "Dan": 6}
    assert [s.player for s in game.standings()][2:] == ["Ann", "Dan"]  # Dan's Slow token
    rematch = game_of(state)
    assert rematch.setup == game.setup and rematch.phase == "title" and len(rematch.rounds) == 1
    assert top_kind(state) == "comix"
    assert len(list((tmp_path / "shots").glob("*.png"))) == 32


def test_three_players_place_two_tokens_on_each_other_story(tmp_path: Path) -> None:
    from test_comix_rules import THREE, THREE_BALLOTS

    lines = ["press ok", "press ok", "press ok", "press left", "press ok"]  # 3 players
    lines += ["press right", "press ok", "type Ann", "press ok", "type Ben", "press ok"]
    lines += ["type Cat", "press ok", "press ok"]
    lines += ["press right", "press right", "press ok", "press left", "press left", "press ok"]
    lines += ["press right"] * 4 + ["press ok"]  # one round, start
    lines += round_presses(THREE, THREE, [1, 2, 3], THREE_BALLOTS, time_up=False)
    game = game_of(run(tmp_path, lines, "three"))
    assert game.phase == "over"
    assert game.rounds[0].ballots["Ann"] == {"Ann": ["neutral"], "Ben": ["original", "exciting"],
                                              "Cat": ["composed", "neutral"]}  # fmt: skip
    assert game.totals() == {"Ann": 7, "Ben": 7, "Cat": 7}
    assert game.winners() == ["Ann", "Ben"]  # Cat finished last: a Slow token breaks the tie


def test_story_token_and_selection_colours_never_collide() -> None:
    """A story's colour is never mistaken for the selection bar or a review token."""
    from math import dist

    from display import ui
    from display.screens.comix.common import STORY_COLOURS, TOKEN_COLOURS

    others = [ui.ACCENT, *TOKEN_COLOURS.values()]
    for colour in STORY_COLOURS:
        assert min(dist(colour, other) for other in others) >= 85, colour
    for i, colour in enumerate(STORY_COLOURS):
        for other in STORY_COLOURS[i + 1 :]:
            assert dist(colour, other) >= 85, (colour, other)


def test_rematch_from_the_podium_and_from_the_menu_keeps_the_finished_game(tmp_path: Path) -> None:
    lines = comix_setup(FOUR, rounds=1, panels=9)
    lines += round_presses(FOUR, FOUR, [1, 2, 3, 4], FOUR_BALLOTS, time_up=False)
    lines += ["press back"]  # BACK on the podium: home, the game is over and kept
    dump = run(tmp_path, lines, "first")
    finished = game_of(dump)
    assert finished.phase == "over" and top_kind(dump) == "home"
    # the menu offers a rematch: same players, names, rounds and board; a new seed
    menu = ["press ok", "press right", "press ok", "shot menu-rematch"]
    dump = run(tmp_path, menu, "again")
    rematch = game_of(dump)
    assert rematch.setup == finished.setup and rematch.phase == "title"
    assert rematch.setup.panels == 9 and rematch.setup.rounds == 1
    assert all(r.result is None for r in rematch.rounds)
    kept = Game.from_json(dump["store"]["comix"]["last_game"])
    assert kept.totals() == finished.totals() and kept.phase == "over"
    # played through, the rematch's podium: OK is another rematch
    lines = round_presses(FOUR, FOUR, [4, 3, 2, 1], FOUR_BALLOTS, time_up=False)
    dump = run(tmp_path, [*lines, "press ok"], "third")
    third = game_of(dump)
    assert third.phase == "title" and top_kind(dump) == "comix.title"
    assert Game.from_json(dump["store"]["comix"]["last_game"]).rounds[0].result is not None


THREE = ["Ann", "Ben", "Cat"]


def test_a_stray_ok_or_knob_turn_on_the_timer_decides_nothing(tmp_path: Path) -> None:
    """Three stories, five seat buttons: OK and the knob have nothing to choose on the sand
    timer, so a second OK on the title screen (or a knob turn) neither flips the sand nor marks
    the first seat done."""
    lines = comix_setup(THREE) + ["press ok", "press ok", "press right", "press ok"]
    dump = run(tmp_path, lines + ["advance 3"])
    assert top_kind(dump) == "comix.scripting"
    scripting = game_of(dump).round.scripting
    assert scripting.done_order == [] and not scripting.timed_out
    assert not dump["screens"][-1]["snapshot"]["timer"]["running"]  # the sand is still on its base


def test_done_is_taken_back_after_two_seconds_only_by_a_hold(tmp_path: Path) -> None:
    lines = comix_setup(THREE) + ["press ok", "press seat1", "advance 5", "press seat1"]
    assert game_of(run(tmp_path, lines, "press")).round.scripting.done_order == ["Ann"]
    dump = run(tmp_path, ["hold seat1 2", "advance 1"], "hold")  # the same table: a hold undoes
    assert game_of(dump).round.scripting.done_order == []  # saved like any press
    # a hold of the press that declares it is a declaration, not an undo
    dump = run(tmp_path, ["hold seat2 2", "advance 1"], "fresh")
    assert game_of(dump).round.scripting.done_order == ["Ben"]
