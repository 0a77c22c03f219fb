"""Marvel: Remix: the table of players scored so far, one player's hand photographed and
corrected, and the ranking."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from display import ui
from display.screen import Screen, register_screen
from display.screens.remix.common import NAMESPACE, catalogue, enrolment, ids_for, score_names
from display.screens.remix.result import RemixResultScreen
from display.widgets.ranking import RankingScreen
from display.widgets.table import TableHandScreen, TableScreen
from games.remix import NORMAL_HAND, RemixError

if TYPE_CHECKING:
    from games.remix import HandResult


@register_screen
class RemixTableScreen(TableScreen):
    """The players scored so far, then "Next player" and "Ranking"."""

    kind = "remix.table"
    title = "Remix - the table"
    namespace = NAMESPACE

    def player_note(self, player: dict[str, Any]) -> str:
        return f"{player['total']} pts" + ("" if player["valid"] else " (invalid)")

    def hand_screen(self, who: str, replaces: int | None = None) -> TableHandScreen:
        return RemixHandScreen(self.app, who, replaces)

    def ranking_screen(self) -> Screen:
        return RemixRankingScreen(self.app)


@register_screen
class RemixHandScreen(TableHandScreen):
    """One player's hand: photo, names and confidences, corrections, then the score."""

    kind = "remix.hand"
    who_in_title = True

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"Remix - {self.who}'s hand" if self.who else "Remix - photograph the hand"

    score_hint = "OK: breakdown"
    expected_cards = NORMAL_HAND

    def gallery(self) -> Any:
        return enrolment(self.app).gallery()

    def all_names(self) -> list[str]:
        return [card.name for card in catalogue()]

    def instructions(self) -> str:
        return (
            f"{self.who}: lay your final hand out face up, cards apart, in rows. "
            "Press SHUTTER to photograph it."
        )

    def result(self) -> HandResult | str:
        try:
            return score_names([c.name for c in self.cards if c.name])
        except RemixError as error:
            return str(error)

    def score_note(self, result: HandResult) -> str:
        if result.loki_owed:
            return "so far: Loki's draw needed"
        if not result.valid:
            return "not valid (OK: why)"
        return super().score_note(result)

    def score_tone(self) -> tuple[int, int, int]:
        if self.count_problem():
            return ui.ACCENT
        result = self.scored()
        if isinstance(result, str) or not result.valid:
            return ui.BAD
        return ui.ACCENT if result.loki_owed else ui.GOOD

    def player_fields(self, result: HandResult) -> dict[str, Any]:
        return {
            "cards": ids_for([c.name for c in self.cards if c.name]),
            "loki_draw": None,
            "total": result.total,
            "valid": result.valid,
        }

    def result_screen(self, player: dict[str, Any]) -> Screen:
        return RemixResultScreen(self.app, player, replaces=self.replaces)


@register_screen
class RemixRankingScreen(RankingScreen):
    kind = "remix.ranking"
    title = "Remix - ranking"
    namespace = NAMESPACE
    empty = ("No hands yet", "Score a hand first.")
    menu_kind = "remix"  # OK: Rematch (the menu's "New table", same players first)

    def key(self, player: dict[str, Any]) -> int:
        return int(player["total"])

    def note(self, player: dict[str, Any]) -> str:
        return f"{player['total']} pts" + ("" if player["valid"] else " (invalid)")
