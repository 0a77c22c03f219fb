"""How many presses correcting what the camera read takes on a Marvel: Remix hand
(``tablekeeper check presses``, or ``python -m display.checks.presses``).

The real screens on the simulated appliance, driven by injected presses: the hand screen with
the card to correct selected, OK opens the pick list, the knob and OK name the card, and the
hand screen must then hold that name. The presser reads the screen as a player does (the list's
order, the letter row) and takes the shortest way it offers.

* (a) one card the camera could not read at all, named as each of the 79 cards in turn: the
  mean and worst number of presses with the letter row, and with the list alone (as before the
  letter row);
* (b) cards the recogniser really misread (other printings of the cards in generated photos of
  three hands, read against the whole deck enrolled): presses to name each, and for those whose
  right name is among the look-alikes the recogniser called closest, presses to pick it.
"""

from __future__ import annotations

import os
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from display.actions import Action

if TYPE_CHECKING:
    from display.cards.reading import ReadCard

HANDS = 3  # generated photos for (b), each of seven cards in three other printings
PRINTINGS = (3, 5, 7)


@dataclass
class PressReport:
    unread_letters: list[int] = field(default_factory=list)
    unread_list: list[int] = field(default_factory=list)
    misread: list[int] = field(default_factory=list)
    lookalike: list[int] = field(default_factory=list)
    lookalike_rank: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        def figure(counts: list[int]) -> str:
            if not counts:
                return "none"
            return f"mean {statistics.mean(counts):.1f}, worst {max(counts)} (over {len(counts)})"

        out = [
            "(a) an unread card named as each of the 79 cards, presses from the hand screen:",
            f"    with the letter row: {figure(self.unread_letters)}",
            f"    the list alone (before the letter row): {figure(self.unread_list)}",
            "(b) cards the recogniser misread (other printings, generated photos):",
            f"    every misread card: {figure(self.misread)}",
            f"    right name among the look-alikes: {figure(self.lookalike)}",
        ]
        if self.lookalike_rank:
            out.append(f"    its place among the look-alikes: {figure(self.lookalike_rank)}")
        out += [f"FAILED: {problem}" for problem in self.problems]
        return out


def circular(start: int, end: int, count: int) -> tuple[int, Action]:
    """Knob steps from ``start`` to ``end`` on a list of ``count`` that wraps, and the way."""
    forward = (end - start) % count
    return (forward, Action.RIGHT) if forward <= count - forward else (count - forward, Action.LEFT)


def name_in_pick(app: Any, target: str) -> int:
    """Press the pick list on top of ``app`` to ``target`` the shortest way it offers; returns
    the presses."""
    pick = app.top
    values = [value for value, _, _ in pick.options]
    count = len(values)
    wanted = [i for i, value in enumerate(values) if value == target]
    groups = pick.groups

    def group_of(index: int) -> int:
        return max(g for g, (_, first) in enumerate(groups) if first <= index)

    # Each route: its presses, as (steps, action) runs.
    routes: list[list[tuple[int, Action]]] = []
    for end in wanted:
        if pick.on_letters:
            routes.append([(1, Action.OK), circular(pick.selected, end, count), (1, Action.OK)])
        else:
            routes.append([circular(pick.selected, end, count), (1, Action.OK)])
        if groups:
            back = [] if pick.on_letters else [(1, Action.BACK)]
            here = group_of(pick.selected)
            there = group_of(end)
            routes.append(
                [
                    *back,
                    circular(here, there, len(groups)),
                    (1, Action.OK),
                    circular(groups[there][1], end, count),
                    (1, Action.OK),
                ]
            )
    best = min(routes, key=lambda route: sum(steps for steps, _ in route))
    presses = 0
    for steps, action in best:
        for _ in range(steps):
            app.press(action)
            presses += 1
    return presses


def fix_card(app: Any, card: ReadCard, photo: str, target: str) -> tuple[int, str | None]:
    """A hand screen holding ``card`` (selected), corrected to ``target``: the presses, and
    what the hand then holds."""
    # local: the screens load pygame; the module's report types stay importable without it
    from display.cards.reading import Reading
    from display.screens.remix.table import RemixHandScreen

    hand = RemixHandScreen(app, "Ann")
    hand.photo = photo
    hand.reading = Reading([card])
    hand.selected = 0
    app.push(hand)
    app.press(Action.OK)  # the pick list
    presses = 1 + name_in_pick(app, target)
    named = hand.cards[0].name if app.top is hand else None
    while app.top is not hand:
        app.pop()
    app.pop()
    return presses, named


@contextmanager
def letter_row(on: bool) -> Iterator[None]:
    from display.widgets.pick import PickScreen  # local: pygame loads only when a check runs

    before = PickScreen.letter_row
    PickScreen.letter_row = on
    try:
        yield
    finally:
        PickScreen.letter_row = before


def misread_cards(state: Path, names: dict[str, str]) -> list[tuple[ReadCard, np.ndarray, str]]:
    """(card as read, photo, its right name) for every card of the generated photos the
    recogniser did not name right for sure."""
    # local: OpenCV and the recogniser load only when the check runs
    from display.cards.enrolment import Enrolment
    from display.cards.reading import OK, read_photo
    from display.checks.scenes import enrol_directly, scene

    enrol_directly(state, "remix", names)
    gallery = Enrolment(state, "remix").gallery()
    everyone = list(names.values())
    out = []
    for number in range(HANDS):
        hand = everyone[number * 7 : number * 7 + 7]
        for printing in PRINTINGS:
            photo = scene(hand, 40 + number, printings={name: printing for name in hand})
            reading = read_photo(photo, gallery)
            for card, right in zip(reading.cards, hand, strict=False):
                if card.status != OK or card.name != right:
                    out.append((card, photo, right))
    return out


def count_presses() -> PressReport:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    # local: after the dummy drivers are chosen above, before pygame starts
    from display.cards.photos import save_photo
    from display.cards.reading import ReadCard
    from display.clock import FakeClock
    from display.launch import RunOptions, build_app
    from display.widgets.photo_review import LOOKALIKE_FROM
    from games.remix import default_catalogue

    names = {card.id: card.name for card in default_catalogue()}
    report = PressReport()
    with tempfile.TemporaryDirectory() as folder:
        state = Path(folder) / "state"
        options = RunOptions(simulated=True, state_dir=state)
        app = build_app(options, clock=FakeClock(), strict=True)
        try:
            blank = save_photo(app, np.full((480, 800, 3), 60, np.uint8), "presses")
            corners = [[300.0, 100.0], [420.0, 100.0], [420.0, 270.0], [300.0, 270.0]]
            for on, counts in ((True, report.unread_letters), (False, report.unread_list)):
                with letter_row(on):
                    for target in names.values():
                        unread = ReadCard(None, 0.0, corners, [], "no match")
                        presses, named = fix_card(app, unread, blank, target)
                        counts.append(presses)
                        if named != target:
                            report.problems.append(f"(a) {target}: the hand holds {named}")
            for card, photo, right in misread_cards(state, names):
                alike = [card.name] if card.name else []  # before the fix renames it
                alike += [n for n, score in card.candidates if score >= LOOKALIKE_FROM]
                alike = list(dict.fromkeys(alike))
                kept = save_photo(app, photo, "presses")
                presses, named = fix_card(app, card, kept, right)
                report.misread.append(presses)
                if named != right:
                    report.problems.append(f"(b) {right}: the hand holds {named}")
                if right in alike:
                    report.lookalike.append(presses)
                    report.lookalike_rank.append(alike.index(right) + 1)
        finally:
            app.close()
    return report


def main() -> int:
    report = count_presses()
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
