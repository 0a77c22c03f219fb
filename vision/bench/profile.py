"""Where the time goes (``bench vision --profile``): CPU seconds per photo and per kind of work
(find, fit, outline, name, look; :mod:`vision.timing`), and wall seconds per pipeline step, over
generated 7-card 1640 x 1232 photos, one OpenCV thread."""

from __future__ import annotations

import statistics
from typing import Any

from vision.bench.accuracy import SceneCase
from vision.bench.scoring import log, timed_identify
from vision.gallery import Gallery
from vision.timing import PARTS


def run_profile(gallery: Gallery, scenes: list[SceneCase], title: str) -> dict[str, Any]:
    cpu: list[float] = []
    parts: dict[str, list[float]] = {p: [] for p in PARTS}
    steps: dict[str, list[float]] = {}
    if scenes:
        timed_identify(scenes[0].image, gallery)  # warm-up: caches, first-call set-up
    for case in scenes:
        result, seconds = timed_identify(case.image, gallery)
        cpu.append(seconds)
        for name in PARTS:
            parts[name].append(result.cpu.get(name, 0.0))
        for name, value in result.timings.items():
            steps.setdefault(name, []).append(value)
    if not cpu:
        return {}
    median = statistics.median(cpu)
    mean = statistics.fmean(cpu)
    log(
        f"{title}: {len(cpu)} photos, CPU seconds per photo: median {median:.3f}, "
        f"mean {mean:.3f}, worst {max(cpu):.3f}"
    )
    log("  part       median    mean  share of the mean")
    for name in PARTS:
        values = parts[name]
        share = 100.0 * statistics.fmean(values) / mean if mean else 0.0
        log(
            f"  {name:8s} {statistics.median(values):8.3f} {statistics.fmean(values):7.3f}"
            f" {share:6.0f}%"
        )
    log("  step (wall s)     median    mean   runs in")
    for name, values in steps.items():
        log(
            f"  {name:15s} {statistics.median(values):8.3f} {statistics.fmean(values):7.3f}"
            f" {len(values):4d}/{len(cpu)}"
        )
    return {
        "photos": len(cpu),
        "median_cpu_seconds": median,
        "mean_cpu_seconds": mean,
        "worst_cpu_seconds": max(cpu),
        "parts_mean_cpu_seconds": {n: statistics.fmean(v) for n, v in parts.items()},
        "steps_mean_seconds": {n: statistics.fmean(v) for n, v in steps.items()},
    }
