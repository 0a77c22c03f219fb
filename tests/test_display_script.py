"""Scripted runs through the real CLI: parsing errors name the line (exit 2), screenshots,
the state dump, typed text, and the camera queue."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero import Device

from display.cli import main
from display.script import ScriptError, parse_script


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    # Only this area's commands: a sibling module under construction must not break these.
    monkeypatch.setattr("display.cli.COMMAND_MODULES", ["display.commands.app"])
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.reset()


def run(tmp_path: Path, script: str, *extra: str) -> int:
    path = tmp_path / "script.txt"
    path.write_text(script)
    return main(
        ["run", "--sim", "--script", str(path), "--state-dir", str(tmp_path / "state"), *extra]
    )


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("press ok\n\n# fine\njump 3\n", "line 4: unknown action 'jump'"),
        ("press seat9\n", "line 1: unknown button 'seat9'"),
        ("hold ok\n", "line 1: hold takes a button and seconds"),
        ("advance soon\n", "line 1: 'soon' is not a number of seconds"),
        ("advance -1\n", "line 1: seconds must be between"),
        ("camera nowhere.png\n", "line 1: no image file at nowhere.png"),
        ("shot ../escape\n", "line 1: shot takes a plain file name"),
        ("type\n", "line 1: type needs the text"),
    ],
)
def test_bad_lines_exit_2_naming_the_line(tmp_path: Path, capsys, script: str, message: str):
    assert run(tmp_path, script) == 2
    err = capsys.readouterr().err.strip()
    assert message in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "state").exists()  # checked before anything ran


def test_type_on_a_screen_without_text_names_the_line(tmp_path: Path, capsys):
    assert run(tmp_path, "press right\ntype hello\n") == 2
    assert "line 2: the screen 'home' does not take typed text" in capsys.readouterr().err


def test_script_drives_screens_writes_shots_and_dumps_state(tmp_path: Path):
    photo = np.zeros((60, 80, 3), np.uint8)
    photo[:, :, 2] = 200
    cv2.imwrite(str(tmp_path / "red.png"), photo)
    script = (
        "shot home\n"
        "press right\npress right\npress right\npress right\npress ok\n"  # hardware test
        "press seat2\nhold seat4 0.5\n"
        "camera red.png\npress shutter\n"
        "advance 1\n"
        "shot hw\n"
    )
    dump = tmp_path / "dump.json"
    shots = tmp_path / "shots"
    code = run(tmp_path, script, "--screenshots", str(shots), "--dump-state", str(dump))
    assert code == 0
    assert sorted(p.name for p in shots.iterdir()) == ["home.png", "hw.png"]
    data = json.loads(dump.read_text())
    kinds = [s["kind"] for s in data["screens"]]
    assert kinds == ["home", "hardware_test"]
    snapshot = data["screens"][-1]["snapshot"]
    assert snapshot["counts"] == {"SEAT_2": 1, "SEAT_4": 1, "SHUTTER": 1}
    assert snapshot["photo_ok"] is True and "80 x 60" in snapshot["photo_note"]
    assert data["clock"] == pytest.approx(1000 + 0.5 + 1)
    assert data["store"] == {} or isinstance(data["store"], dict)
    assert 0 < data["hardware"]["led_bar"] <= 1  # the test screen sweeps the bar


def test_a_second_run_resumes_the_saved_state(tmp_path: Path):
    dump = tmp_path / "dump.json"
    assert run(tmp_path, "press right\npress right\npress right\npress right\npress ok\n") == 0
    assert run(tmp_path, "press seat1\n", "--dump-state", str(dump)) == 0
    data = json.loads(dump.read_text())
    assert [s["kind"] for s in data["screens"]] == ["home", "hardware_test"]
    assert data["screens"][-1]["snapshot"]["counts"] == {"SEAT_1": 1}


def test_parse_resolves_camera_paths_against_the_script(tmp_path: Path):
    (tmp_path / "pics").mkdir()
    cv2.imwrite(str(tmp_path / "pics" / "a.png"), np.zeros((4, 4, 3), np.uint8))
    steps = parse_script("camera pics/a.png\ntype  Two words \n", tmp_path / "s.txt")
    assert steps[0].path == tmp_path / "pics" / "a.png"
    assert steps[1].text == "Two words"
    with pytest.raises(ScriptError, match="s.txt line 1"):
        parse_script("hold ok 2 3\n", tmp_path / "s.txt")


def test_script_needs_sim(tmp_path: Path, capsys):
    path = tmp_path / "s.txt"
    path.write_text("press ok\n")
    assert main(["run", "--script", str(path), "--state-dir", str(tmp_path / "st")]) == 2
    assert "--script needs --sim" in capsys.readouterr().err


def test_camera_dir_feeds_the_captures(tmp_path: Path, capsys):
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "one.png"), np.zeros((30, 40, 3), np.uint8))
    dump = tmp_path / "dump.json"
    script = "press right\npress right\npress right\npress right\npress ok\npress shutter\n"
    assert run(tmp_path, script, "--camera-dir", str(folder), "--dump-state", str(dump)) == 0
    note = json.loads(dump.read_text())["screens"][-1]["snapshot"]["photo_note"]
    assert "40 x 30" in note and str(folder) in note
    assert run(tmp_path, "press ok\n", "--camera-dir", str(tmp_path / "missing")) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_unwritable_state_dir_is_one_line_exit_2(tmp_path: Path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    path = tmp_path / "script.txt"
    path.write_text("press ok\n")
    code = main(["run", "--sim", "--script", str(path), "--state-dir", str(blocker / "state")])
    assert code == 2
    assert "cannot create the state directory" in capsys.readouterr().err


def test_a_photo_cut_short_in_the_camera_folder_is_refused_not_read_half_grey(tmp_path: Path):
    folder = tmp_path / "photos"
    folder.mkdir()
    scene = np.random.default_rng(3).integers(0, 255, (60, 80, 3), np.uint8)
    ok, jpeg = cv2.imencode(".jpg", scene)
    assert ok
    (folder / "cut.jpg").write_bytes(jpeg.tobytes()[: jpeg.size // 2])  # a copy interrupted
    dump = tmp_path / "dump.json"
    script = "press right\npress right\npress right\npress right\npress ok\npress shutter\n"
    assert run(tmp_path, script, "--camera-dir", str(folder), "--dump-state", str(dump)) == 0
    note = json.loads(dump.read_text())["screens"][-1]["snapshot"]["photo_note"]
    assert "cut.jpg is damaged (it ends early)" in note, note
