"""The secrecy check of the Co-Mix ballot box (``tablekeeper check secrecy``; also
``tests/test_secrecy.py``).

One four-player round is played twice on the simulated appliance (SDL dummy driver, fake clock),
same table, same presses everywhere except the ballots. Every screen another player could see
before the reveal must be pixel for pixel the same in both games:

* every "pass the box to NAME" screen (the screen right after a ballot is sealed);
* every step of every ballot as it opens, before the reviewer turns the knob (the "?" disc, the
  story, the grey dots of the tokens in hand and placed);
* every *idle-blanked* ballot: the reviewer opened it, placed a token and put the box down for
  21 s - it must have blanked itself back to a screen that tells nothing - and the screen the
  next hold of OK reopens it on (the step it was at);
* a complete ballot put down before sealing, blanked and reopened: "All N tokens placed", never
  the summary;
* the screen after the last seal ("All 4 ballots are in - put the box in the middle");
* the sand timer's end and the storytelling screen.

To show that the comparison can see a difference, the reviewers' own summaries and the reveal
must differ between the two games (a check that could never fail proves nothing).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from display.checks.scenarios import (
    FOUR,
    FOUR_BALLOTS,
    FOUR_BALLOTS_OTHER,
    ballot_steps,
    comix_setup,
    reveal_presses,
)

IDLE_SECONDS = 21  # longer than the ballot's 20 s blank


def secrecy_script(ballots: dict[str, dict[str, list[str]]]) -> list[str]:
    """A one-round game for four with screenshots of everything the table can see. Shots named
    ``public-*`` must not depend on the ballots; ``private-*`` and ``reveal`` must."""
    lines = comix_setup(FOUR, rounds=1) + ["press ok"]  # the title
    lines += ["press seat3", "advance 7.5", "press seat1", "advance 7.5", "press seat2"]
    lines += ["advance 40", "advance 40", "shot public-time-up", "press ok"]
    lines += ["shot public-storytelling"] + ["press ok"] * len(FOUR)
    for index, player in enumerate(FOUR):
        steps = ballot_steps(FOUR, ballots[player])
        lines += [f"shot public-pass-{index}", "hold ok 2"]
        for number, step in enumerate(steps):
            lines += [f"shot public-step-{index}-{number}", *step]
            if number == 0:  # the box put down after the first token, then picked up again
                lines += [f"advance {IDLE_SECONDS}", f"shot public-blanked-{index}"]
                lines += ["hold ok 2", f"shot public-reopened-{index}"]
        # complete but not sealed, put down: it reopens on "All 4 tokens placed"
        lines += [f"advance {IDLE_SECONDS}", f"shot public-blanked-full-{index}", "hold ok 2"]
        lines += [f"shot public-ready-{index}", "press ok"]
        lines += [f"shot private-summary-{index}", "press ok"]  # seal
    lines += ["shot public-all-ballots-in", *reveal_presses()[:2], "shot reveal"]
    return lines


@dataclass
class SecrecyReport:
    compared: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.leaks and not self.problems and len(self.compared) >= 39

    def lines(self) -> list[str]:
        kinds = {
            "pass": "pass screens",
            "step": "ballot steps as they open",
            "blanked": "idle-blanked ballots",
            "reopened": "ballots reopened after a blank",
            "ready": "complete ballots reopened after a blank",
            "all": "screen after the last seal",
        }
        out = []
        for key, words in kinds.items():
            names = [n for n in self.compared if n.startswith(f"public-{key}")]
            bad = [n for n in names if n in self.leaks]
            out.append(f"{words}: {len(names) - len(bad)} of {len(names)} pixel-identical")
        others = [n for n in self.compared if not any(n.startswith(f"public-{k}") for k in kinds)]
        bad = [n for n in others if n in self.leaks]
        out.append(f"timer and storytelling: {len(others) - len(bad)} of {len(others)} identical")
        out += [
            f"LEAK: {name} differs between two games with different ballots" for name in self.leaks
        ]
        out += [f"FAILED: {problem}" for problem in self.problems]
        out.append("secrecy: ok" if self.ok else "secrecy: FAILED")
        return out


def _play(folder: Path, ballots: dict[str, dict[str, list[str]]]) -> dict[str, bytes]:
    # start-up time: the check loads the appliance (pygame) only when it is run
    import pygame

    from display.launch import RunOptions, run_script

    script = folder / "script.txt"
    script.write_text("\n".join(secrecy_script(ballots)) + "\n")
    shots = run_script(
        RunOptions(simulated=True, script=script, screenshots=folder / "shots", state_dir=folder)
    )
    return {path.stem: pygame.image.tobytes(pygame.image.load(str(path)), "RGB") for path in shots}


def run_secrecy_check(keep: Path | None = None) -> SecrecyReport:
    """Play the round twice (:data:`FOUR_BALLOTS`, :data:`FOUR_BALLOTS_OTHER`) and compare."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    report = SecrecyReport()
    with tempfile.TemporaryDirectory(prefix="tablekeeper-secrecy-") as temp:
        base = keep if keep is not None else Path(temp)
        first = _play(_fresh(base / "first"), FOUR_BALLOTS)
        second = _play(_fresh(base / "second"), FOUR_BALLOTS_OTHER)
    if sorted(first) != sorted(second):
        report.problems.append("the two games did not take the same screenshots")
        return report
    for name in sorted(first):
        if name.startswith("public-"):
            report.compared.append(name)
            if first[name] != second[name]:
                report.leaks.append(name)
    private = [n for n in first if n.startswith("private-") or n == "reveal"]
    if "reveal" not in private or all(first[n] == second[n] for n in private):
        report.problems.append(
            "the reveal and the reviewers' own summaries look the same for different ballots: "
            "the comparison cannot see a difference"
        )
    return report


def _fresh(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("state.db*"):
        old.unlink()
    return folder
