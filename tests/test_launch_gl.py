"""The appliance refuses to start KMSDRM (no desktop) when SDL's EGL/GBM libraries are missing,
with one line naming them and the apt line; never when another video driver is in use."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero import Device

from display.cli import main
from display.launch import kmsdrm_libraries_missing

FOUND = {
    "EGL": "libEGL.so.1",
    "GLESv2": "libGLESv2.so.2",
    "gbm": "libgbm.so.1",
    "drm": "libdrm.so.2",
}


def finder(*absent: str):
    return lambda name: None if name in absent else FOUND[name]


@pytest.fixture
def mesa(tmp_path: Path) -> Path:
    """A fake library folder holding Bookworm's Pi driver (dri/vc4_dri.so)."""
    folder = tmp_path / "lib" / "aarch64-linux-gnu"
    (folder / "dri").mkdir(parents=True)
    (folder / "dri" / "vc4_dri.so").write_bytes(b"")
    return folder


@pytest.mark.parametrize(
    "environ", [{"SDL_VIDEODRIVER": "kmsdrm"}, {"SDL_VIDEODRIVER": "KMSDRM"}, {}]
)
def test_kmsdrm_without_the_libraries_names_them_and_the_apt_line(
    environ: dict[str, str], mesa: Path
):
    problem = kmsdrm_libraries_missing(environ, finder("EGL", "gbm"), [mesa])
    assert problem is not None and "\n" not in problem
    assert "libEGL, libgbm not found" in problem
    assert problem.endswith("sudo apt install libegl1 libgbm1")
    assert "GLESv2" not in problem and "libdrm" not in problem


@pytest.mark.parametrize(
    "environ",
    [
        {"SDL_VIDEODRIVER": "dummy"},
        {"SDL_VIDEODRIVER": "x11"},
        {"SDL_VIDEODRIVER": "wayland"},
        {"DISPLAY": ":0"},  # no driver chosen, but a desktop: SDL takes its driver
        {"WAYLAND_DISPLAY": "wayland-0"},
    ],
)
def test_other_drivers_and_desktops_are_never_checked(environ: dict[str, str]):
    def find(name: str) -> str | None:
        raise AssertionError("looked for a library")

    assert kmsdrm_libraries_missing(environ, find) is None


def test_with_every_library_found_kmsdrm_starts(mesa: Path):
    assert kmsdrm_libraries_missing({"SDL_VIDEODRIVER": "kmsdrm"}, finder(), [mesa]) is None


def test_trixies_libgallium_is_the_driver(tmp_path: Path):
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "libgallium-25.0.7-1+rpt1.so").write_bytes(b"")
    assert kmsdrm_libraries_missing({"SDL_VIDEODRIVER": "kmsdrm"}, finder(), [folder]) is None


def test_libraries_without_the_mesa_driver_name_its_package(tmp_path: Path):
    """Bookworm Lite: libEGL, libgbm... are there, the vc4 driver they load is not (a fake
    library path with everything but dri/)."""
    folder = tmp_path / "lib" / "aarch64-linux-gnu"
    folder.mkdir(parents=True)
    for name in FOUND.values():
        (folder / name).write_bytes(b"")
    problem = kmsdrm_libraries_missing({"SDL_VIDEODRIVER": "kmsdrm"}, finder(), [folder])
    assert problem is not None and "\n" not in problem
    assert "DRI driver" in problem and problem.endswith("sudo apt install libgl1-mesa-dri")
    both = kmsdrm_libraries_missing({}, finder("gbm"), [folder])
    assert both is not None and both.endswith("sudo apt install libgbm1 libgl1-mesa-dri")


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    monkeypatch.setattr("display.cli.COMMAND_MODULES", ["display.commands.app"])
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.reset()


def test_tablekeeper_run_exits_2_before_opening_anything(isolated, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    monkeypatch.setattr("ctypes.util.find_library", finder("GLESv2"))
    monkeypatch.setattr("display.launch.library_dirs", lambda environ: [tmp_path / "none"])
    state = tmp_path / "state"
    assert main(["run", "--state-dir", str(state)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "libGLESv2 not found" in err and "sudo apt install libgles2 libgl1-mesa-dri" in err
    assert not state.exists()  # refused before the store (or GPIO, or the panel) was opened
