"""`tablekeeper mixtape score|otto|solo|deck`: the JSON contracts and the exit-2 refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_mixtape_otto import DECK as OTTO_DECK

from display import cli
from games.mixtape import example_deck_path


@pytest.fixture(autouse=True)
def only_mixtape_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    # Test this module's commands on their own, whatever the state of the other areas' modules.
    monkeypatch.setattr(
        cli, "COMMAND_MODULES", ["display.commands.mixtape", "display.commands.bench"]
    )


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_deck(tmp_path: Path) -> str:
    """The Otto test deck as a TOML file, written by hand from the schema."""
    lines = ['name = "cli test"', "[equalizer]"]
    lines.append(f"squares = {list(OTTO_DECK.squares)}")
    lines.append(f"start = {OTTO_DECK.start}")
    for c in OTTO_DECK.cards:
        data = c.to_json()
        lines.append("[[cards]]")
        for key, value in data.items():
            lines.append(f"{key} = {json.dumps(value)}")
    path = tmp_path / "deck.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_score_json_contract(tmp_path, capsys) -> None:
    deck = write_deck(tmp_path)
    code, out, _ = run(
        capsys, "mixtape", "score", "--deck", deck, "--a", "oPopA,xA2,yA2", "--b", "yR1,yR2",
        "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    # balance −1 −2 −2 +1 +1 = −3 → 15; flow A: 1,3,1 (pop→x center, x→y right), B: 1,1 → 7;
    # genres: R&B 2 → 3, pop/punk/alternative 1 each → 0.
    assert data["balance"] == {"position": -3, "points": 15, "square": 3}
    assert data["flow"] == 7 and data["genres"] == 3 and data["total"] == 25
    assert data["cards"][:3] == [
        {"id": "oPopA", "column": "A", "flow_points": 1},
        {"id": "xA2", "column": "A", "flow_points": 3},
        {"id": "yA2", "column": "A", "flow_points": 1},
    ]


def test_score_text_output_with_the_example_deck(capsys) -> None:
    code, out, _ = run(
        capsys, "mixtape", "score", "--deck", str(example_deck_path()), "--a", "EX01", "--b", ""
    )
    assert code == 0
    assert "Total:" in out and "Balance:" in out


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--a", "nope"], "unknown card id 'nope'"),
        (["--a", "zB1"], "zB1 is a B card and cannot be in column Trk A"),
        (["--a", "popA3,popA2,punkA2"], "off the Equalizer"),
    ],
)
def test_score_refusals_exit_2_with_the_reason(tmp_path, capsys, args, reason) -> None:
    code, out, err = run(capsys, "mixtape", "score", "--deck", write_deck(tmp_path), *args)
    assert code == 2 and out == ""
    assert reason in err and err.count("\n") == 1


def test_a_bad_deck_file_exits_2_naming_card_and_field(tmp_path, capsys) -> None:
    path = Path(write_deck(tmp_path))
    path.write_text(path.read_text().replace('genre = "rnb"', 'genre = "soul"', 1))
    code, _, err = run(capsys, "mixtape", "score", "--deck", str(path), "--a", "")
    assert code == 2
    assert "card 'yR1': field 'genre' = 'soul'" in err
    code, _, err = run(capsys, "mixtape", "score", "--deck", str(tmp_path / "missing.toml"))
    assert code == 2 and "not found" in err


def test_otto_json_contract(tmp_path, capsys) -> None:
    code, out, _ = run(
        capsys, "mixtape", "otto", "--deck", write_deck(tmp_path), "--otto-a", "", "--otto-b",
        "oB3", "--you-a", "", "--you-b", "", "--drawn", "popA3,altA1,rockB1", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["otto_takes"] == ["popA3"]
    assert data["you_get"] == ["altA1", "rockB1"]
    assert data["decided_by"] == "balance"
    assert data["extra_card"] is True


def test_otto_random_choice_is_seeded_and_shown(tmp_path, capsys) -> None:
    deck = write_deck(tmp_path)
    argv = ["mixtape", "otto", "--deck", deck, "--otto-a", "oPopA", "--otto-b", "oRockB"]
    argv += ["--drawn", "yA2off,zB1off,hipA2", "--seed", "7"]
    code, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["decided_by"] == "random" and data["random"]["seed"] == "7"
    assert data["otto_takes"] in data["random"]["among"]
    code, text, _ = run(capsys, *argv)
    assert "random (seed 7)" in text and "decided by random" in text


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--drawn", "popA3,altA1"], "exactly three different cards"),
        (["--drawn", "popA3,altA1,oB3", "--otto-b", "oB3"], "already in a mixtape"),
        (["--drawn", "popA3,altA1,rockB1", "--you-a", "zB1"], "your mixtape"),
        (["--drawn", "popA3,altA1,what"], "unknown card id 'what'"),
    ],
)
def test_otto_refusals_exit_2(tmp_path, capsys, argv, reason) -> None:
    code, _, err = run(capsys, "mixtape", "otto", "--deck", write_deck(tmp_path), *argv)
    assert code == 2 and reason in err


def test_solo_prints_both_final_scores_and_is_reproducible(capsys) -> None:
    code, first, _ = run(capsys, "mixtape", "solo", "--deck", "example", "--seed", "12")
    assert code == 0
    assert "You (deck:" in first and "Otto (deck:" in first and "Final: you " in first
    assert first.count("round ") == 10
    _, second, _ = run(capsys, "mixtape", "solo", "--deck", "example", "--seed", "12")
    assert first == second
    code, out, _ = run(capsys, "mixtape", "solo", "--deck", "example", "--seed", "12", "--json")
    data = json.loads(out)
    assert set(data["scores"]) == {"you", "otto"} and data["winner"] in ("you", "otto")
    assert data["state"]["phase"] == "over"


def test_deck_summary(capsys) -> None:
    code, out, _ = run(capsys, "mixtape", "deck", "--deck", "example")
    assert code == 0 and "54 cards" in out and "2: 36, 3: 12, 4: 6" in out


TABLE = """\
setup EX02 EX03
draw EX05 EX06        # your turn: only the two face-up cards
take EX06
turn-up EX07          # the face-down card, once it goes into a mixtape
draw EX04 EX08 EX10   # Otto's turn
extra EX40
place
"""


def test_solo_at_a_table_asks_for_the_face_down_card_only_after_the_choice(
    tmp_path, capsys
) -> None:
    events = tmp_path / "events.txt"
    events.write_text(TABLE)
    code, out, _ = run(capsys, "mixtape", "solo", "--deck", "example", "--table", str(events))
    assert code == 0
    before, after = out.split("line 4: turn-up EX07")
    assert "EX07" not in before  # never shown before the choice
    assert "choose what you take (? is the face-down card): EX05, EX06, ?, EX05+?, EX06+?" in before
    assert "the face-down card goes into Otto's mixtape" in before
    assert "(face down EX07), you take ['EX06'], Otto gets ['EX05', 'EX07']" in after
    assert "Otto takes it and draws an extra card" in after  # Otto's steps in words
    code, out, _ = run(
        capsys, "mixtape", "solo", "--deck", "example", "--table", str(events), "--json"
    )
    data = json.loads(out)
    assert code == 0 and [s["line"] for s in data["steps"]] == [1, 2, 3, 4, 5, 6, 7]
    assert "EX07" not in json.dumps(data["steps"][:3])
    you = data["state"]["you"]
    assert sorted(you["a"] + you["b"]) == ["EX02", "EX06", "EX08", "EX10"]


def test_solo_at_a_table_refuses_a_bad_event_with_its_line(tmp_path, capsys) -> None:
    events = tmp_path / "events.txt"
    events.write_text("setup EX02 EX03\ndraw EX05 EX06\ntake EX05 EX06\n")
    code, _, err = run(capsys, "mixtape", "solo", "--deck", "example", "--table", str(events))
    assert code == 2 and "line 3" in err and "face-down card" in err
    code, _, err = run(capsys, "mixtape", "solo", "--deck", "example")
    assert code == 2 and "--seed" in err
