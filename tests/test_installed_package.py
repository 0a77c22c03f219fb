"""The package as install.sh installs it: a wheel, not an editable checkout.

`make test` runs against an editable install, which reads every data file straight from the
checkout and so cannot notice one that the wheel leaves out (the demos' photos once were: the
installed `tablekeeper demo` stopped after 50 of its 90 screens). Here the wheel is built, installed
into a fresh venv, and the demos and one command of each game run from there, in a folder away
from the checkout so nothing can be found in it by accident.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def demo_screens() -> int:
    """The PNGs the demo scripts write: one per ``shot`` line."""
    return sum(
        line.split("#", 1)[0].split()[:1] == ["shot"]
        for script in (REPO / "display" / "demos").glob("*.txt")
        for line in script.read_text(encoding="utf-8").splitlines()
    )


DEMO_SCREENS = demo_screens()
ROUND = {
    "players": ["Ann", "Ben", "Cat"],
    "ballots": {
        "Ann": {
            "Ann": ["neutral"],
            "Ben": ["original", "neutral"],
            "Cat": ["exciting", "composed"],
        },
        "Ben": {
            "Ben": ["neutral"],
            "Ann": ["original", "neutral"],
            "Cat": ["exciting", "composed"],
        },
        "Cat": {
            "Cat": ["neutral"],
            "Ann": ["original", "neutral"],
            "Ben": ["exciting", "composed"],
        },
    },
}


def _run(command: list[str], cwd: Path, env: dict[str, str], timeout: int = 300):
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, dict]]:
    """(the installed `tablekeeper`, a working folder outside the checkout, its environment)."""
    root = tmp_path_factory.mktemp("installed")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "VIRTUAL_ENV", "TABLEKEEPER_CONFIG", "STATE_DIRECTORY")
    }
    env |= {
        "HOME": str(root / "home"),
        "XDG_CONFIG_HOME": str(root / "home" / ".config"),
        "XDG_STATE_HOME": str(root / "home" / ".local" / "state"),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    (root / "home").mkdir()
    # From a copy: setuptools reuses a checkout's build/ folder, whose stale files would hide
    # one the package-data patterns leave out.
    source = root / "source"
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv*", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"
        ),
    )
    wheels = root / "wheels"
    built = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(wheels),
            str(source),
        ],
        root,
        env,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = wheels.glob("tablekeeper-*.whl")
    venv = root / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)], root, env)
    assert made.returncode == 0, made.stderr
    pip = _run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], root, env
    )
    assert pip.returncode == 0, pip.stderr[-2000:]
    work = root / "work"
    work.mkdir()
    yield venv / "bin" / "tablekeeper", work, env


def test_the_wheel_holds_every_data_file_of_the_checkout(tmp_path: Path, installed):
    """Whatever is not Python in the packages (demo scripts and photos, card lists, decks) is in
    the wheel: the list comes from the checkout, so a new kind of file cannot slip past."""
    wheel = next((installed[0].parents[2] / "wheels").glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    data = [
        path.relative_to(REPO).as_posix()
        for package in ("device", "vision", "games", "display")
        for path in (REPO / package).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    ]
    assert any(name.endswith(".jpg") for name in data)  # the photos the demos photograph
    assert [name for name in data if name not in names] == []


def test_the_installed_demo_runs_to_the_end(installed):
    tablekeeper, work, env = installed
    out = work / "demo"
    done = _run([str(tablekeeper), "demo", "--out", str(out)], work, env)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert f"wrote {DEMO_SCREENS} PNGs" in done.stdout
    assert len(list(out.rglob("*.png"))) == DEMO_SCREENS


def test_one_command_of_each_game_runs_installed(installed):
    tablekeeper, work, env = installed
    round_file = work / "round.json"
    round_file.write_text(json.dumps(ROUND))
    comix = _run([str(tablekeeper), "comix", "score", str(round_file), "--json"], work, env)
    assert comix.returncode == 0, comix.stderr
    assert json.loads(comix.stdout)["points"].keys() == {"Ann", "Ben", "Cat"}

    remix = _run(
        [
            str(tablekeeper),
            "remix",
            "score",
            "Loki",
            "Angel",
            "Beast",
            "--loki-draw",
            "Fearless",
            "--json",
        ],
        work,
        env,
    )
    assert remix.returncode == 0, remix.stderr
    assert json.loads(remix.stdout)["total"] == 11  # read from the packaged cards.toml

    mixtape = _run(
        [
            str(tablekeeper),
            "mixtape",
            "score",
            "--deck",
            "example",
            "--a",
            "EX01,EX03",
            "--b",
            "EX02",
            "--json",
        ],
        work,
        env,
    )
    assert mixtape.returncode == 0, mixtape.stderr
    assert json.loads(mixtape.stdout)["total"] == 23  # the packaged example deck
