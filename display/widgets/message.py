"""A framed message (notices at start-up, camera or state problems): OK or BACK closes it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App


@register_screen
class MessageScreen(Screen):
    kind = "message"

    def __init__(self, app: App, heading: str = "", body: str = "", tone: str = "bad") -> None:
        super().__init__(app)
        self.heading = heading
        self.body = body
        self.tone = tone
        self.title = "Message"

    def handle(self, action: Action) -> None:
        if action in (Action.OK, Action.BACK):
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        color = {"bad": ui.BAD, "good": ui.GOOD}.get(self.tone, ui.INFO)
        ui.message_box(surface, self.heading, self.body, color)

    def legend(self) -> list[LegendItem]:
        return [(Action.OK, "Close"), (Action.BACK, "Close")]

    def snapshot(self) -> dict[str, Any]:
        return {"heading": self.heading, "body": self.body, "tone": self.tone}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        return cls(app, data.get("heading", ""), data.get("body", ""), data.get("tone", "bad"))


@register_screen
class OfferScreen(MessageScreen):
    """A message that offers the way on (a fresh appliance: "No cards enrolled yet" with
    "Enrol now"): OK answers True, BACK answers None (``dismiss``)."""

    kind = "offer"

    def __init__(
        self, app: App, heading: str = "", body: str = "", offer: str = "OK", tone: str = "info"
    ) -> None:
        super().__init__(app, heading, body, tone)
        self.offer = offer
        self.title = heading

    def handle(self, action: Action) -> None:
        if action is Action.OK:
            self.dismiss(True)
        elif action is Action.BACK:
            self.dismiss(None)

    def legend(self) -> list[LegendItem]:
        return [(Action.OK, self.offer), (Action.BACK, "Back")]

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "offer": self.offer}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        return cls(
            app,
            str(data.get("heading", "")),
            str(data.get("body", "")),
            str(data.get("offer", "OK")),
            str(data.get("tone", "info")),
        )
