"""Co-Mix: storytelling, from the first story done, clockwise: whose turn it is, who tells which
panels of a team story, and an optional storyteller timer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import SEAT_ACTIONS, Action
from display.screen import LegendItem, register_screen
from display.screens.comix.common import (
    TICK_HZ,
    TIME_UP_HZ,
    GameScreen,
    clock_text,
    settings,
    story_colour,
)
from games.comix import Game
from games.comix.game import STORYTELLING
from games.comix.storytelling import allowed_first_parts
from games.comix.timer import SandTimer

if TYPE_CHECKING:
    from display.app import App


@register_screen
class StorytellingScreen(GameScreen):
    """Whose turn it is, who tells which panels of a team story, and an optional timer."""

    kind = "comix.storytelling"

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        self.limit = float(settings(app)["storyteller_seconds"])
        self.timer = SandTimer(self.limit) if self.limit else None

    def on_show(self) -> None:
        if self.game.phase != STORYTELLING:
            self.next_phase()

    def handle(self, action: Action) -> None:
        now = self.app.clock.now()
        if action is Action.OK:
            self.game.next_storyteller()
            self.restart_timer(None)
            self.save()
            if self.game.phase != STORYTELLING:
                self.app.hardware.outputs_off()
                self.next_phase()
        elif action is Action.LEFT:
            self.game.previous_storyteller()
            self.restart_timer(None)
            self.save()
        elif action is Action.RIGHT and self.timer is not None:
            self.restart_timer(now)
        elif action in SEAT_ACTIONS:
            self.swap_split(action)
        elif action is Action.BACK:
            self.leave()

    def restart_timer(self, now: float | None) -> None:
        if self.timer is None:
            return
        if now is None:
            self.timer.reset()
            self.app.hardware.set_bar(0.0)
        else:
            self.timer.start(now)

    def swap_split(self, action: Action) -> None:
        """A team's seat button cycles who tells first (and 4/5 or 5/4 on 9 panels)."""
        assert action.seat is not None
        stories = self.game.setup.stories
        index = action.seat - 1
        if index >= len(stories) or not stories[index].is_team:
            self.app.toast("Only a team's seat button changes how its story is split.")
            return
        story = stories[index]
        options = [
            (m, part) for part in allowed_first_parts(self.game.setup.panels) for m in story.members
        ]
        parts = self.game.parts(story.name)
        current = (parts[0].teller, parts[0].last_panel)
        teller, part = options[(options.index(current) + 1) % len(options)]
        self.game.set_split(story.name, teller, part)
        self.save()

    def update(self, now: float) -> None:
        timer = self.timer
        if timer is not None and timer.running:
            self.app.hardware.set_bar(timer.fraction(now))
            if timer.due_tick(now) == 1:
                self.app.hardware.beep(TICK_HZ, 0.1)
            if timer.expired(now):
                timer.time_up()
                self.app.hardware.beep(TIME_UP_HZ, 0.8)

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        order = self.game.telling_order()
        names = self.game.setup.story_names
        current = self.game.round.storyteller
        row_h = min(58, (height - 20) // max(1, len(order)))
        list_w = 330
        # the names start after the widest mark ("NOW", "told", "10."), so none overlaps
        name_x = 20 + max(ui.text_width(m, ui.SMALL) for m in ("NOW", "told", f"{len(order)}."))
        for position, story_name in enumerate(order):
            row = pygame.Rect(ui.MARGIN, 10 + position * row_h, list_w, row_h - 6)
            now_telling = position == current
            ui.panel(surface, row, ui.ACCENT if now_telling else ui.PANEL)
            fg = ui.ACCENT_TEXT if now_telling else (ui.DIM if position < current else ui.TEXT)
            mark = "NOW" if now_telling else ("told" if position < current else f"{position + 1}.")
            ui.text(surface, mark, (row.left + 10, row.centery), ui.SMALL, fg, "midleft")
            ui.text(
                surface,
                story_name,
                (row.left + name_x, row.centery),
                ui.MEDIUM,
                fg,
                "midleft",
                max_width=row.width - name_x - 10,
            )
        panel = pygame.Rect(list_w + 2 * ui.MARGIN, 10, width - list_w - 3 * ui.MARGIN, height - 20)
        if current >= len(order):
            return
        story_name = order[current]
        index = names.index(story_name)
        ui.panel(surface, panel, ui.PANEL, border=story_colour(index))
        x = panel.left + 18
        ui.text(surface, "Now telling", (x, panel.top + 12), ui.SMALL, ui.DIM)
        ui.text(
            surface,
            story_name,
            (x, panel.top + 42),
            ui.LARGE,
            story_colour(index),
            max_width=panel.width - 36,
        )
        y = panel.top + 100
        parts = self.game.parts(story_name)
        for part in parts:
            line = f"{part.teller}: {part.label}"
            ui.text(surface, line, (x, y), ui.MEDIUM, max_width=panel.width - 36)
            y += 42
        if len(parts) > 1:  # a team: its seat button is in the legend too
            ui.text(surface, f"SEAT {index + 1} swaps the split", (x, y), ui.SMALL, ui.ACCENT)
            y += 36
        # the title wrapped, above the timer's line (never cut)
        bottom = panel.bottom - (58 if self.timer is not None else 10)
        title = pygame.Rect(x, y, panel.width - 36, bottom - y)
        ui.paragraph(surface, f'Title: "{self.game.round.title}"', title, ui.SMALL, ui.TEXT)
        if self.timer is not None:
            now = self.app.clock.now()
            left = self.timer.remaining(now)
            colour = ui.BAD if self.timer.finished else ui.ACCENT
            label = clock_text(left) if self.timer.started else f"{clock_text(self.limit)} ready"
            ui.text(
                surface,
                label,
                (panel.right - 18, panel.bottom - 10),
                ui.LARGE,
                colour,
                "bottomright",
            )

    def legend(self) -> list[LegendItem]:
        last = self.game.round.storyteller >= len(self.game.setup.stories) - 1
        items: list[LegendItem] = [(Action.OK, "Reviews" if last else "Next")]
        order = self.game.telling_order()
        current = self.game.round.storyteller
        team = current < len(order) and len(self.game.parts(order[current])) > 1
        seat = self.game.setup.story_names.index(order[current]) if team else len(SEAT_ACTIONS)
        if seat < len(SEAT_ACTIONS):  # a team telling: its seat button swaps the split
            items.append((SEAT_ACTIONS[seat], "Split"))
        if self.timer is not None:
            items.append((Action.RIGHT, "Timer"))
        items.append((Action.LEFT, "Prev" if seat < len(SEAT_ACTIONS) else "Previous"))
        items.append((Action.BACK, "Menu"))  # the first to go for want of room
        return items

    def snapshot(self) -> dict[str, Any]:
        return {}
