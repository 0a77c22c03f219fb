"""Least privilege (issue 35): doctor's write probe never writes through a planted link; the
install script validates --prefix before changing anything and leaves everything it installs
root's; the unit's sandbox rates below 5.0 on ``systemd-analyze security`` and still opens the
devices the appliance uses."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from device import health

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "tablekeeper.service"
INSTALL = REPO / "systemd" / "install.sh"
BOOKWORM = str(Path(__file__).resolve().parent / "fixtures" / "os-release" / "bookworm")


def test_doctor_probe_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    victim = tmp_path / "shadow"
    victim.write_text("precious\n")
    state = tmp_path / "state"
    state.mkdir()
    (state / ".doctor-write-test").symlink_to(victim)
    check = health.check_state_dir(state, fs_type=lambda path: "ext4")
    assert check.ok, check.detail
    assert victim.read_text() == "precious\n"
    assert sorted(p.name for p in state.iterdir()) == [".doctor-write-test"]  # probe removed


def _dry_run(prefix: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--prefix", prefix, "--os-release", BOOKWORM],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("prefix", ["/opt/a&b", "/opt/a#b", "opt/tk", "/opt/../etc", "/", "/a b"])
def test_a_bad_prefix_is_refused_before_anything_changes(prefix: str) -> None:
    result = _dry_run(prefix)
    assert result.returncode == 2 and "--prefix" in result.stderr
    assert "+ " not in result.stdout and "== " not in result.stdout  # not one step planned


def test_everything_installed_is_roots() -> None:
    result = _dry_run("/srv/tk/")
    assert result.returncode == 0, result.stderr
    assert "+ chown -R root:root /srv/tk\n" in result.stdout
    assert "+ chmod -R go-w /srv/tk\n" in result.stdout
    text = INSTALL.read_text()
    assert "--no-same-owner" in text  # tar as root would keep the checkout's owner


def test_the_sandbox_keeps_what_the_appliance_needs() -> None:
    settings = [line for line in UNIT.read_text().splitlines() if not line.startswith("#")]
    allowed = {line.split("=", 1)[1].split()[0] for line in settings if "DeviceAllow=" in line}
    assert {"char-drm", "char-input", "char-gpiochip", "char-video4linux", "char-media"} <= allowed
    assert "SupplementaryGroups=video render input gpio" in settings
    assert "RestrictAddressFamilies=AF_UNIX AF_NETLINK" in settings  # sd_notify, udev
    assert not any(line.startswith(("PrivateUsers=", "PrivateDevices=")) for line in settings)
    assert any(line.startswith("MemoryMax=") for line in settings)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_the_unit_rates_below_5(tmp_path: Path) -> None:
    unit = tmp_path / "tablekeeper.service"
    unit.write_text(UNIT.read_text().replace("/opt/tablekeeper/.venv/bin/tablekeeper", "/bin/true"))
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d)", result.stdout)
    if found is None:
        pytest.skip(f"systemd-analyze security --offline is not available: {result.stderr[:200]}")
    assert float(found.group(1)) < 5.0, result.stdout[-2000:]
