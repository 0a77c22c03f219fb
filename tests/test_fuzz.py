"""Bad input (short version of `tablekeeper check fuzz`): mutated ballot JSON, deck TOML, card
names, config TOML, gallery files and the issue's bad images, through the real command line and
the appliance's camera. Each is accepted or refused with exit 2 and one clear line, never a
traceback, and a saved game survives every one of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from display.checks.fuzz import FuzzReport, run_fuzz
from display.cli import main

COUNTS = {"ballot-json": 150, "deck-toml": 80, "card-names": 150, "config-toml": 15,
          "gallery": 25, "image": 100}  # fmt: skip


@pytest.fixture(scope="module")
def report() -> FuzzReport:
    return run_fuzz(COUNTS, seed=11)


def test_no_bad_input_crashes_or_loses_the_saved_game(report: FuzzReport) -> None:
    assert [f"{f.case.family} [{f.case.label}]: {f.problem}" for f in report.failures] == []
    assert report.total >= 450
    print("\n".join(report.lines()))


def test_every_family_was_tried_and_most_cases_refused(report: FuzzReport) -> None:
    assert set(report.tried) == set(COUNTS)
    for family in ("ballot-json", "deck-toml", "card-names", "gallery"):
        assert report.rejected[family] >= report.tried[family] // 2  # mutants are mostly bad


def test_the_issues_bad_images_are_refused_by_vision_identify(report: FuzzReport) -> None:
    # every named bad image reaches the command (and the camera) - no family was cut short
    assert report.tried["image"] >= 40


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    players=st.one_of(
        JSON, st.lists(st.sampled_from(["Ann", "Ben", "Cat", "Dan", ""]), max_size=6)
    ),
    ballots=JSON,
)
# Names holding a line break: the refusal quotes them, and must stay one line (found by this test).
@example(players=["Ann", "Ben", "Cat"], ballots={"\r": None})
@example(players=["Ann\nLee", "Ben", "Cat"], ballots={"Ann\nLee": {"Ben": "x"}})
def test_any_json_round_is_scored_or_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], players: object, ballots: object
) -> None:
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"players": players, "ballots": ballots}))
    code = main(["comix", "score", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 2)
    if code == 2:
        assert err.startswith("tablekeeper: ") and len(err.strip().splitlines()) == 1
    else:
        assert set(json.loads(out)["points"]) == set(players)  # type: ignore[arg-type]
