"""`tablekeeper vision enroll|identify` and `tablekeeper bench vision`, end to end."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest

from display.cli import CliError
from display.commands import bench as bench_commands
from display.commands import vision as vision_commands
from vision.synth import compose_scene, render_card_face

NAMES = ["Alpha Wolf", "Brass Key", "Cinder Owl", "Dune Runner", "Ember Lily"]


def run(argv: Sequence[str]) -> int:
    """Run one command the way `tablekeeper` does (CliError -> exit code 2)."""
    parser = argparse.ArgumentParser(prog="tablekeeper")
    commands = parser.add_subparsers(dest="command")
    benches = commands.add_parser("bench").add_subparsers(dest="bench")
    vision_commands.register(commands, benches)
    bench_commands.register(commands, benches)  # `bench vision` is registered with the benches
    args = parser.parse_args(list(argv))
    try:
        return int(args.func(args) or 0)
    except CliError as error:
        print(f"tablekeeper: {error}")
        return 2


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vision")
    refs = root / "refs"
    refs.mkdir()
    for i, name in enumerate(NAMES):
        # Scans named "<card name>__<anything>", and one plain-stem file.
        stem = f"{name}__print{i}" if i else name
        cv2.imwrite(str(refs / f"{stem}.png"), render_card_face(name, 0))
    assert (
        run(["vision", "enroll", "--gallery", str(root / "gallery"), "--from-files", str(refs)])
        == 0
    )
    return root / "gallery"


def _one_card_photo(folder: Path) -> Path:
    """A generated photo of one enrolled card (the fifth name), saved in ``folder``."""
    scene = compose_scene([render_card_face(NAMES[4], 0)], np.random.default_rng(1))
    photo = folder / "one.png"
    cv2.imwrite(str(photo), scene.image)
    return photo


def test_enroll_from_files_names_by_file_name(enrolled: Path) -> None:
    meta = json.loads((enrolled / "gallery.json").read_text(encoding="utf-8"))
    assert sorted(e["name"] for e in meta["entries"]) == sorted(NAMES)


def test_identify_json_contract_and_annotation(
    enrolled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    faces = [render_card_face(n, 0) for n in NAMES[:3]]
    faces.append(render_card_face("Not Enrolled", 1))
    scene = compose_scene(faces, np.random.default_rng(4), difficulty="easy", table="cloth")
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), scene.image)
    out_png = tmp_path / "annotated.png"
    capsys.readouterr()
    code = run(
        [
            "vision",
            "identify",
            str(photo),
            "--gallery",
            str(enrolled),
            "--json",
            "--annotate",
            str(out_png),
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"cards", "unknown", "seconds"}
    assert sorted(c["name"] for c in data["cards"]) == sorted(NAMES[:3])
    for card in data["cards"]:
        assert set(card) >= {"name", "confidence", "corners", "center"}
        assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])
        assert 0.0 <= card["confidence"] <= 1.0
    assert [u["reason"] for u in data["unknown"]] == ["not in gallery"]
    assert len(data["unknown"][0]["corners"]) == 4
    annotated = cv2.imread(str(out_png))
    assert annotated is not None and annotated.shape == scene.image.shape


def test_an_annotation_path_it_cannot_write_is_refused_before_any_photo_is_read(
    enrolled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = _one_card_photo(tmp_path)
    argv = ["vision", "identify", str(photo), "--gallery", str(enrolled), "--annotate"]
    for bad, reason in (
        (tmp_path / "marked", "ending in .png"),  # no ending: OpenCV has no writer for it
        (tmp_path / "marked.txt", "ending in .png"),
        (tmp_path, "is a folder"),
        (tmp_path / "nowhere" / "marked.png", "no such folder"),
    ):
        capsys.readouterr()
        assert run([*argv, str(bad)]) == 2
        said = capsys.readouterr().out
        assert reason in said and "Traceback" not in said
        assert "named" not in said  # refused before the photo was identified
    assert run([*argv, str(tmp_path / "marked.JPG")]) == 0
    assert cv2.imread(str(tmp_path / "marked.JPG")) is not None


def test_identify_plain_text(
    enrolled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = _one_card_photo(tmp_path)
    capsys.readouterr()
    assert run(["vision", "identify", str(photo), "--gallery", str(enrolled)]) == 0
    out = capsys.readouterr().out
    assert NAMES[4] in out and "1 card named," in out


def test_bad_input_exits_2_with_a_reason(
    enrolled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"this is not a jpeg")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    for photo in (junk, empty, tmp_path / "missing.jpg"):
        capsys.readouterr()
        assert run(["vision", "identify", str(photo), "--gallery", str(enrolled)]) == 2
        assert str(photo.name) in capsys.readouterr().out
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.full((200, 300, 3), 90, np.uint8))
    assert run(["vision", "identify", str(good), "--gallery", str(tmp_path / "none")]) == 2
    assert "not a card gallery" in capsys.readouterr().out
    # A glob that matched a folder says so, rather than that the folder does not exist.
    assert run(["vision", "identify", str(tmp_path), "--gallery", str(enrolled)]) == 2
    assert "is a folder, not a photo" in capsys.readouterr().out


def test_enroll_from_photo_needs_matching_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    faces = [render_card_face(n, 5) for n in ("North", "South", "East")]
    scene = compose_scene(faces, np.random.default_rng(3), layout="rows", table="felt")
    photo = tmp_path / "row.png"
    cv2.imwrite(str(photo), scene.image)
    gallery = tmp_path / "g"
    assert (
        run(
            [
                "vision",
                "enroll",
                "--gallery",
                str(gallery),
                "--from-photo",
                str(photo),
                "--names",
                "North;South",
            ]
        )
        == 2
    )
    assert "found 3 cards but 2 names" in capsys.readouterr().out
    assert run(["vision", "enroll", "--gallery", str(gallery), "--from-photo", str(photo)]) == 2
    assert (
        run(
            [
                "vision",
                "enroll",
                "--gallery",
                str(gallery),
                "--from-photo",
                str(photo),
                "--names",
                "North;South;East",
            ]
        )
        == 0
    )
    meta = json.loads((gallery / "gallery.json").read_text(encoding="utf-8"))
    assert [e["name"] for e in meta["entries"]] == ["North", "South", "East"]


def test_bench_vision_prints_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["bench", "vision", "--scenes", "3", "--cards", "3"]) == 0
    out = capsys.readouterr().out
    assert "Synthetic scenes" in out
    for difficulty in ("easy", "medium", "hard"):
        assert f"  {difficulty} " in out
    assert "Calibration" in out


def test_held_out_cards_come_back_unknown_not_as_an_enrolled_card() -> None:
    from vision.bench.accuracy import run_held_out

    # Generated faces of one style share frame, title bar and text-box features, like a
    # game's cycles: without the look's last word one held-out card here is named (checked).
    faces = [(f"Held {i:02d}", render_card_face(f"Held {i:02d}", 0)) for i in range(64)]
    figures = run_held_out(faces, 0.25, scenes=6, cards_per_scene=6, seed=5)
    assert figures["held_out_names"] == 16 and figures["names"] == 64
    tally = figures["enrolled"]
    assert tally["cards"] + tally["open_set_cards"] == 36  # every card of the 6 scenes scored
    assert tally["open_set_cards"] > 0  # held-out cards were on the table ...
    assert tally["open_set_named"] == 0  # ... and none was given an enrolled card's name
    assert tally["right"] == tally["cards"] and tally["wrong"] == 0


def test_identify_several_photos_one_json_line_each(
    enrolled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = []
    for i, names in enumerate((NAMES[:2], NAMES[2:4], NAMES[4:])):
        faces = [render_card_face(n, 0) for n in names]
        scene = compose_scene(faces, np.random.default_rng(20 + i), table="felt")
        path = tmp_path / f"hand{i}.png"
        cv2.imwrite(str(path), scene.image)
        photos.append((path, names))
    out_png = tmp_path / "marked.png"
    capsys.readouterr()
    argv = ["vision", "identify", *(str(p) for p, _ in photos), "--gallery", str(enrolled)]
    assert run([*argv, "--json", "--annotate", str(out_png)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(photos)
    for line, (path, names) in zip(lines, photos, strict=True):
        data = json.loads(line)
        assert data["photo"] == str(path)
        assert sorted(c["name"] for c in data["cards"]) == sorted(names)
    for number in (1, 2, 3):
        assert cv2.imread(str(tmp_path / f"marked-{number}.png")) is not None
    # Plain text: each photo's lines under its file name.
    assert run(argv) == 0
    text = capsys.readouterr().out
    assert len(re.findall(r"\b\d+ cards? named,", text)) == 3 and f"{photos[1][0]}:" in text


def test_identify_several_photos_a_bad_one_loses_nothing_else(
    enrolled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not a photo")
    scene = compose_scene([render_card_face(NAMES[1], 0)], np.random.default_rng(5))
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), scene.image)
    capsys.readouterr()
    code = run(["vision", "identify", str(junk), str(good), "--gallery", str(enrolled), "--json"])
    captured = capsys.readouterr()
    assert code == 2
    assert "junk.jpg" in captured.err
    (line,) = captured.out.splitlines()
    assert [c["name"] for c in json.loads(line)["cards"]] == [NAMES[1]]
    # A photo that does not exist is refused before any photo is read.
    missing = tmp_path / "missing.jpg"
    assert run(["vision", "identify", str(good), str(missing), "--gallery", str(enrolled)]) == 2
    out = capsys.readouterr().out
    assert "missing.jpg" in out and not re.search(r"cards? named", out)
