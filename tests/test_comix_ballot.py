"""The Co-Mix ballot box as a player meets it, driven by injected button presses on the real
screens (SDL dummy driver, fake clock): a hold of OK opens a ballot, an open ballot blanks itself
after 20 s without a press, the summary changes one token at a time and BACK goes back one step,
a forced Neutral says why, and the last seal shows "All N ballots are in" before any result."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from display.checks.scenarios import FOUR, FOUR_BALLOTS, ballot_presses, comix_setup
from display.clock import FakeClock
from display.launch import RunOptions, build_app
from display.script import ScriptRunner, parse_script
from games.comix import Game, Token


class Table:
    """A simulated appliance at the first ballot of a four-player round."""

    def __init__(self, state: Path) -> None:
        self.clock = FakeClock()
        self.app = build_app(RunOptions(simulated=True, state_dir=state), self.clock, strict=True)
        self.runner = ScriptRunner(self.app, self.clock, None, None)
        self.runner.update()

    def play(self, *lines: str) -> None:
        self.runner.run(parse_script("\n".join(lines)))

    @property
    def screen(self) -> Any:
        return self.app.top

    def game(self) -> Game:
        return Game.from_json(self.app.store.get("comix", "game"))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    table = Table(tmp_path / "state")
    lines = comix_setup(FOUR, rounds=1) + ["press ok"]  # title
    lines += ["press seat1", "press seat2", "press seat3", "press seat4", "press ok"]
    lines += ["press ok"] * 4  # every story told
    table.play(*lines)
    assert table.screen.kind == "comix.ballot" and table.screen.stage == "pass"
    try:
        yield table
    finally:
        table.app.close()


def test_a_press_of_ok_does_not_open_a_ballot_a_hold_does(table: Table) -> None:
    table.play("press ok")
    assert table.screen.stage == "pass"
    table.play("hold ok 1.0")  # shorter than the hold time (1.5 s)
    assert table.screen.stage == "pass"
    table.play("hold ok 2")
    assert table.screen.stage == "assign" and table.screen.reviewer == "Ann"


def test_an_ok_held_on_from_the_seal_does_not_open_the_next_ballot(table: Table) -> None:
    presses = ballot_presses(FOUR, FOUR_BALLOTS["Ann"])
    table.play(*presses[:-1], "hold ok 3")  # seals Ann's ballot, the button stays down
    assert table.game().reviewed == ["Ann"]
    assert table.screen.stage == "pass" and table.screen.reviewer == "Ben"


def test_an_open_ballot_blanks_after_20_s_and_comes_back_where_it_was(table: Table) -> None:
    table.play("hold ok 2", "press right", "press right", "press ok", "advance 19")
    assert table.screen.stage == "assign"
    table.play("advance 1.5")
    assert table.screen.stage == "pass"
    table.play("hold ok 2")
    assert table.screen.stage == "assign" and table.screen.picks == [Token.EXCITING]


def test_the_summary_changes_one_token_and_back_is_one_step(table: Table) -> None:
    # Ann: Neutral, Original, Exciting, Composed
    # every step opens on the "?" disc: LEFT brings up the last token in hand, RIGHT the first
    table.play("hold ok 2", "press left", "press ok")
    table.play(*["press right", "press ok"] * 3)
    screen = table.screen
    assert screen.stage == "summary" and screen.review == 4  # on "Seal ballot"
    assert screen.picks == [Token.NEUTRAL, Token.ORIGINAL, Token.EXCITING, Token.COMPOSED]
    # Ben's Original becomes the Neutral still in hand; nothing else moves
    table.play("press left", "press left", "press left", "press ok")
    assert screen.stage == "change"
    table.play("press right", "press right", "press right", "press ok")
    assert screen.stage == "summary"
    assert screen.picks == [Token.NEUTRAL, Token.NEUTRAL, Token.EXCITING, Token.COMPOSED]
    # Cat's Exciting swapped with Dan's Composed: a swap changes just those two tokens
    table.play("press right", "press ok", "press right", "press right", "press ok")
    assert screen.picks == [Token.NEUTRAL, Token.NEUTRAL, Token.COMPOSED, Token.EXCITING]
    # BACK: one step back (Dan's token returns to the hand), not a wiped ballot
    table.play("press back")
    assert screen.stage == "assign"
    assert screen.picks == [Token.NEUTRAL, Token.NEUTRAL, Token.COMPOSED]
    table.play("press right", "press ok", "press ok")  # the Original on Dan this time; seal
    assert table.game().round.ballots["Ann"] == {
        "Ann": [Token.NEUTRAL], "Ben": [Token.NEUTRAL], "Cat": [Token.COMPOSED],
        "Dan": [Token.ORIGINAL],
    }  # fmt: skip


def test_every_change_offered_keeps_the_ballot_legal(table: Table) -> None:
    from collections import Counter

    from games.comix import TOKEN_SET, validate_ballot

    # Original, Exciting, Composed, then the forced Neutral
    table.play("hold ok 2", *["press right", "press ok"] * 3)
    screen = table.screen
    assert screen.neutral_forced() and screen.offered() == [Token.NEUTRAL]
    table.play("press right", "press ok")
    assert screen.stage == "summary"
    # the only Neutral can move to another story (a swap), never go back to the hand
    neutral_options = screen.change_options(3)
    assert [swap is not None for _, swap in neutral_options[1:]] == [True, True, True]
    original = list(screen.picks)
    setup = table.game().setup
    for slot in range(4):
        screen.picks = list(original)
        for token, swap in screen.change_options(slot):
            screen.picks = list(original)
            screen.apply_change(slot, token, swap)
            changed = [i for i in range(4) if screen.picks[i] != original[i]]
            assert len(changed) <= 2 and (swap is not None or len(changed) <= 1)
            assert not Counter(screen.picks) - Counter(TOKEN_SET)
            validate_ballot(setup, "Ann", screen.ballot())  # raises if illegal
    screen.picks = original


def test_the_last_seal_shows_only_that_the_ballots_are_in(table: Table) -> None:
    for player in FOUR:
        table.play(*ballot_presses(FOUR, FOUR_BALLOTS[player]))
    screen = table.screen
    assert screen.kind == "comix.reveal" and screen.curtain
    assert table.game().phase == "reveal"
    table.play("press ok")
    assert not screen.curtain


def ballot_table(path: Path) -> Table:
    table = Table(path)
    lines = comix_setup(FOUR, rounds=1) + ["press ok"]  # title
    lines += ["press seat1", "press seat2", "press seat3", "press seat4", "press ok"]
    table.play(*lines, *["press ok"] * 4)
    return table


def frame(table: Table) -> bytes:
    import pygame

    return pygame.image.tobytes(table.app.render(), "RGB")


def test_a_glance_at_any_step_shows_nothing_of_the_tokens_placed(tmp_path: Path) -> None:
    """Two ballots differing only in the tokens already placed look the same at every step
    as it opens (the tokens in hand are identical dots; the step opens on a "?" disc)."""
    first, second = ballot_table(tmp_path / "a"), ballot_table(tmp_path / "b")
    try:
        first.play("hold ok 2")
        second.play("hold ok 2")
        assert frame(first) == frame(second)
        for one, other in (("press right", "press left"), ("press right", "press right")):
            first.play(*[one] * 1, "press ok")  # Original, then Exciting...
            second.play(*[other] * 1, "press ok")  # ...against Neutral, then Original
            assert first.screen.picks != second.screen.picks
            assert frame(first) == frame(second)
    finally:
        first.app.close()
        second.app.close()


def test_a_complete_ballot_blanked_reopens_without_its_tokens(tmp_path: Path) -> None:
    first, second = ballot_table(tmp_path / "a"), ballot_table(tmp_path / "b")
    try:
        first.play(*ballot_presses(FOUR, FOUR_BALLOTS["Ann"])[:-1], "advance 21")
        other = {"Ann": ["neutral"], "Ben": ["exciting"], "Cat": ["original"], "Dan": ["composed"]}
        second.play(*ballot_presses(FOUR, other)[:-1], "advance 21")
        for table in (first, second):
            assert table.screen.stage == "pass"
            table.play("hold ok 2")  # whoever picks the box up next
            assert table.screen.stage not in ("summary", "change")
        assert first.screen.picks != second.screen.picks
        assert frame(first) == frame(second)
        first.play("press ok")  # the reviewer asks for the summary, and seals
        assert first.screen.stage == "summary"
        first.play("press ok")
        assert first.game().reviewed == ["Ann"]
    finally:
        first.app.close()
        second.app.close()
