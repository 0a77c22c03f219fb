"""Commands of the appliance itself: ``run``, ``demo`` and ``bench ui``."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from display.cli import CliError

DEMO_DIR = Path(__file__).resolve().parent.parent / "demos"


def register(commands: Any, benches: Any) -> None:
    run = commands.add_parser(
        "run",
        help="start the appliance (real hardware, or --sim on a PC)",
        description="Start the appliance. With --sim the keyboard stands in for the buttons "
        "and image files or synthetic scenes for the camera. With --script the run is "
        "headless, on a fake clock, and ends at the end of the script.",
    )
    run.add_argument("--sim", action="store_true", help="simulated hardware (mock GPIO pins)")
    run.add_argument("--script", type=Path, metavar="FILE", help="play FILE instead of a window")
    run.add_argument("--screenshots", type=Path, metavar="DIR", help="where `shot NAME` writes")
    run.add_argument("--state-dir", type=Path, metavar="DIR", help="state database folder")
    run.add_argument("--camera-dir", type=Path, metavar="DIR", help="camera images from DIR")
    run.add_argument("--dump-state", type=Path, metavar="FILE", help="write the state as JSON")
    run.add_argument("--config", type=Path, metavar="FILE", help="config file (TOML)")
    run.add_argument("--exit-after-frames", type=int, help=argparse.SUPPRESS)
    run.add_argument("--report-first-frame", action="store_true", help=argparse.SUPPRESS)
    run.set_defaults(func=run_command)

    demo = commands.add_parser(
        "demo",
        help="headless tour of every screen, written as PNGs",
        description="Play every display/demos/*.txt script headless and write the PNGs.",
    )
    demo.add_argument("--out", type=Path, metavar="DIR", help="folder for the PNGs")
    demo.set_defaults(func=demo_command)

    config = commands.add_parser(
        "config",
        help="check the config file, or print the defaults",
        description="Check the config file the appliance would read ($TABLEKEEPER_CONFIG, "
        "else $XDG_CONFIG_HOME/tablekeeper/config.toml) or FILE; exit 2 naming the line of "
        "the first problem. --defaults prints the built-in defaults (a starting point).",
    )
    config.add_argument("file", nargs="?", type=Path, help="the file to check")
    config.add_argument("--defaults", action="store_true", help="print the built-in defaults")
    config.set_defaults(func=config_command)


def run_command(args: argparse.Namespace) -> int:
    # start-up time: the appliance (pygame) loads only for run, demo and config
    from display.launch import LaunchError, RunOptions, run
    from display.script import ScriptError

    if args.script is not None and not args.script.is_file():
        raise CliError(f"no script file at {args.script}")
    try:
        return run(RunOptions.from_args(args))
    except (LaunchError, ScriptError) as error:
        raise CliError(str(error)) from None


def config_command(args: argparse.Namespace) -> int:
    # start-up time: the config reader and pygame's key names load only for this command
    from device.config import DEFAULT_CONFIG_TOML, ConfigError, config_path, load_config
    from display.keys import build_keymap

    if args.defaults:
        print(DEFAULT_CONFIG_TOML, end="")
        return 0
    try:
        config = load_config(args.file)
        build_keymap(config)
    except ConfigError as error:
        raise CliError(str(error)) from None
    if config.source is None:
        print(f"no config file at {config_path()}: the built-in defaults apply")
    else:
        print(f"{config.source}: OK")
    pins = config.pins
    wired = sum(pin is not None for pin in pins.buttons.values())
    screen = config.screen
    size = "the panel's own size" if screen.auto_size else f"{screen.width}x{screen.height}"
    turn = "auto" if screen.auto_rotate else f"{screen.rotate}"
    print(
        f"{config.seat_count} seats, {wired} buttons, "
        f"{'an encoder' if pins.has_encoder else 'no encoder'}, {len(pins.led_bar)} LEDs in the "
        f"bar, screen {size} (rotate {turn}), camera {config.camera.backend}"
    )
    return 0


def demo_scripts() -> list[Path]:
    return sorted(DEMO_DIR.glob("*.txt"))


def demo_preparations(script: Path) -> list[str]:
    """The "# prepare: NAME" lines of a demo script: what the appliance must hold first."""
    lines = script.read_text(encoding="utf-8").splitlines()
    return [line.split(":", 1)[1].strip() for line in lines if line.startswith("# prepare:")]


def demo_command(args: argparse.Namespace) -> int:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    # start-up time: the appliance (pygame) loads only for run, demo and config
    from display.launch import LaunchError, RunOptions, run_script
    from display.script import ScriptError

    out = args.out or Path(tempfile.mkdtemp(prefix="tablekeeper-demo-"))
    out.mkdir(parents=True, exist_ok=True)
    scripts = demo_scripts()
    if not scripts:
        raise CliError(f"no demo scripts in {DEMO_DIR}")
    started = time.monotonic()
    failures = 0
    total = 0
    for script in scripts:
        with tempfile.TemporaryDirectory(prefix="tablekeeper-demo-state-") as state:
            for name in demo_preparations(script):
                # development fixtures, loaded only for the tours that ask for them
                from display.checks.scenes import prepare_demo

                prepare_demo(name, Path(state))
            options = RunOptions(
                simulated=True,
                script=script,
                screenshots=out / script.stem,
                state_dir=Path(state),
            )
            try:
                shots = run_script(options)
            except (LaunchError, ScriptError) as error:
                print(f"demo {script.name} failed: {error}", file=sys.stderr)
                failures += 1
                continue
            except Exception as error:  # one broken tour must not hide the others
                print(
                    f"demo {script.name} crashed: {type(error).__name__}: {error}", file=sys.stderr
                )
                failures += 1
                continue
        total += len(shots)
        print(f"{script.name}: {len(shots)} screenshots")
    print(f"wrote {total} PNGs in {time.monotonic() - started:.1f} s to:")
    print(out)
    return 1 if failures else 0
