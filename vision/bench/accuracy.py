"""Accuracy tables of ``tablekeeper bench vision``: real photos, generated scenes, held-out cards.

Three parts:

- **Real photos** (``--real DIR`` with ``gallery/``, ``photos/``, ``labels.csv``): every gallery
  image is enrolled under its card name, then each photo is identified at full size and at
  1640 px on the long side. Per size: cards named right, named wrong, missed, false cards
  (anything reported beyond the truth, unknowns included) and the median seconds per photo
  (``identify`` only; decoding the JPEG is reported separately).
- **Synthetic scenes** (fixed seed): scenes of ``--cards`` cards drawn from the same gallery
  (or from generated card faces when no ``--real`` is given) on random tables, split evenly over
  easy / medium / hard. Every fourth scene also holds one generated card that is *not* in the
  gallery, which must come back unknown. Per difficulty: right, wrong (named wrong with a
  confidence above the accept threshold), unknown, missed, false cards, median seconds.
  The calibration table shows the same counts for other accept thresholds.
- **Held-out real cards** (``--held-out FRACTION`` with ``--real``): a harder open-set test than
  the generated strangers. That fraction of the card *names* (chosen with the seed) is left out
  of a second gallery; hard scenes are drawn from every scan, so they hold cards of the same
  game, frame and often rules text that are not enrolled. Those must come back unknown (or be
  missed), never named; the enrolled cards in the same scenes are scored as usual.
"""

from __future__ import annotations

import csv
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.bench.scoring import (
    HEADER,
    BenchError,
    Tally,
    add_up,
    filtered,
    log,
    match_scene,
    score_real,
    tally_json,
    timed_identify,
)
from vision.gallery import Gallery
from vision.synth import DIFFICULTIES, compose_scene, render_card_face
from vision.tuning import ACCEPT_CONFIDENCE

THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


def enroll_folder(folder: Path) -> Gallery:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in {".jpg", ".jpeg", ".png"})
    if not files:
        raise BenchError(f"{folder}: no reference images")
    gallery = Gallery()
    gallery.enroll_files(files)
    return gallery


def _truth(labels: Path) -> dict[str, list[str]]:
    truth: dict[str, list[str]] = defaultdict(list)
    with labels.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            truth[row["photo"]].append(row["card"])
    return truth


@dataclass
class RealPhoto:
    name: str
    image: np.ndarray  # full size
    cards: list[str]  # the truth: one name per card instance
    decode_seconds: float

    def at_1640(self) -> np.ndarray:
        scale = 1640 / max(self.image.shape[:2])
        return cv2.resize(self.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def real_photos(real: Path) -> list[RealPhoto]:
    """The labelled photos of a real-photo dataset (``photos/``, ``labels.csv``)."""
    photos = real / "photos"
    labels = real / "labels.csv"
    if not photos.is_dir() or not labels.is_file():
        raise BenchError(f"{real}: expected photos/ and labels.csv")
    truth = _truth(labels)
    out = []
    for path in sorted(photos.iterdir()):
        if path.name not in truth:
            continue
        tick = time.perf_counter()
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        seconds = time.perf_counter() - tick
        if image is None:
            raise BenchError(f"{path}: unreadable")
        out.append(RealPhoto(path.name, image, truth[path.name], seconds))
    return out


def run_real(real: Path, gallery: Gallery) -> dict[str, Any]:
    out: dict[str, Any] = {}
    tallies = {"full size": Tally(), "1640 px": Tally()}
    details: list[str] = []
    photos = real_photos(real)
    for photo in photos:
        for label, img in (("full size", photo.image), ("1640 px", photo.at_1640())):
            result, cpu = timed_identify(img, gallery)
            score_real(result, photo.cards, tallies[label], cpu)
            named = ", ".join(f"{c.name} ({c.confidence:.2f})" for c in result.cards)
            unknown = ", ".join(u.reason for u in result.unknown)
            details.append(
                f"  {photo.name} {label:9s} {result.seconds:5.2f} s  named: {named or '-'}"
                + (f"  unknown: {unknown}" if unknown else "")
            )
    log("Real photos (" + str(real) + "):")
    log(HEADER)
    for label, tally in tallies.items():
        log(f"  {label:14s}" + tally.row())
        out[label] = tally_json(tally)
    decode = statistics.median(p.decode_seconds for p in photos)
    log(f"  (JPEG decode, full size: median {decode:.3f} s, not included)")
    for line in details:
        log(line)
    return out


Truth = list[tuple[np.ndarray, str | None]]  # per card: corners, name (None: not enrolled)


@dataclass
class SceneCase:
    difficulty: str
    image: np.ndarray
    truth: Truth
    compose_seconds: float


def synthetic_scenes(
    faces: list[tuple[str, np.ndarray]], scenes: int, cards_per_scene: int, seed: int
) -> Iterator[SceneCase]:
    """Scenes of ``cards_per_scene`` faces split evenly over easy / medium / hard; every fourth
    scene also holds one generated card that is not enrolled (truth name None)."""
    rng = np.random.default_rng(seed)
    per = max(1, scenes // len(DIFFICULTIES))
    for difficulty in DIFFICULTIES:
        for k in range(per):
            chosen = rng.choice(len(faces), size=min(cards_per_scene, len(faces)), replace=False)
            images = [faces[i][1] for i in chosen]
            names: list[str | None] = [faces[i][0] for i in chosen]
            if k % 4 == 3:  # one card nobody enrolled
                images.append(render_card_face(f"stranger {seed}-{difficulty}-{k}", k))
                names.append(None)
            tick = time.perf_counter()
            scene = compose_scene(images, rng, difficulty=difficulty)
            seconds = time.perf_counter() - tick
            truth = [(c.corners, names[c.index]) for c in scene.cards]
            yield SceneCase(difficulty, scene.image, truth, seconds)


def run_synthetic(
    gallery: Gallery,
    faces: list[tuple[str, np.ndarray]],
    scenes: int,
    cards_per_scene: int,
    seed: int,
) -> dict[str, Any]:
    tallies: dict[str, Tally] = {d: Tally() for d in DIFFICULTIES}
    calib = {t: Tally() for t in THRESHOLDS}
    compose_times: list[float] = []
    for case in synthetic_scenes(faces, scenes, cards_per_scene, seed):
        compose_times.append(case.compose_seconds)
        result, cpu = timed_identify(case.image, gallery, accept=min(THRESHOLDS))
        for t in THRESHOLDS:
            match_scene(result, case.truth, t, calib[t])
        main = Tally()
        match_scene(filtered(result, ACCEPT_CONFIDENCE), case.truth, 0.0, main)
        main.seconds.append(result.seconds)
        main.cpu.append(cpu)
        add_up(tallies[case.difficulty], main)
    total = Tally()
    for tally in tallies.values():
        add_up(total, tally)
    per = max(1, scenes // len(DIFFICULTIES))
    log(
        f"Synthetic scenes (seed {seed}, {per} per difficulty, {cards_per_scene} gallery cards "
        f"each, 1640x1232; accept threshold {ACCEPT_CONFIDENCE}):"
    )
    log(HEADER)
    out: dict[str, Any] = {}
    for label, tally in [*tallies.items(), ("all", total)]:
        log(f"  {label:14s}" + tally.row())
        out[label] = tally_json(tally)
    log(
        f"  not-in-gallery cards: {total.open_cards}, reported unknown {total.open_unknown}, "
        f"named (wrongly) {total.open_named}, missed "
        f"{total.open_cards - total.open_unknown - total.open_named}"
    )
    log(f"  (scene generation: median {statistics.median(compose_times):.2f} s, not included)")
    _print_calibration(calib)
    out["calibration"] = {str(t): tally_json(c) for t, c in calib.items()}
    return out


def _print_calibration(calib: dict[float, Tally]) -> None:
    log("Calibration (all difficulties; a name below the threshold counts as unknown):")
    log("  threshold  right      %  wrong      %  unknown  stranger named")
    for t, tally in calib.items():
        log(
            f"  {t:9.2f} {tally.right:6d} {100 * tally.right / max(1, tally.cards):6.2f}% "
            f"{tally.wrong:5d} {100 * tally.wrong / max(1, tally.cards):5.2f}% "
            f"{tally.unknown + tally.missed:8d}  {tally.open_named:6d}"
        )


def run_held_out(
    faces: list[tuple[str, np.ndarray]],
    fraction: float,
    scenes: int,
    cards_per_scene: int,
    seed: int,
) -> dict[str, Any]:
    """Enrol all but ``fraction`` of the names, then score hard scenes drawn from every face:
    a held-out card named (at or above the accept threshold) is an open-set failure."""
    rng = np.random.default_rng(seed)
    names = sorted({name for name, _ in faces})
    held = set(rng.choice(names, size=max(1, int(len(names) * fraction)), replace=False))
    gallery = Gallery()
    for name, face in faces:
        if name not in held:
            gallery.enroll(name, face)
    enrolled = Tally()
    for _ in range(scenes):
        chosen = rng.choice(len(faces), size=min(cards_per_scene, len(faces)), replace=False)
        scene = compose_scene([faces[i][1] for i in chosen], rng, difficulty="hard")
        result, cpu = timed_identify(scene.image, gallery)
        truth_known = [
            (c.corners, faces[chosen[c.index]][0])
            for c in scene.cards
            if faces[chosen[c.index]][0] not in held
        ]
        truth_held: list[tuple[np.ndarray, str | None]] = [
            (c.corners, None) for c in scene.cards if faces[chosen[c.index]][0] in held
        ]
        # Enrolled cards first (they claim their answers), then the held-out ones.
        match_scene(result, truth_known + truth_held, ACCEPT_CONFIDENCE, enrolled)
        enrolled.cpu.append(cpu)
        enrolled.seconds.append(result.seconds)
    named = enrolled.open_named
    log(
        f"Held-out real cards (seed {seed}: {len(held)} of {len(names)} names left out of the "
        f"gallery; {scenes} hard scenes of {cards_per_scene} cards drawn from every scan):"
    )
    log(HEADER)
    log("  enrolled      " + enrolled.row())
    log(
        f"  held-out cards: {enrolled.open_cards}, reported unknown {enrolled.open_unknown}, "
        f"named (wrongly) {named} ({100 * named / max(1, enrolled.open_cards):.1f}%), missed "
        f"{enrolled.open_cards - enrolled.open_unknown - named}"
    )
    return {
        "held_out_names": len(held),
        "names": len(names),
        "enrolled": tally_json(enrolled),
    }
