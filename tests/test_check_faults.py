"""``tablekeeper check faults`` (issue 35) runs and its state-folder cases hold. The other
groups replay what tests/test_image_bombs.py (a fresh interpreter per bomb, peak memory
measured) and tests/test_parser_bombs.py check directly; the suite runs this subset only."""

from __future__ import annotations

import pytest

from display.checks.faults import run_faults
from display.cli import main


def test_the_state_folder_cases_hold() -> None:
    report = run_faults({"full", "lock", "second", "readonly", "symlinks"})
    lines = report.lines()
    assert report.ok, "\n".join(lines)
    assert len(report.outcomes) == 8
    held = [o for o in report.outcomes if o.held]
    assert len(held) >= 6  # the full card and the read-only mount are skipped without root
    assert lines[-1].startswith(f"faults: {len(held)}/8 cases held")


def test_an_unknown_group_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "faults", "--only", "lock,floods"]) == 2
    assert "unknown group floods" in capsys.readouterr().err
