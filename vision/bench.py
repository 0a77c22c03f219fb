"""`tablekeeper bench vision`: recognition accuracy and speed, printed as tables.

Two parts:

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
import json
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.gallery import Gallery, name_from_filename
from vision.geometry import inside, quad_iou
from vision.recognize import identify
from vision.result import REASON_NOT_IN_GALLERY, Identification, UnknownCard
from vision.synth import DIFFICULTIES, compose_scene, render_card_face
from vision.tuning import ACCEPT_CONFIDENCE

THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)


class BenchError(Exception):
    """The benchmark cannot run (missing dataset, ...)."""


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    unknown: int = 0
    missed: int = 0
    false: int = 0
    cards: int = 0
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    open_cards: int = 0
    open_unknown: int = 0
    open_named: int = 0

    def row(self) -> str:
        med = statistics.median(self.seconds) if self.seconds else float("nan")
        cpu = statistics.median(self.cpu) if self.cpu else float("nan")
        pct = 100.0 * self.right / self.cards if self.cards else float("nan")
        wrong_pct = 100.0 * self.wrong / self.cards if self.cards else float("nan")
        return (
            f"{self.cards:6d} {self.right:6d} {pct:6.1f}% {self.wrong:5d} {wrong_pct:5.2f}% "
            f"{self.unknown:7d} {self.missed:6d} {self.false:5d}   {med:6.3f}   {cpu:6.3f}"
        )


HEADER = (
    "                  cards  right      %  wrong      % unknown missed false  median s  "
    "median cpu s"
)


def _log(msg: str) -> None:
    print(msg, flush=True)


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


def _timed_identify(image: np.ndarray, gallery: Gallery, **kwargs: Any) -> tuple[Any, float]:
    """identify() and the CPU seconds it used (with one OpenCV thread, the one-core time even
    when other programs share the machine; the wall-clock time is in result.seconds)."""
    tick = time.process_time()
    result = identify(image, gallery, **kwargs)
    return result, time.process_time() - tick


def _score_real(result: Identification, expected: list[str], tally: Tally, cpu: float) -> None:
    want = Counter(expected)
    got = Counter(c.name for c in result.cards)
    right = sum((want & got).values())
    tally.cards += len(expected)
    tally.right += right
    tally.wrong += min(sum(got.values()) - right, len(expected) - right)
    extra_named = max(0, sum(got.values()) - len(expected))
    tally.missed += max(0, len(expected) - sum(got.values()) - len(result.unknown))
    tally.unknown += min(len(result.unknown), max(0, len(expected) - sum(got.values())))
    tally.false += extra_named + max(
        0, len(result.unknown) - max(0, len(expected) - sum(got.values()))
    )
    tally.seconds.append(result.seconds)
    tally.cpu.append(cpu)


def run_real(real: Path, gallery: Gallery) -> dict[str, Any]:
    photos = real / "photos"
    labels = real / "labels.csv"
    if not photos.is_dir() or not labels.is_file():
        raise BenchError(f"{real}: expected photos/ and labels.csv")
    truth = _truth(labels)
    out: dict[str, Any] = {}
    tallies = {"full size": Tally(), "1640 px": Tally()}
    decode: list[float] = []
    details: list[str] = []
    for path in sorted(photos.iterdir()):
        if path.name not in truth:
            continue
        tick = time.perf_counter()
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        decode.append(time.perf_counter() - tick)
        if image is None:
            raise BenchError(f"{path}: unreadable")
        scale = 1640 / max(image.shape[:2])
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        for label, img in (("full size", image), ("1640 px", small)):
            result, cpu = _timed_identify(img, gallery)
            _score_real(result, truth[path.name], tallies[label], cpu)
            named = ", ".join(f"{c.name} ({c.confidence:.2f})" for c in result.cards)
            unknown = ", ".join(u.reason for u in result.unknown)
            details.append(
                f"  {path.name} {label:9s} {result.seconds:5.2f} s  named: {named or '-'}"
                + (f"  unknown: {unknown}" if unknown else "")
            )
    _log("Real photos (" + str(real) + "):")
    _log(HEADER)
    for label, tally in tallies.items():
        _log(f"  {label:14s}" + tally.row())
        out[label] = _tally_json(tally)
    _log(f"  (JPEG decode, full size: median {statistics.median(decode):.3f} s, not included)")
    for line in details:
        _log(line)
    return out


def _tally_json(t: Tally) -> dict[str, Any]:
    return {
        "cards": t.cards,
        "right": t.right,
        "wrong": t.wrong,
        "unknown": t.unknown,
        "missed": t.missed,
        "false": t.false,
        "median_seconds": statistics.median(t.seconds) if t.seconds else None,
        "median_cpu_seconds": statistics.median(t.cpu) if t.cpu else None,
        "open_set_cards": t.open_cards,
        "open_set_unknown": t.open_unknown,
        "open_set_named": t.open_named,
    }


def _match_scene(
    result: Identification,
    truth: list[tuple[np.ndarray, str | None]],
    threshold: float,
    tally: Tally,
) -> None:
    """Score one scene; ``truth`` is (corners, name or None for a card not in the gallery)."""
    claimed_cards: set[int] = set()
    claimed_unknown: set[int] = set()
    for corners, name in truth:
        centre = corners.mean(axis=0)
        hit = None
        for i, card in enumerate(result.cards):
            if i not in claimed_cards and (
                inside(centre, card.corners) and quad_iou(corners, card.corners) > 0.3
            ):
                hit = i
                break
        unk = None
        if hit is None:
            for j, u in enumerate(result.unknown):
                if j not in claimed_unknown and inside(centre, u.corners):
                    unk = j
                    break
        if name is None:
            tally.open_cards += 1
            if hit is not None and result.cards[hit].confidence >= threshold:
                tally.open_named += 1
                claimed_cards.add(hit)
            elif hit is not None or unk is not None:
                tally.open_unknown += 1
                if hit is not None:
                    claimed_cards.add(hit)
                if unk is not None:
                    claimed_unknown.add(unk)
            continue
        tally.cards += 1
        if hit is not None:
            claimed_cards.add(hit)
            card = result.cards[hit]
            if card.confidence < threshold:
                tally.unknown += 1
            elif card.name == name:
                tally.right += 1
            else:
                tally.wrong += 1
        elif unk is not None:
            claimed_unknown.add(unk)
            tally.unknown += 1
        else:
            tally.missed += 1
    tally.false += sum(
        1
        for i, c in enumerate(result.cards)
        if i not in claimed_cards and c.confidence >= threshold
    )
    tally.false += sum(1 for j in range(len(result.unknown)) if j not in claimed_unknown)


def run_synthetic(
    gallery: Gallery,
    faces: list[tuple[str, np.ndarray]],
    scenes: int,
    cards_per_scene: int,
    seed: int,
) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    tallies = {d: Tally() for d in DIFFICULTIES}
    calib = {t: Tally() for t in THRESHOLDS}
    compose_times: list[float] = []
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
            compose_times.append(time.perf_counter() - tick)
            truth = [(c.corners, names[c.index]) for c in scene.cards]
            result, cpu = _timed_identify(scene.image, gallery, accept=min(THRESHOLDS))
            for t in THRESHOLDS:
                _match_scene(result, truth, t, calib[t])
            main = Tally()
            _match_scene(_filtered(result, ACCEPT_CONFIDENCE), truth, 0.0, main)
            tally = tallies[difficulty]
            for attr in ("right", "wrong", "unknown", "missed", "false", "cards"):
                setattr(tally, attr, getattr(tally, attr) + getattr(main, attr))
            for attr in ("open_cards", "open_unknown", "open_named"):
                setattr(tally, attr, getattr(tally, attr) + getattr(main, attr))
            tally.seconds.append(result.seconds)
            tally.cpu.append(cpu)
    total = Tally()
    for tally in tallies.values():
        for attr in (
            "right",
            "wrong",
            "unknown",
            "missed",
            "false",
            "cards",
            "open_cards",
            "open_unknown",
            "open_named",
        ):
            setattr(total, attr, getattr(total, attr) + getattr(tally, attr))
        total.seconds.extend(tally.seconds)
        total.cpu.extend(tally.cpu)
    _log(
        f"Synthetic scenes (seed {seed}, {per} per difficulty, {cards_per_scene} gallery cards "
        f"each, 1640x1232; accept threshold {ACCEPT_CONFIDENCE}):"
    )
    _log(HEADER)
    out: dict[str, Any] = {}
    for label, tally in [*tallies.items(), ("all", total)]:
        _log(f"  {label:14s}" + tally.row())
        out[label] = _tally_json(tally)
    _log(
        f"  not-in-gallery cards: {total.open_cards}, reported unknown {total.open_unknown}, "
        f"named (wrongly) {total.open_named}, missed "
        f"{total.open_cards - total.open_unknown - total.open_named}"
    )
    _log(f"  (scene generation: median {statistics.median(compose_times):.2f} s, not included)")
    _log("Calibration (all difficulties; a name below the threshold counts as unknown):")
    _log("  threshold  right      %  wrong      %  unknown  stranger named")
    for t, tally in calib.items():
        _log(
            f"  {t:9.2f} {tally.right:6d} {100 * tally.right / max(1, tally.cards):6.2f}% "
            f"{tally.wrong:5d} {100 * tally.wrong / max(1, tally.cards):5.2f}% "
            f"{tally.unknown + tally.missed:8d}  {tally.open_named:6d}"
        )
    out["calibration"] = {str(t): _tally_json(c) for t, c in calib.items()}
    return out


def _filtered(result: Identification, threshold: float) -> Identification:
    """The result as ``identify`` reports it at ``threshold`` (names below it are unknowns)."""
    cards = [c for c in result.cards if c.confidence >= threshold]
    demoted = [
        UnknownCard(c.corners, REASON_NOT_IN_GALLERY, c.candidates)
        for c in result.cards
        if c.confidence < threshold
    ]
    return Identification(
        cards, result.unknown + demoted, result.seconds, result.image_size, result.timings
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
        result, cpu = _timed_identify(scene.image, gallery)
        truth_known = [
            (c.corners, faces[chosen[c.index]][0])
            for c in scene.cards
            if faces[chosen[c.index]][0] not in held
        ]
        truth_held: list[tuple[np.ndarray, str | None]] = [
            (c.corners, None) for c in scene.cards if faces[chosen[c.index]][0] in held
        ]
        # Enrolled cards first (they claim their answers), then the held-out ones.
        _match_scene(result, truth_known + truth_held, ACCEPT_CONFIDENCE, enrolled)
        enrolled.cpu.append(cpu)
        enrolled.seconds.append(result.seconds)
    named = enrolled.open_named
    _log(
        f"Held-out real cards (seed {seed}: {len(held)} of {len(names)} names left out of the "
        f"gallery; {scenes} hard scenes of {cards_per_scene} cards drawn from every scan):"
    )
    _log(HEADER)
    _log("  enrolled      " + enrolled.row())
    _log(
        f"  held-out cards: {enrolled.open_cards}, reported unknown {enrolled.open_unknown}, "
        f"named (wrongly) {named} ({100 * named / max(1, enrolled.open_cards):.1f}%), missed "
        f"{enrolled.open_cards - enrolled.open_unknown - named}"
    )
    return {
        "held_out_names": len(held),
        "names": len(names),
        "enrolled": _tally_json(enrolled),
    }


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
) -> int:
    cv2.setNumThreads(max(1, threads))
    _log(f"OpenCV {cv2.__version__}, numpy {np.__version__}, OpenCV threads: {threads}")
    figures: dict[str, Any] = {}
    faces: list[tuple[str, np.ndarray]] = []
    if gallery_dir is not None:
        tick = time.perf_counter()
        gallery = Gallery.load(gallery_dir)
        _log(f"Gallery {gallery_dir}: loaded in {time.perf_counter() - tick:.3f} s")
    elif real is not None:
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
        _log(
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
    else:
        gallery = Gallery()
    if real is not None:
        figures["real"] = run_real(real, gallery)
        for path in sorted((real / "gallery").iterdir()):
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if img is not None:
                faces.append((name_from_filename(path), img))
    else:
        names = [f"Card {i:03d}" for i in range(60)]
        for n in names:
            face = render_card_face(n, 0)
            faces.append((n, face))
            if gallery_dir is None:
                gallery.enroll(n, face)
    if scenes > 0:
        figures["synthetic"] = run_synthetic(gallery, faces, scenes, cards_per_scene, seed)
    if held_out > 0:
        if real is None:
            raise BenchError("--held-out needs --real (real cards to leave out)")
        if not 0 < held_out < 1:
            raise BenchError("--held-out is a fraction of the names, between 0 and 1")
        figures["held_out"] = run_held_out(faces, held_out, held_out_scenes, cards_per_scene, seed)
    if json_out is not None:
        json_out.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0
