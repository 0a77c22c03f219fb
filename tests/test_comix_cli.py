"""`tablekeeper comix score FILE [--json]`: the JSON contract and the exit-2 refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_comix_rules import FOUR_BALLOTS, SEVEN_BALLOTS, THREE_BALLOTS

from display import cli


@pytest.fixture(autouse=True)
def only_comix_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    # Test this module's commands on their own, whatever the state of the other areas' modules.
    monkeypatch.setattr(
        cli, "COMMAND_MODULES", ["display.commands.comix", "display.commands.bench"]
    )


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object, *flags: str):
    path = tmp_path / "round.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    code = cli.main(["comix", "score", str(path), *flags])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_for_four_players_without_stories(tmp_path, capsys) -> None:
    code, out, _ = run(
        tmp_path,
        capsys,
        {"players": ["Ann", "Ben", "Cat", "Dan"], "ballots": FOUR_BALLOTS},
        "--json",
    )
    assert code == 0
    result = json.loads(out)
    assert result["points"] == {"Ann": 6, "Ben": 8, "Cat": 6, "Dan": 4}
    assert result["kept"]["Ben"] == {"original": 2, "exciting": 0, "composed": 0}
    assert set(result["kept"]) == {"Ann", "Ben", "Cat", "Dan"}


def test_json_output_for_a_team_game(tmp_path, capsys) -> None:
    data = {
        "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"],
        "stories": {"T1": ["Ann", "Ben"], "T2": ["Cat", "Dan"], "T3": ["Eve", "Fay"], "G": ["Gus"]},
        "ballots": SEVEN_BALLOTS,
    }
    code, out, _ = run(tmp_path, capsys, data, "--json")
    assert code == 0
    result = json.loads(out)
    assert result["points"]["Dan"] == 11 and result["points"]["Cat"] == 5
    assert result["kept"]["G"] == {"original": 0, "exciting": 0, "composed": 3}


def test_plain_output_is_a_table(tmp_path, capsys) -> None:
    code, out, _ = run(
        tmp_path, capsys, {"players": ["Ann", "Ben", "Cat"], "ballots": THREE_BALLOTS}
    )
    assert code == 0
    assert "Ann" in out and "reviews 6" in out


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda b: b["Ben"].update({"Cat": ["original"], "Dan": ["original"]}), "Ben's ballot"),
        (lambda b: b["Cat"].pop("Dan"), "Cat's ballot breaks the rule 'every story gets tokens"),
        (lambda b: b["Dan"].update({"Ann": ["composed"], "Cat": ["exciting"]}), "Neutral"),
        (lambda b: b.pop("Ann"), "Ann has not reviewed"),
    ],
)
def test_invalid_ballot_exits_2_with_rule_and_player(tmp_path, capsys, mutate, words) -> None:
    ballots = json.loads(json.dumps(FOUR_BALLOTS))
    mutate(ballots)
    code, out, err = run(
        tmp_path, capsys, {"players": ["Ann", "Ben", "Cat", "Dan"], "ballots": ballots}
    )
    assert code == 2 and out == ""
    assert words in err and "rule" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not valid JSON"),
        ([1, 2], "JSON object"),
        ({"players": ["Ann", "Ben"], "ballots": {}}, "3 to 10 players"),
        ({"players": ["Ann", "Ben", "Cat"]}, "'ballots'"),
        (
            {
                "players": ["A", "B", "C", "D"],
                "stories": {"S": ["A", "B"], "C": ["C"], "D": ["D"]},
                "ballots": {},
            },
            "everybody plays alone",
        ),
    ],
)
def test_invalid_file_exits_2(tmp_path, capsys, content, words) -> None:
    code, _, err = run(
        tmp_path, capsys, content if isinstance(content, str) else json.dumps(content)
    )
    assert code == 2 and words in err


def test_missing_file_exits_2(capsys) -> None:
    assert cli.main(["comix", "score", "/nonexistent/round.json"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_bench_timer_runs_the_real_loop_and_prints_figures(capsys) -> None:
    assert cli.main(["bench", "timer", "--seconds", "0.3", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("time up declared") == 2 and "median" in out
    late = [float(line.split()[5]) for line in out.splitlines() if "declared" in line]
    assert all(0.0 <= ms < 500.0 for ms in late)  # never before the configured 0.3 s
