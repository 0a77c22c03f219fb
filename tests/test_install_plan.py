"""systemd/install.sh plans by OS release (Bookworm and Trixie os-release files are fixtures), and
the pyproject `pi` extra says the same as the per-release requirement files."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parent.parent
INSTALL = REPO / "systemd" / "install.sh"
RELEASES = Path(__file__).resolve().parent / "fixtures" / "os-release"
RPI_ARCHIVE_PACKAGES = {"python3-picamera2", "python3-libcamera", "python3-lgpio"}
KMSDRM_LIBRARIES = {"libegl1", "libgles2", "libgbm1", "libdrm2"}


def plan(
    release: str, *extra: str, fake_bin: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """install.sh --dry-run for ``release``; ``fake_bin``: a folder of stand-in commands
    (systemctl, dpkg-query) put first on the PATH, as on a Pi with a desktop."""
    env = dict(os.environ)
    if fake_bin is not None:
        env["PATH"] = f"{fake_bin}:{env['PATH']}"
    return subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--os-release", str(RELEASES / release), *extra],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def fake_commands(folder: Path, default_target: str, installed: dict[str, str]) -> Path:
    """A systemctl that answers get-default (lightdm as the display manager) and a dpkg-query
    that knows ``installed`` ({package: status})."""
    folder.mkdir(exist_ok=True)
    systemctl = folder / "systemctl"
    systemctl.write_text(
        "#!/bin/sh\n"
        f'case "$1" in get-default) echo {default_target} ;; show) echo lightdm.service ;; '
        "*) exit 1 ;; esac\n"
    )
    listing = "".join(f"{name} {status}\\n" for name, status in installed.items())
    dpkg_query = folder / "dpkg-query"
    dpkg_query.write_text(f"#!/bin/sh\nprintf '{listing}'\n[ -n '{listing}' ]\n")
    for command in (systemctl, dpkg_query):
        command.chmod(0o755)
    return folder


def plan_lines(out: str) -> dict[str, str]:
    lines = {}
    for line in out.splitlines():
        if line.startswith("plan "):
            key, _, value = line[5:].partition(": ")
            lines[key] = value
    return lines


def requirement_file(release: str) -> list[str]:
    text = (REPO / "systemd" / f"requirements-{release}.txt").read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def test_bookworm_keeps_numpy_1_and_opencv_below_4_12():
    result = plan("bookworm", "--prefix", "/srv/tk")
    assert result.returncode == 0, result.stderr
    lines = plan_lines(result.stdout)
    assert lines["release"] == "bookworm (Python 3.11)"
    apt = set(lines["apt"].split())
    assert KMSDRM_LIBRARIES <= apt and RPI_ARCHIVE_PACKAGES <= apt
    assert "libgl1-mesa-dri" in apt  # the vc4/v3d driver Bookworm's libgbm1 loads
    assert "rpicam-apps-lite" in apt and "libcamera-apps-lite" not in apt
    assert lines["pip"].startswith("numpy<2 opencv-python-headless<4.12 ")
    assert "--requirement /srv/tk/systemd/requirements-bookworm.txt /srv/tk" in result.stdout
    assert "restart-pace.conf" not in result.stdout  # systemd 252 has no RestartSteps=


def test_trixie_uses_numpy_2_from_apt_current_opencv_and_apt_lgpio():
    result = plan("trixie")
    assert result.returncode == 0, result.stderr
    lines = plan_lines(result.stdout)
    assert lines["release"] == "trixie (Python 3.13)"
    apt = set(lines["apt"].split())
    assert {"python3-numpy", "python3-lgpio"} <= apt and KMSDRM_LIBRARIES <= apt
    assert "rpicam-apps-lite" in apt
    assert lines["pip"].startswith("numpy>=2 opencv-python-headless>=4.12,<5 ")
    assert "numpy<2" not in result.stdout and "lgpio" not in lines["pip"]
    assert "requirements-trixie.txt" in result.stdout
    assert "restart-pace.conf (RestartSec=2, RestartSteps=5, RestartMaxDelaySec=60)" in (
        result.stdout
    )


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_the_raspberry_pi_archive_packages_are_named_as_such(release: str):
    result = plan(release)
    archive = plan_lines(result.stdout)[
        "apt from the Raspberry Pi archive (http://archive.raspberrypi.com/debian/)"
    ]
    assert RPI_ARCHIVE_PACKAGES <= set(archive.split())
    assert "+ check that apt can find python3-picamera2" in result.stdout


def test_an_older_release_is_refused_with_the_reason():
    result = plan("bullseye")
    assert result.returncode == 2
    assert "bullseye" in result.stderr and "Bookworm (12) or Trixie (13)" in result.stderr
    assert "apt-get" not in result.stdout


def test_a_missing_os_release_file_is_bad_usage(tmp_path: Path):
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--os-release", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "cannot read" in result.stderr


@pytest.mark.parametrize(("release", "python"), [("bookworm", "3.11"), ("trixie", "3.13")])
def test_the_pi_extra_says_what_the_release_files_say(release: str, python: str):
    """pip cannot tell OS releases apart, but each release has its own Python: the extra's
    markers pick the same pins as systemd/requirements-RELEASE.txt."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    environment = {"python_version": python, "python_full_version": f"{python}.0"}
    extra = [Requirement(text) for text in project["optional-dependencies"]["pi"]]
    chosen = {
        f"{r.name}{r.specifier}"
        for r in extra
        if r.marker is None or r.marker.evaluate(environment)
    }
    expected = {str(Requirement(line)) for line in requirement_file(release)}
    # lgpio: apt's python3-lgpio on Raspberry Pi OS; the extra adds the wheel where one exists.
    assert chosen - {"lgpio>=0.2"} == expected


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_a_graphical_default_target_is_warned_about_with_what_to_do(release: str, tmp_path: Path):
    result = plan(release, fake_bin=fake_commands(tmp_path / "bin", "graphical.target", {}))
    assert result.returncode == 0, result.stderr
    warning = result.stderr
    assert "warning: this Pi boots to the desktop (graphical.target)" in warning
    assert "lightdm.service holds the" in warning
    assert "sudo systemctl set-default multi-user.target" in warning
    assert "sudo systemctl stop display-manager.service" in warning


def test_a_console_default_target_gets_no_warning(tmp_path: Path):
    result = plan("bookworm", fake_bin=fake_commands(tmp_path / "bin", "multi-user.target", {}))
    assert result.returncode == 0 and "warning" not in result.stderr


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_installed_rpicam_apps_are_kept_not_replaced_by_the_lite_ones(release: str, tmp_path: Path):
    """A Desktop image has the full rpicam-apps: the lite package would overwrite its files."""
    bin_dir = fake_commands(
        tmp_path / "bin",
        "multi-user.target",
        {"rpicam-apps": "installed", "rpicam-apps-lite": "not-installed"},
    )
    lines = plan_lines(plan(release, fake_bin=bin_dir).stdout)
    assert "rpicam-apps-lite" not in lines["apt"].split()
    assert lines["camera tools"] == "rpicam-apps is installed: kept"
    archive = next(value for key, value in lines.items() if key.startswith("apt from"))
    assert archive.split() == ["python3-picamera2", "python3-libcamera", "python3-lgpio"]


def test_a_removed_rpicam_apps_does_not_count_as_installed(tmp_path: Path):
    bin_dir = fake_commands(tmp_path / "bin", "multi-user.target", {"rpicam-apps": "config-files"})
    lines = plan_lines(plan("trixie", fake_bin=bin_dir).stdout)
    assert "rpicam-apps-lite" in lines["apt"].split()
    assert lines["camera tools"] == "rpicam-apps-lite"
