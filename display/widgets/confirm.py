"""The one confirm pattern: nothing is lost by one wrong press.

Ask before anything that deletes what a table played (scores, saved games)::

    self.app.push(
        ConfirmScreen(self.app, "New table?", "The scores of 4 players are cleared.",
                      destroy="Clear scores", keep="Keep scores"),
        purpose="new_table",
    )

    def on_result(self, purpose, result):    # True: cleared on purpose; None: kept
        if purpose == "new_table" and result:
            saved = keep_for_undo(self.app, [(NAMESPACE, "table")])
            ...clear...
            self.undo = UndoOffer.start(self.app, "Scores cleared.", saved)

* The safe choice ("Keep") is preselected: OK on it, or BACK, keeps everything.
* The destructive choice needs a hold of OK (``buttons.hold_time``, 1.5 s): a bar fills while OK
  is held and says "keep holding"; a press that started before the question appeared (the OK
  that opened it) never counts.
* After it, :class:`UndoOffer` keeps what was deleted for ``UNDO_SECONDS``: the screen shows
  "BACK: undo" and BACK puts everything back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.screen import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App

UNDO_SECONDS = 10.0
KEEP, DESTROY = 0, 1

#: {namespace: {key: value or None (the key was absent)}}
Saved = dict[str, dict[str, Any]]


@register_screen
class ConfirmScreen(Screen):
    """See the module docstring. Answers True (destroy, after a hold of OK) or None (keep)."""

    kind = "confirm"
    title = "Are you sure?"

    def __init__(
        self,
        app: App,
        heading: str = "",
        body: str = "",
        destroy: str = "Clear",
        keep: str = "Keep",
    ) -> None:
        super().__init__(app)
        self.heading = heading
        self.body = body
        self.destroy_label = destroy
        self.keep_label = keep
        self.choice = KEEP
        self.ok_pressed_here = False  # the OK that opened the question does not count
        self.asked_to_hold = False  # OK was let go too early: say to hold it
        self._buttons: list[pygame.Rect] = []

    def hold_seconds(self) -> float:
        return float(self.app.config.buttons.hold_time)

    def held_fraction(self) -> float:
        """How far the current hold of OK has gone (0 when OK is not down, or was pressed
        before this question appeared)."""
        since = self.app.pressed_since(Action.OK)
        if since is None or not self.ok_pressed_here or self.choice != DESTROY:
            return 0.0
        return min(1.0, (self.app.clock.now() - since) / self.hold_seconds())

    # -- input --------------------------------------------------------------------------------
    def handle(self, action: Action) -> None:
        if action in (Action.LEFT, Action.RIGHT):
            self.choice = DESTROY if self.choice == KEEP else KEEP
            self.asked_to_hold = False
        elif action is Action.OK:
            if self.choice == KEEP:
                self.dismiss(None)
            else:
                self.ok_pressed_here = True
                self.asked_to_hold = True
        elif action is Action.BACK:
            self.dismiss(None)

    def handle_hold(self, action: Action) -> None:
        if action is Action.OK:
            if self.choice == DESTROY and self.ok_pressed_here:
                self.dismiss(True)
            return
        super().handle_hold(action)

    def handle_tap(self, x: int, y: int) -> bool:
        for index, rect in enumerate(self._buttons):
            if rect.collidepoint(x, y):
                if index == KEEP:
                    self.dismiss(None)
                else:  # a tap cannot hold: select it, OK must be held
                    self.choice = DESTROY
                    self.asked_to_hold = True
                return True
        return False

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        ui.text(
            surface,
            self.heading,
            (width // 2, 14),
            ui.LARGE,
            ui.BAD,
            "midtop",
            max_width=width - 2 * ui.MARGIN,
        )
        ui.paragraph(
            surface,
            self.body,
            pygame.Rect(ui.MARGIN, 84, width - 2 * ui.MARGIN, 100),
            ui.SMALL,
            align="center",
        )
        gap = 20
        button_w = (width - 2 * ui.MARGIN - gap) // 2
        top = 196
        self._buttons = []
        for index, label in ((KEEP, self.keep_label), (DESTROY, self.destroy_label)):
            rect = pygame.Rect(ui.MARGIN + index * (button_w + gap), top, button_w, 70)
            chosen = index == self.choice
            fill = ui.ACCENT if chosen else ui.PANEL
            ui.panel(surface, rect, fill, border=ui.BAD if index == DESTROY else None)
            colour = ui.ACCENT_TEXT if chosen else ui.TEXT
            ui.text(
                surface, label, rect.center, ui.MEDIUM, colour, "center", max_width=rect.width - 20
            )
            self._buttons.append(rect)
        if self.choice == DESTROY:
            fraction = self.held_fraction()
            bar = pygame.Rect(self._buttons[DESTROY].left, top + 84, button_w, 22)
            ui.progress_bar(surface, bar, fraction, ui.BAD)
            words = "Keep holding OK" if fraction > 0 else "Hold OK to clear"
            if self.asked_to_hold and fraction == 0:
                words = "Hold OK down longer"
            ui.text(surface, words, (bar.centerx, bar.bottom + 8), ui.SMALL, ui.TEXT, "midtop")
        else:
            ui.text(
                surface,
                "Nothing is cleared",
                (self._buttons[KEEP].centerx, top + 84),
                ui.SMALL,
                ui.DIM,
                "midtop",
            )

    def legend(self) -> list[LegendItem]:
        if self.choice == DESTROY:
            return [
                ((Action.LEFT, Action.RIGHT), "Choose"),
                (Action.OK, "Hold to clear"),
                (Action.BACK, "Keep"),
            ]
        return [((Action.LEFT, Action.RIGHT), "Choose"), (Action.OK, "Keep"), (Action.BACK, "Keep")]

    # -- persistence --------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "heading": self.heading,
            "body": self.body,
            "destroy": self.destroy_label,
            "keep": self.keep_label,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        # back after a restart on the safe choice, whatever was chosen before
        return cls(
            app,
            str(data.get("heading", "")),
            str(data.get("body", "")),
            str(data.get("destroy", "Clear")),
            str(data.get("keep", "Keep")),
        )


def scores_cleared(players: int) -> str:
    """The question's body when a table's scores would go."""
    return f"The scores of {players} player{'s' if players != 1 else ''} are cleared."


# -- undo ---------------------------------------------------------------------------------------
def keep_for_undo(app: App, entries: list[tuple[str, str]]) -> Saved:
    """The current values of store ``(namespace, key)`` entries, to put back on undo."""
    saved: Saved = {}
    for namespace, key in entries:
        saved.setdefault(namespace, {})[key] = app.store.get(namespace, key)
    return saved


def put_back(app: App, saved: Saved) -> None:
    """Restore what :func:`keep_for_undo` kept (absent entries are deleted again)."""
    for namespace, entries in saved.items():
        for key, value in entries.items():
            if value is None:
                app.store.delete(namespace, key)
            else:
                app.store.put(namespace, key, value)


@dataclass
class UndoOffer:
    """What was just cleared, offered back for :data:`UNDO_SECONDS` ("BACK: undo")."""

    what: str  # "Scores cleared."
    saved: Saved
    until: float

    @classmethod
    def start(cls, app: App, what: str, saved: Saved) -> UndoOffer:
        return cls(what, saved, app.clock.now() + UNDO_SECONDS)

    def live(self, now: float) -> bool:
        return now < self.until

    def take(self, app: App) -> None:
        put_back(app, self.saved)
        app.toast("Undone: everything is back.")

    def seconds_left(self, now: float) -> int:
        return max(1, int(self.until - now + 0.999))

    def legend_item(self, now: float) -> LegendItem:
        return (Action.BACK, "Undo")

    def draw(self, surface: pygame.Surface, now: float) -> None:
        """A band at the bottom of the content area: what was cleared, and BACK undoes it."""
        width, height = surface.get_size()
        band = pygame.Rect(ui.MARGIN, height - 58, width - 2 * ui.MARGIN, 54)
        ui.panel(surface, band, ui.HEADER, border=ui.INFO)
        words = f"{self.what} BACK: undo ({self.seconds_left(now)} s)"
        ui.text(surface, words, band.center, ui.SMALL, ui.TEXT, "center", band.width - 24)

    def to_json(self, now: float) -> dict[str, Any]:
        """Saved with the screen: the seconds left (the app clock restarts after a reboot)."""
        return {"what": self.what, "saved": self.saved, "left": max(0.0, self.until - now)}

    @classmethod
    def from_json(cls, data: Any, now: float) -> UndoOffer | None:
        if not isinstance(data, dict) or not isinstance(data.get("saved"), dict):
            return None
        return cls(str(data.get("what", "")), data["saved"], now + float(data.get("left", 0.0)))
