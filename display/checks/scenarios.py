"""Scripted games for the robustness harnesses, as lists of script lines.

A :class:`Scenario` is the script of a game played through ``tablekeeper run --sim --script``,
plus, for every line, where a table would pick the game up again after a power cut during or
right after that line (``resume_from``): normally the next line, but a Co-Mix ballot that was
being filled in is never saved, so a cut in the middle of one sends the reviewer back to the
"pass the box" screen and the whole ballot is entered again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from display.app import load_screen_modules
from display.checks.scenes import enrol_directly, enrol_solo_deck, scene, write
from display.screen import SCREENS
from games.remix import default_catalogue

PICK_ORDER = ["original", "exciting", "composed", "neutral"]
HAND = {"original": 1, "exciting": 1, "composed": 1, "neutral": 2}

# A hand-checked four-player round (stories = players): every ballot is legal.
FOUR = ["Ann", "Ben", "Cat", "Dan"]
FOUR_BALLOTS: dict[str, dict[str, list[str]]] = {
    "Ann": {"Ann": ["neutral"], "Ben": ["original"], "Cat": ["exciting"], "Dan": ["neutral"]},
    "Ben": {"Ann": ["original"], "Ben": ["neutral"], "Cat": ["exciting"], "Dan": ["composed"]},
    "Cat": {"Ann": ["exciting"], "Ben": ["original"], "Cat": ["neutral"], "Dan": ["composed"]},
    "Dan": {"Ann": ["original"], "Ben": ["composed"], "Cat": ["neutral"], "Dan": ["neutral"]},
}
# The same table, other ballots (for secrecy checks: screens before the reveal must not differ).
FOUR_BALLOTS_OTHER: dict[str, dict[str, list[str]]] = {
    "Ann": {"Ann": ["neutral"], "Ben": ["composed"], "Cat": ["neutral"], "Dan": ["original"]},
    "Ben": {"Ann": ["neutral"], "Ben": ["neutral"], "Cat": ["original"], "Dan": ["exciting"]},
    "Cat": {"Ann": ["composed"], "Ben": ["exciting"], "Cat": ["neutral"], "Dan": ["original"]},
    "Dan": {"Ann": ["exciting"], "Ben": ["neutral"], "Cat": ["composed"], "Dan": ["neutral"]},
}


@dataclass
class Scenario:
    name: str
    lines: list[str] = field(default_factory=list)
    resume_from: list[int] = field(default_factory=list)
    #: line index -> a label of the phase the line belongs to (for reporting kill points)
    phases: list[str] = field(default_factory=list)
    #: fills a fresh state directory before the game (e.g. an enrolled deck)
    prepare: Callable[[Path], None] | None = None
    #: camera images the script names, written next to it: file name -> BGR image
    images: dict[str, Any] = field(default_factory=dict)

    def write_images(self, folder: Path) -> None:

        for name, image in self.images.items():
            if not (folder / name).exists():
                write(folder / name, image)

    def add(self, lines: list[str], phase: str, *, atomic: bool = False) -> None:
        """Append ``lines``; ``atomic`` = a cut inside them goes back to their first line."""
        start = len(self.lines)
        for offset, line in enumerate(lines):
            self.lines.append(line)
            self.resume_from.append(start if atomic and offset > 0 else start + offset)
            self.phases.append(phase)

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def ballot_steps(stories: list[str], ballot: dict[str, list[str]]) -> list[list[str]]:
    """The presses that place each token of ``ballot`` on the Co-Mix ballot screen, one list a
    token (the screen offers the tokens still in hand in O, E, C, N order, each step opening on
    a "?" disc; only Neutral on the last slot if none yet)."""
    wanted = [token for story in stories for token in ballot[story]]
    steps: list[list[str]] = []
    placed: list[str] = []
    for index, token in enumerate(wanted):
        left = Counter(HAND)
        left.subtract(placed)
        offered = [t for t in PICK_ORDER if left[t] > 0]
        if index == len(wanted) - 1 and "neutral" not in placed:
            offered = ["neutral"]
        # each step opens on the "?" disc: RIGHT brings up the first token in hand, LEFT the
        # last; the shorter way round
        rights, lefts = offered.index(token) + 1, len(offered) - offered.index(token)
        turns = ["press right"] * rights if rights <= lefts else ["press left"] * lefts
        steps.append([*turns, "press ok"])
        placed.append(token)
    return steps


def ballot_presses(stories: list[str], ballot: dict[str, list[str]]) -> list[str]:
    """Presses that open the ballot ("Hold OK"), place ``ballot`` and seal it."""
    steps = ballot_steps(stories, ballot)
    return ["hold ok 2", *(press for step in steps for press in step), "press ok"]


def reveal_presses() -> list[str]:
    """From "All N ballots are in" to the next round (or the podium): OK to reveal, then every
    page of the reveal, watched to its end."""
    return ["press ok", "advance 30", "press ok", "advance 3", "press ok"]


def comix_setup(names: list[str], rounds: int = 3, panels: int = 6) -> list[str]:
    """Presses from the home screen to the first round: Co-Mix, New game, the players and
    their names, ``rounds`` rounds, a board of ``panels`` panels, Start."""
    lines = ["press ok", "press ok"]  # home: Co-Mix; menu: New game
    if len(names) != 4:
        step = "right" if len(names) > 4 else "left"
        lines += ["press ok"] + [f"press {step}"] * abs(len(names) - 4) + ["press ok"]
    lines += ["press right", "press ok"]  # the names: each typed, then Enter (OK) on the keyboard
    for name in names:
        lines += [f"type {name}", "press ok"]
    lines += ["press ok"]
    lines += ["press right", "press right"]  # names -> teams -> rounds
    if rounds != 3:
        step = "right" if rounds > 3 else "left"
        lines += ["press ok"] + [f"press {step}"] * abs(rounds - 3) + ["press ok"]
    lines += ["press right"]  # -> board
    if panels == 9:
        lines += ["press ok", "press right", "press ok"]
    lines += ["press right"] * 3 + ["press ok"]  # sand timer, storyteller timer, start
    return lines


def comix_game(
    rounds: int = 1,
    ballots: dict[str, dict[str, list[str]]] | None = None,
    shots: bool = False,
) -> Scenario:
    """Four players, ``rounds`` rounds: the sand timer runs out in odd rounds (Dan still
    scripting), everybody finishes in even ones; four ballots per round; the reveal pages."""
    ballots = ballots or FOUR_BALLOTS
    scenario = Scenario("comix")
    scenario.add(comix_setup(FOUR, rounds), "set-up")
    for number in range(1, rounds + 1):
        scenario.add(["press ok"], "title")
        timed_out = number % 2 == 1
        seats = [3, 1, 2] if timed_out else [2, 4, 1, 3]
        lines: list[str] = []
        for seat in seats:
            lines += [f"press seat{seat}", "advance 7.5"]
        if timed_out:
            lines += ["advance 40", "advance 40"]  # 90 s run out during the second one
        if shots:
            lines += [f"shot r{number}-slow"]
        scenario.add(lines, "timer")
        scenario.add(["press ok"] + ["press ok"] * len(FOUR), "storytelling")
        for index, player in enumerate(FOUR):
            if shots:
                scenario.add([f"shot r{number}-pass-{index}"], "ballots")
            presses = ballot_presses(FOUR, ballots[player])
            if shots:
                presses = presses[:3] + [f"shot r{number}-ballot-{index}"] + presses[3:]
                presses = presses[:-1] + [f"shot r{number}-summary-{index}"] + presses[-1:]
            scenario.add(presses, "ballots", atomic=True)
        if shots:
            scenario.add([f"shot r{number}-all-in"], "ballots")
        reveal = reveal_presses()
        scenario.add(reveal[:2], "reveal")  # "All 4 ballots are in": OK to reveal; the show
        if shots:
            scenario.add([f"shot r{number}-reveal"], "reveal")
        scenario.add(reveal[2:], "reveal")
    return scenario


# -- Marvel: Remix: three hands scored at the table ---------------------------------------------
REMIX_HANDS = {
    "Ann": ["MR02", "MR06", "MR13", "MR30", "MR41", "MR63", "MR77"],
    "Bob": ["MR01", "MR09", "MR22", "MR35", "MR44", "MR66", "MR72"],  # MR44 is not enrolled
    "Cat": ["MR05", "MR10", "MR20", "MR62", "MR70", "MR75", "MR31"],  # Loki (MR70)
}


def _remix_names() -> dict[str, str]:

    return {card.id: card.name for card in default_catalogue()}


#: The Remix card the scripted game's gallery leaves out: in the catalogue (the player picks it
#: from the list) but not enrolled, so the recogniser cannot know it on Bob's photo.
REMIX_NOT_ENROLLED = "MR44"


def _enrol_remix(state_dir: Path) -> None:
    """Every Remix card but :data:`REMIX_NOT_ENROLLED`."""

    names = _remix_names()
    enrol_directly(state_dir, "remix", {k: n for k, n in names.items() if k != REMIX_NOT_ENROLLED})


def remix_game() -> Scenario:
    """Three players photograph their final hands: one card the gallery does not hold comes back
    unknown and is corrected from the pick list, Loki's draw photographed, then the ranking (the
    issue 7 flow)."""

    names = _remix_names()
    misread = names[REMIX_NOT_ENROLLED]

    def photo(player: str, seed: int, **kw: Any) -> Any:
        return scene([names[i] for i in REMIX_HANDS[player]], seed, **kw)

    scenario = Scenario("remix", prepare=_enrol_remix)
    scenario.images = {
        "ann.jpg": photo("Ann", 31),
        "bob.jpg": photo("Bob", 32),
        "cat.jpg": photo("Cat", 33),
        "loki-draw.jpg": scene([names["MR26"]], 34),
    }
    scenario.add(["press right", "press right", "press ok", "press ok"], "menu")
    scenario.add(["press ok", "type Ann", "press ok", "camera ann.jpg", "press shutter"], "photo")
    scenario.add(["press ok", "press ok"], "breakdown")
    scenario.add(["press ok", "type Bob", "press ok", "camera bob.jpg", "press shutter"], "photo")
    scenario.add(["press ok", f"type {misread}", "press ok"], "correction")
    scenario.add(["press ok", "press back", "press ok", "press ok", "press ok"], "breakdown")
    scenario.add(["type Cat", "press ok", "camera cat.jpg", "press shutter", "press ok"], "photo")
    scenario.add(["camera loki-draw.jpg", "press shutter", "press ok"], "loki")
    scenario.add(["press right", "press ok"], "ranking")
    return scenario


# -- I Made You a Mixtape: a short solo game against Otto -----------------------------------------
SOLO_MAIN = [f"EX{n:02d}" for n in range(1, 13)]  # 12 two-line cards: 2 rounds after set-up
SOLO_OTTO = ["EX37", "EX38", "EX39", "EX40", "EX41", "EX42"]


def _enrol_solo_deck(state_dir: Path) -> None:
    """Enrol a 12-card example deck (+ Otto's cards) with attributes and the Equalizer."""

    enrol_solo_deck(state_dir, SOLO_MAIN + SOLO_OTTO)


def mixtape_solo_game() -> Scenario:
    """Set-up photo, the player's turn (a wrong choice undone), Otto's turn with the card Otto
    keeps, then the end of the game (the issue 7 flow)."""

    scenario = Scenario("mixtape", prepare=_enrol_solo_deck)
    scenario.images = {
        "setup.jpg": scene(["EX02", "EX03"], 61),
        "round1.jpg": scene(["EX05", "EX06"], 62),  # your turn: the two face-up cards
        "face-down.jpg": scene(["EX07"], 65),  # turned up once it goes into a mixtape
        "round2.jpg": scene(["EX04", "EX08", "EX10"], 63),
        "extra.jpg": scene(["EX40"], 64),
    }
    scenario.add(["press right", "press ok", "press right", "press ok"], "menu")
    scenario.add(["camera setup.jpg", "press shutter", "press ok"], "set-up photo")
    scenario.add(["camera round1.jpg", "press shutter", "press ok"], "your turn")
    scenario.add(["press left", "press ok", "press seat1", "press right", "press ok"], "your turn")
    scenario.add(["camera face-down.jpg", "press shutter", "press ok"], "the face-down card")
    scenario.add(["camera round2.jpg", "press shutter", "press ok"], "Otto's turn")
    scenario.add(["camera extra.jpg", "press shutter", "press ok"], "Otto's extra card")
    scenario.add(["press ok"], "game over")
    return scenario


def available_scenarios(games: list[str], rounds: int = 2) -> tuple[list[Scenario], dict[str, str]]:
    """The scenarios for ``games`` whose screens exist; {game: why not} for the others."""

    load_screen_modules()
    scenarios: list[Scenario] = []
    missing: dict[str, str] = {}
    for game in games:
        if game == "comix":
            scenarios.append(comix_game(rounds=rounds))
        elif game not in SCREENS:
            missing[game] = f"no '{game}' screen on the appliance yet"
        elif game == "remix":
            scenarios.append(remix_game())
        elif game == "mixtape":
            scenarios.append(mixtape_solo_game())
        elif game not in SCREENS:
            missing[game] = f"no '{game}' screen on the appliance yet"
        else:
            missing[game] = "no power-cut script for this game yet"
    return scenarios, missing
