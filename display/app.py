"""The appliance loop: a stack of screens fed with actions, drawn at a steady frame rate.

The :class:`App` owns the injected clock (``app.clock.now()``), the device ``Hardware``
(``app.hardware``), the camera (``app.camera``, use :meth:`App.capture`), the state store
(``app.store``), ``app.cache`` (costly objects of this run, not saved) and the screen stack
(:meth:`push`, :meth:`pop`, :meth:`replace`, :meth:`go_home`, and :meth:`dismiss`: a pushed
screen's answer, given to ``on_result`` of the screen below). Inputs from GPIO (through
gpiozero, real or mock pins), the keyboard, taps on the legend bar and scripts all arrive as
:class:`~display.actions.Action` values; after every handled one the whole stack is saved
(:meth:`save`). See ``display/screen.py`` for how to write a screen.

A press is acknowledged by its beep, and the beep sounds only once the press is on the disk: the
beeps a screen asks for while it handles a press (or a hold, a tap, typed text) are kept back
until the store's commit of that event is durable. With the appliance's write-behind store
(``display/store.py``) that is a frame or two later and the screen never waits for the disk;
with the synchronous store of scripted runs it is at once.

Drawing happens on a logical canvas 480 pixels high (see :func:`logical_size`); on a real display
SDL scales it to the panel (pygame.SCALED), so layouts are written once. ``[screen] rotate`` turns
the canvas on its way to the panel and touches on their way back (:mod:`display.panel`).

Touch: a finger on a legend key holds that button until it lifts (so "hold BACK" works on the
screen); anywhere else it is a tap. Without a desktop SDL reports touches only as finger events;
a desktop also sends a copy as a mouse click flagged ``touch``, which is ignored.
"""

from __future__ import annotations

import importlib
import pkgutil
import sqlite3
import sys
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np
import pygame

from device import simulated
from device.camera import Camera, CameraError, CameraStalled
from device.config import Config
from device.hardware import Hardware, InputEvent
from device.service import record_crash, take_last_failure
from display import chrome, settings, ui
from display.actions import Action
from display.clock import Clock, MonotonicClock
from display.keys import build_keymap, key_hints
from display.panel import Panel
from display.screen import SCREENS, Screen
from display.store import Store, StoreError

#: The two kinds the kernel knows by name (registered by display/screens and display/widgets):
#: the bottom of every stack, and the framed message for notices and crashes.
HOME_KIND = "home"
MESSAGE_KIND = "message"
SIM_PANEL_W = 300  # the right end of the header mirrors the LEDs and buzzer in simulated mode
#: Camera calls that stalled one after another before the appliance restarts itself: a driver
#: call that never returns is never freed inside the process (device/deadline.py), and every
#: photo after it is refused until a new process opens the camera.
CAMERA_STALLS_BEFORE_RESTART = 3
#: How long the table is told why before the process exits (systemd starts it again).
RESTART_NOTICE_SECONDS = 8.0
#: The exit status of that restart (any failure status makes the unit note how it stopped).
EXIT_CAMERA_STALLED = 3


def logical_size(width: int, height: int) -> tuple[int, int]:
    """The canvas size for a screen of ``width`` x ``height``: 480 high, same aspect ratio."""
    return (round(ui.LOGICAL_HEIGHT * width / height), ui.LOGICAL_HEIGHT)


SCREEN_PACKAGES = ("display.widgets", "display.screens")


def load_screen_modules() -> dict[str, str]:
    """Import every module under ``display.widgets`` and ``display.screens`` (which registers
    their screens). The packages are walked by name: the kernel never imports a screen.

    Returns {module name: error} for modules that failed to import, so one broken game screen
    shows up as a message on the home screen instead of taking the appliance down.
    """
    failures: dict[str, str] = {}
    for package_name in SCREEN_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}."):
            try:
                importlib.import_module(info.name)
            except Exception as error:
                failures[info.name] = f"{type(error).__name__}: {error}"
                traceback.print_exc(file=sys.stderr)
    return failures


class App:
    """The running appliance; see the module docstring."""

    def __init__(
        self,
        *,
        config: Config,
        hardware: Hardware,
        camera: Camera,
        store: Store,
        clock: Clock | None = None,
        simulated: bool = False,
        strict: bool = False,
    ) -> None:
        self.config = config
        self.hardware = hardware
        self.camera = camera
        self.store = store
        self.clock: Clock = clock if clock is not None else MonotonicClock()
        self.simulated = simulated
        #: strict (scripts, tests): an exception in a screen propagates instead of being shown.
        self.strict = strict
        #: Background jobs run inline (at once, in the caller) in scripted runs and tests, so a
        #: script's next line sees the result: runs stay deterministic.
        self.jobs_inline = strict
        self._executor: ThreadPoolExecutor | None = None
        #: Shared objects for this run that are costly to rebuild and not saved (a card gallery
        #: loaded from disk...): key them by your game's name, e.g. ``app.cache["remix.gallery"]``.
        self.cache: dict[str, Any] = {}
        self.size = logical_size(*config.screen.drawing_size)
        #: How the canvas reaches the window; :meth:`attach_window` sets the window's size.
        self.panel = Panel(self.size, config.screen.rotate)
        self.window: pygame.Surface | None = None
        if not pygame.font.get_init():
            pygame.font.init()
        self.surface = pygame.Surface(self.size)
        self.screens: list[Screen] = []
        self.running = True
        self.frames = 0
        self.load_errors: dict[str, str] = {}
        self.last_capture_error: str | None = None
        #: Camera calls that stalled in a row (see CAMERA_STALLS_BEFORE_RESTART).
        self.camera_stalls = 0
        #: Why the appliance is restarting itself, shown over every screen until it exits.
        self.restart_reason: str | None = None
        self._restart_note = ""  # the same for the next start's "Restarted" message
        self._restart_at: float | None = None
        #: The process's exit status when the loop ends (run_interactive returns it).
        self.exit_code = 0
        self._pressed: dict[Action, list[Any]] = {}  # action -> [pressed_at, hold_fired]
        self._toasts: list[tuple[str, float]] = []
        self._holding_beeps = False
        #: (store commit number, beeps): acknowledgements waiting for their commit to be durable
        self._acknowledgements: list[tuple[int, list[tuple[float, float]]]] = []
        self._legend_targets: list[tuple[pygame.Rect, tuple[Action, ...]]] = []
        #: The legend key each finger (or the mouse) is holding down, until it lifts.
        self._held_by_pointer: dict[Any, Action] = {}
        self.keymap = build_keymap(config)

    # -- start-up -----------------------------------------------------------------------------
    def start(self) -> None:
        """Import the screens, rebuild the saved stack (or show home), show start-up notices."""
        self.load_errors = load_screen_modules()
        settings.apply(self.hardware, settings.load(self.store))
        problems = self._restore_stack()
        if not self.screens:
            self.screens.append(self._make_home())
        for notice in self.store.notices:
            self.screens.append(self.message("Saved state moved aside", notice))
        failure = take_last_failure(self.store.state_dir)  # noted by the unit or run() below
        if failure is not None:
            self.screens.append(self.message("Restarted", failure.sentence(), "info"))
        if self.hardware.problems:  # busy or invalid pins: those parts are left out
            wiring = " ".join(problem.sentence() for problem in self.hardware.problems)
            self.screens.append(self.message("Wiring problem", wiring))
        for problem in problems:
            self.screens.append(self.message("Could not resume", problem))
        if self.config.problems:  # bad values replaced by defaults (device/config.py, lenient)
            for problem in self.config.problems:
                print(f"tablekeeper: {problem}", file=sys.stderr)
            self.screens.append(
                self.message("Check the config file", "\n".join(self.config.problems), "info")
            )
        self.top.on_show()
        self.save()

    def message(self, heading: str, body: str, tone: str = "bad") -> Screen:
        """A framed message screen (OK or BACK closes it), to push or show at start-up."""
        cls = SCREENS.get(MESSAGE_KIND)
        if cls is None:
            raise RuntimeError("the message screen is not registered")
        return cls(self, heading, body, tone)  # type: ignore[call-arg]

    def _make_home(self) -> Screen:
        home = SCREENS.get(HOME_KIND)
        if home is None:
            raise RuntimeError("the home screen is not registered")
        return home(self)

    def _restore_stack(self) -> list[str]:
        problems: list[str] = []
        for entry in self.store.load_stack():
            kind = entry["kind"]
            cls = SCREENS.get(kind)
            if cls is None:
                problems.append(f"The saved screen '{kind}' is not part of this version.")
                break
            try:
                screen = cls.restore(self, entry["snapshot"])
                screen.purpose = str(entry["snapshot"].get("purpose", screen.purpose))
                self.screens.append(screen)
            except Exception as error:
                if self.strict:
                    raise
                traceback.print_exc(file=sys.stderr)
                problems.append(f"The saved screen '{kind}' could not be restored ({error}).")
                break
        if self.screens and self.screens[0].kind != HOME_KIND:
            self.screens.insert(0, self._make_home())
        return problems

    # -- the stack ----------------------------------------------------------------------------
    @property
    def top(self) -> Screen:
        return self.screens[-1]

    def push(self, screen: Screen, purpose: str | None = None) -> None:
        """Show ``screen`` on top; ``purpose`` says why, and comes back with its answer
        (:meth:`dismiss`)."""
        if purpose is not None:
            screen.purpose = purpose
        if self.screens:
            self.top.on_hide()
        self._toasts.clear()  # a toast belongs to the screen it was shown on
        self.screens.append(screen)
        screen.on_show()

    def dismiss(self, screen: Screen, result: Any = None) -> None:
        """Close ``screen`` (the top one) and give ``(its purpose, result)`` to the screen
        below: the one way a screen answers the screen that pushed it."""
        if not self.screens or screen is not self.top:
            raise RuntimeError(f"only the top screen can be dismissed, not {screen.kind!r}")
        if self.pop() is not None:
            self.top.on_result(screen.purpose, result)

    def pop(self) -> Screen | None:
        """Remove the top screen (the home screen at the bottom always stays)."""
        if len(self.screens) <= 1:
            return None
        screen = self.screens.pop()
        screen.on_hide()
        self.top.on_show()
        return screen

    def replace(self, screen: Screen) -> None:
        """Swap the top screen for ``screen`` (the home screen itself is never replaced)."""
        if len(self.screens) <= 1:
            self.push(screen)
            return
        old = self.screens.pop()
        old.on_hide()
        self.screens.append(screen)
        screen.on_show()

    def go_home(self) -> None:
        if len(self.screens) <= 1:
            return
        self.top.on_hide()
        del self.screens[1:]
        self.top.on_show()

    def find(self, kind: str) -> Screen | None:
        """The topmost screen of ``kind`` on the stack, if any."""
        for screen in reversed(self.screens):
            if screen.kind == kind:
                return screen
        return None

    # -- persistence --------------------------------------------------------------------------
    def stack_snapshot(self) -> list[dict[str, Any]]:
        """[{"kind", "snapshot"}] bottom first; a pushed screen's purpose is kept in its
        snapshot (the key ``purpose``)."""
        stack = []
        for screen in self.screens:
            snapshot = screen.snapshot()
            if screen.purpose:
                snapshot = {**snapshot, "purpose": screen.purpose}
            stack.append({"kind": screen.kind, "snapshot": snapshot})
        return stack

    def save(self) -> int | None:
        """Write the screen stack (and pending store writes) in one transaction; returns the
        store's commit number (None when the disk refused it).

        A screen whose snapshot fails (a bug, or data that is not JSON) does not stop the
        appliance: the previous stack stays saved, and the problem is logged (raised in strict
        mode). A failing disk (full, read-only SD card) is shown as a toast (under write-behind
        one frame later, see :meth:`update`).
        """
        try:
            self.store.save_stack(self.stack_snapshot())
        except (TypeError, ValueError, AttributeError, KeyError) as error:
            if self.strict:
                raise
            traceback.print_exc(file=sys.stderr)
            self.toast(f"Could not save this screen ({type(error).__name__}); the rest is kept.")
        try:
            return self.store.commit()
        except sqlite3.Error as error:
            if self.strict:
                raise
            traceback.print_exc(file=sys.stderr)
            self._could_not_save(str(error))
        return None

    def _could_not_save(self, error: str) -> None:
        self.toast(f"Could not save to {self.store.path}: {error}")

    def _handle_and_save(
        self, work: Callable[[], None], changed: Callable[[], bool] = lambda: True
    ) -> None:
        """Run a screen's handling of one event and save (if ``changed()``); the beeps it asked
        for sound once the save is on the disk (see the module docstring)."""
        if self._holding_beeps:  # an event inside an event (a legend tap is a press)
            self._guard(work)
            return
        self._holding_beeps = True
        self.hardware.hold_beeps()
        try:
            self._guard(work)
        finally:
            self._holding_beeps = False
            beeps = self.hardware.take_held_beeps()
        commit = self.save() if changed() else self.store.durable
        if beeps and commit is not None:
            self._acknowledgements.append((commit, beeps))
        self._sound_acknowledgements()

    def _sound_acknowledgements(self) -> None:
        durable = self.store.durable
        while self._acknowledgements and self._acknowledgements[0][0] <= durable:
            for tone_hz, seconds in self._acknowledgements.pop(0)[1]:
                self.hardware.beep(tone_hz, seconds)

    def state_dump(self) -> dict[str, Any]:
        """Screens and store contents as JSON-able data (for ``--dump-state``)."""
        dump = self.store.dump()
        return {
            "screens": self.stack_snapshot(),
            "store": dump["data"],
            "schema_version": dump["schema_version"],
            "clock": self.clock.now(),
            "hardware": {
                "led_bar": self.hardware.bar_value,
                "led_bar_levels": self.hardware.bar_levels,
                "seat_leds": self.hardware.seat_leds,
                "status_led": self.hardware.status_value,
                "buzzing": self.hardware.buzzing,
                "tone_hz": self.hardware.tone_hz,
            },
        }

    # -- input --------------------------------------------------------------------------------
    def _guard(self, work: Callable[[], None]) -> None:
        """Run a screen callback; in non-strict mode a crash becomes an on-screen message."""
        try:
            work()
        except Exception as error:
            if self.strict:
                raise
            traceback.print_exc(file=sys.stderr)
            self.push(
                self.message(
                    "Something went wrong",
                    f"{self.top.title or self.top.kind}: {type(error).__name__}: {error}. "
                    "The last saved state is kept.",
                )
            )

    def press(self, action: Action) -> None:
        """A button went down: the top screen handles it, then everything is saved."""
        self._pressed[action] = [self.clock.now(), False]
        screen = self.top
        self._handle_and_save(lambda: screen.handle(action))

    def release(self, action: Action) -> None:
        self._pressed.pop(action, None)

    def pressed_since(self, action: Action) -> float | None:
        """The app-clock time ``action``'s button went down, if it is down now (a screen
        drawing a hold's progress bar)."""
        state = self._pressed.get(action)
        return None if state is None else float(state[0])

    def type_text(self, content: str) -> bool:
        """Give text to the top screen; False if it takes none."""
        screen = self.top
        if not screen.takes_text:
            return False
        self._handle_and_save(lambda: screen.handle_text(content))
        return True

    def tap(self, x: int, y: int) -> None:
        """A quick touch or click at logical canvas coordinates (down and up at once)."""
        action = self._legend_action_at(x, y)
        if action is not None:
            self.press(action)
            self.release(action)
            return
        self._tap_content(x, y)

    def pointer_down(self, pointer: Any, x: int, y: int) -> None:
        """A finger (or the mouse button) went down at logical canvas coordinates: a legend key
        is pressed and stays held until :meth:`pointer_up` (holds work as with a button);
        anywhere else it is a tap. ``pointer`` tells fingers apart."""
        action = self._legend_action_at(x, y)
        if action is None:
            self._tap_content(x, y)
            return
        self.pointer_up(pointer)  # a lost "up" never leaves a key held for ever
        self._held_by_pointer[pointer] = action
        self.press(action)

    def pointer_up(self, pointer: Any) -> None:
        action = self._held_by_pointer.pop(pointer, None)
        if action is not None:
            self.release(action)

    def _legend_action_at(self, x: int, y: int) -> Action | None:
        for area, actions in self._legend_targets:
            if area.collidepoint(x, y) and actions:
                return actions[0]
        return None

    def _tap_content(self, x: int, y: int) -> None:
        screen = self.top
        offset_y = ui.HEADER_H if screen.chrome else 0
        used: list[bool] = []
        self._handle_and_save(
            lambda: used.append(screen.handle_tap(x, y - offset_y)), lambda: bool(used and used[0])
        )

    def handle_input(self, event: InputEvent) -> None:
        action = Action(event.name.upper())
        if event.kind == "press":
            self.press(action)
        else:
            self.release(action)

    def poll_hardware(self) -> None:
        for event in self.hardware.poll():
            self.handle_input(event)

    def handle_pygame_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type in (pygame.KEYDOWN, pygame.KEYUP):
            if event.type == pygame.KEYDOWN and self._typed(event):
                return
            action = self.keymap.get(event.key)
            if action is None:
                return
            name = action.value.lower()
            down = event.type == pygame.KEYDOWN
            if self.simulated:
                # Through the mock pins, so gpiozero's Button/RotaryEncoder code runs.
                try:
                    if down:
                        simulated.press(self.hardware, name)
                    else:
                        simulated.release(self.hardware, name)
                except KeyError:
                    if down:
                        self.toast(f"{action.label} is not wired in the config")
            elif down:
                self.press(action)
            else:
                self.release(action)
        elif event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
            finger = (getattr(event, "touch_id", 0), getattr(event, "finger_id", 0))
            if event.type == pygame.FINGERDOWN:
                self.pointer_down(finger, *self.panel.finger_to_logical(event.x, event.y))
            else:
                self.pointer_up(finger)
        elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and event.button == 1:
            if getattr(event, "touch", False):
                return  # a desktop's copy of a finger, already handled as FINGERDOWN/UP
            if event.type == pygame.MOUSEBUTTONDOWN:
                self.pointer_down("mouse", *self.panel.click_to_logical(event.pos))
            else:
                self.pointer_up("mouse")

    def _typed(self, event: pygame.event.Event) -> bool:
        """On a screen that takes text, printable keys type instead of pressing buttons
        (Enter, Backspace, Escape and the arrows stay buttons)."""
        if not self.top.takes_text:
            return False
        character = getattr(event, "unicode", "")
        if len(character) != 1 or not character.isprintable():
            return False
        self.type_text(character)
        return True

    # -- time ---------------------------------------------------------------------------------
    def update(self) -> None:
        """One tick: hardware events, holds, time-driven outputs, the top screen's update."""
        self._sound_acknowledgements()
        for failure in self.store.take_failures():  # write-behind: a commit that failed
            print(f"tablekeeper: could not save to {self.store.path}: {failure}", file=sys.stderr)
            self._could_not_save(failure)
        self.poll_hardware()
        now = self.clock.now()
        self.hardware.update(now)
        hold_time = self.config.buttons.hold_time
        for action, state in list(self._pressed.items()):
            if not state[1] and now - state[0] >= hold_time:
                state[1] = True
                screen = self.top
                self._handle_and_save(lambda s=screen, a=action: s.handle_hold(a))  # type: ignore[misc]
        screen = self.top
        self._guard(lambda: screen.update(now))
        self._restart_when_told(now)
        self._toasts = [(t, until) for t, until in self._toasts if until > now]
        if self.store.dirty:
            self.save()

    def toast(self, content: str, seconds: float = 3.0) -> None:
        """A short message over the bottom of the screen."""
        self._toasts.append((content, self.clock.now() + seconds))

    # -- camera -------------------------------------------------------------------------------
    def capture(self) -> tuple[np.ndarray | None, str | None]:
        """(image, None) or (None, message). Never raises: a camera problem is a message."""
        try:
            image = self.camera.capture()
        except CameraStalled as error:
            self.last_capture_error = str(error)
            self._camera_stalled(str(error))
            return None, str(error)
        except CameraError as error:
            self.camera_stalls = 0
            self.last_capture_error = str(error)
            return None, str(error)
        except Exception as error:  # driver bugs, unplugged cables: still only a message
            traceback.print_exc(file=sys.stderr)
            self.last_capture_error = f"the camera failed: {error}"
            return None, self.last_capture_error
        if not isinstance(image, np.ndarray) or image.size == 0:  # a backend returning None
            self.last_capture_error = f"{self.camera.name} returned no image"
            return None, self.last_capture_error
        self.last_capture_error = None
        self.camera_stalls = 0
        return image, None

    def _camera_stalled(self, error: str) -> None:
        """Count a stall (may run on the job thread: only plain attributes change here; the
        screen and the note follow in :meth:`update`)."""
        self.camera_stalls += 1
        if self.camera_stalls >= CAMERA_STALLS_BEFORE_RESTART and self.restart_reason is None:
            self._restart_note = (
                f"the camera stalled {self.camera_stalls} times in a row ({error.rstrip('.')}), "
                "so the appliance restarted to free it"
            )
            self.restart_reason = (
                f"The camera stalled {self.camera_stalls} times in a row ({error.rstrip('.')}). "
                "The appliance restarts to free it; saved games are kept."
            )

    def _restart_when_told(self, now: float) -> None:
        """After a restart was asked for: note why (the next start shows it), tell the table
        for a few seconds, then end the loop with EXIT_CAMERA_STALLED (systemd restarts it)."""
        if self.restart_reason is None:
            return
        if self._restart_at is None:
            self._restart_at = now + RESTART_NOTICE_SECONDS
            print(f"tablekeeper: {self.restart_reason}", file=sys.stderr)
            try:
                record_crash(self.store.state_dir, CameraStalled(self._restart_note))
            except OSError as error:  # a read-only state directory: the log still says why
                print(f"tablekeeper: could not note the restart: {error}", file=sys.stderr)
        elif now >= self._restart_at:
            self.exit_code = EXIT_CAMERA_STALLED
            self.running = False

    # -- slow work ----------------------------------------------------------------------------
    def run_job(self, work: Callable[[], Any]) -> Future[Any]:
        """Run slow work (recognising a photo...) off the UI thread, so the screen keeps
        drawing and the systemd watchdog keeps getting pinged.

        Poll ``job.done()`` in :meth:`Screen.update`, then ``job.result()`` (re-raises the
        job's exception). Jobs are not saved: a screen restored while one was running should
        offer to try again. One worker: jobs run one after another.
        """
        if self.jobs_inline:
            future: Future[Any] = Future()
            try:
                future.set_result(work())
            except Exception as error:
                future.set_exception(error)
            return future
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tablekeeper-job")
        return self._executor.submit(work)

    def prepare_in_background(self, work: Callable[[], Any]) -> None:
        """Get something ready that a screen will soon need (a card gallery loaded from disk)
        on a thread of its own, not the worker: a job queued behind it would wait, and SHUTTER's
        job takes the photo first. Whatever asks for the same thing meanwhile must wait for it
        (a lock); a failure is left for that asker to meet and show. Inline in scripted runs
        and tests, as jobs are."""

        def quietly() -> None:
            try:
                work()
            except Exception:  # the screen that needs it says what is wrong, when it asks
                pass

        if self.jobs_inline:
            quietly()
            return
        threading.Thread(target=quietly, name="tablekeeper-prepare", daemon=True).start()

    # -- drawing ------------------------------------------------------------------------------
    def render(self) -> pygame.Surface:
        """Draw the current frame onto :attr:`surface` and return it."""
        surface = self.surface
        surface.fill(ui.BACKGROUND)
        screen = self.top
        width, height = surface.get_size()
        self._legend_targets = []
        if screen.chrome:
            panel_w = SIM_PANEL_W if self.simulated else 0
            ui.header_bar(
                surface, screen.title or screen.kind, pygame.Rect(0, 0, width, ui.HEADER_H), panel_w
            )
            content_rect = pygame.Rect(0, ui.HEADER_H, width, height - ui.HEADER_H - ui.LEGEND_H)
            content = surface.subsurface(content_rect)
            self._guard(lambda: screen.draw(content))
            legend_rect = pygame.Rect(0, height - ui.LEGEND_H, width, ui.LEGEND_H)
            legend: list[Any] = []
            self._guard(lambda: legend.extend(screen.legend()))
            hints = key_hints(self.config) if self.simulated else None
            self._legend_targets = ui.legend_bar(surface, legend, legend_rect, hints)
        else:
            self._guard(lambda: screen.draw(surface))
        if self.simulated:
            chrome.sim_panel(surface, self.hardware, SIM_PANEL_W)
        if self._toasts:
            chrome.toast(surface, self._toasts[-1][0])
        trouble = self.store.saving_trouble()
        if trouble is not None:  # lasting: as long as the card does not take the state
            chrome.banner(surface, trouble)
        if self.restart_reason is not None:  # over every screen: nothing works until restarted
            ui.message_box(surface, "Camera stuck: restarting", self.restart_reason)
        self.frames += 1
        return surface

    def attach_window(self, window: pygame.Surface) -> None:
        """Show frames on ``window`` (opened at ``panel.turned`` size): drawn on directly when it
        shows the canvas as it is, else the canvas is turned onto it by :meth:`present`."""
        self.window = window
        self.panel = Panel(self.size, self.config.screen.rotate, window.get_size())
        if self.panel.direct:
            self.surface = window

    def present(self) -> None:
        """Put the last rendered frame on the window (before ``pygame.display.flip``)."""
        if self.window is not None and self.surface is not self.window:
            self.panel.present(self.surface, self.window)

    def screenshot(self, path: Any) -> None:
        pygame.image.save(self.render(), str(path))

    # -- shutting down ------------------------------------------------------------------------
    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        for screen in reversed(self.screens):
            try:
                screen.on_hide()
            except Exception:
                traceback.print_exc(file=sys.stderr)
        try:
            self.save()
        finally:
            self.hardware.outputs_off()
            self.hardware.close()
            self.camera.close()
            try:
                self.store.close()
            except (StoreError, sqlite3.Error) as error:
                if self.strict:
                    raise
                # One line for the journal: what did not reach the card (bounded wait).
                print(f"tablekeeper: {error}", file=sys.stderr)
