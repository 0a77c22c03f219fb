"""Hands as players lay them (``bench vision --families fan,cloth,...``): one table per family of
generated photos (:mod:`vision.synth_hands`), with the cards scored as named / unknown / missed /
wrong, strangers (cards not enrolled) as reported / named, every other box a false report, and
the warm CPU time per photo against a plain ORB(5000) pass over the same photo.

Families:

- ``fan``: 5-7 enrolled cards spread in a fan, each showing 35-50 % of itself (its top-left
  corner and title), on wood, cloth or felt;
- ``cloth``: 3-5 cards apart on a gingham or plaid cloth whose checks are card-sized;
- ``strangers``: 2-4 enrolled cards and 1-2 that are not, all whole, flat and sharp;
- ``clutter``: 3-5 cards with 2-4 props beside them (phone, coins, dice, a score-pad page,
  fingers over a corner of one card);
- ``motion``: 3-5 cards shaken by a 10-28 px motion blur; a card reported unknown should say
  "too blurred";
- ``small``: 4-8 cards 120-160 px wide (the camera far from the table) on wood;
- ``moving`` (not in ``all``): 4-7 cards apart, one of them still moving as the photo is
  taken (a player placing it), that card alone smeared 14-26 px; it should be reported "too
  blurred" if it cannot be named, never missed;
- ``tape`` (not in ``all``: the issue's families keep their figures): a Mixtape laid by the
  rulebook, 3-5 cards (of different names, as in a deck) in each of two columns, each card
  covering 8.5-45 % of the one above it, on wood, cloth or felt; besides the cards, how many
  photos read both columns exactly as laid (:func:`vision.layout.two_columns`, top to bottom).

Every photo of a family comes from ``--seed`` (and the family's name), so a family can be tuned
on one seed and reported on another.
"""

from __future__ import annotations

import statistics
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.bench.scoring import Tally, add_up, log, timed_identify
from vision.gallery import Gallery
from vision.geometry import quad_area, quad_iou
from vision.layout import two_columns
from vision.result import REASON_TOO_BLURRED, Identification
from vision.synth import Scene, render_card_face
from vision.synth_hands import PROP_KINDS, compose_hand, compose_tape, smear_card
from vision.tuning import ACCEPT_CONFIDENCE

FAMILIES = ("fan", "cloth", "strangers", "clutter", "motion", "small")  # "all"
MORE_FAMILIES = ("tape", "inverted", "moving")  # asked for by name only
BLUR_FAMILIES = ("motion", "moving")  # their unknown boxes' reasons are counted
KNOWN_FAMILIES = FAMILIES + MORE_FAMILIES
ORB_FEATURES = 5000  # the plain pass the recogniser's speed is quoted against

Faces = list[tuple[str, np.ndarray]]


@dataclass
class FamilyPhoto:
    image: np.ndarray
    truth: list[tuple[np.ndarray, str | None]]  # corners, name (None: a stranger)
    columns: tuple[list[str], list[str]] | None = None  # a tape's Trk A, Trk B top to bottom


@dataclass
class FamilyFigures:
    photos: int = 0
    tally: Tally = field(default_factory=Tally)
    orb_cpu: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    blurred_reason: int = 0  # unknown boxes that say "too blurred"
    other_reason: int = 0  # unknown boxes that give another reason
    tapes: int = 0  # photos of a Mixtape (with columns to read)
    tapes_in_order: int = 0  # ... whose two columns read exactly as laid
    step_cpu: list[dict[str, float]] = field(default_factory=list)  # per photo (--profile)

    def as_json(self) -> dict[str, Any]:
        t = self.tally
        return {
            "photos": self.photos,
            "cards": t.cards,
            "named": t.right,
            "unknown": t.unknown,
            "missed": t.missed,
            "wrong": t.wrong,
            "strangers": t.open_cards,
            "strangers_reported": t.open_unknown,
            "strangers_named": t.open_named,
            "false": t.false,
            "median_cpu_seconds": statistics.median(t.cpu) if t.cpu else None,
            "median_orb_cpu_seconds": statistics.median(self.orb_cpu) if self.orb_cpu else None,
            "median_ratio_to_orb": statistics.median(self.ratios) if self.ratios else None,
            "unknown_too_blurred": self.blurred_reason,
            "unknown_other_reason": self.other_reason,
            "tapes": self.tapes,
            "tapes_read_as_laid": self.tapes_in_order,
        }


def _pick(rng: np.random.Generator, faces: Faces, low: int, high: int) -> Faces:
    count = min(len(faces), int(rng.integers(low, high + 1)))
    return [faces[i] for i in rng.choice(len(faces), size=count, replace=False)]


def _photo(scene: Scene, names: list[str | None]) -> FamilyPhoto:
    return FamilyPhoto(scene.image, [(c.corners, names[c.index]) for c in scene.cards])


def _fan(rng: np.random.Generator, faces: Faces, strangers: Faces) -> FamilyPhoto:
    hand = _pick(rng, faces, 5, 7)
    table = str(rng.choice(["wood", "cloth", "felt"]))
    difficulty = str(rng.choice(["easy", "medium"]))
    scene = compose_hand(
        [f for _, f in hand], rng, layout="fan", table=table, difficulty=difficulty
    )
    return _photo(scene, [n for n, _ in hand])


def _inverted(rng: np.random.Generator, faces: Faces, strangers: Faces) -> FamilyPhoto:
    """A fan with one card laid upside down in it (the Remix rules turn a transformed card so):
    it shows its far corner where the others show their top-left one."""
    hand = _pick(rng, faces, 5, 7)
    upside_down = int(rng.integers(0, len(hand)))
    table = str(rng.choice(["wood", "cloth", "felt"]))
    difficulty = str(rng.choice(["easy", "medium"]))
    cards = [
        np.ascontiguousarray(f[::-1, ::-1]) if i == upside_down else f
        for i, (_, f) in enumerate(hand)
    ]
    scene = compose_hand(cards, rng, layout="fan", table=table, difficulty=difficulty)
    return _photo(scene, [n for n, _ in hand])


def _cloth(rng: np.random.Generator, faces: Faces, strangers: Faces) -> FamilyPhoto:
    hand = _pick(rng, faces, 3, 5)
    table = str(rng.choice(["gingham", "plaid"]))
    width = float(rng.uniform(170, 260))
    scene = compose_hand(
        [f for _, f in hand], rng, layout="scatter", table=table, card_width_px=width
    )
    return _photo(scene, [n for n, _ in hand])


def _strangers(rng: np.random.Generator, faces: Faces, strangers: Faces) -> FamilyPhoto:
    hand: list[tuple[str | None, np.ndarray]] = list(_pick(rng, faces, 2, 4))
    hand += [(None, f) for _, f in _pick(rng, strangers, 1, 2)]
    order = rng.permutation(len(hand))
    hand = [hand[i] for i in order]
    table = str(rng.choice(["wood", "cloth", "felt"]))
    scene = compose_hand([f for _, f in hand], rng, layout="scatter", table=table)
    return _photo(scene, [n for n, _ in hand])


def _clutter(rng: np.random.Generator, faces: Faces, strangers: Faces) -> FamilyPhoto:
    hand = _pick(rng, faces, 3, 5)
    count = int(rng.integers(2, 5))
    props = [str(p) for p in rng.choice(PROP_KINDS, size=count, replace=False)]
    table = str(rng.choice(["wood", "cloth", "felt"]))
    width = float(rng.uniform(170, 220))
    scene = compose_hand(
        [f for _, f in hand], rng, layout="scatter", table=table, props=props, card_width_px=width
    )
    return _photo(scene, [n for n, _ in hand])


def _motion(rng: np.random.Generator, faces: Faces, strangers: Faces) -> FamilyPhoto:
    hand = _pick(rng, faces, 3, 5)
    table = str(rng.choice(["wood", "cloth", "felt"]))
    shake = float(rng.uniform(10, 28))
    scene = compose_hand([f for _, f in hand], rng, layout="scatter", table=table, motion_px=shake)
    return _photo(scene, [n for n, _ in hand])


def _moving(rng: np.random.Generator, faces: Faces, strangers: Faces) -> FamilyPhoto:
    """Cards lying still but one, smeared as it moved while the photo was taken."""
    hand = _pick(rng, faces, 4, 7)
    table = str(rng.choice(["wood", "cloth", "felt"]))
    scene = compose_hand([f for _, f in hand], rng, layout="scatter", table=table)
    moving = int(rng.integers(0, len(hand)))
    length, degrees = float(rng.uniform(14, 26)), float(rng.uniform(0, 180))
    photo = _photo(scene, [n for n, _ in hand])
    photo.image = smear_card(scene, moving, length, degrees)
    return photo


def _small(rng: np.random.Generator, faces: Faces, strangers: Faces) -> FamilyPhoto:
    hand = _pick(rng, faces, 4, 8)
    width = float(rng.uniform(120, 160))
    scene = compose_hand(
        [f for _, f in hand], rng, layout="scatter", table="wood", card_width_px=width
    )
    return _photo(scene, [n for n, _ in hand])


def _distinct(rng: np.random.Generator, faces: Faces, low: int, high: int) -> Faces:
    """``low``-``high`` faces of as many different names (a deck holds each card once)."""
    count = int(rng.integers(low, high + 1))
    seen: set[str] = set()
    out: Faces = []
    for i in rng.permutation(len(faces)):
        name, face = faces[int(i)]
        if name not in seen:
            seen.add(name)
            out.append((name, face))
        if len(out) == count:
            break
    return out


def _tape(rng: np.random.Generator, faces: Faces, strangers: Faces) -> FamilyPhoto:
    tape = _distinct(rng, faces, 6, 10)
    trk_a = int(rng.integers(max(3, len(tape) - 5), min(5, len(tape) - 3) + 1))
    table = str(rng.choice(["wood", "cloth", "felt"]))
    difficulty = str(rng.choice(["easy", "medium"]))
    scene = compose_tape(
        [f for _, f in tape[:trk_a]],
        [f for _, f in tape[trk_a:]],
        rng,
        table=table,
        difficulty=difficulty,
    )
    names = [n for n, _ in tape]
    photo = _photo(scene, list(names))
    photo.columns = (names[:trk_a], names[trk_a:])
    return photo


MAKERS: dict[str, Callable[[np.random.Generator, Faces, Faces], FamilyPhoto]] = {
    "fan": _fan,
    "cloth": _cloth,
    "strangers": _strangers,
    "clutter": _clutter,
    "motion": _motion,
    "small": _small,
    "tape": _tape,
    "inverted": _inverted,
    "moving": _moving,
}


def family_photos(
    family: str, count: int, seed: int, faces: Faces, strangers: Faces
) -> list[FamilyPhoto]:
    """``count`` photos of ``family`` from ``seed`` (the same seed, the same photos)."""
    rng = np.random.default_rng([seed, zlib.crc32(family.encode("utf-8"))])
    return [MAKERS[family](rng, faces, strangers) for _ in range(count)]


def turned_photo(photo: FamilyPhoto, degrees: int) -> FamilyPhoto:
    """``photo`` turned ``degrees`` (0, 90, 180 or 270) clockwise, its truth with it: the hand
    as the camera sees it when it was laid facing another side of the table."""
    if degrees % 360 == 0:
        return photo
    if degrees % 360 not in (90, 180, 270):
        raise ValueError(f"turn {degrees}: a quarter turn (90, 180 or 270 degrees) only")
    image = photo.image
    truth = [(np.asarray(c, np.float32).reshape(4, 2), n) for c, n in photo.truth]
    for _ in range((degrees % 360) // 90):  # a quarter turn clockwise: (x, y) -> (h - 1 - y, x)
        height = image.shape[0]
        truth = [(np.stack([height - 1 - c[:, 1], c[:, 0]], axis=1), n) for c, n in truth]
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    return FamilyPhoto(np.ascontiguousarray(image), truth, photo.columns)


def orb_seconds(image: np.ndarray) -> float:
    """CPU seconds of a plain ORB(5000) pass (grey, detect and describe) over ``image``."""
    orb = cv2.ORB.create(nfeatures=ORB_FEATURES)
    tick = time.process_time()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    orb.detectAndCompute(gray, None)
    return time.process_time() - tick


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex quads share."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


def match_hand(result: Identification, truth: list[tuple[np.ndarray, str | None]], t: Tally):
    """Score one photo of overlapping cards. A fan's boxes overlap, so a box is paired with the
    card it covers best (highest IoU first), not the first card whose centre it holds:

    - a named box paired with a card (IoU > 0.3): named if the names agree, else wrong (a
      stranger given a name: ``open_named``);
    - a named box left unpaired whose name is on a card it covers half of: named (its corners
      are off); any other named box gives a name that is not on the table: wrong;
    - an unknown box: the card, not yet answered, it covers most (at least half the box, or the
      card's whole visible part): unknown (a stranger reported); else a false report.
    """
    answered: dict[int, str] = {}  # truth index -> named | wrong | unknown
    pairs = sorted(
        (
            (quad_iou(corners, card.corners), ti, ci)
            for ti, (corners, _) in enumerate(truth)
            for ci, card in enumerate(result.cards)
        ),
        reverse=True,
    )
    used: set[int] = set()
    for iou, ti, ci in pairs:
        if iou <= 0.3 or ti in answered or ci in used:
            continue
        used.add(ci)
        name = truth[ti][1]
        answered[ti] = "named" if result.cards[ci].name == name else "wrong"
    for ci, card in enumerate(result.cards):
        if ci in used:
            continue
        home = [
            ti
            for ti, (corners, name) in enumerate(truth)
            if ti not in answered
            and name == card.name
            and _overlap(corners, card.corners) > 0.5 * quad_area(card.corners)
        ]
        if home:
            answered[home[0]] = "named"
        else:
            t.wrong += 1  # a name given where no such card lies
    for unknown in result.unknown:
        area = max(quad_area(unknown.corners), 1.0)
        best, best_share = None, 0.0
        for ti, (corners, _) in enumerate(truth):
            if ti in answered:
                continue
            share = _overlap(corners, unknown.corners) / area
            if share > best_share:
                best, best_share = ti, share
        if best is not None and best_share >= 0.5:
            answered[best] = "unknown"
        else:
            t.false += 1
    for ti, (_, name) in enumerate(truth):
        verdict = answered.get(ti, "missed")
        if name is None:
            t.open_cards += 1
            t.open_named += verdict in ("named", "wrong")
            t.open_unknown += verdict == "unknown"
            continue
        t.cards += 1
        t.right += verdict == "named"
        t.wrong += verdict == "wrong"
        t.unknown += verdict == "unknown"
        t.missed += verdict == "missed"


def run_family(gallery: Gallery, photos: list[FamilyPhoto]) -> FamilyFigures:
    figures = FamilyFigures()
    for photo in photos:
        result, cpu = timed_identify(photo.image, gallery)
        orb = orb_seconds(photo.image)
        match_hand(result, photo.truth, figures.tally)
        figures.tally.cpu.append(cpu)
        figures.tally.seconds.append(result.seconds)
        figures.orb_cpu.append(orb)
        figures.ratios.append(cpu / max(orb, 1e-6))
        figures.photos += 1
        if photo.columns is not None:
            left, right = two_columns(result.cards)
            figures.tapes += 1
            read = ([c.name for c in left], [c.name for c in right])
            figures.tapes_in_order += read == photo.columns
        # The CPU time outside the steps is the photo's preparation (vision.photo.Photo.of).
        steps = {"photo": max(0.0, cpu - sum(result.step_cpu.values())), **result.step_cpu}
        figures.step_cpu.append(steps)
        for unknown in result.unknown:
            if unknown.reason == REASON_TOO_BLURRED:
                figures.blurred_reason += 1
            else:
                figures.other_reason += 1
    return figures


FAMILY_HEADER = (
    "  family     photos cards named unknown missed wrong strangers reported named "
    "false  cpu s  x ORB"
)


def family_row(label: str, f: FamilyFigures) -> str:
    t = f.tally
    cpu = statistics.median(t.cpu) if t.cpu else float("nan")
    ratio = statistics.median(f.ratios) if f.ratios else float("nan")
    return (
        f"  {label:10s} {f.photos:6d} {t.cards:5d} {t.right:5d} {t.unknown:7d} {t.missed:6d} "
        f"{t.wrong:5d} {t.open_cards:9d} {t.open_unknown:8d} {t.open_named:5d} {t.false:5d} "
        f"{cpu:6.3f} {ratio:6.2f}"
    )


MARKDOWN_COLUMNS = (
    "family",
    "photos",
    "cards",
    "named",
    "unknown",
    "missed",
    "wrong",
    "strangers",
    "strangers reported",
    "strangers named",
    "false reports",
    "median CPU s",
    "x ORB(5000)",
)


def markdown_table(out: dict[str, Any]) -> list[str]:
    """The families' figures (``run_families``'s result) as a Markdown table."""
    lines = [
        "| " + " | ".join(MARKDOWN_COLUMNS) + " |",
        "|" + "|".join("---" if i == 0 else "---:" for i in range(len(MARKDOWN_COLUMNS))) + "|",
    ]
    for family, f in out.items():
        if not isinstance(f, dict) or "photos" not in f:
            continue
        cpu = f["median_cpu_seconds"]
        ratio = f["median_ratio_to_orb"]
        cells = [
            family,
            f["photos"],
            f["cards"],
            f["named"],
            f["unknown"],
            f["missed"],
            f["wrong"],
            f["strangers"],
            f["strangers_reported"],
            f["strangers_named"],
            f["false"],
            "-" if cpu is None else f"{cpu:.3f}",
            "-" if ratio is None else f"{ratio:.1f}",
        ]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return lines


def stranger_faces(seed: int, count: int = 24) -> Faces:
    """Generated cards nobody enrolled (their names are not in any generated gallery)."""
    return [
        (f"stranger {seed}-{i}", render_card_face(f"stranger {seed}-{i}", i)) for i in range(count)
    ]


def run_families(
    gallery: Gallery,
    faces: Faces,
    strangers: Faces,
    families: list[str],
    count: int,
    seed: int,
    describe: str,
    echo: bool = True,
    profile: bool = False,
    turn: int = 0,
) -> dict[str, Any]:
    """Score ``count`` photos of every family in ``families``; print (``echo``) one row per
    family and one for all of them, and with ``profile`` the CPU time of each step. ``turn``:
    every photo turned that many degrees clockwise (:func:`turned_photo`)."""
    say = log if echo else _silent
    if faces:
        orb_seconds(faces[0][1])  # warm-up: OpenCV's first-call set-up
    turned = f", turned {turn} degrees clockwise" if turn else ""
    say(
        f"Families (seed {seed}, {count} photos each{turned}; {describe}; "
        f"accept {ACCEPT_CONFIDENCE}):"
    )
    say(FAMILY_HEADER)
    out: dict[str, Any] = {}
    total = FamilyFigures()
    warmed = False
    for family in families:
        photos = [
            turned_photo(p, turn) for p in family_photos(family, count, seed, faces, strangers)
        ]
        if not warmed and photos:
            timed_identify(photos[0].image, gallery)  # warm-up: caches, first-call set-up
            warmed = True
        figures = run_family(gallery, photos)
        say(family_row(family, figures))
        out[family] = figures.as_json()
        _add(total, figures)
    say(family_row("all", total))
    out["all"] = total.as_json()
    for family in (f for f in BLUR_FAMILIES if f in families):
        blurred = out[family]
        say(
            f"  {family}: unknown boxes saying too blurred {blurred['unknown_too_blurred']}, "
            f"another reason {blurred['unknown_other_reason']}"
        )
    if "tape" in families:
        tape = out["tape"]
        say(
            f"  tape: both columns read as laid (every card named, top to bottom) in "
            f"{tape['tapes_read_as_laid']} of {tape['tapes']} photos"
        )
    if total.ratios:
        say(
            f"  warm CPU per photo: median {statistics.median(total.tally.cpu):.3f} s, "
            f"ORB({ORB_FEATURES}) median {statistics.median(total.orb_cpu):.3f} s, "
            f"median ratio {statistics.median(total.ratios):.2f}x"
        )
    if profile and total.step_cpu:
        out["all"]["step_cpu_ms"] = step_profile(total.step_cpu, say)
    return out


def step_profile(photos: list[dict[str, float]], say: Callable[[str], None]) -> dict[str, Any]:
    """Print and return the CPU milliseconds of each step over ``photos`` (median, mean, and
    on how many photos it did any work; ``photo``: the preparation before the steps)."""
    names = list(dict.fromkeys(name for steps in photos for name in steps))
    say(f"  CPU ms per photo by step ({len(photos)} photos):")
    say("    step            median    mean  ran on")
    out: dict[str, Any] = {}
    for name in names:
        ms = [1000.0 * steps.get(name, 0.0) for steps in photos]
        busy = sum(1 for v in ms if v >= 0.05)
        out[name] = {"median": statistics.median(ms), "mean": statistics.fmean(ms), "ran_on": busy}
        say(f"    {name:15s} {out[name]['median']:6.1f} {out[name]['mean']:7.1f}  {busy:3d}")
    return out


def _silent(_msg: str) -> None:
    """Print nothing (the Markdown table is printed instead)."""


def _add(total: FamilyFigures, part: FamilyFigures) -> None:
    add_up(total.tally, part.tally)
    total.photos += part.photos
    total.orb_cpu.extend(part.orb_cpu)
    total.ratios.extend(part.ratios)
    total.blurred_reason += part.blurred_reason
    total.step_cpu.extend(part.step_cpu)
    total.other_reason += part.other_reason
    total.tapes += part.tapes
    total.tapes_in_order += part.tapes_in_order
