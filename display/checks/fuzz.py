"""Bad input, generated: every file or word a person can hand Tablekeeper, mutated at random.

Families (each a list of :class:`Case`):

* ``ballot-json`` - ``tablekeeper comix score FILE``: a legal round, then keys dropped, values of
  the wrong type, unknown tokens and players, truncated text, non-UTF-8 bytes, deep nesting...
* ``deck-toml`` - ``tablekeeper mixtape deck/score --deck FILE``: the example deck, mutated as
  structure (fields dropped, wrong types, out-of-range numbers) and as text (lines cut or doubled).
* ``card-names`` - ``tablekeeper remix score CARD...``, ``mixtape score --a/--b``, ``mixtape
  otto --drawn``: near-miss names, empty, very long, unicode, control characters, duplicates.
* ``config-toml`` - ``tablekeeper run --sim --config FILE`` on a state directory holding a game:
  the built-in config mutated; afterwards the saved game must still be there, unchanged.
* ``gallery`` - ``tablekeeper vision identify --gallery DIR``: a real (small) gallery with its JSON
  or arrays truncated, missing, of the wrong shape or dtype.
* ``image`` - ``vision identify PHOTO`` and the appliance camera (``camera PATH`` in a script,
  the hardware test screen's photo): empty file, 1x1, 20000x20000, truncated JPEG, non-image
  bytes, grayscale, 16-bit, RGBA, random truncations and bit flips.

Each case runs the real command line in-process (:func:`display.cli.main`). A case passes when
the command returns 0 (the mutation happened to stay valid) or exits 2 with one clear line on
stderr - never a traceback, never another exit code - and, for the ``expect_reject`` cases, only
with exit 2. :func:`run_fuzz` returns the counts per family and every failure.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import random
import shutil
import struct
import tempfile
import time
import tomllib
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.config import DEFAULT_CONFIG_TOML
from display.checks.scenarios import FOUR, FOUR_BALLOTS
from display.cli import main
from display.store import Store
from games.comix import Game, TableSetup
from games.mixtape import example_deck_path
from games.remix import default_catalogue
from vision.synth import compose_scene, render_card_face

EXAMPLE_DECK = example_deck_path()

FAMILIES = ("ballot-json", "deck-toml", "card-names", "config-toml", "gallery", "image")


@dataclass
class Case:
    family: str
    label: str
    argv: list[str]
    expect_reject: bool = False
    #: run after the command: returns a problem (str) or None - e.g. "the saved game changed"
    after: Callable[[], str | None] | None = None


@dataclass
class Outcome:
    case: Case
    code: int | None
    err: str
    seconds: float
    problem: str | None


@dataclass
class FuzzReport:
    tried: dict[str, int] = field(default_factory=dict)
    rejected: dict[str, int] = field(default_factory=dict)
    failures: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    slowest: tuple[float, str] = (0.0, "")

    @property
    def total(self) -> int:
        return sum(self.tried.values())

    @property
    def ok(self) -> bool:
        return not self.failures

    def lines(self) -> list[str]:
        out = [
            f"{family}: {self.tried[family]} cases, {self.rejected.get(family, 0)} refused with "
            "exit 2, the rest accepted"
            for family in self.tried
        ]
        for failure in self.failures:
            out.append(f"FAILED {failure.case.family} [{failure.case.label}]: {failure.problem}")
        out.append(
            f"total: {self.total} bad inputs tried, {len(self.failures)} failures, "
            f"{self.seconds:.0f} s (slowest {self.slowest[0]:.1f} s: {self.slowest[1]})"
        )
        return out


# -- running one case ---------------------------------------------------------------------------
def run_case(case: Case) -> Outcome:

    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    problem = None
    code: int | None = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(case.argv)
    except SystemExit as stop:  # argparse refusing the arguments
        code = stop.code if isinstance(stop.code, int) else 2
    except BaseException as error:  # noqa: BLE001 - that is exactly what we look for
        problem = f"crashed: {type(error).__name__}: {str(error)[:300]}"
    seconds = time.monotonic() - started
    text = err.getvalue().strip()
    last = text.splitlines()[-1] if text else ""  # (a library warning may come before it)
    if problem is None:
        if code not in (0, 2):
            problem = f"exit code {code} (expected 0 or 2); stderr: {text[-300:]}"
        elif case.expect_reject and code != 2:
            problem = "accepted input that must be refused"
        elif code == 2 and not text:
            problem = "exit 2 without a message"
        elif code == 2 and "Traceback" in text:
            problem = f"a traceback instead of a message: {text[-300:]}"
        elif code == 2 and not (last.startswith("tablekeeper:") or "error:" in last):
            problem = f"unclear refusal: {text[:200]}"
    if problem is None and case.after is not None:
        problem = case.after()
    return Outcome(case, code, text, seconds, problem)


# -- mutation helpers ---------------------------------------------------------------------------
WEIRD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2**63, -(2**63) - 1, 1e308, -0.0, 0.5, "", " ", "x" * 5000,
    "Ann", "neutral", "NEUTRAL", "original", "\u0000", "\u202eevil", "😀", [], {}, [[]], [None],
    ["neutral", "neutral", "neutral"], {"a": 1}, [1, 2, 3], "nan", "inf",
]  # fmt: skip


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path (keys and indexes) into a JSON-like value."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def mutate_structure(value: Any, rng: random.Random) -> tuple[Any, str]:
    """One structural change: replace, delete, add or duplicate somewhere in ``value``."""
    data = copy.deepcopy(value)
    path = rng.choice(list(paths(data))[1:] or [()])
    if not path:
        return rng.choice(WEIRD_VALUES), "whole document replaced"
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    how = rng.choice(["replace", "replace", "delete", "add", "duplicate", "rename"])
    where = "/".join(str(p) for p in path)
    if how == "replace":
        parent[last] = rng.choice(WEIRD_VALUES)
        return data, f"{where} = {str(parent[last])[:30]!r}"
    if how == "delete":
        del parent[last]
        return data, f"{where} deleted"
    if how == "add" and isinstance(parent, dict):
        parent[rng.choice(["Zed", "extra", "", "neutral", "S9"])] = rng.choice(WEIRD_VALUES)
        return data, f"key added next to {where}"
    if how == "duplicate" and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[last]))
        return data, f"{where} duplicated"
    if how == "rename" and isinstance(parent, dict):
        parent[str(last).upper() + "?"] = parent.pop(last)
        return data, f"{where} renamed"
    parent[last] = rng.choice(WEIRD_VALUES)
    return data, f"{where} = {str(parent[last])[:30]!r}"


def mutate_text(text: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One textual change: truncation, byte flips, lines dropped/doubled/swapped, bad bytes."""
    how = rng.choice(["truncate", "flip", "drop-line", "double-line", "swap-lines", "inject"])
    if how == "truncate" or not text:
        cut = rng.randint(0, len(text))
        return text[:cut], f"truncated at {cut}"
    if how == "flip":
        data = bytearray(text)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data), "bytes flipped"
    lines = text.split(b"\n")
    i = rng.randrange(len(lines))
    if how == "drop-line":
        del lines[i]
    elif how == "double-line":
        lines.insert(i, lines[i])
    elif how == "swap-lines":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(i, rng.choice([b"\xff\xfe\x00", b"[[", b"= = =", b"\x00" * 10, b"]]x"]))
    return b"\n".join(lines), f"line {i + 1}: {how}"


def toml_dumps(data: dict[str, Any]) -> str:
    """A small TOML writer (tables, arrays of tables, scalars, arrays) for the mutants."""

    def scalar(value: Any) -> str | None:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, float):
            if math.isnan(value):
                return "nan"
            if math.isinf(value):
                return "inf" if value > 0 else "-inf"
            return repr(value)
        if isinstance(value, str):
            return json.dumps(value)
        if isinstance(value, list) and not any(isinstance(v, dict) for v in value):
            items = [scalar(v) for v in value]
            return "[" + ", ".join(i for i in items if i is not None) + "]"
        if isinstance(value, dict):
            pairs = [(json.dumps(str(k)), scalar(v)) for k, v in value.items()]
            return "{" + ", ".join(f"{k} = {v}" for k, v in pairs if v is not None) + "}"
        return None

    lines: list[str] = []

    def table(body: dict[str, Any], name: str, array: bool) -> None:
        if name:
            lines.append(f"[[{name}]]" if array else f"[{name}]")
        nested = []
        for key, value in body.items():
            if isinstance(value, dict):
                nested.append((key, value, False))
            elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                nested.extend((key, v, True) for v in value)
            else:
                text = scalar(value)
                if text is not None:
                    lines.append(f"{json.dumps(str(key))} = {text}")
        for key, value, is_array in nested:
            table(
                value, f"{name}.{json.dumps(str(key))}" if name else json.dumps(str(key)), is_array
            )

    table(data, "", False)
    return "\n".join(lines) + "\n"


# -- the families ---------------------------------------------------------------------------------
class Builder:
    def __init__(self, workdir: Path, rng: random.Random) -> None:
        self.workdir = workdir
        self.rng = rng
        self.count = 0

    def file(self, suffix: str, data: bytes | str) -> Path:
        self.count += 1
        path = self.workdir / f"case-{self.count}{suffix}"
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        return path


def ballot_cases(b: Builder, n: int) -> list[Case]:
    rng = b.rng
    valid = {"players": FOUR, "ballots": FOUR_BALLOTS}
    with_stories = {
        "players": FOUR,
        "stories": {"S1": ["Ann"], "S2": ["Ben"], "S3": ["Cat"], "S4": ["Dan"]},
        "ballots": {p: dict(zip(["S1", "S2", "S3", "S4"], b.values(), strict=True))
                    for p, b in FOUR_BALLOTS.items()},
    }  # fmt: skip
    fixed: list[tuple[bytes, str, bool]] = [
        (b"", "empty file", True),
        (b"\xff\xfe\x00garbage", "non-UTF-8 bytes", True),
        (b"[]", "a list", True),
        (b"null", "null", True),
        (b"{" * 5000 + b"}" * 5000, "nested 5000 deep", True),
        (b"[" * 100000, "100000 open brackets", True),
        (json.dumps({"players": [], "ballots": {}}).encode(), "no players", True),
        (json.dumps({"players": FOUR * 30, "ballots": {}}).encode(), "120 players", True),
        (json.dumps({"players": FOUR, "ballots": {}}).encode(), "no ballots", True),
        (b'{"players": NaN}', "NaN", True),
    ]
    cases: list[Case] = []
    for data, label, reject in fixed:
        path = b.file(".json", data)
        cases.append(Case("ballot-json", label, ["comix", "score", str(path)], reject))
    while len(cases) < n:
        base = rng.choice([valid, with_stories])
        if rng.random() < 0.75:
            mutant, label = mutate_structure(base, rng)
            for _ in range(rng.choice([0, 0, 1, 2])):
                mutant, more = mutate_structure(mutant, rng)
                label += "; " + more
            data = json.dumps(mutant).encode()
        else:
            data, label = mutate_text(json.dumps(base, indent=1).encode(), rng)
        path = b.file(".json", data)
        flags = ["--json"] if rng.random() < 0.5 else []
        cases.append(Case("ballot-json", label, ["comix", "score", str(path), *flags]))
    return cases


def deck_cases(b: Builder, n: int) -> list[Case]:
    rng = b.rng
    text = EXAMPLE_DECK.read_bytes()
    deck = tomllib.loads(text.decode("utf-8"))
    ids = [card["id"] for card in deck["cards"]]
    fixed = [(b"", "empty file"), (b"\x00\x01\x02", "binary"), (b"cards = 3", "cards is a number")]
    cases = [
        Case("deck-toml", label, ["mixtape", "deck", "--deck", str(b.file(".toml", data))], True)
        for data, label in fixed
    ]
    while len(cases) < n:
        if rng.random() < 0.6:
            mutant, label = mutate_structure(deck, rng)
            data = toml_dumps(mutant if isinstance(mutant, dict) else {"x": mutant}).encode()
        else:
            data, label = mutate_text(text, rng)
        path = str(b.file(".toml", data))
        if rng.random() < 0.5:
            argv = ["mixtape", "deck", "--deck", path]
        else:
            a, bb = ids[0:4], ids[4:8]
            argv = ["mixtape", "score", "--deck", path, "--a", ",".join(a), "--b", ",".join(bb)]
        cases.append(Case("deck-toml", label, argv))
    return cases


def _near_miss(name: str, rng: random.Random) -> str:
    if not name:
        return "x"
    i = rng.randrange(len(name))
    how = rng.choice(["drop", "swap", "case", "space", "accent"])
    if how == "drop":
        return name[:i] + name[i + 1 :]
    if how == "swap" and i + 1 < len(name):
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :]
    if how == "case":
        return name.swapcase()
    if how == "space":
        return name[:i] + "  " + name[i:]
    return name[:i] + "é" + name[i + 1 :]


def card_name_cases(b: Builder, n: int) -> list[Case]:
    rng = b.rng
    cards = list(default_catalogue())
    names = [card.name for card in cards] + [card.id for card in cards]
    deck_ids = [c["id"] for c in tomllib.loads(EXAMPLE_DECK.read_text("utf-8"))["cards"]]
    junk = [
        "",
        " ",
        "-",
        "--json",
        "MR",
        "MR999",
        "mr06",
        "\u0000",
        "\t\n",
        "x" * 10000,
        "😀",
        "NULL",
        "Robert'); DROP TABLE",
        "%s%s%n",
        "../../etc/passwd",
        "MR06 MR07",
        ",",
        ",,,",
    ]
    cases: list[Case] = []
    while len(cases) < n:
        kind = rng.random()
        if kind < 0.45:
            hand = [rng.choice(names) for _ in range(rng.randint(0, 9))]
            hand = [_near_miss(x, rng) if rng.random() < 0.4 else x for x in hand]
            if rng.random() < 0.3:
                hand.append(rng.choice(junk))
            argv = ["remix", "score", *hand]
            if rng.random() < 0.2:
                argv += ["--loki-draw", rng.choice(names + junk)]
            if rng.random() < 0.3:
                argv.append("--json")
            label = "remix hand " + ",".join(h[:12] for h in hand)[:60]
        elif kind < 0.55:
            lines = [" ".join(rng.choice(names + junk) for _ in range(rng.randint(0, 8)))
                     for _ in range(rng.randint(0, 5))]  # fmt: skip
            path = b.file(".txt", "\n".join(lines))
            argv = ["remix", "score", "--batch", str(path)]
            label = "remix batch file"
        elif kind < 0.8:
            pool = deck_ids + junk + [_near_miss(rng.choice(deck_ids), rng)]
            a = ",".join(rng.choice(pool) for _ in range(rng.randint(0, 6)))
            bb = ",".join(rng.choice(pool) for _ in range(rng.randint(0, 6)))
            argv = ["mixtape", "score", "--deck", "example", "--a", a, "--b", bb]
            label = f"mixtape columns {a[:20]}|{bb[:20]}"
        else:
            pool = deck_ids + junk
            drawn = ",".join(rng.choice(pool) for _ in range(rng.choice([0, 2, 3, 3, 3, 4])))
            argv = ["mixtape", "otto", "--deck", "example", "--drawn", drawn]
            label = f"otto drawn {drawn[:30]}"
        cases.append(Case("card-names", label, argv))
    return cases


def config_cases(b: Builder, n: int) -> list[Case]:

    rng = b.rng
    state = b.workdir / "config-state"
    script = b.file(".txt", "press right\npress left\n")
    saved = _saved_game(state)
    base = tomllib.loads(DEFAULT_CONFIG_TOML)

    def unchanged() -> str | None:
        return kept(saved, _stored_data(state))

    cases: list[Case] = []
    fixed = [
        (b"", "empty file (all defaults)", False),
        (b"[pins\n", "unclosed table", True),
        (b"\xff\xfe", "non-UTF-8", True),
        (b"[pins]\nseat_1 = 5\nseat_2 = 5\n", "two buttons on one pin", True),
        (b"[seats]\ncount = 0\n", "no seats", True),
    ]
    for data, label, reject in fixed:
        path = b.file(".toml", data)
        argv = ["run", "--sim", "--script", str(script), "--state-dir", str(state),
                "--config", str(path)]  # fmt: skip
        cases.append(Case("config-toml", label, argv, reject, unchanged))
    while len(cases) < n:
        if rng.random() < 0.7:
            mutant, label = mutate_structure(base, rng)
            data = toml_dumps(mutant if isinstance(mutant, dict) else {"x": mutant}).encode()
        else:
            data, label = mutate_text(DEFAULT_CONFIG_TOML.encode(), rng)
        path = b.file(".toml", data)
        argv = ["run", "--sim", "--script", str(script), "--state-dir", str(state),
                "--config", str(path)]  # fmt: skip
        cases.append(Case("config-toml", label, argv, False, unchanged))
    return cases


def _saved_game(state: Path) -> dict[str, Any]:
    """A state directory holding a Co-Mix game in progress (what a bad input must not lose)."""

    game = Game.new(TableSetup.create(FOUR), seed=8)
    game.set_title(game.propose_title())
    store = Store(state)
    store.put("comix", "game", game.to_json())
    store.save_stack([{"kind": "home", "snapshot": {}}])
    store.commit()
    store.close()
    return _stored_data(state)


def kept(saved: dict[str, Any], now: dict[str, Any]) -> str | None:
    """None if everything in ``saved`` is still in ``now`` unchanged (other keys may be new)."""
    for namespace, values in saved.items():
        for key, value in values.items():
            if now.get(namespace, {}).get(key) != value:
                return f"the saved {namespace}/{key} was lost or changed"
    return None


def _stored_data(state: Path) -> dict[str, Any]:

    store = Store(state)
    try:
        return dict(store.dump()["data"])
    finally:
        store.close()


# -- images ---------------------------------------------------------------------------------------
def png_bytes(width: int, height: int, channels: int = 3, depth: int = 8) -> bytes:
    """A PNG of any size without holding its pixels (rows of zeros, streamed through zlib)."""
    colour_type = {1: 0, 3: 2, 4: 6}[channels]
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    row = b"\x00" + bytes(width * channels * depth // 8)
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )


def jpeg_resized(jpeg: bytes, width: int, height: int) -> bytes:
    """The same JPEG data with a frame header that announces ``width`` x ``height``."""
    at = 2
    while at + 9 <= len(jpeg):
        marker = jpeg[at + 1]
        length = struct.unpack(">H", jpeg[at + 2 : at + 4])[0]
        if 0xC0 <= marker <= 0xC3:
            return jpeg[: at + 5] + struct.pack(">HH", height, width) + jpeg[at + 9 :]
        at += 2 + length
    raise ValueError("no frame header")


def image_files(b: Builder) -> list[tuple[str, Path]]:
    """The named bad images of the issue, plus a real photo-like scene as a base for mutants."""

    rng = np.random.default_rng(b.rng.randrange(2**32))
    scene = (rng.integers(0, 255, (360, 480, 3))).astype(np.uint8)
    cv2.rectangle(scene, (100, 80), (260, 300), (250, 250, 250), -1)
    ok, jpeg = cv2.imencode(".jpg", scene)
    assert ok
    jpeg_bytes = jpeg.tobytes()
    files: list[tuple[str, Path]] = [
        ("empty file", b.file(".jpg", b"")),
        ("1x1 pixel", b.file(".png", cv2.imencode(".png", scene[:1, :1])[1].tobytes())),
        ("20000x20000 PNG", b.file(".png", png_bytes(20000, 20000, 1))),
        ("20000x20000 JPEG", b.file(".jpg", jpeg_resized(jpeg_bytes, 20000, 20000))),
        ("truncated JPEG", b.file(".jpg", jpeg_bytes[: len(jpeg_bytes) // 3])),
        ("JPEG header only", b.file(".jpg", jpeg_bytes[:200])),
        ("non-image bytes", b.file(".jpg", b"this is not an image\n" * 50)),
        ("random bytes", b.file(".png", bytes(b.rng.randrange(256) for _ in range(4096)))),
        ("grayscale", b.file(".png", cv2.imencode(".png", scene[:, :, 0])[1].tobytes())),
        (
            "16-bit",
            b.file(".png", cv2.imencode(".png", scene.astype(np.uint16) * 257)[1].tobytes()),
        ),
        (
            "RGBA",
            b.file(
                ".png", cv2.imencode(".png", cv2.cvtColor(scene, cv2.COLOR_BGR2BGRA))[1].tobytes()
            ),
        ),
        ("16-bit RGBA", b.file(".png", png_bytes(640, 480, 4, 16))),
        ("1x20000 strip", b.file(".png", png_bytes(20000, 1, 3))),
        ("all black", b.file(".png", png_bytes(640, 480, 3))),
        ("a folder", b.workdir / "not-a-file.jpg"),
    ]
    (b.workdir / "not-a-file.jpg").mkdir(exist_ok=True)
    for _ in range(8):
        data, label = mutate_text(jpeg_bytes, b.rng)
        files.append((f"JPEG {label}", b.file(".jpg", data)))
    return files


def image_cases(b: Builder, n: int, gallery: Path) -> list[Case]:
    files = image_files(b)
    cases: list[Case] = []
    for label, path in files:
        cases.append(Case("image", f"identify: {label}", ["vision", "identify", "--gallery",
                                                          str(gallery), str(path)]))  # fmt: skip
        if label.startswith(("20000", "empty", "non-image", "truncated", "16-bit", "RGBA")):
            # the photo-to-score commands read photos their own way
            cases.append(Case("image", f"remix --photo: {label}", ["remix", "score", "--photo",
                              str(path), "--gallery", str(gallery)]))  # fmt: skip
            cases.append(Case("image", f"mixtape --photo: {label}", ["mixtape", "score",
                              "--deck", "example", "--photo", str(path), "--gallery",
                              str(gallery)]))  # fmt: skip
    # the appliance: the hardware test screen takes a photo of each (camera PATH in a script)
    template = b.workdir / "image-state"
    saved = _saved_game(template)
    for index, (label, path) in enumerate(files):
        if not path.is_file():
            continue
        state = b.workdir / f"image-state-{index}"
        shutil.copytree(template, state)
        script = b.file(  # the hardware test screen is two to the left of Co-Mix on home
            ".txt", f"press left\npress left\npress ok\ncamera {path}\npress shutter\nshot cam\n"
        )
        shots = b.workdir / "image-shots"

        def unchanged(state: Path = state) -> str | None:
            return kept(saved, _stored_data(state))

        argv = ["run", "--sim", "--script", str(script), "--state-dir", str(state),
                "--screenshots", str(shots)]  # fmt: skip
        cases.append(Case("image", f"camera: {label}", argv, False, unchanged))
    return cases  # the list is short: always all of it, whatever ``n``


def small_gallery(b: Builder) -> tuple[Path, Path]:
    """(gallery, photo): a gallery of four synthetic cards enrolled through the real command,
    and a small photo of two of them on a table."""

    folder = b.workdir / "cards"
    folder.mkdir(exist_ok=True)
    names = ["Alpha Card", "Bravo Card", "Charlie Card", "Delta Card"]
    faces = [render_card_face(name, seed=i) for i, name in enumerate(names)]
    for name, face in zip(names, faces, strict=True):
        cv2.imwrite(str(folder / f"{name}.png"), face)
    gallery = b.workdir / "gallery"
    outcome = run_case(
        Case(
            "setup",
            "enrol",
            ["vision", "enroll", "--gallery", str(gallery), "--from-files", str(folder)],
        )  # fmt: skip
    )
    if outcome.code != 0:
        raise RuntimeError(f"could not enrol the fuzz gallery: {outcome.problem or outcome.err}")
    scene = compose_scene(faces[:2], np.random.default_rng(1), size=(640, 480), layout="rows")
    photo = b.workdir / "photo.jpg"
    cv2.imwrite(str(photo), scene.image)
    return gallery, photo


def gallery_cases(b: Builder, n: int, gallery: Path, photo: Path) -> list[Case]:
    """The gallery's files truncated, missing, or with arrays of the wrong shape or dtype."""

    rng = b.rng
    meta = json.loads((gallery / "gallery.json").read_text(encoding="utf-8"))
    with np.load(gallery / "gallery.npz", allow_pickle=False) as loaded:
        arrays = {key: loaded[key] for key in loaded.files}
    cases: list[Case] = []
    while len(cases) < n:
        b.count += 1
        target = b.workdir / f"gallery-{b.count}"
        shutil.copytree(gallery, target)
        what = rng.choice(["json-structure", "json-text", "npz-truncate", "npz-array",
                           "npz-array", "missing"])  # fmt: skip
        if what == "json-structure":
            mutant, label = mutate_structure(meta, rng)
            (target / "gallery.json").write_text(json.dumps(mutant), encoding="utf-8")
        elif what == "json-text":
            data, label = mutate_text((gallery / "gallery.json").read_bytes(), rng)
            (target / "gallery.json").write_bytes(data)
        elif what == "npz-truncate":
            data = (gallery / "gallery.npz").read_bytes()
            cut = rng.randint(0, len(data))
            (target / "gallery.npz").write_bytes(data[:cut])
            label = f"arrays truncated at {cut} of {len(data)}"
        elif what == "npz-array":
            key = rng.choice(sorted(arrays))
            changed = dict(arrays)
            original = arrays[key]
            how = rng.choice(["dtype", "shape", "empty", "transpose", "nan", "huge", "drop"])
            if how == "dtype":
                changed[key] = original.astype(rng.choice([np.float64, np.int64, np.bool_,
                                                           np.complex64, np.str_]))  # fmt: skip
            elif how == "shape":
                changed[key] = original.reshape(-1)[: max(0, original.size - 3)]
            elif how == "empty":
                changed[key] = np.zeros((0,) + original.shape[1:], original.dtype)
            elif how == "transpose":
                changed[key] = original.T.copy() if original.ndim > 1 else original[::-1]
            elif how == "nan":
                changed[key] = np.full(original.shape, np.nan)
            elif how == "huge":
                changed[key] = np.full(original.shape, 2**40, dtype=np.int64)
            else:
                del changed[key]
            np.savez(target / "gallery.npz", **changed)
            label = f"array {key}: {how}"
        else:
            victim = rng.choice(["gallery.json", "gallery.npz"])
            (target / victim).unlink()
            label = f"{victim} missing"
        argv = ["vision", "identify", "--gallery", str(target), str(photo)]
        if rng.random() < 0.3:
            argv.insert(2, "--json")
        cases.append(Case("gallery", label, argv))
    return cases


# -- running --------------------------------------------------------------------------------------
def build_cases(workdir: Path, seed: int, counts: dict[str, int]) -> list[Case]:
    b = Builder(workdir, random.Random(seed))
    cases: list[Case] = []
    if counts.get("ballot-json"):
        cases += ballot_cases(b, counts["ballot-json"])
    if counts.get("deck-toml"):
        cases += deck_cases(b, counts["deck-toml"])
    if counts.get("card-names"):
        cases += card_name_cases(b, counts["card-names"])
    if counts.get("config-toml"):
        cases += config_cases(b, counts["config-toml"])
    if counts.get("gallery") or counts.get("image"):
        gallery, photo = small_gallery(b)
        if counts.get("gallery"):
            cases += gallery_cases(b, counts["gallery"], gallery, photo)
        if counts.get("image"):
            cases += image_cases(b, counts["image"], gallery)
    return cases


def run_fuzz(
    counts: dict[str, int],
    seed: int = 0,
    workdir: Path | None = None,
    progress: Callable[[Outcome], None] | None = None,
) -> FuzzReport:

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    started = time.monotonic()
    report = FuzzReport()
    with tempfile.TemporaryDirectory(prefix="tk-fuzz-") as scratch:
        base = workdir or Path(scratch)
        base.mkdir(parents=True, exist_ok=True)
        for case in build_cases(base, seed, counts):
            outcome = run_case(case)
            family = case.family
            report.tried[family] = report.tried.get(family, 0) + 1
            if outcome.code == 2:
                report.rejected[family] = report.rejected.get(family, 0) + 1
            if outcome.problem is not None:
                report.failures.append(outcome)
            if outcome.seconds > report.slowest[0]:
                report.slowest = (outcome.seconds, f"{family} {case.label}")
            if progress is not None:
                progress(outcome)
    report.seconds = time.monotonic() - started
    return report
