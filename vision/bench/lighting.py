"""The lighting suite (``bench vision --lighting``): the same real photos and generated scenes
under other light (:mod:`vision.lighting`), one row per condition.

Real photos are lit inside the photo only (they sit on a padding canvas added after the shot);
generated scenes are composed once and every condition lights the same scenes. A card named
with another card's name, or a card that is not enrolled given a name, counts as wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.bench.accuracy import RealPhoto, SceneCase
from vision.bench.scoring import Tally, log, match_scene, score_real, tally_json, timed_identify
from vision.detect import padding_box
from vision.gallery import Gallery
from vision.lighting import Light
from vision.tuning import ACCEPT_CONFIDENCE


@dataclass
class LightRow:
    light: Light
    real: Tally
    generated: Tally


def _real_under(light: Light, photos: list[tuple[RealPhoto, np.ndarray]], gallery: Gallery):
    tally = Tally()
    for number, (photo, image) in enumerate(photos):
        lit = light.apply(image, seed=number, region=padding_box(image))
        result, cpu = timed_identify(lit, gallery)
        score_real(result, photo.cards, tally, cpu)
    return tally


def _scenes_under(light: Light, scenes: list[SceneCase], gallery: Gallery) -> Tally:
    tally = Tally()
    for number, case in enumerate(scenes):
        result, cpu = timed_identify(light.apply(case.image, seed=number), gallery)
        match_scene(result, case.truth, ACCEPT_CONFIDENCE, tally)
        tally.cpu.append(cpu)
        tally.seconds.append(result.seconds)
    return tally


def run_lighting(
    gallery: Gallery,
    lights: tuple[Light, ...],
    photos: list[RealPhoto],
    scenes: list[SceneCase],
    title: str,
) -> dict[str, Any]:
    """One table row per light: real photos (1640 px) and generated scenes, right / wrong /
    unknown / missed (and strangers named)."""
    small = [(photo, photo.at_1640()) for photo in photos]
    rows = []
    for light in lights:
        real = _real_under(light, small, gallery) if small else Tally()
        generated = _scenes_under(light, scenes, gallery) if scenes else Tally()
        rows.append(LightRow(light, real, generated))
    _print(rows, title, photos, scenes)
    return {
        row.light.name: {"real": tally_json(row.real), "generated": tally_json(row.generated)}
        for row in rows
    }


def _print(rows: list[LightRow], title: str, photos: list[RealPhoto], scenes: list[SceneCase]):
    cards = sum(len(p.cards) for p in photos)
    log(
        f"{title} (real: {len(photos)} photos, {cards} cards, at 1640 px; generated: "
        f"{len(scenes)} scenes; accept threshold {ACCEPT_CONFIDENCE}):"
    )
    log("                      real photos                 | generated scenes")
    log(
        "  light               right wrong unknown missed | cards right      % wrong unknown "
        "missed | strangers: unknown named missed"
    )
    for row in rows:
        r, g = row.real, row.generated
        pct = 100.0 * g.right / g.cards if g.cards else float("nan")
        log(
            f"  {row.light.name:18s} {r.right:5d} {r.wrong:5d} {r.unknown:7d} {r.missed:6d} | "
            f"{g.cards:5d} {g.right:5d} {pct:5.1f}% {g.wrong:5d} {g.unknown:7d} {g.missed:6d} | "
            f"{g.open_unknown:18d} {g.open_named:5d} "
            f"{g.open_cards - g.open_unknown - g.open_named:6d}"
        )
