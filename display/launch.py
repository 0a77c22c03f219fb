"""Putting the appliance together: config -> hardware, camera, store -> App, then a loop.

``tablekeeper run`` (interactive, a window or the Pi's panel), scripted runs (headless, fake
clock) and ``tablekeeper demo`` all come through :func:`build_app`. Problems a person can fix
(bad config, newer state file, no display, GPIO missing) become :class:`LaunchError` with one
clear sentence; the CLI prints it and exits 2.
"""

from __future__ import annotations

import argparse
import ctypes.util
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType
from typing import Protocol

import pygame

from device.bootrotation import boot_rotations, rotation_warning
from device.camera import Camera, FolderCamera, NoCamera, ScriptedCamera, camera_from_config
from device.config import Config, ConfigError, config_path, load_config
from device.hardware import Hardware, HardwareError
from device.health import GL_LIBRARIES, MESA_DRIVER_PACKAGE, find_mesa_driver, library_dirs
from device.service import record_crash
from display import ui
from display.app import App, logical_size
from display.clock import Clock, FakeClock, MonotonicClock
from display.notify import Notifier
from display.panel import PORTRAIT_TURN, Panel, fit_screen_to_panel, scale_quality
from display.script import ScriptObserver, ScriptRunner, load_script
from display.sim_camera import photo_damage, synthetic_camera
from display.store import Store, StoreError, default_state_dir


class LaunchError(Exception):
    """Something the person running the appliance must fix; one sentence."""


class ConfigLaunchError(LaunchError):
    """The config file cannot be used at all (not TOML, a [pins] mistake): on the real panel it
    is shown there until the file changes (:func:`show_until_config_changes`)."""


class StateUnavailableError(LaunchError):
    """The saved state cannot be opened (a full, locked or read-only card...): the command
    line refuses with one line; the appliance shows it and tries again (:func:`open_store`)."""


#: seconds between two tries to open the saved state while the appliance shows why it cannot
STORE_RETRY_SECONDS = 5.0


class RunObserver(ScriptObserver, Protocol):
    """A development harness watching a scripted run: every committed transaction of the store
    (from the first, at start-up) and the script's steps and updates."""

    def committed(self, store: Store) -> None:
        """A transaction was committed (durable) in ``store``."""


@dataclass
class RunOptions:
    simulated: bool = True
    script: Path | None = None
    screenshots: Path | None = None
    state_dir: Path | None = None
    camera_dir: Path | None = None
    dump_state: Path | None = None
    config: Path | None = None
    exit_after_frames: int | None = None  # for `bench ui`: stop after N frames
    report_first_frame: bool = False  # for `bench ui`: print the wall time of the first frame
    #: the store's writer thread (display/store.py); None: on, except in strict (scripted) runs
    write_behind: bool | None = None
    fsync_delay: float = 0.0  # for `bench ui --fsync-ms`: a slow SD card, simulated
    #: The panel's own pixels as SDL reports them at start (its desktop mode); completes the
    #: "auto" parts of [screen] (display/panel.py). None: a window, a scripted run.
    panel_size: tuple[int, int] | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RunOptions:
        """The options ``tablekeeper run`` was given (parsed by its command line)."""
        return cls(
            simulated=args.sim,
            script=args.script,
            screenshots=args.screenshots,
            state_dir=args.state_dir,
            camera_dir=args.camera_dir,
            dump_state=args.dump_state,
            config=args.config,
            exit_after_frames=args.exit_after_frames,
            report_first_frame=args.report_first_frame,
        )


def make_camera(config: Config, options: RunOptions) -> Camera:
    if options.camera_dir is not None:
        if not options.camera_dir.is_dir():
            raise LaunchError(f"--camera-dir {options.camera_dir} is not a folder")
        return FolderCamera(options.camera_dir, damage=photo_damage)
    if options.simulated:
        if config.camera.backend == "folder" and config.camera.folder:
            return FolderCamera(Path(config.camera.folder).expanduser(), damage=photo_damage)
        if config.camera.backend == "none":
            return NoCamera()
        return synthetic_camera()
    return camera_from_config(config.camera, damage=photo_damage)


def open_store(
    options: RunOptions,
    write_behind: bool,
    wait: Callable[[str], bool] | None = None,
) -> Store:
    """The state store. Without ``wait`` a store that cannot be opened is a
    :class:`StateUnavailableError`. With it (the appliance) the reason goes to ``wait`` and the
    store is tried again, for as long as ``wait`` returns True (it shows the reason and waits
    before the next try): a game in progress is never replaced by a fresh start."""
    while True:
        try:
            return Store(
                options.state_dir or default_state_dir(),
                write_behind=write_behind,
                fsync_delay=options.fsync_delay,
            )
        except StoreError as error:
            if wait is None or not wait(str(error)):
                raise StateUnavailableError(str(error)) from None


def build_app(
    options: RunOptions,
    clock: Clock | None = None,
    strict: bool = False,
    observer: RunObserver | None = None,
    store: Store | None = None,
) -> App:
    """Everything except the display window. The caller must ``app.close()``. An ``observer``
    sees every commit of the store, from the first one at start-up. ``store``: one already
    opened (the appliance waits for it, :func:`open_store`), else the options' is opened."""
    try:
        # The appliance starts with the defaults for bad values that are safe to replace (shown
        # on the screen at start); scripted runs stay strict.
        config = load_config(options.config, lenient=not strict)
    except ConfigError as error:
        raise ConfigLaunchError(str(error)) from None
    if options.panel_size is not None:
        screen, notes = fit_screen_to_panel(config.screen, options.panel_size)
        config = replace(config, screen=screen)
        for note in notes:
            print(f"tablekeeper: {note}", file=sys.stderr)
    clock = clock if clock is not None else MonotonicClock()
    try:
        hardware = Hardware(config, simulated=options.simulated, now=clock.now)
    except HardwareError as error:
        hint = "" if options.simulated else " (on a PC, use --sim)"
        raise LaunchError(f"{error}{hint}") from None
    camera: Camera = ScriptedCamera(make_camera(config, options), damage=photo_damage)
    if store is None:
        try:
            write_behind = not strict if options.write_behind is None else options.write_behind
            store = open_store(options, write_behind)
        except LaunchError:
            hardware.close()
            raise
    if observer is not None:
        store.observers.append(observer.committed)
    try:
        app = App(
            config=config,
            hardware=hardware,
            camera=camera,
            store=store,
            clock=clock,
            simulated=options.simulated,
            strict=strict,
        )
        app.start()
    except ConfigError as error:
        hardware.close()
        store.close()
        raise ConfigLaunchError(str(error)) from None
    except BaseException:
        hardware.close()
        store.close()
        raise
    return app


def write_dump(app: App, path: Path) -> None:
    """The state as JSON at ``path``, private like the database (it holds sealed ballots):
    created 0600, an existing file made 0600 through the open descriptor, a link refused."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(app.state_dump(), indent=2, sort_keys=True) + "\n"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    except OSError as error:
        raise LaunchError(f"cannot write --dump-state {path}: {error.strerror}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        os.fchmod(fd, 0o600)
        handle.write(text)


def run_script(
    options: RunOptions, clock: FakeClock | None = None, observer: RunObserver | None = None
) -> list[Path]:
    """A headless scripted run on a fake clock; returns the screenshots written."""
    assert options.script is not None
    steps = load_script(options.script)  # ScriptError before anything starts
    clock = clock if clock is not None else FakeClock()
    app = build_app(options, clock=clock, strict=True, observer=observer)
    try:
        camera = app.camera if isinstance(app.camera, ScriptedCamera) else None
        runner = ScriptRunner(
            app, clock, camera, options.screenshots, options.script, observer=observer
        )
        runner.run(steps)
        if options.dump_state is not None:
            write_dump(app, options.dump_state)
    finally:
        app.close()
    return runner.shots


def display_available() -> str | None:
    """None if a window can be opened, else why not (one line)."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return f"SDL_VIDEODRIVER={driver} gives no visible window"
    if driver:
        return None  # the person chose a driver (x11, wayland, kmsdrm...): let SDL try it
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    return "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set)"


def kmsdrm_libraries_missing(
    environ: Mapping[str, str] | None = None,
    find: Callable[[str], str | None] | None = None,
    dirs: Sequence[Path] | None = None,
) -> str | None:
    """None, or why the panel cannot open (one line): SDL's KMSDRM driver loads libEGL,
    libGLESv2, libgbm and libdrm at run time, and they load Mesa's DRI driver (vc4/v3d_dri.so on
    Bookworm, libgallium on Trixie); Raspberry Pi OS Lite may lack them, and without this check
    SDL fails later with a message that names none of them ("EGL not initialized") while the
    service restarts over and over. Only when KMSDRM is what SDL will use: SDL_VIDEODRIVER=kmsdrm,
    or no driver chosen on a machine without a desktop. ``dirs``: where to look for the driver
    (the test's fake library path)."""
    environ = os.environ if environ is None else environ
    find = ctypes.util.find_library if find is None else find
    driver = environ.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver not in ("", "kmsdrm"):
        return None
    if not driver and (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        return None  # SDL takes the desktop's driver
    missing = {library: package for library, package in GL_LIBRARIES.items() if not find(library)}
    dirs = library_dirs(dict(environ)) if dirs is None else dirs
    no_driver = find_mesa_driver(dirs) is None
    if not missing and not no_driver:
        return None
    packages = [*missing.values(), *([MESA_DRIVER_PACKAGE] if no_driver else [])]
    if missing:
        what = f"{', '.join(f'lib{n}' for n in missing)} not found (SDL's KMSDRM driver loads them)"
    else:
        what = "Mesa's DRI driver (vc4/v3d_dri.so, or libgallium) not found (EGL loads it)"
    return (
        f"the screen cannot open without a desktop: {what}; install them: "
        f"sudo apt install {' '.join(packages)}"
    )


def run_interactive(options: RunOptions) -> int:
    """The appliance: a window (simulated) or the full-screen panel (real), until quit/SIGTERM."""
    started = time.time()
    if options.simulated and options.exit_after_frames is None:
        reason = display_available()
        if reason is not None:
            raise LaunchError(f"{reason}; try `tablekeeper demo` for a headless tour")
    missing = kmsdrm_libraries_missing()
    if missing is not None:
        raise LaunchError(missing)
    if not options.simulated:
        warning = rotation_warning(boot_rotations())
        if warning is not None:  # the journal; `tablekeeper doctor` says it too, with the fix
            print(f"tablekeeper: warning: {warning}", file=sys.stderr)
        options = replace(options, panel_size=detect_panel())
    notifier = Notifier()
    store = None
    if options.exit_after_frames is None:  # the appliance: say why, and try again
        store = open_store(
            options,
            write_behind=options.write_behind is not False,
            wait=StateWait(options, notifier),
        )
    try:
        app = build_app(options, store=store)
    except ConfigLaunchError as error:
        if store is not None:
            store.close()
        if options.simulated:
            raise
        return show_until_config_changes(str(error), options.config or config_path())
    except BaseException:
        if store is not None:
            store.close()
        raise
    stop_signals: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop_signals.append(signum)
        app.running = False

    previous = signal.signal(signal.SIGTERM, on_signal)
    try:
        try:
            pygame.display.init()
            headless = os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen")
            # SCALED lets SDL scale the 480-high canvas (turned by [screen] rotate) to the panel
            # and normalise touches over it; a headless driver has nothing to scale to.
            flags = 0 if headless else pygame.SCALED
            if not options.simulated and app.config.screen.fullscreen:
                flags |= pygame.FULLSCREEN
                if options.panel_size is not None:  # before SCALED's renderer is made
                    os.environ.setdefault(
                        "SDL_RENDER_SCALE_QUALITY",
                        scale_quality(app.panel.turned, options.panel_size),
                    )
            window = pygame.display.set_mode(app.panel.turned, flags)
        except pygame.error as error:
            raise LaunchError(f"cannot open the display: {error}") from None
        pygame.display.set_caption("Tablekeeper" + (" (simulated)" if options.simulated else ""))
        pygame.mouse.set_visible(options.simulated)
        app.attach_window(window)
        ticker = pygame.time.Clock()
        fps = app.config.screen.fps
        while app.running:
            for event in pygame.event.get():
                app.handle_pygame_event(event)
            app.update()
            app.render()
            app.present()
            pygame.display.flip()
            if app.frames == 1:
                notifier.ready("showing " + (app.top.title or app.top.kind))
                if options.report_first_frame:
                    print(f"first-frame {time.time() - started:.4f} {time.time():.6f}", flush=True)
            notifier.watchdog(time.monotonic())
            if options.exit_after_frames is not None and app.frames >= options.exit_after_frames:
                break
            ticker.tick(fps)
    finally:
        notifier.stopping()
        notifier.close()
        signal.signal(signal.SIGTERM, previous)
        app.close()
        pygame.display.quit()
    return app.exit_code


def detect_panel() -> tuple[int, int] | None:
    """The panel's own pixels: SDL's desktop mode of the first display (under KMSDRM, the
    panel's native mode: Touch Display 2 says 720x1280). None when SDL reports none."""
    try:
        pygame.display.init()
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        return None
    return (int(sizes[0][0]), int(sizes[0][1])) if sizes else None


def show_until_config_changes(
    message: str, path: Path, poll_seconds: float = 1.0, max_seconds: float | None = None
) -> int:
    """A config file that cannot be used at all, on the panel (not only in the journal): drawn
    full screen until the file changes or SIGTERM; returns 1 (systemd then starts the appliance
    again with the edited file). No GPIO pin is claimed meanwhile: the file's pins may be wrong.
    Keeps the unit's watchdog fed."""
    print(f"tablekeeper: {message}", file=sys.stderr)
    notifier = Notifier()
    stop: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: stop.append(signum))

    def stamp() -> float | None:
        try:
            return path.stat().st_mtime
        except OSError:
            return None

    seen = stamp()
    started = time.monotonic()
    shown = False
    try:
        pygame.display.init()
        pygame.font.init()
        window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        pygame.mouse.set_visible(False)
        # As "auto" would show it (the file's own [screen] cannot be trusted): landscape, 480
        # high, a portrait panel turned.
        width, height = window.get_size()
        rotate = PORTRAIT_TURN if height > width else 0
        canvas = pygame.Surface(logical_size(max(width, height), min(width, height)))
        panel = Panel(canvas.get_size(), rotate, (width, height))
        while not stop and stamp() == seen:
            if max_seconds is not None and time.monotonic() - started > max_seconds:
                break
            pygame.event.pump()
            canvas.fill(ui.BACKGROUND)
            ui.message_box(
                canvas,
                "The config file has a mistake",
                f"{message}\n\nFix it (sudo nano {path}); the appliance starts again by itself "
                "once the file is saved.",
            )
            panel.present(canvas, window)
            pygame.display.flip()
            if not shown:
                shown = notifier.ready("showing the config mistake") or True
            notifier.watchdog(time.monotonic())
            time.sleep(poll_seconds)
    except pygame.error as error:  # no panel either: the journal has the message
        print(f"tablekeeper: cannot show it on the display: {error}", file=sys.stderr)
        raise LaunchError(message) from None
    finally:
        notifier.stopping()
        notifier.close()
        signal.signal(signal.SIGTERM, previous)
        pygame.display.quit()
    return 1


class StateWait:
    """The appliance's wait for its saved state (:func:`open_store`): the reason on the screen,
    lasting, the watchdog fed, another try every :data:`STORE_RETRY_SECONDS`; closing the
    window or SIGTERM gives up (the unit stops cleanly)."""

    def __init__(self, options: RunOptions, notifier: Notifier) -> None:
        self.options = options
        self.notifier = notifier
        self.window: pygame.Surface | None = None
        self.stopped = False

    def __call__(self, reason: str) -> bool:
        if self.window is None:
            self._open_window()
        print(f"tablekeeper: {reason}; trying again in {STORE_RETRY_SECONDS:g} s", flush=True)
        self.notifier.status(f"waiting for the saved state: {reason}")
        previous = signal.signal(signal.SIGTERM, self._on_signal)
        try:
            until = time.monotonic() + STORE_RETRY_SECONDS
            while time.monotonic() < until and not self.stopped:
                for event in pygame.event.get():
                    if event.type == pygame.QUIT:
                        self.stopped = True
                self.draw(reason)
                pygame.display.flip()
                self.notifier.watchdog(time.monotonic())
                time.sleep(0.1)
        finally:
            signal.signal(signal.SIGTERM, previous)
        return not self.stopped

    def _open_window(self) -> None:
        try:
            config = load_config(self.options.config, lenient=True)
        except ConfigError as error:
            raise LaunchError(str(error)) from None
        screen, _ = fit_screen_to_panel(config.screen, self.options.panel_size)
        config = replace(config, screen=screen)
        self.canvas = pygame.Surface(logical_size(*config.screen.drawing_size))
        panel = Panel(self.canvas.get_size(), config.screen.rotate)
        try:
            pygame.display.init()
            headless = os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen")
            flags = 0 if headless else pygame.SCALED
            if not self.options.simulated and config.screen.fullscreen:
                flags |= pygame.FULLSCREEN
            self.window = pygame.display.set_mode(panel.turned, flags)
        except pygame.error as error:
            raise LaunchError(f"cannot open the display: {error}") from None
        self.panel = Panel(self.canvas.get_size(), config.screen.rotate, self.window.get_size())
        if not pygame.font.get_init():
            pygame.font.init()
        self.notifier.ready("waiting for the saved state")

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.stopped = True

    def draw(self, reason: str) -> None:
        """The reason, lasting, in the players' type size."""
        assert self.window is not None
        canvas = self.canvas
        canvas.fill(ui.BACKGROUND)
        width = canvas.get_width()
        line_h = ui.font(ui.SMALL).get_linesize()
        ui.text(canvas, "Cannot open the saved game", (width // 2, 12), ui.SMALL, ui.BAD, "midtop")
        body = f"{reason}. Nothing has been lost; trying again every {STORE_RETRY_SECONDS:g} s."
        y = 12 + line_h * 3 // 2
        for line in ui.wrap(body, ui.SMALL, width - 32):
            ui.text(canvas, line, (16, y), ui.SMALL)
            y += line_h
        self.panel.present(canvas, self.window)


def run(options: RunOptions) -> int:
    if options.script is not None:
        if not options.simulated:
            raise LaunchError("--script needs --sim (scripts press mock pins)")
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        shots = run_script(options)
        if shots:
            print(f"wrote {len(shots)} screenshots to {options.screenshots}")
        return 0
    try:
        return run_interactive(options)
    except (LaunchError, KeyboardInterrupt):
        raise
    except Exception as error:  # noted for the next start to show (device/service.py)
        try:
            record_crash(options.state_dir or default_state_dir(), error)
        except OSError:
            pass
        raise
