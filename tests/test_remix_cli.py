"""`tablekeeper remix score` and `tablekeeper bench remix`, through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from display.cli import main

EXAMPLE = [
    "MR06",
    "colossus",
    "Valkyrie",
    "vision",
    "MYSTIQUE",
    "Vibranium Shield",
    "Falling Debris",
]


def test_score_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["remix", "score", *EXAMPLE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 81 and out["valid"] is True and out["loki_owed"] is False
    assert [c["id"] for c in out["cards"]] == [
        "MR06", "MR07", "MR21", "MR22", "MR72", "MR41", "MR44",
    ]  # fmt: skip
    card = out["cards"][6]
    assert card["name"] == "Falling Debris" and card["points"] == 28 and card["base"] == 0
    assert card["state"] == "normal" and card["tags"] == ["urban"]
    assert card["lines"] == ["+28: +4 for each Strength, Flight tag (7)"]
    assert any(choice["card"] == "MR22" for choice in out["choices"])


def test_score_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["remix", "score", *EXAMPLE]) == 0
    text = capsys.readouterr().out
    assert "TOTAL 81" in text and "Vision takes Strength and Flight" in text


def test_loki_draw_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["remix", "score", "Loki", "Angel", "Beast", "--json"]) == 0
    owed = json.loads(capsys.readouterr().out)
    assert owed["loki_owed"] is True and owed["total"] == 27
    assert (
        main(["remix", "score", "Loki", "Angel", "Beast", "--loki-draw", "fearless", "--json"]) == 0
    )
    drawn = json.loads(capsys.readouterr().out)
    assert drawn["loki_owed"] is False and drawn["total"] == 11


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        (["Angel", "Galactus"], "unknown card 'Galactus'"),
        (["Angel", "angel", "Black Cat"], "twice"),
        ([f"MR{n:02d}" for n in range(1, 31)], "30 cards"),
        (["Angel", "Black"], "ambiguous"),
        ([], "no cards"),
    ],
)
def test_bad_hands_exit_2_with_the_reason(
    cards: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["remix", "score", *cards]) == 2
    err = capsys.readouterr().err
    assert reason in err and err.count("\n") == 1


def test_bad_loki_draw_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["remix", "score", "Loki", "Angel", "--loki-draw", "Magneto"]) == 2
    assert "REMIX" in capsys.readouterr().err


def test_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "hands.txt"
    batch.write_text(
        "# the rulebook example\n"
        + ", ".join(EXAMPLE)
        + "\n\nAvoid Crossfire, Hawkeye, Lockheed, Black Cat\n"
        + "Loki, Angel, loki-draw=X-Jet\n"
    )
    assert main(["remix", "score", "--batch", str(batch), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["line"], r["total"]) for r in lines] == [(2, 81), (4, 34), (5, 14)]
    assert main(["remix", "score", "--batch", str(batch)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "line 2: 81 (valid)"


def test_batch_with_a_bad_line_answers_every_line_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = tmp_path / "hands.txt"
    batch.write_text("Angel, Black Cat\nAngel, Galactus\nBeast, Black Cat\n")
    assert main(["remix", "score", "--batch", str(batch), "--json"]) == 2
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert [row.get("total", row.get("error")) for row in rows][0::2] == [14, 14]
    assert "Galactus" in rows[1]["error"] and "line 2" in captured.err
    assert main(["remix", "score", "--batch", str(tmp_path / "missing.txt")]) == 2


def test_bench_runs_and_prints_figures(capsys: pytest.CaptureFixture[str]) -> None:
    command = ["bench", "remix", "--hands", "40", "--runs", "1", "--verify", "5", "--climb", "4"]
    assert main(command) == 0
    out = capsys.readouterr().out
    assert "hands per second (CPU time, one core): median" in out
    assert "slowest random hand" in out and "worst constructed or reported hand" in out
    assert "reported slow 10 cards: the seven tag texts + Kang, Mystique, Hack In" in out
    assert "climbed slow 10 cards: Cyclops, Jean Grey, Rogue" in out
    assert "verify: 5 stuffed 8-10 card hands, 0 pruned vs brute-force mismatches" in out
    # the hill-climb lists its slowest hands, each with its size and total
    climb = out.split("the 10 slowest (CPU, median of 3):\n")[1]
    listed = climb.split("hill-climb slowest per size")[0].splitlines()
    assert len([line for line in listed if " cards  total " in line]) == 10
    per_size = out.split("hill-climb slowest per size")[1].splitlines()[1:4]
    assert [line.split("cards")[0].split()[-1] for line in per_size] == ["7", "8", "10"]


def test_output_cut_short_by_the_reader_is_not_an_error(tmp_path: Path) -> None:
    """`tablekeeper remix score --batch FILE | head`: the reader leaving is no crash."""
    import subprocess
    import sys

    hand = "Captain America, Falcon, Beast, Hawkeye, Jean Grey, Black Widow, Selene"
    batch = tmp_path / "hands.txt"
    batch.write_text("\n".join([hand] * 20000) + "\n", encoding="utf-8")
    command = [sys.executable, "-m", "display.cli", "remix", "score", "--batch", str(batch)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(10)  # the first few bytes, then the reader goes away
    process.stdout.close()
    errors = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0
    assert "Traceback" not in errors
