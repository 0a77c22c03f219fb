"""Co-Mix: the sand timer while the players script their stories.

The sand timer: the first seat button pressed flips it (that story is done, the timer starts);
the screen shows a big countdown and an hourglass draining, the LED bar drains with it, and the
buzzer ticks once a second in the last ten seconds and sounds long at zero. Each seat button
marks its story done (first, second, ...); the same button again within two seconds takes it
back. When every story is done, or time runs out, the screen says who takes Slow tokens.
"""

from __future__ import annotations

import copy
import time
from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import SEAT_ACTIONS, Action
from display.screen import LegendItem, Screen, register_screen
from display.screens.comix.common import (
    NAMESPACE,
    TICK_HZ,
    TICK_SECONDS,
    TIME_UP_HZ,
    TIMER_KEY,
    UNDO_WINDOW,
    GameScreen,
    clock_text,
    names_line,
    ordinal,
    seat_badge,
    settings,
    story_colour,
)
from display.widgets.hourglass import draw_hourglass
from games.comix import Game, Scripting, ScriptingError
from games.comix.game import SCRIPTING
from games.comix.timer import WARNING_SECONDS, SandTimer

if TYPE_CHECKING:
    from display.app import App

#: The wall clock (seconds since the epoch) - only to measure how long a power cut lasted; all
#: in-app timing uses the app clock. A module attribute so tests can move it.
wall_clock = time.time

GO_HZ = 1760.0  # the count-in's last beep, when the sand runs again
BACK_HINT_SECONDS = 3.0  # after a short BACK press the legend says to hold it, this long
NOTICE_SECONDS = 3.0  # a message over the title (declared, taken back, too late...)


def draw_check(surface: pygame.Surface, box: pygame.Rect, colour: tuple[int, int, int]) -> None:
    """A bold check mark filling ``box`` (the UI font has no glyph for one)."""
    points = [
        (box.left, box.top + box.height * 0.55),
        (box.left + box.width * 0.38, box.bottom - 2),
        (box.right, box.top + 2),
    ]
    pygame.draw.lines(surface, colour, False, points, max(4, box.width // 6))


@register_screen
class ScriptingScreen(GameScreen):
    kind = "comix.scripting"

    def __init__(self, app: App, game: Game | None = None) -> None:
        super().__init__(app, game)
        seconds = float(settings(app)["timer_seconds"])
        self.timer = SandTimer(seconds)
        away = app.store.get(NAMESPACE, TIMER_KEY)
        if away and away.get("round") == self.game.round.number and self.scripting.timer_started:
            self.timer = SandTimer.from_json(away, app.clock.now())
            self.timer.pause(app.clock.now())  # saved running by an older version: paused too
        #: Opened by "Continue the game" on a paused sand: count in as the screen shows.
        self.count_in_on_show = self.timer.paused
        self._counted = 0  # the count-in number last beeped (3, 2, 1; 0 = none)
        self.back_pressed_at: float | None = None  # BACK pressed: say to hold it to leave
        self.pressed_at: dict[str, float] = {}  # story -> app time it was declared done
        #: Buttons whose current press declared a story done: their hold is not an undo.
        self.declared_by_press: set[Action] = set()
        self.selected = 0  # for tables with fewer seat buttons than stories: LEFT/RIGHT + OK
        self.saved_second: int | None = None  # whole second of sand last written to the store
        self._tiles: list[pygame.Rect] = []
        self.glass = pygame.Rect(0, 0, 0, 0)  # where the hourglass was last drawn (content area)
        self._lit_seats: tuple[int, ...] | None = None  # seat LEDs last lit (None: not yet)
        self.banner = pygame.Rect(0, 0, 0, 0)  # the ALL DONE / TIME IS UP banner, once drawn
        self.notice_text, self.notice_until = "", -1.0

    @property
    def scripting(self) -> Scripting:
        return self.game.round.scripting

    def on_show(self) -> None:
        self._lit_seats = None  # another screen may have turned the LEDs off
        if self.game.phase != SCRIPTING:
            self.next_phase()
            return
        if self.count_in_on_show and not self.scripting.over:
            self.timer.count_in(self.app.clock.now())
        self.count_in_on_show = False

    def on_hide(self) -> None:
        """Leaving the timer screen (a hold of BACK) pauses the sand: what is left is kept in
        the store, and "Continue the game" counts in 3-2-1 before it runs again."""
        if self.game.phase == SCRIPTING and self.timer.started:
            # The stored sand is paused; this screen's own timer is left alone, so the app
            # shutting down (which hides every screen) still saves it as it was, like a cut.
            now = self.app.clock.now()
            paused = copy.copy(self.timer)
            paused.pause(now)
            away = paused.to_json(now)
            self.app.store.put(NAMESPACE, TIMER_KEY, {"round": self.game.round.number, **away})
        elif self.app.store.get(NAMESPACE, TIMER_KEY) is not None:
            self.app.store.delete(NAMESPACE, TIMER_KEY)
        self.app.hardware.outputs_off()

    @property
    def few_buttons(self) -> bool:
        """More stories than wired seat buttons: LEFT/RIGHT choose a story, OK marks it."""
        return len(self.game.setup.stories) > self.app.config.seat_count

    # -- events -------------------------------------------------------------------------------
    def toggle(self, index: int) -> bool:
        """A seat button: declare story ``index`` done, or take it back within two seconds.
        True if this press declared it done."""
        stories = self.game.setup.story_names
        if index >= len(stories):
            self.notice(f"There is no story at seat {index + 1} this game.")
            return False
        story = stories[index]
        now = self.app.clock.now()
        if story in self.scripting.done_order:
            if self.scripting.timed_out:
                self.notice("Time is up: declarations are final.")
                return False
            if now - self.pressed_at.get(story, -1e9) <= UNDO_WINDOW:
                self.undo(story)
            else:
                # Too late for a quick second press: a stray press must not undo, so taking
                # it back now is a deliberate hold of the same button (handle_hold).
                self.notice(f"{story} is done. To take it back, hold {self.key_name(index)}.")
            return False
        try:
            self.game.declare_done(story)
        except ScriptingError as error:
            self.notice(str(error))
            return False
        self.pressed_at[story] = now
        if len(self.scripting.done_order) == 1:
            self.timer.start(now)  # the first creator flips the sand timer
        self.app.hardware.beep(1760.0, 0.08)
        if self.scripting.all_done:
            self.timer.stop(now)
        self.save()
        return True

    def key_name(self, index: int) -> str:
        """The button that holds story ``index``'s declaration: its seat, or OK beyond them."""
        return f"SEAT {index + 1}" if index < self.app.config.seat_count else "OK"

    def undo(self, story: str) -> None:
        """Take back "done" for ``story``: saved and beeped like the press that declared it."""
        now = self.app.clock.now()
        self.game.undo_done(story)
        self.pressed_at.pop(story, None)
        if not self.scripting.done_order:
            self.timer.reset()
            self.app.hardware.set_bar(0.0)
        else:
            self.timer.resume(now)
        self.app.hardware.beep(880.0, 0.08)
        self.notice(f"{story}: not done after all - keep scripting.")
        self.save()

    def handle(self, action: Action) -> None:
        if action in SEAT_ACTIONS:
            assert action.seat is not None
            self.declared_by_press.discard(action)
            if self.toggle(action.seat - 1):
                self.declared_by_press.add(action)
        elif action is Action.OK:
            self.declared_by_press.discard(action)
            if self.scripting.over:
                self.app.hardware.outputs_off()
                self.game.start_storytelling()
                self.next_phase()
            elif self.timer.paused:
                self.timer.count_in(self.app.clock.now())  # "Continue": 3, 2, 1, then sand
            elif self.few_buttons and not self.scripting.over:
                # Only where some stories have no seat button of their own does OK mark one:
                # elsewhere a stray OK (a second press on the title screen) must not flip the sand.
                if self.toggle(self.selected):
                    self.declared_by_press.add(action)
        elif action in (Action.LEFT, Action.RIGHT):
            if self.few_buttons and not self.scripting.over:
                step = -1 if action is Action.LEFT else 1
                self.selected = (self.selected + step) % len(self.game.setup.stories)
        elif action is Action.BACK:
            # One press does not leave (nor pause): the legend says to hold it.
            self.back_pressed_at = self.app.clock.now()

    def handle_hold(self, action: Action) -> None:
        """Holding BACK leaves the timer for the Co-Mix menu; the sand pauses (:meth:`on_hide`)
        and "Continue the game" counts it in again. Holding a seat button (or OK on the chosen
        story, where OK marks stories) takes back a "done" declared by an earlier press: the
        deliberate undo once the two seconds of a quick second press are over."""
        if action is Action.BACK:
            self.back_pressed_at = None
            self.leave()
            return
        if action in SEAT_ACTIONS:
            assert action.seat is not None
            index = action.seat - 1
        elif action is Action.OK and self.few_buttons:
            index = self.selected
        else:
            return
        if action in self.declared_by_press:
            return  # this very press declared it: holding on is not an undo
        stories = self.game.setup.story_names
        if index >= len(stories) or stories[index] not in self.scripting.done_order:
            return
        if self.scripting.timed_out:
            self.notice("Time is up: declarations are final.")
            return
        self.undo(stories[index])

    def handle_tap(self, x: int, y: int) -> bool:
        for index, tile in enumerate(self._tiles):
            if tile.collidepoint(x, y):
                self.selected = index
                self.toggle(index)
                return True
        return False

    def update(self, now: float) -> None:
        timer = self.timer
        count = timer.count(now)
        if count != self._counted:  # the count-in beeps 3, 2, 1 and, higher, when the sand runs
            self.app.hardware.beep(TICK_HZ if count else GO_HZ, TICK_SECONDS)
            self._counted = count
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
        elif self.scripting.all_done or timer.paused:  # the bar still shows the sand left
            self.app.hardware.set_bar(timer.fraction(now))
        self.light_seats()

    def light_seats(self) -> None:
        """The LEDs in the seat buttons (where fitted) light the stories still being scripted;
        all dark once scripting is over."""
        seats = () if self.scripting.over else tuple(i + 1 for i in self.working())
        if seats != self._lit_seats:
            self._lit_seats = seats
            self.app.hardware.set_seat_leds(seats)

    # -- drawing ------------------------------------------------------------------------------
    def notice(self, content: str) -> None:
        """A short message for :data:`NOTICE_SECONDS` drawn over the round's title - not a
        toast, which would take the legend's place, and the legend says how to undo."""
        self.notice_text, self.notice_until = content, self.app.clock.now() + NOTICE_SECONDS

    def draw_notice(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        if self.app.clock.now() >= self.notice_until:
            return
        lines = ui.wrap(self.notice_text, ui.SMALL, area.width - 24)[:2]
        line_h = ui.font(ui.SMALL).get_linesize()
        box = pygame.Rect(area.left, area.top, area.width, line_h * len(lines) + 12)
        ui.panel(surface, box, ui.HEADER, border=ui.INFO)
        for index, line in enumerate(lines):
            ui.text(
                surface,
                line,
                (box.centerx, box.top + 6 + index * line_h),
                ui.SMALL,
                ui.TEXT,
                "midtop",
            )

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        self.draw_scene(surface, width, height)
        right = pygame.Rect(self.glass.right + 18, 0, width - self.glass.right - 30, height)
        self.draw_notice(surface, right)

    def draw_scene(self, surface: pygame.Surface, width: int, height: int) -> None:
        now = self.app.clock.now()
        remaining = self.timer.remaining(now)
        warning = self.timer.running and remaining <= WARNING_SECONDS
        colour = ui.BAD if warning or self.scripting.timed_out else ui.ACCENT
        waiting = not self.scripting.over and (self.timer.paused or self.timer.counting_in(now))
        self.glass = pygame.Rect(22, 14, 112, height - 28)
        sand = ui.DIM if waiting else colour  # a paused sand is grey
        draw_hourglass(surface, self.glass, self.timer.fraction(now), sand)
        right = pygame.Rect(self.glass.right + 18, 0, width - self.glass.right - 30, height)
        top = self.draw_prompt(surface, right) + 6
        main = pygame.Rect(right.left, top, right.width, height - top - 8)
        self._tiles = []
        working = self.working()
        if (
            not waiting
            and not self.scripting.over
            and len(working) == 1
            and self.scripting.done_order
        ):
            self.draw_spotlight(surface, main, working[0], remaining, colour)
            self.draw_cursor(surface)
            return
        clock_w = 270
        column = pygame.Rect(main.left, main.top, clock_w, main.height)
        if self.scripting.over:
            self.draw_over(surface, column)
        elif waiting:
            self.draw_paused(surface, column, now)
        else:
            clock = ui.text(
                surface, clock_text(remaining), (column.centerx, top), ui.HUGE, colour, "midtop"
            )
            status = pygame.Rect(
                column.left, clock.bottom + 4, clock_w, column.bottom - clock.bottom - 4
            )
            ui.paragraph(surface, self.status_line(), status, ui.SMALL, ui.TEXT, "center")
        tiles = pygame.Rect(
            main.left + clock_w + 10, main.top, main.width - clock_w - 10, main.height
        )
        self.draw_tiles(surface, tiles)
        if not waiting:
            self.draw_cursor(surface)

    def draw_cursor(self, surface: pygame.Surface) -> None:
        """Where OK and the knob act (more stories than seat buttons), the story OK marks is
        framed in the accent colour; elsewhere there is no cursor, as OK marks nothing."""
        if not self.few_buttons or self.scripting.over or self.selected >= len(self._tiles):
            return
        tile = self._tiles[self.selected]
        if tile.width:
            pygame.draw.rect(surface, ui.ACCENT, tile.inflate(8, 8), width=4, border_radius=12)

    def draw_paused(self, surface: pygame.Surface, area: pygame.Rect, now: float) -> None:
        """A paused sand: a "PAUSED" banner over the time left; counting in: the big 3, 2, 1."""
        count = self.timer.count(now)
        self.banner = pygame.Rect(area.left, area.top, area.width, 76)
        pygame.draw.rect(surface, ui.ACCENT if count else ui.INFO, self.banner, border_radius=10)
        heading = "GET READY" if count else "PAUSED"
        ui.text(surface, heading, self.banner.center, ui.LARGE, ui.ACCENT_TEXT, "center")
        left = clock_text(self.timer.remaining(now))
        big = str(count) if count else left
        shown = ui.text(
            surface, big, (area.centerx, self.banner.bottom), ui.HUGE, ui.TEXT, "midtop"
        )
        note = f"then {left} of sand" if count else "OK to continue (3-2-1)"
        rest = pygame.Rect(area.left, shown.bottom, area.width, area.bottom - shown.bottom)
        ui.paragraph(surface, note, rest, ui.SMALL, ui.TEXT, "center")

    def working(self) -> list[int]:
        """The stories (by index) still being scripted: none once time is up."""
        if self.scripting.timed_out:
            return []
        done = self.scripting.done_order
        return [i for i, story in enumerate(self.game.setup.stories) if story.name not in done]

    def draw_spotlight(
        self,
        surface: pygame.Surface,
        area: pygame.Rect,
        index: int,
        remaining: float,
        colour: tuple[int, int, int],
    ) -> None:
        """One story left: its creators and the time left, as big as fits ("CAT - 0:07"), with
        the finished seats as a row of solid chips below."""
        story = self.game.setup.stories[index]
        chips_h = 52
        spot = pygame.Rect(area.left, area.top, area.width, area.height - chips_h - 10)
        ui.panel(surface, spot, ui.PANEL, border=story_colour(index))
        pygame.draw.rect(surface, story_colour(index), spot, width=6, border_radius=10)
        self._tiles = [pygame.Rect(0, 0, 0, 0)] * len(self.game.setup.stories)
        self._tiles[index] = spot
        name = names_line(story.members).upper()
        clock = clock_text(remaining)
        dash = " \u2014 "
        inner = spot.width - 32
        badge_h = 44
        for size in (ui.HUGE, ui.BIG):
            if ui.text_width(name + dash + clock, size) <= inner:
                # one line: the name in the story's colour, the time in the sand's colour
                total = ui.text_width(name + dash + clock, size)
                y = spot.top + (spot.height - badge_h) // 2
                x = spot.centerx - total // 2
                left = ui.text(surface, name + dash, (x, y), size, story_colour(index), "midleft")
                ui.text(surface, clock, (left.right, y), size, colour, "midleft")
                break
        else:  # a long name (a team): the name on one line, the time on the next
            sizes = (ui.BIG, ui.LARGE, ui.MEDIUM)
            size = next((s for s in sizes if ui.text_width(name, s) <= inner), ui.SMALL)
            line = ui.text(
                surface,
                name,
                (spot.centerx, spot.top + 10),
                size,
                story_colour(index),
                "midtop",
                inner,
            )
            ui.text(surface, clock, (spot.centerx, line.bottom), ui.HUGE, colour, "midtop")
        note = f"SEAT {index + 1} is still scripting"
        ui.text(surface, note, (spot.centerx, spot.bottom - 10), ui.SMALL, ui.TEXT, "midbottom")
        # the finished seats: solid chips with a check, in seat order
        done = [i for i in range(len(self.game.setup.stories)) if i != index]
        gap = 8
        chip_w = min(200, (area.width - gap * (len(done) - 1)) // max(1, len(done)))
        x = area.left
        for other in done:
            chip = pygame.Rect(x, area.bottom - chips_h, chip_w, chips_h)
            self._tiles[other] = chip
            self.draw_done_tile(surface, chip, other, f"SEAT {other + 1}", "")
            x += chip_w + gap

    def draw_done_tile(
        self, surface: pygame.Surface, tile: pygame.Rect, index: int, label: str, note: str
    ) -> None:
        """A finished story: solid in its colour, a check mark, dark text on it."""
        pygame.draw.rect(surface, story_colour(index), tile, border_radius=10)
        box = pygame.Rect(tile.left + 10, tile.centery - 14, 28, 28)
        draw_check(surface, box, ui.ACCENT_TEXT)
        right = tile.right - 12
        if note:
            right = (
                ui.text(
                    surface,
                    note,
                    (tile.right - 12, tile.centery),
                    ui.SMALL,
                    ui.ACCENT_TEXT,
                    "midright",
                ).left
                - 10
            )
        ui.text(
            surface,
            label,
            (box.right + 10, tile.centery),
            ui.SMALL,
            ui.ACCENT_TEXT,
            "midleft",
            right - box.right - 10,
        )

    def draw_prompt(self, surface: pygame.Surface, area: pygame.Rect) -> int:
        """The round's title - the creative prompt every story answers - across the top, in
        quotes; as big as fits (two lines at most). Returns the y below it."""
        title = self.game.round.title or ""
        if not title:
            return area.top
        quoted = f"\u201c{title}\u201d"
        for size in (ui.MEDIUM, ui.SMALL):
            if ui.text_width(quoted, size) <= area.width:
                return ui.text(
                    surface, quoted, (area.centerx, area.top + 6), size, ui.TEXT, "midtop"
                ).bottom
        line_h = ui.font(ui.SMALL).get_linesize()
        lines = ui.wrap(quoted, ui.SMALL, area.width)
        if len(lines) > 2:
            lines = [lines[0], ui.fit(" ".join(lines[1:]), ui.SMALL, area.width)]
        y = area.top + 6
        for line in lines:
            ui.text(surface, line, (area.centerx, y), ui.SMALL, ui.TEXT, "midtop")
            y += line_h
        return y

    def draw_over(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Scripting is over: a banner - "ALL DONE!" in green (success), "TIME IS UP!" in red
        like an alarm - and who takes a Slow token, in big letters."""
        scripting = self.scripting
        tone = ui.BAD if scripting.timed_out else ui.GOOD
        heading = "TIME IS UP!" if scripting.timed_out else "ALL DONE!"
        self.banner = pygame.Rect(area.left, area.top, area.width, 76)
        pygame.draw.rect(surface, tone, self.banner, border_radius=10)
        ui.text(surface, heading, self.banner.center, ui.LARGE, ui.ACCENT_TEXT, "center")
        notice = pygame.Rect(
            area.left, self.banner.bottom + 10, area.width, area.bottom - self.banner.bottom - 10
        )
        ui.panel(surface, notice, ui.PANEL, border=tone)
        y = (
            ui.text(
                surface,
                "Slow token for",
                (notice.centerx, notice.top + 10),
                ui.SMALL,
                ui.TEXT,
                "midtop",
            ).bottom
            + 2
        )
        players = [
            m for story in scripting.slow_stories() for m in self.game.setup.story(story).members
        ]
        room = notice.bottom - y - (70 if scripting.timed_out else 8)
        names = ", ".join(players)
        size = next(
            (
                s
                for s in (ui.LARGE, ui.MEDIUM)
                if len(ui.wrap(names, s, notice.width - 16)) * ui.font(s).get_linesize() <= room
            ),
            ui.SMALL,
        )
        line_h = ui.font(size).get_linesize()
        for line in ui.wrap(names, size, notice.width - 16):
            if y + line_h > notice.bottom - 4:
                break
            ui.text(surface, line, (notice.centerx, y), size, ui.TEXT, "midtop")
            y += line_h
        if scripting.timed_out:
            rest = pygame.Rect(notice.left + 8, y + 6, notice.width - 16, notice.bottom - y - 10)
            ui.paragraph(surface, "Fill empty spaces at random.", rest, ui.SMALL, ui.TEXT, "center")

    def status_line(self) -> str:
        """What to do now, under the clock while scripting goes on."""
        if not self.scripting.done_order:
            return "First story done? Press its SEAT button to flip the sand timer."
        return "Press your SEAT button when your story is done."

    def draw_tiles(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """One tile per story in seat order: a finished one solid with a check, one still being
        scripted taller, outlined in its colour, with its name large."""
        stories = self.game.setup.stories
        gap = 8
        working = set(self.working())
        done_h = 46
        room = area.height - gap * (len(stories) - 1) - done_h * (len(stories) - len(working))
        work_h = min(96, room // len(working)) if working else 0
        slow = set(self.scripting.slow_stories())
        y = area.top
        for index, story in enumerate(stories):
            done = story.name in self.scripting.done_order
            tile = pygame.Rect(area.left, y, area.width, work_h if index in working else done_h)
            self._tiles.append(tile)
            y = tile.bottom + gap
            name = names_line(story.members)
            if done:
                place = ordinal(self.scripting.done_order.index(story.name) + 1)
                note = "SLOW" if story.name in slow else place
                self.draw_done_tile(surface, tile, index, name, note)
                continue
            colour = story_colour(index)
            if self.scripting.timed_out:  # not done in time: framed in red, said in words
                ui.panel(surface, tile, ui.PANEL, border=ui.BAD)
                state = ui.text(
                    surface,
                    "NOT DONE",
                    (tile.right - 12, tile.centery),
                    ui.SMALL,
                    ui.BAD,
                    "midright",
                )
                room_w = state.left - tile.left - 24
                ui.text(
                    surface,
                    name,
                    (tile.left + 14, tile.centery),
                    ui.SMALL,
                    ui.TEXT,
                    "midleft",
                    room_w,
                )
                continue
            ui.panel(surface, tile, ui.PANEL)
            pygame.draw.rect(surface, colour, tile, width=4, border_radius=10)
            badge = seat_badge(surface, index + 1, (tile.left + 10, tile.centery), colour)
            name_x = badge.right + 12
            room_w = tile.right - 12 - name_x
            size = next(
                (
                    s
                    for s in (ui.LARGE, ui.MEDIUM)
                    if ui.text_width(name, s) <= room_w and s <= tile.height
                ),
                ui.SMALL,
            )
            ui.text(surface, name, (name_x, tile.centery), size, ui.TEXT, "midleft", room_w)

    def undo_open(self) -> bool:
        """A story was declared done less than :data:`UNDO_WINDOW` seconds ago: its seat button
        can still take it back (never once time is up)."""
        if self.scripting.timed_out:
            return False
        now = self.app.clock.now()
        return any(now - at <= UNDO_WINDOW for at in self.pressed_at.values())

    def legend(self) -> list[LegendItem]:
        count = len(self.game.setup.stories)
        seats = tuple(SEAT_ACTIONS[: min(count, self.app.config.seat_count)])
        now = self.app.clock.now()
        if self.back_pressed_at is not None and now - self.back_pressed_at < BACK_HINT_SECONDS:
            if self.timer.running or self.timer.paused:
                return [(Action.BACK, "Keep holding to leave - the sand pauses")]
            return [(Action.BACK, "Keep holding to leave")]
        leave: LegendItem = (Action.BACK, "Hold to leave")
        undo = "Undo" if self.undo_open() else "Hold to undo"
        if self.scripting.over:
            if self.scripting.timed_out:
                return [(Action.OK, "Storytelling"), leave]
            return [(seats, undo), (Action.OK, "Storytelling"), leave]
        if self.timer.paused:
            return [(Action.OK, "Continue"), (seats, "Done"), leave]
        if self.few_buttons:  # the legend is full: the seats' undo is said by the toast
            stories = self.game.setup.story_names
            chosen_done = stories[self.selected] in self.scripting.done_order
            return [
                (seats, "Done / undo" if self.undo_open() else "Done"),
                (Action.OK, undo if chosen_done else "Mark done"),
                ((Action.LEFT, Action.RIGHT), "Choose"),
                leave,
            ]
        if not self.scripting.done_order:
            done = "Story done"
        else:
            done = "Story done / undo" if self.undo_open() else "Done; hold to undo"
        return [(seats, done), leave]

    def snapshot(self) -> dict[str, Any]:
        now = self.app.clock.now()
        return {
            "timer": self.timer.to_json(now),
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
            screen.timer = SandTimer.from_json(timer, app.clock.now())
        screen.selected = int(data.get("selected", 0))
        screen.count_in_on_show = False  # back after a power cut: a paused sand stays paused
        return screen
