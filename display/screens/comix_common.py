"""What every Co-Mix screen shares: the saved game, the table settings, the phase router and the
drawing of stories and review tokens.

Long-lived state lives in the app store under the ``comix`` namespace:

* ``game``     - :meth:`games.comix.Game.to_dict` (set-up, rounds, done order, ballots, results);
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
from games.comix import Game, Token
from games.comix.game import OVER, REVEAL, REVIEWING, SCRIPTING, STORYTELLING, TITLE

if TYPE_CHECKING:
    from display.app import App
    from display.screen import Screen

NAMESPACE = "comix"
GAME_KEY = "game"
SETTINGS_KEY = "settings"
TIMER_KEY = "timer"  # the sand left when the timer screen was left mid-scripting

DEFAULT_SETTINGS: dict[str, Any] = {"timer_seconds": 90, "storyteller_seconds": 0}
TIMER_CHOICES = (30, 45, 60, 75, 90, 105, 120, 150, 180)
STORYTELLER_CHOICES = (0, 60, 90, 120, 180)  # 0 = no storyteller timer
UNDO_WINDOW = 2.0  # seconds during which a seat button pressed again takes back "done"

# One colour per story board (with its seat number always printed: never colour alone).
STORY_COLOURS = [(255, 200, 40), (90, 180, 255), (255, 120, 200), (120, 220, 120), (255, 140, 60)]
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
        return Game.from_dict(data)
    except (KeyError, TypeError, ValueError) as error:
        app.store.put(NAMESPACE, "unreadable_game", data)
        app.store.delete(NAMESPACE, GAME_KEY)
        app.toast(f"The saved Co-Mix game could not be read ({error}); it was set aside.")
        return None


def save_game(app: App, game: Game) -> None:
    app.store.put(NAMESPACE, GAME_KEY, game.to_dict())


def settings(app: App) -> dict[str, Any]:
    saved = app.store.get(NAMESPACE, SETTINGS_KEY) or {}
    return {**DEFAULT_SETTINGS, **{k: v for k, v in saved.items() if k in DEFAULT_SETTINGS}}


def save_settings(app: App, values: dict[str, Any]) -> None:
    app.store.put(NAMESPACE, SETTINGS_KEY, {**settings(app), **values})


def phase_screen(app: App, game: Game) -> Screen:
    """The screen for the phase the game is in."""
    from display.screens.comix_ballot import BallotScreen
    from display.screens.comix_play import ScriptingScreen, StorytellingScreen, TitleScreen
    from display.screens.comix_reveal import PodiumScreen, RevealScreen

    screens: dict[str, type[Screen]] = {
        TITLE: TitleScreen,
        SCRIPTING: ScriptingScreen,
        STORYTELLING: StorytellingScreen,
        REVIEWING: BallotScreen,
        REVEAL: RevealScreen,
        OVER: PodiumScreen,
    }
    return screens[game.phase](app)


def go_to_phase(app: App, game: Game) -> None:
    """Save the game and show the screen of its current phase in place of the current one."""
    save_game(app, game)
    app.replace(phase_screen(app, game))


def round_title(game: Game) -> str:
    return f"Co-Mix - round {game.round.number} of {game.setup.rounds}"


# -- drawing ----------------------------------------------------------------------------------
def story_colour(index: int) -> tuple[int, int, int]:
    return STORY_COLOURS[index % len(STORY_COLOURS)]


def token_chip(
    surface: pygame.Surface, token: Token, center: tuple[int, int], radius: int = 22
) -> pygame.Rect:
    """A review token: a coloured disc with its letter (the letter carries the meaning)."""
    colour = TOKEN_COLOURS[token]
    pygame.draw.circle(surface, colour, center, radius)
    pygame.draw.circle(surface, ui.TEXT, center, radius, width=2)
    ui.text(surface, TOKEN_LETTERS[token], center, int(radius * 1.5), ui.ACCENT_TEXT, "center")
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
