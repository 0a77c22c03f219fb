"""``tablekeeper check faults``: the unlucky owner's and the attacker's cases, replayed through
the real command line in child processes, one line each: what happened, held or not.

A case *holds* when it ends in a clear refusal (exit 2, one line, no traceback) or carries on,
with the game in progress kept and no file outside the state folder touched:

- ``full``: the card filled to the last byte (a tmpfs, where one can be mounted): the start is
  refused, ``state.db`` unchanged, nothing moved aside; once space is freed the game is back.
- ``lock``: another program holds the database (``locking_mode=EXCLUSIVE``); ``second``: another
  Tablekeeper holds the state folder (named by its process id).
- ``readonly``: the state folder on a read-only bind mount (where mounts are allowed).
- ``symlinks``: ``state.db`` a link to a file elsewhere, a dangling link, a FIFO as ``-wal``,
  and doctor's write probe name planted as a link.
- ``images``: the three image bombs (TIFF, JPEG with its frame header behind 128 KB of APP
  segments, WebP) through identification, the camera folder and enrolment, each child's peak
  memory measured (``os.wait4``), within :data:`PEAK_LIMIT_MB`.
- ``parsers``: TOML nested 5,000 deep and 5,000-digit integers in a config, ``run --config`` and
  a deck, and in a ballot file; duplicate keys in a ballot file.

Mounting needs root (or CAP_SYS_ADMIN); without it those cases say so and count as skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from display.store import DB_NAME, Store
from display.widgets.words import count

CASE_GROUPS = ("full", "lock", "second", "readonly", "symlinks", "images", "parsers")
#: the most memory any image file may cost a reader (the issue's bound, for a 2 GB Pi)
PEAK_LIMIT_MB = 400
#: address-space ceiling of each image child: a bomb that got through fails to allocate instead
#: of taking this machine's memory (it then fails the case: the refusal is not ours)
CHILD_ADDRESS_SPACE = 3 << 30
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Outcome:
    case: str
    held: bool | None  # None: skipped (what it needs is not available here)
    what: str

    def line(self) -> str:
        verdict = {True: "held", False: "NOT HELD", None: "skipped"}[self.held]
        return f"{self.case}: {verdict} - {self.what}"


@dataclass
class FaultsReport:
    outcomes: list[Outcome] = field(default_factory=list)
    peaks_mb: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(o.held is not False for o in self.outcomes)

    def lines(self) -> list[str]:
        held = sum(o.held is True for o in self.outcomes)
        skipped = sum(o.held is None for o in self.outcomes)
        lines = [o.line() for o in self.outcomes]
        summary = f"faults: {held}/{len(self.outcomes)} cases held"
        if skipped:
            summary += f", {skipped} skipped"
        bombs = [mb for name, mb in self.peaks_mb.items() if name != "largest allowed photo"]
        if bombs:
            summary += f"; peak memory: an image bomb {max(bombs)} MB"
        if "largest allowed photo" in self.peaks_mb:
            summary += f", the largest allowed photo {self.peaks_mb['largest allowed photo']} MB"
        if self.peaks_mb:
            summary += f" (limit {PEAK_LIMIT_MB} MB)"
        return [*lines, summary]


@dataclass
class Child:
    code: int
    out: str
    err: str
    peak_mb: int


#: Runs a Python child (``-m MODULE ...`` or ``-c CODE ...``) and, however it exits, writes its
#: peak resident memory (VmHWM, kB) to the file named first. Not ``ru_maxrss``: Linux carries
#: the parent's high-water mark across fork and exec into it, so a large parent would show.
PEAK_WRAPPER = """
import atexit, runpy, sys
peak_file = sys.argv.pop(1)
def _report():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(peak_file, "w") as out:
        out.write(peak)
atexit.register(_report)
mode, target = sys.argv[1], sys.argv[2]
sys.argv = [target, *sys.argv[3:]]
if mode == "-m":
    runpy.run_module(target, run_name="__main__", alter_sys=True)
else:
    sys.argv[0] = "-c"
    exec(compile(target, "<child>", "exec"), {"__name__": "__main__"})
"""


def run_child(argv: list[str], limit_memory: bool = False, cwd: Path = ROOT) -> Child:
    """``argv`` (``[python, -m|-c, ...]``) in a child; its exit code, output and peak resident
    memory (its own, see :data:`PEAK_WRAPPER`)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("OPENCV_IO_MAX_IMAGE_PIXELS", None)  # the child must set it itself
    env["PYTHONPATH"] = str(ROOT)

    def limit() -> None:
        if limit_memory:
            resource.setrlimit(resource.RLIMIT_AS, (CHILD_ADDRESS_SPACE, CHILD_ADDRESS_SPACE))

    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile("r") as peak,
    ):
        command = [argv[0], "-c", PEAK_WRAPPER, peak.name, *argv[1:]]
        process = subprocess.run(
            command, stdout=out, stderr=err, cwd=cwd, env=env, preexec_fn=limit, check=False
        )
        out.seek(0)
        err.seek(0)
        peak_text = peak.read().strip()
        return Child(
            process.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            int(peak_text) // 1024 if peak_text.isdigit() else -1,
        )


def tablekeeper(*args: str, limit_memory: bool = False) -> Child:
    return run_child([sys.executable, "-m", "display", *args], limit_memory=limit_memory)


def refused(child: Child, *words: str) -> tuple[bool, str]:
    """Exit 2 with one line (holding ``words``), no traceback: (held, the line)."""
    lines = child.err.strip().splitlines()
    line = lines[-1] if lines else "(nothing on stderr)"
    if child.code != 2 or len(lines) != 1 or "Traceback" in child.err:
        return False, f"exit {child.code}, {count(len(lines), 'line')} on stderr: {line[:160]}"
    missing = [word for word in words if word.lower() not in line.lower()]
    if missing:
        return False, f"exit 2 but the line does not say {missing}: {line[:160]}"
    return True, line.removeprefix("tablekeeper: ")


# -- the state folder ------------------------------------------------------------------------------
GAME = {"round": 2, "scores": {"Ann": 3, "Ben": 5}}


def _plant_game(state: Path) -> None:
    store = Store(state)
    store.put("comix", "game", GAME)
    store.save_stack([{"kind": "home", "snapshot": {}}])
    store.commit()
    store.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _script(folder: Path) -> Path:
    script = folder / "script.txt"
    script.write_text("advance 0.1\n")
    return script


def _start(state: Path, folder: Path, *extra: str) -> Child:
    return tablekeeper(
        "run", "--sim", "--script", str(_script(folder)), "--state-dir", str(state), *extra
    )


def _game_back(state: Path, folder: Path) -> bool:
    dump = folder / "dump.json"
    child = _start(state, folder, "--dump-state", str(dump))
    return (
        child.code == 0
        and json.loads(dump.read_text())["store"].get("comix", {}).get("game") == GAME
    )


def _nothing_moved(state: Path) -> bool:
    return not any(".corrupt-" in p.name or ".foreign-" in p.name for p in state.iterdir())


def _start_refused(
    state: Path, folder: Path, *words: str, extra: tuple[str, ...] = ()
) -> tuple[bool, str]:
    before = _digest(state / DB_NAME)
    held, line = refused(_start(state, folder, *extra), *words)
    if held and _digest(state / DB_NAME) != before:
        return False, f"{line} - but state.db changed"
    if held and not _nothing_moved(state):
        return False, f"{line} - but the state was moved aside"
    return held, line


@contextlib.contextmanager
def _mounted(kind: str, target: Path, *options: str) -> Iterator[str | None]:
    """Mount (``tmpfs``, or ``bind`` + read-only remount); yields None, or why it could not."""
    target.mkdir(parents=True, exist_ok=True)
    commands = {
        "tmpfs": [["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(target)]],
        "bind": [
            ["mount", "--bind", options[0], str(target)],
            ["mount", "-o", "remount,ro,bind", str(target)],
        ],
    }[kind]
    done = 0
    problem = None
    for command in commands:
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=30)
        except OSError as error:
            problem = f"cannot run mount ({error.strerror})"
            break
        if result.returncode != 0:
            problem = f"cannot mount here ({result.stderr.strip()[:80] or 'mount failed'})"
            break
        done += 1
    try:
        yield problem
    finally:
        if done:
            subprocess.run(["umount", str(target)], capture_output=True, timeout=30)


def _fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as handle:
        for size in (1 << 20, 1 << 12, 1):
            block = b"\0" * size
            with contextlib.suppress(OSError):
                while True:
                    handle.write(block)
    return filler


def case_full(work: Path) -> list[Outcome]:
    mount = work / "card"
    with _mounted("tmpfs", mount, "size=2m", "mode=0700") as problem:
        if problem is not None:
            return [Outcome("full card at start-up", None, problem)]
        state = mount / "state"
        _plant_game(state)
        filler = _fill(mount)
        free = os.statvfs(mount).f_bavail
        held, line = _start_refused(state, work, "full")
        filler.unlink()
        back = _game_back(state, work)
        what = f"{free} blocks free: {line}; space freed: game {'back' if back else 'LOST'}"
        return [Outcome("full card at start-up", held and back, what)]


def case_lock(work: Path) -> list[Outcome]:
    state = work / "locked"
    _plant_game(state)
    # Another process takes the database in EXCLUSIVE locking mode with a write transaction (one
    # that changes nothing) and keeps the lock until it ends.
    code = (
        "import sqlite3, sys, time\n"
        "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "db.execute('PRAGMA locking_mode = EXCLUSIVE')\n"
        "db.execute('BEGIN EXCLUSIVE')\n"
        "db.execute('DELETE FROM data WHERE 0')\n"
        "db.execute('COMMIT')\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(state / DB_NAME)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        holder.stdout.readline()
        held, line = _start_refused(state, work, "locked")
    finally:
        holder.kill()
        holder.wait()
    back = _game_back(state, work)
    return [Outcome("database locked by another program", held and back, line)]


def case_second(work: Path) -> list[Outcome]:
    state = work / "shared"
    _plant_game(state)
    code = "import sys,time; from display.store import Store; s=Store(sys.argv[1]); "
    code += "print('open', flush=True); time.sleep(60)"
    first = subprocess.Popen(
        [sys.executable, "-c", code, str(state)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert first.stdout is not None
        first.stdout.readline()
        held, line = _start_refused(state, work, f"process {first.pid}")
    finally:
        first.kill()
        first.wait()
    return [Outcome("a second appliance on one state folder", held, line)]


def case_readonly(work: Path) -> list[Outcome]:
    source = work / "rw-state"
    _plant_game(source)
    mount = work / "ro-state"
    with _mounted("bind", mount, str(source)) as problem:
        if problem is not None:
            return [Outcome("read-only state folder", None, problem)]
        held, line = _start_refused(mount, work, "read-only")
    back = _game_back(source, work)
    return [Outcome("read-only state folder (bind mount)", held and back, line)]


def case_symlinks(work: Path) -> list[Outcome]:
    outcomes = []
    victim = work / "passwd-copy"
    victim.write_text("root:x:0:0:root:/root:/bin/bash\n")
    victim.chmod(0o644)
    state = work / "linked"
    state.mkdir()
    (state / DB_NAME).symlink_to(victim)
    held, line = refused(_start(state, work), "symbolic link")
    kept = (victim.stat().st_mode & 0o777) == 0o644 and victim.read_text().startswith("root:x")
    outcomes.append(Outcome("state.db a link to a file elsewhere", held and kept, line))

    dangling = work / "dangling"
    dangling.mkdir()
    (dangling / DB_NAME).symlink_to(work / "made-by-the-service")
    held, line = refused(_start(dangling, work), "symbolic link")
    created = (work / "made-by-the-service").exists()
    outcomes.append(Outcome("state.db a dangling link", held and not created, line))

    fifo = work / "fifo"
    _plant_game(fifo)
    (fifo / f"{DB_NAME}-wal").unlink(missing_ok=True)
    os.mkfifo(fifo / f"{DB_NAME}-wal")
    held, line = _start_refused(fifo, work, "not a regular file")
    outcomes.append(Outcome("a FIFO as state.db-wal", held, line))

    probe_state = work / "probe"
    probe_state.mkdir()
    target = work / "shadow"
    target.write_text("precious\n")
    (probe_state / ".doctor-write-test").symlink_to(target)
    code = (
        "import sys; from pathlib import Path; from device.health import check_state_dir; "
        "c = check_state_dir(Path(sys.argv[1]), volatile_ok=True); "
        "print('the probe wrote its own fresh file' if c.ok else c.detail)"
    )
    child = run_child([sys.executable, "-c", code, str(probe_state)])
    untouched = target.read_text() == "precious\n"
    outcomes.append(
        Outcome(
            "doctor's write probe with a planted link",
            child.code == 0 and untouched,
            f"target {'untouched' if untouched else 'OVERWRITTEN'}; {child.out.strip()[:100]}",
        )
    )
    return outcomes


# -- image bombs -----------------------------------------------------------------------------------
def case_images(work: Path, report: FaultsReport) -> list[Outcome]:
    from display.checks.bombs import BOMBS  # start-up time: OpenCV, for this group only

    outcomes = []
    gallery, enrolled = _reference_gallery(work)  # identify reads the gallery first
    camera = (
        "import sys; from pathlib import Path; from device.camera import CameraError, "
        "FolderCamera\ntry:\n    FolderCamera(Path(sys.argv[1])).capture()\n"
        "except CameraError as error:\n    print(error, file=sys.stderr); sys.exit(2)\n"
    )
    for kind in ("tiff", "jpeg", "webp"):
        title, make, suffix = BOMBS[kind]
        folder = work / f"bomb-{kind}"
        folder.mkdir()
        # a name the enrolment can take a card name from
        bomb = folder / f"Brass Key{suffix}"
        bomb.write_bytes(make())
        tool = [sys.executable, "-m", "display"]
        readers = {
            "identify": [*tool, "vision", "identify", str(bomb), "--gallery", str(gallery)],
            "camera folder": [sys.executable, "-c", camera, str(folder)],
            "enrolment": [*tool, "vision", "enroll", "--gallery", str(work / f"gallery-{kind}"),
                          "--from-files", str(folder)],
        }  # fmt: skip
        for reader, argv in readers.items():
            child = run_child(argv, limit_memory=True)
            report.peaks_mb[f"{kind} {reader}"] = child.peak_mb
            if reader == "camera folder":
                lines = child.err.strip().splitlines()
                held = child.code == 2 and bool(lines) and "megapixels" in lines[-1]
                line = lines[-1] if lines else f"exit {child.code}"
            else:
                held, line = refused(child, "megapixels")
            held = held and child.peak_mb <= PEAK_LIMIT_MB
            outcomes.append(
                Outcome(
                    f"{title} ({len(make()) // 1024 or 1} KB) via {reader}",
                    held,
                    f"peak {child.peak_mb} MB; {line[:120]}",
                )
            )
    outcomes.append(_largest_allowed_photo(work, report, gallery, enrolled))
    return outcomes


REFERENCE_CARDS = ("Alpha Wolf", "Brass Key", "Cinder Owl")


def _reference_gallery(work: Path) -> tuple[Path, bool]:
    """A gallery of three generated cards (and whether enrolling them worked)."""
    # start-up time: OpenCV and the scene maker load for the images group only
    import cv2

    from vision.synth import render_card_face  # the scene maker, likewise

    refs = work / "refs"
    refs.mkdir()
    for name in REFERENCE_CARDS:
        cv2.imwrite(str(refs / f"{name}.png"), render_card_face(name, 0))
    gallery = work / "gallery"
    enrolled = tablekeeper("vision", "enroll", "--gallery", str(gallery), "--from-files", str(refs))
    return gallery, enrolled.code == 0


def _largest_allowed_photo(
    work: Path, report: FaultsReport, gallery: Path, enrolled: bool
) -> Outcome:
    """A photo just under the pixel limit still reads, within the memory bound: the limit is
    low enough for the pipeline's copies of a picture that passes it."""
    # start-up time: OpenCV and the scene maker load for the images group only
    import cv2
    import numpy as np

    from device.frames import MAX_IMAGE_PIXELS  # the limit the photo is made just under
    from vision.synth import render_card_face

    height = int((MAX_IMAGE_PIXELS * 2 / 3) ** 0.5)
    width = MAX_IMAGE_PIXELS // height
    table = np.full((height, width, 3), (60, 90, 40), np.uint8)
    noise = np.random.default_rng(0).integers(0, 25, (height, width, 3), dtype=np.uint8)
    cv2.add(table, noise, dst=table)
    for i, name in enumerate(REFERENCE_CARDS):
        face = cv2.resize(render_card_face(name, 0), None, fx=4, fy=4)
        face_h, face_w = face.shape[:2]
        x = 400 + i * (face_w + 300)
        table[600 : 600 + face_h, x : x + face_w] = face
    photo = work / "largest.jpg"
    cv2.imwrite(str(photo), table, [cv2.IMWRITE_JPEG_QUALITY, 90])
    del table, noise
    child = tablekeeper(
        "vision", "identify", str(photo), "--gallery", str(gallery), limit_memory=True
    )
    report.peaks_mb["largest allowed photo"] = child.peak_mb
    named = child.out.strip().splitlines()[-1] if child.out.strip() else child.err.strip()[-120:]
    held = enrolled and child.code == 0 and child.peak_mb <= PEAK_LIMIT_MB
    return Outcome(
        f"a {width} x {height} photo ({width * height / 1e6:.1f} Mpx, the largest allowed) "
        f"via identify",
        held,
        f"peak {child.peak_mb} MB; {named}",
    )


# -- parser bombs ----------------------------------------------------------------------------------
DEEP_TOML = "a = " + "[" * 5000 + "]" * 5000 + "\n"


def case_parsers(work: Path) -> list[Outcome]:
    files = {
        "config-deep.toml": DEEP_TOML,
        "config-digits.toml": "[seats]\ncount = " + "7" * 5000 + "\n",
        "deck-deep.toml": DEEP_TOML,
        "deck-digits.toml": "[[cards]]\nid = " + "9" * 5000 + "\n",
        "round-digits.json": '{"players": [' + "7" * 5000 + '], "ballots": {}}',
        "round-duplicate.json": (
            '{"players": ["Ann", "Ben", "Cat"], "ballots": {"Ann": {}, "Ann": {}}}'
        ),
    }
    for name, text in files.items():
        (work / name).write_text(text)
    state = work / "parser-state"
    _plant_game(state)
    cases = [
        ("config nested 5,000 deep", ["config", "config-deep.toml"], "nested too deeply"),
        ("config with a 5,000-digit integer", ["config", "config-digits.toml"], "far too long"),
        (
            "run --config nested 5,000 deep",
            [
                "run",
                "--sim",
                "--config",
                "config-deep.toml",
                "--script",
                "script.txt",
                "--state-dir",
                str(state),
            ],
            "nested too deeply",
        ),  # fmt: skip
        ("deck nested 5,000 deep", ["mixtape", "deck", "--deck", "deck-deep.toml"], "nested"),
        (
            "deck with a 5,000-digit integer",
            ["mixtape", "deck", "--deck", "deck-digits.toml"],
            "far too long",
        ),  # fmt: skip
        (
            "ballot file with a 5,000-digit integer",
            ["comix", "score", "round-digits.json"],
            "far too long",
        ),  # fmt: skip
        (
            "ballot file with a duplicate key",
            ["comix", "score", "round-duplicate.json"],
            "twice",
        ),  # fmt: skip
    ]
    _script(work)
    outcomes = []
    for title, args, word in cases:
        argv = [work / a if a.endswith((".toml", ".json", ".txt")) else a for a in args]
        held, line = refused(tablekeeper(*map(str, argv)), word)
        outcomes.append(Outcome(title, held, line))
    return outcomes


def run_faults(only: set[str] | None = None) -> FaultsReport:
    """Every case group (or those in ``only``), in a fresh temporary folder."""
    report = FaultsReport()
    groups = [g for g in CASE_GROUPS if only is None or g in only]
    with tempfile.TemporaryDirectory(prefix="tablekeeper-faults-") as temporary:
        root = Path(temporary)
        for group in groups:
            work = root / group
            work.mkdir()
            if group == "full":
                report.outcomes += case_full(work)
            elif group == "lock":
                report.outcomes += case_lock(work)
            elif group == "second":
                report.outcomes += case_second(work)
            elif group == "readonly":
                report.outcomes += case_readonly(work)
            elif group == "symlinks":
                report.outcomes += case_symlinks(work)
            elif group == "images":
                report.outcomes += case_images(work, report)
            elif group == "parsers":
                report.outcomes += case_parsers(work)
        for outcome in report.outcomes:  # the same lines on every run: no temporary paths
            outcome.what = outcome.what.replace(f"{root}/", "")
    return report
