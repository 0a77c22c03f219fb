"""What every Co-Mix screen shares: the saved game, the table settings, the phase router, the
phase screens' base class and the drawing of stories, tokens and clocks.

The Co-Mix screens, one module per part of a round: ``menu`` (continue / new game), ``setup``
(players, names, rounds, timers), ``title``, ``timer`` (the sand timer while scripting),
``storytelling``, ``ballot`` (the private review ballot box) and ``reveal`` (reveal and podium).
Flow: home -> ``comix`` (menu) -> ``comix.setup`` -> the phase screens, each replacing the
previous one (:func:`go_to_phase`); BACK from any phase screen returns to the ``comix`` menu
with the game saved, and "Continue" picks it up where it was.

Long-lived state lives in the app store under the ``comix`` namespace:

* ``game``     - :meth:`games.comix.Game.to_json` (set-up, rounds, done order, ballots, results);
  written after every event, so the table can pull the plug at any moment;
* ``settings`` - the sand timer and storyteller timer durations the table chose;
* ``timer``    - the sand left when the timer screen was left during scripting (it pauses).

Screens keep only their cursor and page in their snapshots. A ballot being filled in is *not*
saved anywhere until it is confirmed: after a power cut the reviewer starts their ballot again
rather than having it shown to whoever is looking at the screen when it comes back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.screen import Screen, screen_class
from games.comix import Game, Token
from games.comix.game import OVER, REVEAL, REVIEWING, SCRIPTING, STORYTELLING, TITLE

if TYPE_CHECKING:
    from display.app import App

NAMESPACE = "comix"
GAME_KEY = "game"
SETTINGS_KEY = "settings"
TIMER_KEY = "timer"  # the sand left when the timer screen was left mid-scripting
LAST_GAME_KEY = "last_game"  # the finished game a rematch replaced

DEFAULT_SETTINGS: dict[str, Any] = {"timer_seconds": 90, "storyteller_seconds": 0}
TIMER_CHOICES = (30, 45, 60, 75, 90, 105, 120, 150, 180)
STORYTELLER_CHOICES = (0, 60, 90, 120, 180)  # 0 = no storyteller timer
UNDO_WINDOW = 2.0  # seconds during which a seat button pressed again takes back "done"
TICK_HZ = 1320.0  # the buzzer's warning tick in the last seconds of a timer
TICK_SECONDS = 0.25
TIME_UP_HZ = 440.0

# One colour per story board (with its seat number always printed: never colour alone). None is
# the selection yellow (ui.ACCENT) or near a token's colour: tests/test_comix_screens.py checks.
STORY_COLOURS = [(0, 200, 190), (160, 220, 60), (255, 120, 170), (235, 235, 235), (170, 120, 70)]
TOKEN_COLOURS = {
    Token.ORIGINAL: (190, 120, 255),
    Token.EXCITING: (255, 95, 80),
    Token.COMPOSED: (70, 170, 255),
    Token.NEUTRAL: (150, 150, 150),
}
TOKEN_LETTERS = {Token.ORIGINAL: "O", Token.EXCITING: "E", Token.COMPOSED: "C", Token.NEUTRAL: "N"}


# -- state ------------------------------------------------------------------------------------
def load_game(app: App) -> Game | None:
    """The saved game, or None (none yet, or unreadable - then it is kept aside, not lost)."""
    data = app.store.get(NAMESPACE, GAME_KEY)
    if data is None:
        return None
    try:
        return Game.from_json(data)
    except (KeyError, TypeError, ValueError) as error:
        app.store.put(NAMESPACE, "unreadable_game", data)
        app.store.delete(NAMESPACE, GAME_KEY)
        app.toast(f"The saved Co-Mix game could not be read ({error}); it was set aside.")
        return None


def save_game(app: App, game: Game) -> None:
    app.store.put(NAMESPACE, GAME_KEY, game.to_json())


def load_last_game(app: App) -> Game | None:
    """The finished game a rematch replaced (None if there is none, or it cannot be read)."""
    data = app.store.get(NAMESPACE, LAST_GAME_KEY)
    try:
        return Game.from_json(data) if data is not None else None
    except (KeyError, TypeError, ValueError):
        return None


def rematch(app: App, finished: Game) -> Game:
    """A new game for the same table (players, names, teams, rounds, board; the timers are the
    table's settings already); the finished game is kept as ``last_game``."""
    app.store.put(NAMESPACE, LAST_GAME_KEY, finished.to_json())
    game = finished.rematch(seed=int(app.clock.now() * 1000) % (2**31))
    save_game(app, game)
    app.store.delete(NAMESPACE, TIMER_KEY)
    return game


def settings(app: App) -> dict[str, Any]:
    saved = app.store.get(NAMESPACE, SETTINGS_KEY) or {}
    return {**DEFAULT_SETTINGS, **{k: v for k, v in saved.items() if k in DEFAULT_SETTINGS}}


def save_settings(app: App, values: dict[str, Any]) -> None:
    app.store.put(NAMESPACE, SETTINGS_KEY, {**settings(app), **values})


#: The screen of each phase, by kind: the phase screens are found in the registry, so this
#: module (which they all import) imports none of them.
PHASE_KINDS = {
    TITLE: "comix.title",
    SCRIPTING: "comix.scripting",
    STORYTELLING: "comix.storytelling",
    REVIEWING: "comix.ballot",
    REVEAL: "comix.reveal",
    OVER: "comix.podium",
}


def phase_screen(app: App, game: Game) -> Screen:
    """The screen for the phase the game is in."""
    kind = PHASE_KINDS[game.phase]
    cls = screen_class(kind)
    if cls is None or not issubclass(cls, GameScreen):
        raise RuntimeError(f"the Co-Mix screen {kind!r} is not registered")
    return cls(app, game)


def go_to_phase(app: App, game: Game) -> None:
    """Save the game and show the screen of its current phase in place of the current one."""
    save_game(app, game)
    app.replace(phase_screen(app, game))


def round_title(game: Game) -> str:
    return f"Co-Mix - round {game.round.number} of {game.setup.rounds}"


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


# -- drawing ----------------------------------------------------------------------------------
def story_colour(index: int) -> tuple[int, int, int]:
    return STORY_COLOURS[index % len(STORY_COLOURS)]


def dimmed(colour: tuple[int, int, int], amount: float = 0.7) -> tuple[int, int, int]:
    """``colour`` faded ``amount`` of the way into the background (a discarded token)."""
    return tuple(  # type: ignore[return-value]
        round(c + (b - c) * amount) for c, b in zip(colour, ui.BACKGROUND, strict=True)
    )


def token_chip(
    surface: pygame.Surface,
    token: Token,
    center: tuple[int, int],
    radius: int = 22,
    dim: bool = False,
) -> pygame.Rect:
    """A review token: a coloured disc with its letter (the letter carries the meaning);
    ``dim``: faded, a discarded token."""
    colour = TOKEN_COLOURS[token]
    rim = ui.TEXT
    letter = ui.ACCENT_TEXT
    if dim:
        colour, rim, letter = dimmed(colour), dimmed(ui.TEXT), dimmed(ui.DIM, 0.4)
    pygame.draw.circle(surface, colour, center, radius)
    pygame.draw.circle(surface, rim, center, radius, width=2)
    size = int(radius * 1.5) if radius < 26 else max(ui.SMALL, int(radius * 1.5))
    ui.text(surface, TOKEN_LETTERS[token], center, size, letter, "center")
    return pygame.Rect(center[0] - radius, center[1] - radius, 2 * radius, 2 * radius)


def seat_badge(
    surface: pygame.Surface, seat: int, pos: tuple[int, int], colour: tuple[int, int, int]
) -> pygame.Rect:
    """A "SEAT n" key cap in the story's colour (midleft at ``pos``)."""
    label = f"SEAT {seat}"
    face = ui.font(ui.SMALL)
    image = face.render(label, True, ui.ACCENT_TEXT)
    cap = image.get_rect().inflate(14, 8)
    cap.midleft = pos
    pygame.draw.rect(surface, colour, cap, border_radius=6)
    surface.blit(image, image.get_rect(center=cap.center))
    return cap


def names_line(members: tuple[str, ...]) -> str:
    return " & ".join(members)


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def clock_text(seconds: float) -> str:
    whole = int(seconds + 0.999)  # 89.2 s left shows 1:30 -> 0:01 until it is really 0
    return f"{whole // 60}:{whole % 60:02d}"
