"""systemd/install.sh plans by OS release (Bookworm and Trixie os-release files are fixtures), and
the pyproject `pi` extra says the same as the per-release requirement files."""

from __future__ import annotations

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


def plan(release: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--os-release", str(RELEASES / release), *extra],
        capture_output=True,
        text=True,
        timeout=60,
    )


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
    assert "libcamera-apps-lite" in apt
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
