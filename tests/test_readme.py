"""Every command the README shows runs as shown.

The commands are taken from the README's shell code blocks (```sh or a bare ```): each line that
starts with ``tablekeeper``, ``.venv/bin/tablekeeper``, ``make``, ``sudo``, ``git`` or
``journalctl``, with its ``\\`` continuation lines, without its ``# comment``. Optional parts in
``[brackets]`` are left out (the command as a reader first types it). They run in README order,
in one working folder, through ``bash``, with ``~`` a fresh home whose state folder holds an
enrolled Remix and Mixtape deck, and with the files a reader would have made beside them:

    hands.txt   a batch of Remix hands            HAND.jpg   a photo of a Remix hand
    TAPE.jpg    a photo of a mixtape              FOLDER/    one image per card, named by card
    events.txt  the README's solo game at a table (its ```text block)
    PHOTO       a photo of three cards (A, B, C)  DIR        (made by `vision enroll`)

A command exits 0 without a traceback, or is skipped with the one-line reason of SKIPS.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from display.checks.scenes import columns_scene, enrol_directly, example_mixtape_enrolment, scene
from display.checks.scenes import write as write_image
from games.remix import default_catalogue

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
STARTS = ("tablekeeper ", ".venv/bin/tablekeeper ", "make ", "sudo ", "git ", "journalctl ")
#: (what the command starts with or contains, why it is not run here)
SKIPS = [
    ("make run", "opens the appliance's window: needs a display"),
    ("make test", "is this test suite"),
    ("../shared", "needs ../shared/ (the real-card photos) beside the repository"),
    ("sudo ", "installs the service on a Raspberry Pi (root, systemd)"),
    ("git clone", "the Raspberry Pi installation's first step (a network clone)"),
    ("journalctl", "reads the Raspberry Pi's service log (systemd)"),
]
REMIX_HAND = ["MR06", "MR07", "MR21", "MR22", "MR72", "MR41", "MR44"]  # the README's first hand
TAPE = (["EX01", "EX03", "EX05"], ["EX02", "EX04"])


def readme_commands(text: str) -> list[tuple[str, str]]:
    """(the command as shown, the command as run) for every command of the README."""
    commands: list[tuple[str, str]] = []
    language = None
    pending = ""
    for line in text.splitlines():
        if line.startswith("```"):
            language = line[3:].strip() if language is None else None
            continue
        if language not in ("sh", ""):
            continue
        if pending:
            line = pending + " " + line.strip()
            pending = ""
        elif not line.startswith(STARTS):
            continue
        if line.rstrip().endswith("\\"):
            pending = line.rstrip()[:-1].rstrip()
            continue
        commands.append((" ".join(line.split()), _plain(line)))
    return commands


def _plain(line: str) -> str:
    """Without its comment and optional [parts]; one space between words."""
    line = re.sub(r"\s#\s.*$", "", line)  # a comment (never inside these commands' quotes)
    while re.search(r"\[[^\[\]]*\]", line):
        line = re.sub(r"\s*\[[^\[\]]*\]", "", line)
    return " ".join(line.split())


COMMANDS = readme_commands(README.read_text(encoding="utf-8"))


def skip_reason(shown: str) -> str | None:
    for marker, reason in SKIPS:
        if shown.startswith(marker) or (marker.startswith("../") and marker in shown):
            return reason
    return None


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    work = tmp_path_factory.mktemp("readme")
    home = work / "home"
    state = home / ".local" / "state" / "tablekeeper"
    names = {card.id: card.name for card in default_catalogue()}
    enrol_directly(state, "remix", {card_id: names[card_id] for card_id in REMIX_HAND})
    example_mixtape_enrolment(state)
    (work / "hands.txt").write_text(
        "# two hands\nCaptain America, Colossus, MR21, Vision, Mystique, Vibranium Shield, "
        "Falling Debris\nLoki, Angel, Beast, loki-draw=Fearless\n",
        encoding="utf-8",
    )
    table_game = re.search(r"```text\n(setup .*?)```", README.read_text(encoding="utf-8"), re.S)
    assert table_game, "the README shows a solo game at a table in a ```text block"
    (work / "events.txt").write_text(table_game.group(1), encoding="utf-8")
    write_image(work / "HAND.jpg", scene([names[i] for i in REMIX_HAND], 5))
    write_image(work / "TAPE.jpg", columns_scene(*TAPE, seed=6))
    for name in ("Lantern", "Harbour", "Red Kite"):
        write_image(work / "FOLDER" / f"{name}.jpg", scene([name], 7, layout="rows"))
    os.replace(write_image(work / "PHOTO.jpg", scene(["A", "B", "C"], 8)), work / "PHOTO")
    (work / ".venv").mkdir()
    (work / ".venv" / "bin").symlink_to(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "TABLEKEEPER"))}
    (work / "tmp").mkdir()  # `tablekeeper demo` without --out writes into a new temporary folder
    env.update(HOME=str(home), TMPDIR=str(work / "tmp"))
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    yield work, env


def test_the_readme_shows_commands() -> None:
    assert len(COMMANDS) >= 20
    run = [command for _, command in COMMANDS]
    assert "tablekeeper mixtape score --deck example --a EX01,EX03 --b EX02" in run


@pytest.mark.parametrize(("shown", "command"), COMMANDS, ids=[shown for shown, _ in COMMANDS])
def test_a_readme_command_runs_as_shown(
    shown: str, command: str, workspace: tuple[Path, dict[str, str]]
) -> None:
    reason = skip_reason(shown)
    if reason is not None:
        pytest.skip(reason)
    work, env = workspace
    result = subprocess.run(
        ["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, f"{command}\n{result.stdout[-800:]}\n{result.stderr[-1500:]}"
    assert "Traceback" not in result.stderr
