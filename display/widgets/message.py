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
