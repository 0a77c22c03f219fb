"""Scoring one photo's answer against the truth, and the tallies the bench prints."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.gallery import Gallery
from vision.geometry import inside, quad_iou
from vision.recognize import identify
from vision.result import REASON_NOT_IN_GALLERY, Identification, UnknownCard


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


def log(msg: str) -> None:
    print(msg, flush=True)


def timed_identify(image: np.ndarray, gallery: Gallery, **kwargs: Any) -> tuple[Any, float]:
    """identify() and the CPU seconds it used (with one OpenCV thread, the one-core time even
    when other programs share the machine; the wall-clock time is in result.seconds)."""
    tick = time.process_time()
    result = identify(image, gallery, **kwargs)
    return result, time.process_time() - tick


def score_real(result: Identification, expected: list[str], tally: Tally, cpu: float) -> None:
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


def tally_json(t: Tally) -> dict[str, Any]:
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


def match_scene(
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


def filtered(result: Identification, threshold: float) -> Identification:
    """The result as ``identify`` reports it at ``threshold`` (names below it are unknowns)."""
    cards = [c for c in result.cards if c.confidence >= threshold]
    demoted = [
        UnknownCard(c.corners, REASON_NOT_IN_GALLERY, c.candidates)
        for c in result.cards
        if c.confidence < threshold
    ]
    return Identification(
        cards,
        result.unknown + demoted,
        result.seconds,
        result.image_size,
        result.timings,
        result.cpu,
        result.step_cpu,
    )


def add_up(total: Tally, part: Tally) -> None:
    """Add ``part``'s counts and times to ``total``."""
    for attr in COUNTS:
        setattr(total, attr, getattr(total, attr) + getattr(part, attr))
    total.seconds.extend(part.seconds)
    total.cpu.extend(part.cpu)


COUNTS = (
    "right",
    "wrong",
    "unknown",
    "missed",
    "false",
    "cards",
    "open_cards",
    "open_unknown",
    "open_named",
)
