"""``tablekeeper bench vision``: which tables to print, on which gallery.

- no mode flag: the accuracy tables (real photos, generated scenes, calibration, and with
  ``--held-out`` the held-out real cards);
- ``--lighting``: the lighting suite (:mod:`vision.bench.lighting`), on the benchmark's
  conditions or (``--light-set tuning``) on the ones the recogniser was tuned on;
- ``--profile``: where the time goes (:mod:`vision.bench.profile`);
- ``--families fan,cloth,...``: hands as players lay them (:mod:`vision.bench.families`), on the
  real scans (``--real``; a tenth of the names left out of the gallery to be the strangers) or
  on generated cards;
- ``--quick``: a small run of all of it for CI (a few scenes per table); exits 1 when any card
  is named wrongly, so a second environment (the Pi's library versions) can be checked.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.bench.accuracy import (
    enroll_folder,
    real_photos,
    run_held_out,
    run_real,
    run_synthetic,
    synthetic_scenes,
)
from vision.bench.families import markdown_table, run_families, stranger_faces
from vision.bench.lighting import run_lighting
from vision.bench.profile import run_profile
from vision.bench.scoring import BenchError, log
from vision.gallery import Gallery, name_from_filename
from vision.lighting import BENCHMARK, TUNING
from vision.synth import render_card_face

Faces = list[tuple[str, np.ndarray]]


@dataclass
class Modes:
    """What to run beyond (or instead of) the accuracy tables."""

    lighting: bool = False
    light_set: str = "benchmark"  # benchmark | tuning | all
    lighting_scenes: int = 30
    profile: bool = False
    profile_scenes: int = 30
    quick: bool = False
    families: tuple[str, ...] = ()
    family_photos: int = 10
    turn: int = 0  # with families: degrees clockwise every photo is turned (0, 90, 180, 270)
    markdown: bool = False  # with families: print their table as Markdown instead
    describe: str = ""  # the families' gallery and strangers, for the Markdown page


def _real_gallery(real: Path, figures: dict[str, Any]) -> Gallery:
    folder = real / "gallery"
    if not folder.is_dir():
        raise BenchError(f"{real}: no gallery/ folder")
    tick = time.perf_counter()
    gallery = enroll_folder(folder)
    enrol_s = time.perf_counter() - tick
    with tempfile.TemporaryDirectory() as tmp:
        tick = time.perf_counter()
        gallery.save(tmp)
        save_s = time.perf_counter() - tick
        loads = []
        for _ in range(3):
            tick = time.perf_counter()
            gallery = Gallery.load(tmp)
            loads.append(time.perf_counter() - tick)
    log(
        f"Gallery: {len(gallery)} references, {len(gallery.names)} names, "
        f"{len(gallery.descriptors)} features; enrolment {enrol_s:.1f} s, "
        f"index + save {save_s:.1f} s, load median {statistics.median(loads):.3f} s"
    )
    figures["gallery"] = {
        "references": len(gallery),
        "names": len(gallery.names),
        "enrol_seconds": enrol_s,
        "save_seconds": save_s,
        "load_seconds": statistics.median(loads),
    }
    return gallery


def _gallery_and_faces(
    real: Path | None, gallery_dir: Path | None, figures: dict[str, Any]
) -> tuple[Gallery, Faces]:
    """The gallery to identify against, and the card faces scenes are drawn from: the real
    scans with ``--real``, else 60 generated cards."""
    faces: Faces = []
    if gallery_dir is not None:
        tick = time.perf_counter()
        gallery = Gallery.load(gallery_dir)
        log(f"Gallery {gallery_dir}: loaded in {time.perf_counter() - tick:.3f} s")
    elif real is not None:
        gallery = _real_gallery(real, figures)
    else:
        gallery = Gallery()
    if real is not None:
        for path in sorted((real / "gallery").iterdir()):
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if img is not None:
                faces.append((name_from_filename(path), img))
    else:
        for name in [f"Card {i:03d}" for i in range(60)]:
            face = render_card_face(name, 0)
            faces.append((name, face))
            if gallery_dir is None:
                gallery.enroll(name, face)
    gallery.prepare_looks()  # as the appliance does: no photo pays for the look tables
    return gallery, faces


def _lighting(gallery: Gallery, faces: Faces, real: Path | None, seed: int, modes: Modes):
    photos = real_photos(real) if real is not None else []
    scenes = list(synthetic_scenes(faces, modes.lighting_scenes, 7, seed))
    out: dict[str, Any] = {}
    if modes.light_set in ("benchmark", "all"):
        out["benchmark"] = run_lighting(
            gallery, BENCHMARK, photos, scenes, f"Lighting, benchmark conditions (seed {seed})"
        )
    if modes.light_set in ("tuning", "all"):
        out["tuning"] = run_lighting(
            gallery, TUNING, photos, scenes, f"Lighting, tuning conditions (seed {seed})"
        )
    return out


STRANGER_SHARE = 0.1  # of the real names, left out of the families' gallery to be strangers


def families_gallery(real: Path) -> tuple[Gallery, Faces, Faces]:
    """The families' gallery from ``real``'s scans: (the gallery, its scans, the scans left
    out of it to be strangers: a tenth of the names, the same for every seed)."""
    folder = real / "gallery"
    if not folder.is_dir():
        raise BenchError(f"{real}: no gallery/ folder")
    faces: Faces = []
    for path in sorted(folder.iterdir()):
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is not None:
            faces.append((name_from_filename(path), img))
    names = sorted({name for name, _ in faces})
    pick = np.random.default_rng(39)
    held = set(pick.choice(names, size=max(1, int(len(names) * STRANGER_SHARE)), replace=False))
    gallery = Gallery()
    for name, face in faces:
        if name not in held:
            gallery.enroll(name, face)
    gallery.prepare_looks()  # as the appliance does: no photo pays for the look tables
    return (
        gallery,
        [(n, f) for n, f in faces if n not in held],
        [(n, f) for n, f in faces if n in held],
    )


def _families(real: Path | None, gallery_dir: Path | None, seed: int, modes: Modes) -> Any:
    """The families' gallery, cards and strangers, then their tables. With ``--real`` the
    gallery holds the real scans but a tenth of the names (the same tenth for every seed, so
    tuning and report seeds share a gallery); those scans are the strangers, with generated
    ones."""
    faces: Faces = []
    strangers = stranger_faces(seed)
    if real is not None:
        gallery, faces, held = families_gallery(real)
        strangers = held + strangers
        describe = (
            f"gallery: {len(faces)} real scans of {len({n for n, _ in faces})} names; "
            f"strangers: {len({n for n, _ in held})} names' scans and generated cards"
        )
    elif gallery_dir is not None:
        raise BenchError("--families draws its cards from --real's scans or generated cards")
    else:
        gallery = Gallery()
        for name in [f"Card {i:03d}" for i in range(60)]:
            face = render_card_face(name, 0)
            faces.append((name, face))
            gallery.enroll(name, face)
        describe = "gallery: 60 generated cards; strangers: generated cards"
    modes.describe = describe
    return run_families(
        gallery,
        faces,
        strangers,
        list(modes.families),
        modes.family_photos,
        seed,
        describe,
        echo=not modes.markdown,
        profile=modes.profile,
        turn=modes.turn,
    )


def _print_markdown(families: dict[str, Any], real: Path | None, seed: int, modes: Modes) -> None:
    """The families' figures as a Markdown page, its first line the command that prints it
    (docs/recognition-figures.md is this output)."""
    command = "tablekeeper bench vision"
    if real is not None:
        command += f" --real {real}"
    command += (
        f" --families {','.join(modes.families)} --family-photos {modes.family_photos}"
        f" --seed {seed}{f' --turn {modes.turn}' if modes.turn else ''} --markdown"
    )
    all_ = families.get("all", {})
    log(f"Generated by `{command}`.")
    log("")
    log("# Card recognition: benchmark figures")
    log("")
    log(
        f"Hands as players lay them: {modes.family_photos} generated photos per family "
        f"(seed {seed}; the recogniser was tuned on seed 11), {modes.describe}; "
        f"OpenCV {cv2.__version__}, numpy {np.__version__}, one OpenCV thread. A stranger is a "
        "card not in the gallery; a false report is a box where no card lies."
    )
    log("")
    for line in markdown_table(families):
        log(line)
    log("")
    log(
        f"Warm CPU per photo (the gallery loaded): median "
        f"{all_.get('median_cpu_seconds') or 0:.3f} s, "
        f"{all_.get('median_ratio_to_orb') or 0:.1f} x a plain ORB(5000) pass on the same photo."
    )
    if "motion" in families:
        motion = families["motion"]
        log("")
        log(
            f"Motion family: of the unknown boxes, {motion['unknown_too_blurred']} say "
            f'"too blurred" and {motion["unknown_other_reason"]} give another reason.'
        )


def _family_wrong(families: dict[str, Any]) -> int:
    all_ = families.get("all", {})
    return int(all_.get("wrong", 0)) + int(all_.get("strangers_named", 0))


def _wrong_names(figures: Any) -> int:
    """Every card named wrongly, and every card that is not enrolled given a name, anywhere in
    the figures (the quick run's pass mark)."""
    if isinstance(figures, dict):
        if "wrong" in figures and "open_set_named" in figures:
            return int(figures["wrong"]) + int(figures["open_set_named"])
        return sum(_wrong_names(v) for k, v in figures.items() if k != "calibration")
    return 0


def run_benchmark(
    *,
    real: Path | None,
    scenes: int,
    cards_per_scene: int,
    seed: int,
    threads: int,
    gallery_dir: Path | None,
    json_out: Path | None,
    held_out: float = 0.0,
    held_out_scenes: int = 60,
    modes: Modes | None = None,
) -> int:
    modes = modes or Modes()
    if modes.quick:
        scenes, held_out_scenes = min(scenes, 12), min(held_out_scenes, 6)
        modes.lighting_scenes, modes.profile_scenes = 3, 6
        modes.lighting = modes.profile = True
    if held_out > 0 and real is None:
        raise BenchError("--held-out needs --real (real cards to leave out)")
    if held_out > 0 and not 0 < held_out < 1:
        raise BenchError("--held-out is a fraction of the names, between 0 and 1")
    cv2.setNumThreads(max(1, threads))
    if not modes.markdown:  # the Markdown page starts with the command that made it
        log(f"OpenCV {cv2.__version__}, numpy {np.__version__}, OpenCV threads: {threads}")
    figures: dict[str, Any] = {}
    if modes.families and not modes.quick:
        figures["families"] = _families(real, gallery_dir, seed, modes)
        if modes.markdown:
            _print_markdown(figures["families"], real, seed, modes)
        if json_out is not None:
            json_out.write_text(json.dumps(figures, indent=1), encoding="utf-8")
        return 1 if _family_wrong(figures["families"]) else 0
    gallery, faces = _gallery_and_faces(real, gallery_dir, figures)
    accuracy = modes.quick or not (modes.lighting or modes.profile)
    if accuracy and real is not None:
        figures["real"] = run_real(real, gallery)
    if accuracy and scenes > 0:
        figures["synthetic"] = run_synthetic(gallery, faces, scenes, cards_per_scene, seed)
    if accuracy and held_out > 0:
        figures["held_out"] = run_held_out(faces, held_out, held_out_scenes, cards_per_scene, seed)
    if modes.lighting:
        figures["lighting"] = _lighting(gallery, faces, real, seed, modes)
    if modes.profile:
        cases = list(synthetic_scenes(faces, modes.profile_scenes, 7, seed))
        figures["profile"] = run_profile(gallery, cases, f"Profile (seed {seed})")
    if json_out is not None:
        json_out.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    if modes.quick:
        wrong = _wrong_names(figures)
        cards = "card" if wrong == 1 else "cards"
        log(f"Quick run: {wrong} {cards} named wrongly" + (" - FAILED" if wrong else " - passed"))
        return 1 if wrong else 0
    return 0
