"""Enrolment: I Made You a Mixtape - photograph new cards (named by the next free ids), enter
each card's attributes and the Equalizer once; the deck file is rewritten after every card."""

from __future__ import annotations

import pygame

from display import ui
from display.cards.mixtape_deck import deck_problem, mixtape_attributes
from display.screen import register_screen
from display.screens.enrol.attributes import AttributesScreen, EqualizerScreen
from display.screens.enrol.batch import EnrolBatchScreen
from display.screens.enrol.common import MIXTAPE, card_words, enrolment
from display.screens.enrol.game import GameEnrolScreen


@register_screen
class MixtapeEnrolScreen(GameEnrolScreen):
    kind = "enrol.mixtape"
    title = "Enrol - Mixtape"
    game = MIXTAPE

    def rows(self) -> list[tuple[str, str, str]]:
        done = enrolment(self.app, MIXTAPE)
        attrs = mixtape_attributes(done)
        missing = [k for k in sorted(done.cards) if k not in attrs]
        eq = done.extra.get("equalizer")
        if not len(done):  # a fresh appliance: what needs cards waits for them
            return [
                ("new", "Start enrolment", "photograph cards"),
                (
                    "equalizer",
                    "Equalizer squares",
                    f"{len(eq['squares'])} squares" if eq else "not entered",
                ),
            ]
        return [
            ("new", "Photograph new cards", f"{len(done)} enrolled"),
            (
                "attributes",
                "Card attributes",
                f"{len(missing)} to enter" if missing else f"{len(attrs)} entered",
            ),
            (
                "equalizer",
                "Equalizer squares",
                f"{len(eq['squares'])} squares" if eq else "not entered",
            ),
            ("reenrol", "Re-enrol a card", ""),
            ("verify", "Verify the deck", ""),
        ]

    _deck_problem: str | None = None  # worked out once per showing, not once per frame

    def on_show(self) -> None:
        self._deck_problem = None  # back from the attributes or the Equalizer: ask again

    def draw_top(self, surface: pygame.Surface) -> int:
        if self._deck_problem is None:
            self._deck_problem = deck_problem(enrolment(self.app, MIXTAPE))
        problem = self._deck_problem
        text = "Deck file ready for scoring" if not problem else f"Deck file: {problem}"
        if not len(enrolment(self.app, MIXTAPE)):
            text = "No cards yet: photograph them first"
        ui.text(
            surface,
            text,
            (ui.MARGIN, 8),
            ui.SMALL,
            ui.GOOD if not problem else ui.ACCENT,
            max_width=surface.get_width() - 2 * ui.MARGIN,
        )
        return 44

    def open(self, key: str) -> None:
        done = enrolment(self.app, MIXTAPE)
        if key == "new":
            self.app.push(EnrolBatchScreen(self.app, MIXTAPE, [], "new"))
        elif key == "attributes":
            attrs = mixtape_attributes(done)
            keys = sorted(done.cards)
            if not keys:
                self.app.toast("Photograph some cards first.")
                return
            missing = [k for k in keys if k not in attrs]
            start = keys.index(missing[0]) if missing else 0
            self.app.push(AttributesScreen(self.app, keys, start))
        elif key == "equalizer":
            self.app.push(EqualizerScreen(self.app))
        else:
            super().open(key)

    def reenrol_options(self) -> list[tuple[str, str, str]]:
        keys = sorted(enrolment(self.app, MIXTAPE).cards)
        options = [(k, card_words(self.app, MIXTAPE, k), "") for k in keys]
        return sorted(options, key=lambda option: option[1].lower())
