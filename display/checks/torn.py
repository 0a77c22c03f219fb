"""Torn writes: what the state database looks like after the power fails in the middle of a
write, and whether Tablekeeper reads it correctly.

SQLite in WAL mode appends every transaction to ``state.db-wal`` as frames; the last frame of a
transaction is marked as the commit frame and every frame carries a checksum chained from the
previous ones. With ``synchronous=FULL`` the WAL is fsynced at every COMMIT before it returns,
so an acknowledged commit is on the disk. A power cut during a write leaves the WAL *cut short*
(the tail never reached the disk), with *garbage* at its end (a half-written sector), or with a
*zeroed* tail (a sector allocated but not written). On the next start SQLite replays the WAL up to
the last commit frame whose checksums hold and ignores the rest.

:func:`torn_write_cases` writes a game commit by commit (the store exactly as the app uses it),
remembers the WAL length after each commit and the state it holds, then copies the database with
the WAL torn at random byte offsets and opens each copy with :class:`~display.store.Store`. Each
copy must hold exactly the state of the last commit that fitted entirely before the tear -
never a mixture, never an error, never "moved aside".
"""

from __future__ import annotations

import random
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from display.store import DB_NAME, Store

KINDS = ("cut", "garbage", "zeroed")


@dataclass
class TornReport:
    cases: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    commits: int = 0
    wal_bytes: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures

    def lines(self) -> list[str]:
        kinds = ", ".join(f"{k} {n}" for k, n in self.by_kind.items())
        return [
            f"torn writes: {self.cases - len(self.failures)}/{self.cases} torn WAL copies read "
            f"back as the last whole commit ({kinds}; {self.commits} commits, "
            f"{self.wal_bytes} bytes of WAL)",
            *[f"FAILED {failure}" for failure in self.failures],
        ]


def _game_state(step: int) -> dict[str, Any]:
    """A growing, Co-Mix-like game: one more sealed ballot (and a longer text) every step."""
    players = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    return {
        "round": step // len(players) + 1,
        "ballots": {
            players[i % len(players)] + str(i // len(players)): {"S1": ["neutral"], "n": i}
            for i in range(step)
        },
        "notes": "x" * (step * 97 % 3000),  # page-sized values now and then
    }


def write_history(state_dir: Path, commits: int) -> tuple[list[int], list[dict[str, Any]]]:
    """Commit ``commits`` app-like saves; returns (WAL length after each, state after each).

    Index 0 is the state before the first of them (WAL length at that point)."""
    store = Store(state_dir)
    wal = state_dir / f"{DB_NAME}-wal"
    lengths: list[int] = []
    states: list[dict[str, Any]] = []

    def record() -> None:
        lengths.append(wal.stat().st_size if wal.exists() else 0)
        dump = store.dump()
        states.append({"screens": dump["screens"], "data": dump["data"]})

    store.save_stack([{"kind": "home", "snapshot": {}}])
    store.commit()
    record()
    for step in range(1, commits + 1):
        store.put("comix", "game", _game_state(step))
        store.save_stack(
            [{"kind": "home", "snapshot": {}}, {"kind": "comix.ballot", "snapshot": {"n": step}}]
        )
        store.commit()
        record()
    # The connection is left open, as at a power cut: closing it would checkpoint the WAL.
    return lengths, states


def torn_write_cases(cases: int, commits: int = 40, seed: int = 0) -> TornReport:
    rng = random.Random(seed)
    report = TornReport(commits=commits)
    with tempfile.TemporaryDirectory(prefix="tk-torn-") as scratch:
        base = Path(scratch)
        source = base / "source"
        lengths, states = write_history(source, commits)
        wal_bytes = (source / f"{DB_NAME}-wal").read_bytes()
        db_bytes = (source / DB_NAME).read_bytes()
        report.wal_bytes = len(wal_bytes)
        for index in range(cases):
            kind = KINDS[index % len(KINDS)]
            if index % 10 == 0:  # exactly at a commit boundary, now and then
                cut = rng.choice(lengths)
            else:
                cut = rng.randint(lengths[0], len(wal_bytes))
            torn = wal_bytes[:cut]
            if kind == "garbage":
                torn += rng.randbytes(rng.randint(1, 8192))
            elif kind == "zeroed":
                torn += bytes(rng.randint(1, 8192))
            copy = base / f"copy-{index}"
            copy.mkdir()
            (copy / DB_NAME).write_bytes(db_bytes)
            (copy / f"{DB_NAME}-wal").write_bytes(torn)
            # the bytes that are still right (a zeroed tail may match a page's unused zeros)
            intact = cut
            while intact < min(len(torn), len(wal_bytes)) and torn[intact] == wal_bytes[intact]:
                intact += 1
            expected = max(i for i, length in enumerate(lengths) if length <= intact)
            report.cases += 1
            report.by_kind[kind] = report.by_kind.get(kind, 0) + 1
            try:
                store = Store(copy)
                try:
                    dump = store.dump()
                    notices = list(store.notices)
                finally:
                    store.close()
            except Exception as error:  # the point of the check: no exception at all
                report.failures.append(f"{kind} at byte {cut}: {type(error).__name__}: {error}")
                continue
            got = {"screens": dump["screens"], "data": dump["data"]}
            if notices:
                report.failures.append(f"{kind} at byte {cut}: moved aside ({notices[0]})")
            elif got != states[expected]:
                matches = [i for i, state in enumerate(states) if state == got]
                report.failures.append(
                    f"{kind} at byte {cut}: read back commit {matches or '(none)'} instead of "
                    f"commit {expected}"
                )
            shutil.rmtree(copy)
    return report
