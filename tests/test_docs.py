"""The README and the manual (docs/) show only commands that work, and outputs they really print.

Two kinds of code block hold commands:

- ```console blocks: ``$ command`` lines (a trailing ``\\`` continues on the next line), each
  followed by the output it prints (standard output, or standard output then standard error).
  The test runs every command and compares: a line ``...`` stands for any number of lines,
  ``...`` inside a line for any text, and a last line ``[exit N]`` for the exit code (otherwise
  it must be 0).
- ```sh blocks (or bare ones): every line starting with ``tablekeeper``, ``.venv/bin/tablekeeper``,
  ``make``, ``sudo``, ``git``, ``journalctl`` or ``systemctl``, with its ``\\`` continuation
  lines, without its ``# comment`` and its optional ``[parts]``. It must exit 0 without a
  traceback, or be skipped with the one-line reason of SKIPS (a Pi, a window, the network).

A paragraph ending "Save this as `NAME`:" makes the block below it a file of that name. Every
command runs in page order (README first, then docs/ by name), in one working folder, through
``bash``, with ``~`` a fresh home whose state folder holds an enrolled Remix and Mixtape deck, and
with the files a reader would have made beside them:

    hands.txt   a batch of Remix hands            HAND.jpg   a photo of a Remix hand
    TAPE.jpg    a photo of a mixtape              FOLDER/    one image per card, named by card
    PHOTO       a photo of three cards (A, B, C)  DIR        (made by `vision enroll`)

Pictures: the README's are files in the repository; the manual's ``images/demo/SCRIPT/SHOT.png``
are screens that ``tablekeeper demo`` writes (``make docs`` draws them before building).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from display.checks.scenes import columns_scene, enrol_directly, example_mixtape_enrolment, scene
from display.checks.scenes import write as write_image
from games.remix import default_catalogue

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: where this Python's tools are (tablekeeper, mkdocs): the venv the tests run in
TOOLS = Path(sys.executable).parent
PAGES = [README, *sorted(p for p in DOCS.rglob("*.md") if not p.is_symlink())]
STARTS = (
    "tablekeeper ",
    ".venv/bin/tablekeeper ",
    "make ",
    "sudo ",
    "git ",
    "journalctl ",
    "systemctl ",
)
#: (what the command starts with or contains, why it is not run here)
SKIPS = [
    ("make run", "opens the appliance's window: needs a display"),
    ("make test", "is this test suite"),
    ("make docs", "builds this manual (test_the_manual_builds does, into a temporary folder)"),
    ("make pi-emulated", "builds emulated Raspberry Pi roots: minutes of debootstrap and qemu"),
    ("make test-pi", "a second virtualenv with the Pi's libraries (CI runs it)"),
    ("make lint", "ruff and mypy over the whole tree (CI's lint step)"),
    ("../shared", "needs ../shared/ (the real-card photos) beside the repository"),
    ("sudo ", "changes a Raspberry Pi's system (root, systemd)"),
    ("systemctl ", "a Raspberry Pi's service manager"),
    ("git clone", "the Raspberry Pi installation's first step (a network clone)"),
    ("journalctl", "reads the Raspberry Pi's service log (systemd)"),
]
REMIX_HAND = ["MR06", "MR07", "MR21", "MR22", "MR72", "MR41", "MR44"]
TAPE = (["EX01", "EX03", "EX05"], ["EX02", "EX04"])
SAVE_AS = re.compile(r"Save this as `([^`/]+)`:\s*$")
EXIT = re.compile(r"\[exit (\d+)\]")


@dataclass
class Command:
    page: str
    shown: str
    run: str
    expected: list[str] | None = None  # console blocks: the output shown
    exit_code: int = 0


@dataclass
class Page:
    commands: list[Command] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)


def parse_page(path: Path) -> Page:
    """The commands and the files to save of one page, in page order."""
    page = Page()
    name = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    paragraph: list[str] = []  # the last paragraph above the next block
    closed = False  # a blank line ended it: the next text line starts a new one
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.startswith("```"):
            if not line.strip():
                closed = True
            else:
                paragraph = [line] if closed else [*paragraph, line]
                closed = False
            index += 1
            continue
        language = line[3:].strip().split(" ")[0]
        end = index + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        body = lines[index + 1 : end]
        save = SAVE_AS.search(" ".join(paragraph))
        if save:
            page.files[save.group(1)] = "\n".join(body) + "\n"
        elif language == "console":
            page.commands.extend(console_commands(name, body))
        elif language in ("sh", ""):
            page.commands.extend(shell_commands(name, body))
        paragraph = []
        index = end + 1
    return page


def console_commands(page: str, body: list[str]) -> list[Command]:
    commands: list[Command] = []
    for line in body:
        if line.startswith("$ "):
            commands.append(Command(page, line[2:], line[2:], expected=[]))
        elif commands and commands[-1].run.endswith("\\") and commands[-1].expected == []:
            commands[-1].run = commands[-1].run[:-1].rstrip() + " " + line.strip()
            commands[-1].shown = commands[-1].run
        elif commands:
            assert commands[-1].expected is not None
            exit_line = EXIT.fullmatch(line.strip())
            if exit_line:
                commands[-1].exit_code = int(exit_line.group(1))
            else:
                commands[-1].expected.append(line)
        else:
            raise AssertionError(f"{page}: a console block must start with a `$ ` line: {line}")
    return commands


def shell_commands(page: str, body: list[str]) -> list[Command]:
    commands: list[Command] = []
    pending = ""
    for line in body:
        if pending:
            line = pending + " " + line.strip()
            pending = ""
        elif not line.startswith(STARTS):
            continue
        if line.rstrip().endswith("\\"):
            pending = line.rstrip()[:-1].rstrip()
            continue
        commands.append(Command(page, " ".join(line.split()), _plain(line)))
    return commands


def _plain(line: str) -> str:
    """Without its comment and optional [parts]; one space between words."""
    line = re.sub(r"\s#\s.*$", "", line)  # a comment (never inside these commands' quotes)
    while re.search(r"\[[^\[\]]*\]", line):
        line = re.sub(r"\s*\[[^\[\]]*\]", "", line)
    return " ".join(line.split())


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the printed lines match the shown ones (``...`` lines and ``...`` in a line)."""
    want = [line.rstrip() for line in expected]
    got = [line.rstrip() for line in actual]
    while want and not want[-1]:
        want.pop()
    while got and not got[-1]:
        got.pop()
    patterns = [
        None if line.strip() == "..." else re.compile(".*".join(map(re.escape, line.split("..."))))
        for line in want
    ]
    # reachable[j]: the shown lines so far can match the first j printed lines
    reachable = [True] + [False] * len(got)
    for pattern in patterns:
        if pattern is None:
            for j in range(1, len(got) + 1):
                reachable[j] = reachable[j] or reachable[j - 1]
            continue
        reachable = [False] + [
            reachable[j - 1] and pattern.fullmatch(got[j - 1]) is not None
            for j in range(1, len(got) + 1)
        ]
    return reachable[len(got)]


PARSED = {path: parse_page(path) for path in PAGES}
COMMANDS = [command for page in PARSED.values() for command in page.commands]


def skip_reason(shown: str) -> str | None:
    for marker, reason in SKIPS:
        if shown.startswith(marker) or (marker.startswith("../") and marker in shown):
            return reason
    return None


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    work = tmp_path_factory.mktemp("docs")
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
    for page in PARSED.values():
        for name, text in page.files.items():
            (work / name).write_text(text, encoding="utf-8")
    write_image(work / "HAND.jpg", scene([names[i] for i in REMIX_HAND], 5))
    write_image(work / "TAPE.jpg", columns_scene(*TAPE, seed=6))
    for name in ("Lantern", "Harbour", "Red Kite"):
        write_image(work / "FOLDER" / f"{name}.jpg", scene([name], 7, layout="rows"))
    os.replace(write_image(work / "PHOTO.jpg", scene(["A", "B", "C"], 8)), work / "PHOTO")
    (work / ".venv").mkdir()
    (work / ".venv" / "bin").symlink_to(TOOLS)
    for folder in ("systemd", "tests", "display"):  # commands that name repository files
        if (ROOT / folder).exists():
            (work / folder).symlink_to(ROOT / folder)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "TABLEKEEPER"))}
    (work / "tmp").mkdir()  # `tablekeeper demo` without --out writes into a new temporary folder
    env.update(HOME=str(home), TMPDIR=str(work / "tmp"), COLUMNS="100")
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PATH"] = str(TOOLS) + os.pathsep + env.get("PATH", "")
    yield work, env


def test_the_pages_show_commands_and_outputs() -> None:
    assert len(COMMANDS) >= 20
    assert sum(command.expected is not None for command in COMMANDS) >= 8
    readme = [command.run for command in PARSED[README].commands]
    assert "tablekeeper mixtape score --deck example --a EX01,EX03 --b EX02" in readme


def test_files_to_save_have_one_content_per_name() -> None:
    seen: dict[str, tuple[str, str]] = {}
    for path, page in PARSED.items():
        for name, text in page.files.items():
            if name in seen:
                assert seen[name][1] == text, f"{path.name} and {seen[name][0]} both save {name}"
            seen[name] = (path.name, text)


@pytest.mark.parametrize("command", COMMANDS, ids=[f"{c.page}: {c.shown[:70]}" for c in COMMANDS])
def test_a_shown_command_runs_as_shown(
    command: Command, workspace: tuple[Path, dict[str, str]]
) -> None:
    reason = skip_reason(command.shown)
    if reason is not None:
        pytest.skip(reason)
    work, env = workspace
    result = subprocess.run(
        ["bash", "-c", command.run],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    printed = result.stdout + result.stderr
    assert "Traceback" not in printed, printed[-2000:]
    assert result.returncode == command.exit_code, f"{command.run}\n{printed[-2000:]}"
    if command.expected is not None:
        # what a reader sees: standard output, then the lines on standard error (a warning of
        # the machine's own, such as install.sh's on a desktop, may stand beside a page's output)
        shown = output_matches(command.expected, result.stdout.splitlines()) or output_matches(
            command.expected, printed.splitlines()
        )
        assert shown, (
            f"{command.page}: `{command.run}` printed\n{printed[-3000:]}\n"
            "but the page shows\n" + "\n".join(command.expected)
        )


def demo_shots() -> set[str]:
    """``SCRIPT/SHOT.png`` for every ``shot`` line of the demo scripts."""
    shots = set()
    for script in sorted((ROOT / "display" / "demos").glob("*.txt")):
        for line in script.read_text(encoding="utf-8").splitlines():
            words = line.split("#", 1)[0].split()
            if len(words) == 2 and words[0] == "shot":
                shots.add(f"{script.stem}/{words[1]}.png")
    return shots


IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def test_every_picture_shown_exists_or_is_a_demo_screen() -> None:
    shots = demo_shots()
    assert len(shots) >= 80
    for path in PAGES:
        for target in IMAGE.findall(path.read_text(encoding="utf-8")):
            if path.parent == DOCS and target.startswith("images/demo/"):
                assert target.removeprefix("images/demo/") in shots, (
                    f"{path.name} shows {target}, which `tablekeeper demo` does not write"
                )
            else:
                assert (path.parent / target).is_file(), f"{path.name} shows a missing {target}"


def test_the_readme_is_short_and_links_every_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert text.startswith("# Tablekeeper\n\n```sh\nmake run")
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in sorted(DOCS.glob("*.md")):
        if page.name in ("index.md", "changelog.md"):
            continue
        assert f"(docs/{page.name})" in text, f"the README does not link docs/{page.name}"
        assert f" {page.name}" in nav, f"mkdocs.yml's nav does not list {page.name}"


HISTORY = re.compile(
    r"rounds? of work|this stop\b|last stop\b|earlier stop|latest stop|before issue|"
    r"previous release|was \d[\d.,]* (?:ms|s|%) before|re-measured|re-run after",
    re.IGNORECASE,
)


def test_no_page_retells_history() -> None:
    for path in PAGES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not HISTORY.search(line), f"{path.name} line {number} retells history: {line}"


#: the README's picture (kept in the repository, so it shows where the README is read) and the
#: demo screen it is a copy of
README_PICTURES = {"docs/images/comix-timer.png": "20-comix/10-timer-last-seconds.png"}


@pytest.fixture(scope="module")
def manual(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of mkdocs.yml and docs/ with the demo's screens drawn into docs/images/demo."""
    folder = tmp_path_factory.mktemp("manual")
    shutil.copy(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(DOCS, folder / "docs", symlinks=False, ignore=shutil.ignore_patterns("demo"))
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    demo = subprocess.run(
        [str(TOOLS / "tablekeeper"), "demo", "--out", str(folder / "docs/images/demo")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert demo.returncode == 0, demo.stderr[-2000:]
    return folder


def test_the_readme_picture_is_todays_demo_screen(manual: Path) -> None:
    import pygame  # local: only this test reads pictures

    for kept, shot in README_PICTURES.items():
        drawn = manual / "docs/images/demo" / shot
        same = pygame.image.tobytes(pygame.image.load(ROOT / kept), "RGB") == (
            pygame.image.tobytes(pygame.image.load(drawn), "RGB")
        )
        assert same, f"the demo draws {shot} differently now: copy it to {kept}"


@pytest.mark.skipif(
    shutil.which("mkdocs", path=str(TOOLS)) is None,
    reason="mkdocs is not installed (pip install -e '.[dev]')",
)
def test_the_manual_builds(manual: Path) -> None:
    """`mkdocs build --strict` over the copy, the demo's screens drawn into it."""
    build = subprocess.run(
        [str(TOOLS / "mkdocs"), "build", "--strict", "--site-dir", str(manual / "site")],
        cwd=manual,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    assert (manual / "site" / "index.html").is_file()


TEST_NAME = re.compile(r"\b(test_[a-z0-9_]+)(\.py)?\b")


def test_every_test_a_page_names_exists() -> None:
    """A reading that names the test pinning it names a real one (and a real test file)."""
    files = {path.name for path in (ROOT / "tests").glob("test_*.py")}
    defined = {
        name
        for path in (ROOT / "tests").glob("test_*.py")
        for name in re.findall(r"^\s*def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    }
    for path in PAGES:
        for name, is_file in TEST_NAME.findall(path.read_text(encoding="utf-8")):
            if is_file:
                assert f"{name}.py" in files, f"{path.name} names a missing tests/{name}.py"
            else:
                assert name in defined, f"{path.name} names a test that does not exist: {name}"
