"""`tablekeeper doctor [--json] [--sim]`: the JSON shape, what --sim skips and why, exit codes;
and `tablekeeper focus` where there is no Pi camera."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from display.cli import main

CHECKS = [
    "config",
    "user and groups",
    "/dev/dri",
    "EGL/GBM libraries",
    "DRM master",
    "panel rotation",
    "SDL video",
    "camera",
    "GPIO pins",
    "state directory",
    "library versions",
    "systemd unit",
]


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)


def doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["doctor", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_sim_json_shape_and_all_passing(tmp_path: Path, capsys):
    code, report = doctor(capsys, "--sim", "--state-dir", str(tmp_path / "state"))
    assert [check["name"] for check in report["checks"]] == CHECKS
    for check in report["checks"]:
        assert isinstance(check["name"], str) and isinstance(check["ok"], bool)
        assert isinstance(check["detail"], str) and check["detail"]
        assert check["status"] in ("pass", "fail", "skip")
    by_name = {check["name"]: check for check in report["checks"]}
    assert code == 0 and report["ok"] is True and report["simulated"] is True
    skipped = {name for name, check in by_name.items() if check["skipped"]}
    assert skipped == {
        "user and groups",
        "/dev/dri",
        "EGL/GBM libraries",
        "DRM master",
        "panel rotation",
        "camera",
        "systemd unit",
    }
    for name in skipped:
        assert by_name[name]["skip_reason"].startswith("--sim: ")
        assert by_name[name]["detail"] == "skipped: " + by_name[name]["skip_reason"]
    assert by_name["SDL video"]["detail"].startswith("dummy opens a window")
    assert by_name["GPIO pins"]["detail"].startswith("all 20 configured pins can be claimed")


def test_a_failing_check_exits_1_with_its_fix(tmp_path: Path, capsys):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    code, report = doctor(capsys, "--sim", "--state-dir", str(blocked / "state"))
    state = next(check for check in report["checks"] if check["name"] == "state directory")
    assert code == 1 and report["ok"] is False
    assert state["ok"] is False and state["status"] == "fail" and state["fix"]


def test_a_broken_config_fails_its_check_and_skips_what_needs_it(tmp_path: Path, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[pins]\nback = 5\n")
    code, report = doctor(capsys, "--sim", "--config", str(config), "--state-dir", str(tmp_path))
    by_name = {check["name"]: check for check in report["checks"]}
    assert code == 1
    assert "pins.back: pin 5 is already used by pins.seat_1" in by_name["config"]["detail"]
    assert by_name["camera"]["skipped"] and by_name["GPIO pins"]["skipped"]


def test_folder_camera_is_checked_even_in_sim(tmp_path: Path, capsys):
    import cv2
    import numpy as np

    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "a.png"), np.full((30, 40, 3), 90, np.uint8))
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nbackend = "folder"\nfolder = "{photos}"\n')
    code, report = doctor(capsys, "--sim", "--config", str(config), "--state-dir", str(tmp_path))
    camera = next(check for check in report["checks"] if check["name"] == "camera")
    assert code == 0 and camera["status"] == "pass" and "one 40x30 photo" in camera["detail"]


def test_bad_usage_exits_2(tmp_path: Path, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["doctor", "--bogus"])
    assert caught.value.code == 2
    assert main(["doctor", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "no config file at" in capsys.readouterr().err


def test_text_report_has_one_line_per_check_and_a_verdict(tmp_path: Path, capsys):
    assert main(["doctor", "--sim", "--state-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(CHECKS) + 1
    assert lines[0].startswith("PASS  config")
    assert any(line.startswith("SKIP  camera") for line in lines)
    assert lines[-1].startswith("all checks passed, 7 skipped")


def test_sdl_probe_reports_a_driver_that_cannot_open(monkeypatch):
    from display.commands.doctor import check_sdl

    check = check_sdl("no-such-driver")
    assert not check.ok and check.detail.startswith("no-such-driver: ")
    assert "SDL_VIDEODRIVER" in check.fix


def test_focus_without_a_pi_camera_is_a_message(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    assert main(["focus"]) == 1
    assert "picamera2 is not installed" in capsys.readouterr().err
