"""The last failure, noted by systemd's stop hook or by the app's crash hook, shown once on the next
start; and what systemd says about the unit, through a stand-in for systemctl."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from device.health import unit_status
from device.service import (
    LastFailure,
    read_last_failure,
    record_crash,
    take_last_failure,
)

REPO = Path(__file__).resolve().parent.parent


def test_nothing_noted_is_no_failure(tmp_path: Path):
    assert read_last_failure(tmp_path) is None
    assert read_last_failure(tmp_path / "missing") is None


def test_a_recorded_crash_says_what_and_where(tmp_path: Path):
    try:
        raise RuntimeError("the bar broke")
    except RuntimeError as error:
        record_crash(tmp_path, error, now=lambda: 1_700_000_000.0)
    failure = read_last_failure(tmp_path)
    assert failure is not None
    assert failure.exception == "RuntimeError: the bar broke"
    assert failure.where is not None and "test_device_service.py line" in failure.where
    sentence = failure.sentence()
    assert "Last error: RuntimeError: the bar broke" in sentence
    assert sentence.endswith("It was restarted; saved games are kept.")


def test_both_notes_become_one_failure_shown_once(tmp_path: Path):
    (tmp_path / "last-exit").write_text(
        "result=exit-code\ncode=exited\nstatus=1\nwhen=1700000000\n"
    )
    (tmp_path / "last-crash.json").write_text(
        json.dumps(
            {
                "when": 1_699_999_999,
                "exception": "KeyError: 'x'",
                "where": "display/app.py line 9, in update",
            }
        )
    )
    failure = take_last_failure(tmp_path)
    assert failure == LastFailure(
        when=1_700_000_000.0,
        result="exit-code",
        exit_code="exited",
        exit_status="1",
        exception="KeyError: 'x'",
        where="display/app.py line 9, in update",
    )
    assert "it exited with an error" in failure.sentence()
    assert take_last_failure(tmp_path) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["last-crash.json.seen", "last-exit.seen"]


def test_a_damaged_note_is_no_reason_to_crash(tmp_path: Path):
    (tmp_path / "last-crash.json").write_text("{not json")
    assert read_last_failure(tmp_path) is None
    (tmp_path / "last-crash.json").write_text('["a list"]')
    assert read_last_failure(tmp_path) is None
    (tmp_path / "last-exit").write_text("garbage without equals\nstatus=9\n")
    failure = read_last_failure(tmp_path)
    assert failure is not None and "status 9" in failure.sentence()


def fake_systemctl(output: str):
    calls = []

    def run(command):
        calls.append(list(command))
        return subprocess.CompletedProcess(command, 0, stdout=output, stderr="")

    return run, calls


def test_unit_status_reads_systemctl_show():
    run, calls = fake_systemctl(
        "LoadState=loaded\nUnitFileState=enabled\nActiveState=activating\nSubState=auto-restart\n"
        "Result=exit-code\nExecMainStatus=2\nNRestarts=4\n"
    )
    status = unit_status(run)
    assert calls[0][:3] == ["systemctl", "show", "tablekeeper.service"]
    assert status.installed and status.enabled == "enabled"
    assert (status.active, status.sub_state, status.result) == (
        "activating",
        "auto-restart",
        "exit-code",
    )
    assert (status.exit_status, status.restarts) == ("2", "4")
    missing, _ = fake_systemctl("LoadState=not-found\nActiveState=inactive\n")
    assert not unit_status(missing).installed
