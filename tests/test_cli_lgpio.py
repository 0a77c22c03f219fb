"""The CLI gives lgpio a folder it can write its pipes in (LG_WD) before any command runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from display.cli import ensure_lgpio_workdir


def test_a_set_lg_wd_is_kept(tmp_path: Path):
    environ = {"LG_WD": str(tmp_path), "XDG_RUNTIME_DIR": "/elsewhere"}
    assert ensure_lgpio_workdir(environ) == str(tmp_path)
    assert environ["LG_WD"] == str(tmp_path)


def test_the_runtime_directory_when_unset(tmp_path: Path):
    environ = {"XDG_RUNTIME_DIR": str(tmp_path)}
    assert ensure_lgpio_workdir(environ) == str(tmp_path)
    assert environ["LG_WD"] == str(tmp_path)


def test_a_private_temporary_folder_without_a_runtime_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    environ = {"XDG_RUNTIME_DIR": str(tmp_path / "gone")}
    chosen = Path(ensure_lgpio_workdir(environ))
    assert chosen == tmp_path / f"tablekeeper-{os.getuid()}"
    assert chosen.is_dir() and chosen.stat().st_mode & 0o777 == 0o700
    assert os.access(chosen, os.W_OK)


def test_a_command_run_from_an_unwritable_folder_gets_a_writable_lg_wd(tmp_path: Path):
    """As `sudo -u tablekeeper .../tablekeeper doctor` from a home directory: the current
    directory is not writable and neither LG_WD nor XDG_RUNTIME_DIR is set."""
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)  # (root writes in it anyway; the point is LG_WD is not it)
    probe = (
        "import os, sys; from display.cli import main; "
        "main(['config', '--defaults']) ; sys.stderr.write(os.environ['LG_WD'])"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("LG_WD", "XDG_RUNTIME_DIR")}
    env["TMPDIR"] = str(tmp_path)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=locked,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lg_wd = Path(done.stderr.strip().splitlines()[-1])
    assert lg_wd == tmp_path / f"tablekeeper-{os.getuid()}" and lg_wd.is_dir()
