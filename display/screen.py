"""The Screen base class and the registry of screen kinds: how to write a screen.

Writing a screen
----------------
Subclass :class:`Screen`, give it a unique ``kind`` and decorate it with
:func:`register_screen`. Put the module under ``display/screens/`` (a game's screens in their
own subpackage, e.g. ``display/screens/comix/``) or, for a screen any game reuses, under
``display/widgets/``: the app imports every module of both packages at start-up, so
registration is automatic::

    from display import ui
    from display.actions import Action
    from display.screen import Screen, register_screen

    @register_screen
    class TimerScreen(Screen):
        kind = "comix.timer"          # unique; namespaced by game
        title = "Co-Mix - sand timer"  # shown in the header bar

        def __init__(self, app, seconds=90.0):
            super().__init__(app)
            self.ends_at = app.clock.now() + seconds

        def handle(self, action):      # SEAT_1..SEAT_5, LEFT, RIGHT, OK, BACK, SHUTTER
            if action is Action.BACK:
                self.app.pop()

        def update(self, now):         # every frame, with the app clock's time
            left = max(0.0, self.ends_at - now)
            self.app.hardware.set_bar(left / 90.0)

        def draw(self, surface):       # the content area only (header/legend are drawn for you)
            ui.text(surface, "42", surface.get_rect().center, ui.HUGE, anchor="center")

        def legend(self):              # every screen says which buttons do what
            return [(Action.OK, "Pause"), (Action.BACK, "Stop")]

        def snapshot(self):            # JSON-able; must be enough for restore()
            return {"ends_at": self.ends_at}

        @classmethod
        def restore(cls, app, data):
            screen = cls(app)
            screen.ends_at = data["ends_at"]
            return screen

The surface given to :meth:`Screen.draw` is the content area between the header bar and the
legend bar: 480 - HEADER_H - LEGEND_H pixels tall, 800 wide on the 7" panel (wider on a 16:9
screen; the app always renders at a logical height of 480 and SDL scales it). Use the helpers in
:mod:`display.ui` (fonts, colours, menus, text wrapping) so every screen looks the same and stays
readable from across the table: nothing smaller than ``ui.SMALL``, and never colour alone.

Asking another screen (one way to get an answer)
------------------------------------------------
Push the screen that asks (a widget from ``display/widgets/``: the keyboard, a pick list...)
with a ``purpose``; when it is done it calls :meth:`Screen.dismiss` with its result, which
closes it and hands ``(purpose, result)`` to :meth:`Screen.on_result` of the screen below::

    def handle(self, action):
        if action is Action.OK:
            self.app.push(KeyboardScreen(self.app, "Name of this table"), purpose="table_name")

    def on_result(self, purpose, result):
        if purpose == "table_name" and result is not None:   # None: cancelled
            self.name = result

The purpose is a plain string and is saved with the stack, so a question survives a power cut:
the widget comes back and still answers the right screen. ``purpose`` is therefore a reserved
key in every snapshot.

Clock: use ``self.app.clock.now()`` / the ``now`` given to :meth:`update` - never ``time``.
Tests and scripts move a fake clock. ``now`` is seconds, monotonic, with an arbitrary origin.
A timer that must survive a power cut should store its remaining time (the app clock restarts
at an unrelated value after a reboot) - e.g. snapshot ``remaining`` and a ``running`` flag.

Hardware: ``self.app.hardware`` has ``set_bar(fraction)``, ``set_status(level)``,
``blink_status(period)``, ``beep(tone_hz, seconds)``, ``silence()``, ``outputs_off()``.
Camera: ``image, error = self.app.capture()`` gives a BGR numpy image or a message to show.
Slow work (recognition): :class:`display.widgets.slow.SlowWork` runs it off the UI thread with a
busy state on screen (through ``self.app.run_job``; inline in scripts and tests). Do this for
anything that can take seconds on a Pi: the loop must keep drawing and pinging the watchdog.
Objects that are costly to rebuild but not saved (a loaded gallery): ``self.app.cache``, keyed by
your game's name (``"remix.enrolment"``).

Listing on the home screen
--------------------------
``display/screens/home.py`` has ``HOME_ENTRIES``: (title, one-line description, screen kind).
The games are already there with the kinds ``comix``, ``mixtape``, ``remix`` and ``enrol``; an
entry whose kind is not registered shows "coming". Registering a screen of that kind makes the
entry live; that screen is pushed with ``cls(app)`` when the entry is chosen.

Persistence
-----------
After every handled event (button, key, tap, typed text) the app saves the whole screen stack -
each screen's ``kind`` and ``snapshot()`` (plus its ``purpose``) - to SQLite, in one transaction
with whatever the screens wrote to ``self.app.store`` (``put(namespace, key, value)``, ``get``,
``items``, ``delete``). On start the app rebuilds the stack bottom-up with ``restore(app,
snapshot)``; a screen that cannot be restored (unknown kind, exception) is dropped together with
the screens above it and the player is told. Keep long-lived game state (scores, ballots) in the
store under your game's namespace, and screen-local state (cursor, page) in the snapshot. A
screen renamed or merged into another keeps its old kind in ``legacy_kinds`` so saved stacks
still restore.

Scripts and tests
-----------------
``tablekeeper run --sim --script FILE --dump-state out.json`` drives the real screens; the dump
holds ``screens`` (kind + snapshot, bottom first) and ``store`` (every namespace). Typed text
(a USB keyboard, the script's ``type TEXT``) goes to screens that set ``takes_text = True``
through :meth:`Screen.handle_text` - the keyboard widget and search-as-you-type lists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from display.actions import Action

if TYPE_CHECKING:
    import pygame

    from display.app import App

LegendKey = Action | tuple[Action, ...] | str
LegendItem = tuple[LegendKey, str]

#: kind -> screen class, for every registered kind (legacy kinds included)
SCREENS: dict[str, type[Screen]] = {}

S = TypeVar("S", bound="type[Screen]")


def register_screen(cls: S) -> S:
    """Class decorator: make a screen known by its ``kind`` (and its ``legacy_kinds``), for
    restoring saved stacks and for the home list."""
    kind = getattr(cls, "kind", "")
    if not kind:
        raise ValueError(f"{cls.__name__} has no kind")
    for name in (kind, *cls.legacy_kinds):
        existing = SCREENS.get(name)
        if existing is not None and existing.__qualname__ != cls.__qualname__:
            raise ValueError(
                f"screen kind {name!r} is used by {existing.__name__} and {cls.__name__}"
            )
        SCREENS[name] = cls
    return cls


def screen_class(kind: str) -> type[Screen] | None:
    return SCREENS.get(kind)


class Screen:
    """One page of the appliance. See the module docstring."""

    kind: ClassVar[str] = ""
    #: Kinds this screen had in earlier versions: saved stacks holding them still restore.
    legacy_kinds: ClassVar[tuple[str, ...]] = ()
    #: Header bar text (class or instance attribute).
    title: str = ""
    #: False = the screen draws the whole 480-high canvas itself (no header/legend bars).
    chrome: ClassVar[bool] = True
    #: True if :meth:`handle_text` accepts text (the script's ``type TEXT``, a USB keyboard).
    takes_text: ClassVar[bool] = False
    #: Why the screen below pushed this one; handed back with :meth:`dismiss`'s result.
    purpose: str = ""

    def __init__(self, app: App) -> None:
        self.app = app

    # -- input --------------------------------------------------------------------------------
    def handle(self, action: Action) -> None:
        """A button was pressed (fires on press)."""

    def handle_hold(self, action: Action) -> None:
        """A button has been held for ``buttons.hold_time`` (after its :meth:`handle`).

        The default: holding BACK goes back to the home screen from anywhere.
        """
        if action is Action.BACK:
            self.app.go_home()

    def handle_text(self, text: str) -> None:
        """Text typed by the player (only if ``takes_text``)."""

    def handle_tap(self, x: int, y: int) -> bool:
        """A touch/click inside the content area (content coordinates). True if used."""
        return False

    # -- answers ------------------------------------------------------------------------------
    def dismiss(self, result: Any = None) -> None:
        """Close this screen and hand ``result`` to the screen below (its :meth:`on_result`,
        with this screen's :attr:`purpose`). ``None`` means cancelled, nothing chosen."""
        self.app.dismiss(self, result)

    def on_result(self, purpose: str, result: Any) -> None:
        """A screen this one pushed (with ``purpose``) was dismissed with ``result``."""

    # -- time and drawing ---------------------------------------------------------------------
    def update(self, now: float) -> None:
        """Called every frame with the app clock's time."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the content area (already cleared to the background colour)."""

    def legend(self) -> list[LegendItem]:
        """Which buttons do what here: [(Action.OK, "Start"), ((Action.LEFT, Action.RIGHT),
        "Choose"), ...]. Shown in the legend bar; tapping an item presses that button."""
        return [(Action.BACK, "Back")]

    # -- life cycle ---------------------------------------------------------------------------
    def on_show(self) -> None:
        """The screen became the top of the stack (pushed, revealed by a pop, or restored)."""

    def on_hide(self) -> None:
        """The screen stopped being the top (another pushed over it, or it was popped)."""

    # -- persistence --------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """JSON-able state that :meth:`restore` needs (the key ``purpose`` is the app's)."""
        return {}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        """Rebuild the screen from :meth:`snapshot` data."""
        return cls(app)
