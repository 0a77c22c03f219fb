"""``tablekeeper bench mixtape``: milliseconds per simulated solo game (a simple human against
Otto) and per 2-, 3- and 4-player game, and what Otto's choices were decided by."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from games.mixtape import Deck, MixtapeGame, SoloGame, play_simple, play_solo


@dataclass
class MixtapeReport:
    text: list[str] = field(default_factory=list)
    ok: bool = True

    def lines(self) -> list[str]:
        return list(self.text)


def measure_mixtape(deck: Deck, games: int) -> MixtapeReport:
    report = MixtapeReport()
    reasons: Counter[str] = Counter()
    solo_times, otto_wins = [], 0
    for seed in range(games):
        started = time.perf_counter()
        game = play_solo(SoloGame.start(deck, seed=seed))
        solo_times.append(time.perf_counter() - started)
        otto_wins += game.winner() == "otto"
        for entry in game.log:
            if "decision" in entry:
                reasons[entry["decision"]["decided_by"]] += 1
    report.text.append(
        f"solo game: median {statistics.median(solo_times) * 1000:.1f} ms "
        f"(max {max(solo_times) * 1000:.1f} ms) over {games} games; "
        f"Otto won {otto_wins}/{games}"
    )
    total = sum(reasons.values())
    report.text.append(
        "Otto decided by: "
        + ", ".join(f"{k} {v} ({100 * v / total:.0f}%)" for k, v in reasons.most_common())
    )
    for players in (2, 3, 4):
        times = []
        for seed in range(games):
            started = time.perf_counter()
            play_simple(MixtapeGame.start(deck, players, seed=seed))
            times.append(time.perf_counter() - started)
        median = statistics.median(times) * 1000
        report.text.append(f"{players}-player game: median {median:.1f} ms")
    return report
