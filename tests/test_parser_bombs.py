"""Parser bombs (issue 35): TOML nested thousands deep and integers of thousands of digits in a
config, a deck or a ballot file, and duplicate keys in a ballot file, are refused with exit 2
and one line; ``run --dump-state`` writes the sealed ballots 0600."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from display.cli import main

DEEP_TOML = "a = " + "[" * 5000 + "]" * 5000 + "\n"
HUGE_INT_TOML = "[seats]\ncount = " + "7" * 5000 + "\n"
HUGE_INT_DECK = "[[cards]]\nname = " + "9" * 5000 + "\n"


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str], *words: str) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err[-400:]
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    for word in words:
        assert word in err
    return err


@pytest.mark.parametrize(
    ("text", "words"),
    [(DEEP_TOML, ["nested too deeply"]), (HUGE_INT_TOML, ["far too long"])],
)
def test_config_bombs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: list[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(text)
    _refused(["config", str(config)], capsys, *words)
    script = tmp_path / "s.txt"
    script.write_text("press right\n")
    _refused(
        ["run", "--sim", "--config", str(config), "--script", str(script), "--state-dir",
         str(tmp_path / "state")],
        capsys,
        *words,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "words"),
    [(DEEP_TOML, ["nested too deeply"]), (HUGE_INT_DECK, ["far too long"])],
)
def test_deck_bombs(text: str, words: list[str]) -> None:
    from games.mixtape import DeckError, parse_deck

    with pytest.raises(DeckError) as caught:
        parse_deck(text, "deck.toml")
    assert all(word in str(caught.value) for word in words)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"players": [' + "7" * 5000 + "]}", ["far too long"]),
        ('{"players": ["Ann"], "players": ["Bob"]}', ["'players'", "twice"]),
        (
            '{"players": ["Ann", "Bob", "Cy"], "ballots": {"Ann": {}, "Ann": {}}}',
            ["'Ann'", "twice"],
        ),
    ],
)
def test_ballot_file_bombs_and_duplicates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: list[str]
) -> None:
    ballots = tmp_path / "round.json"
    ballots.write_text(text)
    _refused(["comix", "score", str(ballots)], capsys, *words)


def test_dump_state_is_private(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("press right\n")
    dump = tmp_path / "dump.json"
    dump.write_text("old")
    dump.chmod(0o644)
    argv = ["run", "--sim", "--script", str(script), "--state-dir", str(tmp_path / "state")]
    assert main([*argv, "--dump-state", str(dump)]) == 0
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600
    assert "screens" in json.loads(dump.read_text())
    fresh = tmp_path / "fresh.json"
    assert main([*argv, "--dump-state", str(fresh)]) == 0
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
