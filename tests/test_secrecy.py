"""The secrecy of the Co-Mix ballot box: a scripted game is played twice, with the same table
and different ballots. Every screenshot another player could see before the reveal (the sand
timer, storytelling, each "pass the box to NAME" screen - i.e. the screen right after a ballot
is sealed - and the empty ballot a reviewer starts from) must be pixel for pixel the same in both
games; the reveal must differ (so the comparison would catch a leak). The log and the console
(the journal under systemd), at DEBUG level, must hold no ballot content - not even a crash
report from a screen that fails in the middle of a ballot."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pygame
import pytest

from display.checks.scenarios import (
    FOUR,
    FOUR_BALLOTS,
    FOUR_BALLOTS_OTHER,
    ballot_presses,
    ballot_steps,
    comix_game,
    comix_setup,
)
from display.launch import RunOptions, build_app, run_script
from display.script import ScriptRunner, parse_script

# A ballot in words: a token kind as the program writes it (Token values are lower case).
BALLOT_WORDS = re.compile(r"\b(original|exciting|composed|neutral)\b")
PRIVATE = ("-ballot-", "-summary-")  # the reviewer's own screens, while they hold the box


def play(tmp_path: Path, name: str, ballots: dict[str, dict[str, list[str]]]) -> Path:
    scenario = comix_game(rounds=1, ballots=ballots, shots=True)
    script = tmp_path / f"{name}.txt"
    script.write_text(scenario.text)
    shots = tmp_path / f"{name}-shots"
    run_script(
        RunOptions(
            simulated=True, script=script, screenshots=shots, state_dir=tmp_path / f"{name}-state"
        )
    )
    return shots


def pixels(path: Path) -> bytes:
    return pygame.image.tobytes(pygame.image.load(str(path)), "RGB")


def test_nothing_of_a_ballot_is_on_screen_or_in_the_log_before_the_reveal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    first = play(tmp_path, "first", FOUR_BALLOTS)
    second = play(tmp_path, "second", FOUR_BALLOTS_OTHER)
    shots = sorted(p.name for p in first.glob("*.png"))
    assert shots == sorted(p.name for p in second.glob("*.png")) and len(shots) >= 14
    public = [
        name for name in shots if "reveal" not in name and not any(m in name for m in PRIVATE)
    ]
    assert len(public) >= 5  # the timer's end and the four "pass the box" screens
    leaks = [name for name in public if pixels(first / name) != pixels(second / name)]
    assert leaks == []
    assert pixels(first / "r1-reveal.png") != pixels(second / "r1-reveal.png")
    out, err = capfd.readouterr()
    logged = out + err + "\n".join(record.getMessage() for record in caplog.records)
    assert BALLOT_WORDS.findall(logged) == []


def test_a_crash_mid_ballot_reports_no_ballot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from display.screens.comix import ballot as comix_ballot

    lines = comix_setup(FOUR, rounds=1) + ["press ok", "press seat1", "press seat2"]
    lines += ["press seat3", "press seat4", "press ok"] + ["press ok"] * 4
    lines += ballot_presses(FOUR, FOUR_BALLOTS["Ann"])  # Ann's ballot is sealed
    first, second = ballot_steps(FOUR, FOUR_BALLOTS["Ben"])[:2]
    lines += ["hold ok 2", *first, *second]  # Ben places two tokens
    original_place = comix_ballot.BallotScreen.place

    def place_then_fail(self: comix_ballot.BallotScreen, token: object) -> None:
        original_place(self, token)  # type: ignore[arg-type]
        if self.reviewer == "Ben" and len(self.picks) == 2:
            raise RuntimeError("the screen failed")

    monkeypatch.setattr(comix_ballot.BallotScreen, "place", place_then_fail)
    from display.clock import FakeClock

    clock = FakeClock()
    app = build_app(RunOptions(simulated=True, state_dir=tmp_path / "state"), clock, strict=False)
    try:
        ScriptRunner(app, clock, None, None).run(parse_script("\n".join(lines)))
        assert app.top.kind == "message"  # "Something went wrong", shown on the screen
        message = app.top.snapshot()
        stack = [screen.snapshot() for screen in app.screens]
    finally:
        app.close()
    _, err = capfd.readouterr()
    assert "RuntimeError: the screen failed" in err  # the crash report is there...
    assert BALLOT_WORDS.findall(err + str(message)) == []  # ...without Ann's or Ben's tokens
    assert BALLOT_WORDS.findall(str(stack)) == []


def test_the_state_file_with_the_ballots_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    import stat

    state = tmp_path / "state"
    script = tmp_path / "s.txt"
    lines = comix_setup(FOUR, rounds=1) + ["press ok", "press seat1"]
    script.write_text("\n".join(lines) + "\n")
    run_script(RunOptions(simulated=True, script=script, state_dir=state))
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    files = [p for p in state.iterdir() if p.name.startswith("state.db")]
    assert files and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)
    unit = (Path(__file__).resolve().parents[1] / "systemd" / "tablekeeper.service").read_text()
    assert "UMask=0077" in unit and "User=tablekeeper" in unit


def test_the_secrecy_check_finds_every_public_screen_identical() -> None:
    from display.checks.secrecy import run_secrecy_check

    report = run_secrecy_check()
    assert report.ok, report.lines()
    compared = report.compared
    assert len([n for n in compared if n.startswith("public-pass-")]) == 4
    assert len([n for n in compared if n.startswith("public-blanked-")]) == 8  # 4 part, 4 full
    for kind in ("step", "reopened", "ready"):  # every step as it opens; reopened after a blank
        assert len([n for n in compared if n.startswith(f"public-{kind}-")]) == (
            16 if kind == "step" else 4
        )
    assert "public-all-ballots-in" in compared


def test_the_secrecy_check_sees_a_pass_screen_that_leaks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass screen that shows how many Neutral tokens were sealed so far must be caught."""
    from display import ui
    from display.checks.secrecy import run_secrecy_check
    from display.screens.comix import ballot as comix_ballot

    original = comix_ballot.BallotScreen.draw_pass

    def leaky(self: comix_ballot.BallotScreen, surface: pygame.Surface) -> None:
        original(self, surface)
        neutral = sum(
            tokens.count("neutral")
            for ballot in self.game.round.ballots.values()
            for tokens in ballot.values()
        )
        ui.text(surface, "." * neutral, (10, 10), ui.SMALL)

    monkeypatch.setattr(comix_ballot.BallotScreen, "draw_pass", leaky)
    report = run_secrecy_check()
    assert not report.ok
    assert "public-pass-1" in report.leaks or "public-pass-2" in report.leaks
    assert any(line.startswith("LEAK: public-") for line in report.lines())


def test_tablekeeper_check_secrecy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from display.cli import main

    assert main(["check", "secrecy", "--keep", str(tmp_path / "shots")]) == 0
    out = capsys.readouterr().out
    assert "pass screens: 4 of 4 pixel-identical" in out and "secrecy: ok" in out
    assert (tmp_path / "shots" / "first" / "shots" / "public-all-ballots-in.png").is_file()
