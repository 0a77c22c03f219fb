"""Co-Mix on the appliance, part 2: the round's title, the sand timer (scripting) and the
storytelling order.

The sand timer: the first seat button pressed flips it (that story is done, the timer starts);
the screen shows a big countdown and an hourglass draining, the LED bar drains with it, and the
buzzer ticks once a second in the last ten seconds and sounds long at zero. Each seat button
marks its story done (first, second, ...); the same button again within two seconds takes it
back. When every story is done, or time runs out, the screen says who takes Slow tokens.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import SEAT_ACTIONS, Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.comix_common import (
    NAMESPACE,
    TIMER_KEY,
    UNDO_WINDOW,
    go_to_phase,
    load_game,
    names_line,
    round_title,
    save_game,
    seat_badge,
    settings,
    story_colour,
)
from display.screens.comix_timer import WARNING_SECONDS, SandTimer
from games.comix import Game, Scripting, ScriptingError, TitleError
from games.comix.game import SCRIPTING, STORYTELLING, TITLE
from games.comix.storytelling import allowed_first_parts
from games.comix.titles import MAX_TITLE_LENGTH

if TYPE_CHECKING:
    from display.app import App

#: The wall clock (seconds since the epoch) - only to measure how long a power cut lasted; all
#: in-app timing uses the app clock. A module attribute so tests can move it.
wall_clock = time.time

TICK_HZ = 1320.0
TICK_SECONDS = 0.25
TIME_UP_HZ = 440.0


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def clock_text(seconds: float) -> str:
    whole = int(seconds + 0.999)  # 89.2 s left shows 1:30 -> 0:01 until it is really 0
    return f"{whole // 60}:{whole % 60:02d}"


class GameScreen(Screen):
    """A phase screen: holds the game loaded from the store; BACK returns to the Co-Mix menu."""

    phase = ""

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app)
        loaded = game if game is not None else load_game(app)
        if loaded is None:
            raise RuntimeError("there is no Co-Mix game to continue")
        self.game: Game = loaded
        self.title = round_title(self.game)

    def save(self) -> None:
        save_game(self.app, self.game)

    def next_phase(self) -> None:
        go_to_phase(self.app, self.game)

    def leave(self) -> None:
        self.save()
        self.app.pop()


# -- the title -----------------------------------------------------------------------------
@register_screen
class TitleScreen(GameScreen):
    """All stories share one title: a random one from the rulebook's list, or the table's own."""

    kind = "comix.title"
    takes_text = True

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        self.proposal = ""
        self.error = ""

    def on_show(self) -> None:
        self.app.hardware.outputs_off()
        if self.game.phase != TITLE:
            self.next_phase()
            return
        if not self.proposal:
            self.draw_another()

    def draw_another(self) -> None:
        self.proposal = self.game.propose_title()
        self.save()

    def handle(self, action: Action) -> None:
        self.error = ""
        if action is Action.OK:
            self.choose(self.proposal)
        elif action is Action.RIGHT:
            self.draw_another()
        elif action is Action.LEFT:
            from display.screens.comix import KeyboardScreen

            self.app.push(KeyboardScreen(self.app, "Your own title", limit=MAX_TITLE_LENGTH))
        elif action is Action.BACK:
            self.leave()

    def handle_text(self, text: str) -> None:
        self.choose(text)

    def choose(self, title: str) -> None:
        try:
            self.game.set_title(title)
        except TitleError as error:
            self.error = str(error)
            return
        self.next_phase()

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        ui.text(surface, "This round's title", (width // 2, 18), ui.MEDIUM, ui.DIM, "midtop")
        box = pygame.Rect(ui.MARGIN, 64, width - 2 * ui.MARGIN, 170)
        ui.panel(surface, box, ui.PANEL, border=ui.ACCENT)
        lines = ui.wrap(self.proposal, ui.BIG, box.width - 40)[:2]
        line_h = ui.font(ui.BIG).get_linesize()
        y = box.centery - line_h * len(lines) // 2
        for line in lines:
            ui.text(surface, line, (box.centerx, y), ui.BIG, ui.ACCENT, "midtop")
            y += line_h
        hint = (
            "Everybody agrees? OK starts scripting. RIGHT draws another rulebook title; "
            "LEFT to type your own. Then deal 12 Panel cards to each player or team."
        )
        ui.paragraph(
            surface,
            self.error or hint,
            pygame.Rect(
                ui.MARGIN, box.bottom + 16, width - 2 * ui.MARGIN, height - box.bottom - 20
            ),
            ui.SMALL,
            ui.BAD if self.error else ui.TEXT,
            "center",
        )

    def legend(self) -> list[LegendItem]:
        return [
            (Action.OK, "Use it"),
            (Action.RIGHT, "Another"),
            (Action.LEFT, "Type own"),
            (Action.BACK, "Menu"),
        ]

    def snapshot(self) -> dict[str, Any]:
        return {"proposal": self.proposal}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.proposal = str(data.get("proposal", ""))
        return screen


# -- scripting and the sand timer ----------------------------------------------------------
def draw_hourglass(
    surface: pygame.Surface, rect: pygame.Rect, fraction: float, colour: tuple[int, int, int]
) -> None:
    """An hourglass whose top bulb holds ``fraction`` of the sand and bottom bulb the rest."""
    cx, top, bottom, mid = rect.centerx, rect.top, rect.bottom, rect.centery
    half = rect.width // 2
    neck = 6
    upper = [(cx - half, top), (cx + half, top), (cx + neck, mid), (cx - neck, mid)]
    lower = [(cx - neck, mid), (cx + neck, mid), (cx + half, bottom), (cx - half, bottom)]
    fraction = max(0.0, min(1.0, fraction))
    bulb = mid - top
    # top bulb: sand surface drops from the top towards the neck
    level = top + int(bulb * (1 - fraction))
    if fraction > 0:
        width_at = half - (half - neck) * (level - top) / bulb
        sand_top = [
            (cx - width_at, level),
            (cx + width_at, level),
            (cx + neck, mid),
            (cx - neck, mid),
        ]
        pygame.draw.polygon(surface, colour, sand_top)
    # bottom bulb: a pile growing from the bottom
    if fraction < 1:
        pile = int(bulb * (1 - fraction) * 0.9)
        surface_y = bottom - pile
        width_at = neck + (half - neck) * (surface_y - mid) / bulb
        sand_bottom = [
            (cx - width_at, surface_y),
            (cx + width_at, surface_y),
            (cx + half, bottom),
            (cx - half, bottom),
        ]
        pygame.draw.polygon(surface, colour, sand_bottom)
        if 0 < fraction:
            pygame.draw.line(surface, colour, (cx, mid), (cx, surface_y), 3)
    pygame.draw.polygon(surface, ui.TEXT, upper, width=3)
    pygame.draw.polygon(surface, ui.TEXT, lower, width=3)
    pygame.draw.line(surface, ui.TEXT, (cx - half - 8, top), (cx + half + 8, top), 5)
    pygame.draw.line(surface, ui.TEXT, (cx - half - 8, bottom), (cx + half + 8, bottom), 5)


@register_screen
class ScriptingScreen(GameScreen):
    kind = "comix.scripting"

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        seconds = float(settings(app)["timer_seconds"])
        self.timer = SandTimer(seconds)
        away = app.store.get(NAMESPACE, TIMER_KEY)
        if away and away.get("round") == self.game.round.number and self.scripting.timer_started:
            self.timer = SandTimer.restore(away, app.clock.now())
        self.pressed_at: dict[str, float] = {}  # story -> app time it was declared done
        self.selected = 0  # for tables with fewer seat buttons than stories: LEFT/RIGHT + OK
        self.saved_second: int | None = None  # whole second of sand last written to the store
        self._tiles: list[pygame.Rect] = []

    @property
    def scripting(self) -> Scripting:
        return self.game.round.scripting

    def on_show(self) -> None:
        if self.game.phase != SCRIPTING:
            self.next_phase()

    def on_hide(self) -> None:
        """Leaving the timer screen (BACK to the menu, hold BACK for home) pauses the sand: what
        is left is kept in the store and runs again on "Continue the game"."""
        if self.game.phase == SCRIPTING and self.timer.started:
            away = self.timer.snapshot(self.app.clock.now())
            self.app.store.put(NAMESPACE, TIMER_KEY, {"round": self.game.round.number, **away})
        elif self.app.store.get(NAMESPACE, TIMER_KEY) is not None:
            self.app.store.delete(NAMESPACE, TIMER_KEY)
        self.app.hardware.outputs_off()

    @property
    def few_buttons(self) -> bool:
        """More stories than wired seat buttons: LEFT/RIGHT choose a story, OK marks it."""
        return len(self.game.setup.stories) > self.app.config.seat_count

    # -- events -------------------------------------------------------------------------------
    def toggle(self, index: int) -> None:
        """A seat button: declare story ``index`` done, or take it back within two seconds."""
        stories = self.game.setup.story_names
        if index >= len(stories):
            self.app.toast(f"There is no story at seat {index + 1} this game.")
            return
        story = stories[index]
        now = self.app.clock.now()
        if story in self.scripting.done_order:
            if self.scripting.timed_out:
                self.app.toast("Time is up: declarations are final.")
                return
            if now - self.pressed_at.get(story, -1e9) <= UNDO_WINDOW:
                self.game.undo_done(story)
                self.pressed_at.pop(story, None)
                if not self.scripting.done_order:
                    self.timer.reset()
                    self.app.hardware.set_bar(0.0)
                else:
                    self.timer.resume(now)
                self.app.toast(f"{story}: not done after all - keep scripting.")
                self.save()
            else:
                self.app.toast(f"{story} was declared done; that cannot be taken back now.")
            return
        try:
            self.game.declare_done(story)
        except ScriptingError as error:
            self.app.toast(str(error))
            return
        self.pressed_at[story] = now
        if len(self.scripting.done_order) == 1:
            self.timer.start(now)  # the first creator flips the sand timer
        self.app.hardware.beep(1760.0, 0.08)
        if self.scripting.all_done:
            self.timer.pause(now)
        self.save()

    def handle(self, action: Action) -> None:
        if action in SEAT_ACTIONS:
            assert action.seat is not None
            self.toggle(action.seat - 1)
        elif action is Action.OK:
            if self.scripting.over:
                self.app.hardware.outputs_off()
                self.game.start_storytelling()
                self.next_phase()
            else:
                self.toggle(self.selected)
        elif action in (Action.LEFT, Action.RIGHT):
            step = -1 if action is Action.LEFT else 1
            self.selected = (self.selected + step) % len(self.game.setup.stories)
        elif action is Action.BACK:
            self.leave()

    def handle_tap(self, x: int, y: int) -> bool:
        for index, tile in enumerate(self._tiles):
            if tile.collidepoint(x, y):
                self.selected = index
                self.toggle(index)
                return True
        return False

    def update(self, now: float) -> None:
        timer = self.timer
        if timer.running:
            self.app.hardware.set_bar(timer.fraction(now))
            tick = timer.due_tick(now)
            if tick is not None and tick <= WARNING_SECONDS:
                self.app.hardware.beep(TICK_HZ, TICK_SECONDS)
            if timer.expired(now):
                timer.time_up()
                self.game.time_up()
                self.app.hardware.set_bar(0.0)
                self.app.hardware.beep(TIME_UP_HZ, 1.5)
                self.save()
            elif int(timer.remaining(now)) != self.saved_second:
                # Power-cut safety: the saved sand is never more than a second behind, so after
                # a cut the timer comes back with the time it had left (not that of the last press).
                self.saved_second = int(timer.remaining(now))
                self.app.save()
        elif self.scripting.all_done:
            self.app.hardware.set_bar(timer.fraction(now))

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        now = self.app.clock.now()
        remaining = self.timer.remaining(now)
        warning = self.timer.running and remaining <= WARNING_SECONDS
        colour = ui.BAD if warning or self.scripting.timed_out else ui.ACCENT
        draw_hourglass(
            surface, pygame.Rect(24, 24, 120, height - 48), self.timer.fraction(now), colour
        )
        left_w = 400
        ui.text(
            surface,
            clock_text(remaining),
            (165 + (left_w - 165) // 2, 40),
            ui.HUGE,
            colour,
            "midtop",
        )
        status_area = pygame.Rect(160, 164, left_w - 170, height - 170)
        if self.scripting.over:
            self.draw_slow_tokens(surface, status_area)
        else:
            ui.paragraph(surface, self.status_line(), status_area, ui.SMALL, ui.TEXT, "center")
        self.draw_tiles(surface, pygame.Rect(left_w + 10, 12, width - left_w - 22, height - 24))

    def draw_slow_tokens(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Scripting is over: a framed notice of who takes a Slow token, in big letters."""
        scripting = self.scripting
        ui.panel(surface, area, ui.PANEL, border=ui.BAD)
        heading = "TIME IS UP!" if scripting.timed_out else "ALL DONE!"
        y = (
            ui.text(
                surface, heading, (area.centerx, area.top + 8), ui.MEDIUM, ui.BAD, "midtop"
            ).bottom
            + 4
        )
        ui.text(surface, "Slow token for", (area.centerx, y), ui.SMALL, ui.DIM, "midtop")
        y += 30
        players = [
            m for story in scripting.slow_stories() for m in self.game.setup.story(story).members
        ]
        size = ui.MEDIUM if len(players) <= 3 else ui.SMALL
        line_h = ui.font(size).get_linesize()
        for line in ui.wrap(", ".join(players), size, area.width - 16):
            if y + line_h > area.bottom - 4:
                break
            ui.text(surface, line, (area.centerx, y), size, ui.TEXT, "midtop")
            y += line_h
        if scripting.timed_out:
            rest = pygame.Rect(area.left + 8, y + 6, area.width - 16, area.bottom - y - 10)
            ui.paragraph(surface, "Fill empty spaces at random.", rest, ui.SMALL, ui.DIM, "center")

    def status_line(self) -> str:
        scripting = self.scripting
        if scripting.timed_out:
            slow = ", ".join(scripting.slow_stories())
            return f"TIME IS UP! Slow token: {slow}. Fill empty spaces at random."
        if scripting.all_done:
            last = scripting.slow_stories()[0]
            return f"All done! Slow token: {last} (last to finish)."
        if not scripting.done_order:
            return "First story done? Press its SEAT button to flip the sand timer."
        return "Press your SEAT button when your story is done."

    def draw_tiles(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        stories = self.game.setup.stories
        gap = 8
        tile_h = min(80, (area.height - gap * (len(stories) - 1)) // len(stories))
        slow = set(self.scripting.slow_stories())
        self._tiles = []
        for index, story in enumerate(stories):
            tile = pygame.Rect(area.left, area.top + index * (tile_h + gap), area.width, tile_h)
            self._tiles.append(tile)
            done = story.name in self.scripting.done_order
            border = ui.ACCENT if index == self.selected and self.few_buttons else None
            ui.panel(surface, tile, ui.PANEL, border=border)
            colour = story_colour(index)
            badge = seat_badge(surface, index + 1, (tile.left + 10, tile.centery), colour)
            name_x = badge.right + 12
            if done:
                place = self.scripting.done_order.index(story.name) + 1
                state, state_colour = f"DONE {ordinal(place)}", ui.GOOD
            elif self.scripting.timed_out:
                state, state_colour = "NOT DONE", ui.BAD
            else:
                state, state_colour = "working", ui.DIM
            if story.name in slow:
                state += " SLOW"
                state_colour = ui.BAD
            right = ui.text(
                surface, state, (tile.right - 12, tile.centery), ui.SMALL, state_colour, "midright"
            )
            name = names_line(story.members)
            room = right.left - name_x - 10
            size = ui.MEDIUM if ui.text_width(name, ui.MEDIUM) <= room else ui.SMALL
            ui.text(surface, name, (name_x, tile.centery), size, ui.TEXT, "midleft", room)

    def legend(self) -> list[LegendItem]:
        count = len(self.game.setup.stories)
        seats = tuple(SEAT_ACTIONS[: min(count, self.app.config.seat_count)])
        if self.scripting.timed_out:
            return [(Action.OK, "Storytelling"), (Action.BACK, "Menu")]
        if self.scripting.over:
            return [(Action.OK, "Storytelling"), (seats, "Undo (2 s)"), (Action.BACK, "Menu")]
        items: list[LegendItem] = [(seats, "Story done / undo")]
        if self.few_buttons:
            items.append(((Action.LEFT, Action.RIGHT), "Choose"))
            items.append((Action.OK, "Done"))
        items.append((Action.BACK, "Menu"))
        return items

    def snapshot(self) -> dict[str, Any]:
        now = self.app.clock.now()
        return {
            "timer": self.timer.snapshot(now),
            "selected": self.selected,
            "saved_at": wall_clock(),  # to know, after a power cut, how long it lasted
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        if "timer" in data:
            timer = dict(data["timer"])
            outage = wall_clock() - float(data.get("saved_at", wall_clock()))
            if timer.get("running") and outage > 0:
                # The sand kept falling while the power was off: take the cut's length off, so
                # a cut that outlasted it comes back as time up (declared on the first update).
                # A Pi without a real-time clock may come back with an older time; then the
                # length is unknown and the sand resumes where it was.
                timer["remaining"] = max(0.0, float(timer.get("remaining", 0.0)) - outage)
            screen.timer = SandTimer.restore(timer, app.clock.now())
        screen.selected = int(data.get("selected", 0))
        return screen


# -- storytelling ---------------------------------------------------------------------------
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
                (row.left + 80, row.centery),
                ui.MEDIUM,
                fg,
                "midleft",
                max_width=row.width - 90,
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
        if len(parts) > 1:
            ui.text(surface, f"SEAT {index + 1} swaps the split", (x, y), ui.SMALL, ui.DIM)
            y += 36
        ui.text(
            surface,
            f'Title: "{self.game.round.title}"',
            (x, y),
            ui.SMALL,
            ui.DIM,
            max_width=panel.width - 36,
        )
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
        items: list[LegendItem] = [(Action.OK, "Reviews" if last else "Next story")]
        if self.timer is not None:
            items.append((Action.RIGHT, "Timer"))
        items.append((Action.LEFT, "Previous"))
        items.append((Action.BACK, "Menu"))
        return items

    def snapshot(self) -> dict[str, Any]:
        return {}
