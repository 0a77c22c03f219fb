"""The doctor's device checks, each against stand-ins for the Pi: groups, /dev/dri, libraries,
camera, pins, state directory, versions, the unit."""

from __future__ import annotations

import errno
import os
import subprocess
import types
from pathlib import Path

import numpy as np
import pytest
from gpiozero import Button

from device import health
from device.camera import FunctionCamera, NoCamera
from device.config import parse_config
from device.pins import simulated_pin_factory


def test_groups_missing_are_named_with_the_fix():
    check = health.check_user_groups("tablekeeper", groups=lambda user: {"video", "tablekeeper"})
    assert not check.ok and check.status == "fail"
    assert "not in render, input, gpio" in check.detail
    assert "usermod --append --groups video,render,input,gpio tablekeeper" in check.fix
    good = health.check_user_groups("tk", groups=lambda user: set(health.GROUPS))
    assert good.ok and good.fix == ""


def test_dri_nodes_must_be_there_and_open_to_the_user(tmp_path: Path):
    me = health.pwd.getpwuid(os.getuid()).pw_name
    assert not health.check_dri(me, tmp_path / "dri").ok  # no KMS driver loaded
    dri = tmp_path / "dri"
    dri.mkdir()
    card = dri / "card0"
    card.touch()
    card.chmod(0o660)
    check = health.check_dri(me, dri, groups=lambda user: set())
    # the owner may read and write (root may always)
    assert check.ok and "card0" in check.detail


def test_missing_kmsdrm_libraries_name_their_packages(tmp_path: Path):
    found = {"EGL": "libEGL.so.1", "GLESv2": None, "gbm": None, "drm": "libdrm.so.2"}
    check = health.check_gl_libraries(find=found.get, dirs=[tmp_path])
    assert not check.ok and check.fix == "sudo apt install libgles2 libgbm1 libgl1-mesa-dri"
    (tmp_path / "dri").mkdir()
    (tmp_path / "dri" / "v3d_dri.so").write_bytes(b"")
    check = health.check_gl_libraries(find=lambda name: f"lib{name}.so", dirs=[tmp_path])
    assert check.ok and check.detail.endswith(f"the driver {tmp_path / 'dri' / 'v3d_dri.so'}")


def test_libraries_without_mesas_driver_fail_naming_the_package(tmp_path: Path):
    """Bookworm Lite: libgbm1 is there but does not depend on the vc4/v3d driver it loads."""
    lib = tmp_path / "usr" / "lib" / "aarch64-linux-gnu"
    lib.mkdir(parents=True)
    (lib / "libgbm.so.1").write_bytes(b"")
    check = health.check_gl_libraries(find=lambda name: f"lib{name}.so", dirs=[lib])
    assert not check.ok and check.fix == "sudo apt install libgl1-mesa-dri"
    assert "Mesa's DRI driver" in check.detail and str(lib) in check.detail
    (lib / "libgallium-25.0.7-1+rpt1.so").write_bytes(b"")  # Trixie: the drivers live in it
    assert health.check_gl_libraries(find=lambda name: f"lib{name}.so", dirs=[lib]).ok


def test_library_dirs_follow_libgl_drivers_path_first():
    dirs = health.library_dirs({"LIBGL_DRIVERS_PATH": "/opt/mesa/lib/dri"})
    assert dirs[0] == Path("/opt/mesa/lib") and Path("/usr/lib/aarch64-linux-gnu") in dirs


def test_panel_rotation_fails_when_the_boot_files_turn_it_too():
    check = health.check_panel_rotation(["/proc/cmdline: video=DSI-1:720x1280@60,rotate=90"])
    assert not check.ok and "turned twice" in check.detail and "rotate=90" in check.detail
    assert "[screen] rotate" in check.fix
    assert health.check_panel_rotation([]).ok


def _cards(tmp_path: Path, *connectors: str) -> tuple[Path, Path]:
    dri, sysfs = tmp_path / "dri", tmp_path / "sys"
    dri.mkdir()
    sysfs.mkdir()
    for name in ("card0", "card1", "renderD128"):
        (dri / name).write_bytes(b"")
    for connector in connectors:
        (sysfs / connector).mkdir()
    return dri, sysfs


def test_drm_master_free_passes_on_the_card_with_connectors(tmp_path: Path):
    """A Pi 5: card0 is the render-only v3d, card1 drives the DSI panel."""
    dri, sysfs = _cards(tmp_path, "card1-DSI-1", "card1-HDMI-A-1")
    tried: list[str] = []
    check = health.check_drm_master(dri, sysfs, lambda card: tried.append(card.name) or 0)
    assert check.ok and tried == ["card1"] and "card1 is free" in check.detail


def test_drm_master_held_names_the_holder_and_the_fix(tmp_path: Path):
    dri, sysfs = _cards(tmp_path, "card1-HDMI-A-1")
    check = health.check_drm_master(
        dri, sysfs, lambda card: errno.EBUSY, lambda card: ["lightdm (pid 612)", "Xorg (pid 640)"]
    )
    assert not check.ok
    assert "held by lightdm (pid 612), Xorg (pid 640)" in check.detail
    assert "multi-user.target" in check.fix and "display-manager" in check.fix


def test_drm_master_refused_for_permissions_says_so(tmp_path: Path):
    dri, sysfs = _cards(tmp_path, "card0-HDMI-A-1")
    check = health.check_drm_master(dri, sysfs, lambda card: errno.EACCES)
    assert not check.ok and "Permission denied" in check.detail and "video" in check.fix


def test_card_holders_reads_the_processes_open_files(tmp_path: Path):
    card = tmp_path / "card1"
    card.write_bytes(b"")
    proc = tmp_path / "proc"
    for pid, command, target in (("612", "lightdm", card), ("700", "bash", tmp_path / "x")):
        (proc / pid / "fd").mkdir(parents=True)
        (proc / pid / "comm").write_text(command + "\n")
        (proc / pid / "fd" / "9").symlink_to(target)
    assert health.card_holders(card, proc) == ["lightdm (pid 612)"]


def test_try_drm_master_on_a_file_that_is_no_card_reports_an_error(tmp_path: Path):
    not_a_card = tmp_path / "card0"
    not_a_card.write_bytes(b"")
    assert health.try_drm_master(not_a_card) != 0  # ENOTTY: the ioctl means nothing to a file
    assert health.try_drm_master(tmp_path / "missing") == errno.ENOENT


def test_camera_check_takes_one_photo_and_times_it():
    config = parse_config().camera
    check = health.check_camera(
        config, make=lambda c: FunctionCamera(lambda: np.zeros((30, 40, 3), np.uint8), "fake")
    )
    assert check.ok and "one 40x30 photo in" in check.detail
    assert check.to_json()["capture_seconds"] >= 0
    broken = health.check_camera(config, make=lambda c: NoCamera("no Pi camera found"))
    assert not broken.ok and "no Pi camera found" in broken.detail and "ribbon cable" in broken.fix


def test_pins_check_names_a_busy_pin_and_its_key():
    factory = simulated_pin_factory()
    try:
        config = parse_config()
        assert health.check_pins(config, factory).ok
        other = Button(22, pin_factory=factory)  # the encoder push pin is taken
        check = health.check_pins(config, factory, service_running=True)
        assert not check.ok
        assert (
            check.detail == "pins.encoder_button: GPIO22 (pin 15) is already used by another device"
        )
        assert "systemctl stop tablekeeper" in check.fix
        other.close()
    finally:
        factory.reset()


def test_state_directory_must_be_writable_roomy_and_survive_power_off(tmp_path: Path):
    check = health.check_state_dir(tmp_path / "state", fs_type=lambda path: "ext4")
    assert check.ok and "writable (ext4)" in check.detail
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert not health.check_state_dir(blocked / "state").ok
    volatile = health.check_state_dir(tmp_path, fs_type=lambda path: "overlay")
    assert not volatile.ok and "lost at power-off" in volatile.detail
    assert health.check_state_dir(tmp_path, volatile_ok=True, fs_type=lambda path: "tmpfs").ok


def test_filesystem_type_picks_the_deepest_mount(tmp_path: Path):
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(
        "22 1 179:2 / / rw,relatime shared:1 - overlay overlayroot rw\n"
        "30 22 179:3 / /data rw,relatime shared:2 - ext4 /dev/mmcblk0p3 rw\n"
    )
    assert health.filesystem_type(Path("/data/tablekeeper"), mountinfo) == "ext4"
    assert health.filesystem_type(Path("/var/lib/tablekeeper"), mountinfo) == "overlay"


def modules(**found: object):
    def load(name: str) -> object:
        value = found[name]
        if isinstance(value, Exception):
            raise value
        return value

    return load


def test_numpy_2_in_the_venv_against_apt_picamera2_on_numpy_1_fails():
    load = modules(
        numpy=types.SimpleNamespace(__version__="2.2.6"),
        cv2=types.SimpleNamespace(__version__="4.12.0"),
        picamera2=types.SimpleNamespace(__version__="0.3.27"),
    )
    check = health.check_library_versions(
        True, apt=lambda package: "1:1.24.2-1+deb12u1", installed=lambda name: True, load=load
    )
    assert not check.ok and "apt's picamera2 is built on apt's numpy 1:1.24.2" in check.detail
    assert "numpy<2" in check.fix
    agreeing = health.check_library_versions(
        True,
        apt=lambda package: "1:1.24.2-1",
        installed=lambda name: True,
        load=modules(
            numpy=types.SimpleNamespace(__version__="1.24.2"),
            cv2=types.SimpleNamespace(__version__="4.11.0"),
            picamera2=types.SimpleNamespace(__version__="0.3.27"),
        ),
    )
    assert agreeing.ok and "picamera2 0.3.27" in agreeing.detail


def test_opencv_or_picamera2_that_does_not_load_fails():
    numpy = types.SimpleNamespace(__version__="1.24.2")
    no_cv2 = health.check_library_versions(
        False,
        apt=lambda p: "",
        installed=lambda n: False,
        load=modules(numpy=numpy, cv2=ImportError("numpy.core.multiarray failed to import")),
    )
    assert not no_cv2.ok and "OpenCV does not load" in no_cv2.detail
    broken = health.check_library_versions(
        True,
        apt=lambda p: "",
        installed=lambda n: True,
        load=modules(
            numpy=numpy,
            cv2=types.SimpleNamespace(__version__="4.11.0"),
            picamera2=ValueError("numpy.dtype size changed"),
        ),
    )
    assert not broken.ok and "picamera2 does not load: numpy.dtype size changed" in broken.detail
    needed = health.check_library_versions(
        True,
        apt=lambda p: "",
        installed=lambda n: False,
        load=modules(numpy=numpy, cv2=types.SimpleNamespace(__version__="4.11.0")),
    )
    assert not needed.ok and "apt install python3-picamera2" in needed.fix


def systemctl(text: str):
    return lambda command: subprocess.CompletedProcess(command, 0, stdout=text, stderr="")


@pytest.mark.parametrize(
    ("shown", "ok", "fix"),
    [
        ("LoadState=not-found\n", False, "install.sh"),
        ("LoadState=loaded\nUnitFileState=disabled\nActiveState=inactive\n", False, "enable"),
        (
            "LoadState=loaded\nUnitFileState=enabled\nActiveState=activating\n"
            "SubState=auto-restart\nResult=exit-code\nExecMainStatus=2\nNRestarts=7\n",
            False,
            "journalctl",
        ),
        (
            "LoadState=loaded\nUnitFileState=enabled\nActiveState=inactive\nSubState=dead\n"
            "Result=success\nExecMainStatus=0\nNRestarts=0\n",
            True,
            "",
        ),
    ],
)
def test_service_check(tmp_path: Path, shown: str, ok: bool, fix: str):
    check = health.check_service(tmp_path, runner=systemctl(shown))
    assert check.ok is ok and fix in check.fix


def test_service_check_mentions_the_noted_failure(tmp_path: Path):
    (tmp_path / "last-exit").write_text("result=watchdog\ncode=killed\nstatus=ABRT\nwhen=1\n")
    shown = "LoadState=loaded\nUnitFileState=enabled\nActiveState=active\nSubState=running\n"
    check = health.check_service(tmp_path, runner=systemctl(shown))
    assert check.ok and "watchdog restarted it" in check.detail


def test_a_check_that_crashes_is_a_failed_check():
    def broken() -> health.Check:
        raise OSError("no /proc")

    check = health.timed("camera", broken)
    assert not check.ok and "the check itself failed: OSError: no /proc" in check.detail
    assert check.seconds is not None
