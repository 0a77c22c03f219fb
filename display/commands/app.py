"""Commands of the appliance itself: ``run``, ``demo`` and ``bench ui``."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
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

    bench = benches.add_parser(
        "ui",
        help="start-up time to first frame and home-screen frame time",
        description="Median start-up time of `tablekeeper run --sim` to its first frame "
        "(separate processes, SDL dummy driver) and the median frame time of the home screen.",
    )
    bench.add_argument("--starts", type=int, default=5, help="processes to start (default 5)")
    bench.add_argument("--frames", type=int, default=300, help="frames to time (default 300)")
    bench.set_defaults(func=bench_ui_command)


def _options(args: argparse.Namespace) -> Any:
    from display.launch import RunOptions

    return RunOptions(
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


def run_command(args: argparse.Namespace) -> int:
    from display.launch import LaunchError, run
    from display.script import ScriptError

    if args.script is not None and not args.script.is_file():
        raise CliError(f"no script file at {args.script}")
    try:
        return run(_options(args))
    except (LaunchError, ScriptError) as error:
        raise CliError(str(error)) from None


def config_command(args: argparse.Namespace) -> int:
    from device.config import DEFAULT_CONFIG_TOML, ConfigError, config_path, load_config
    from display.app import build_keymap

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
    print(
        f"{config.seat_count} seats, {wired} buttons, "
        f"{'an encoder' if pins.has_encoder else 'no encoder'}, {len(pins.led_bar)} LEDs in the "
        f"bar, screen {config.screen.width}x{config.screen.height}, camera {config.camera.backend}"
    )
    return 0


def demo_scripts() -> list[Path]:
    return sorted(DEMO_DIR.glob("*.txt"))


def demo_command(args: argparse.Namespace) -> int:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
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


def bench_ui_command(args: argparse.Namespace) -> int:
    if args.starts < 1 or args.frames < 10:
        raise CliError("--starts must be at least 1 and --frames at least 10")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    starts: list[float] = []
    with tempfile.TemporaryDirectory(prefix="tablekeeper-bench-") as state:
        for _ in range(args.starts):
            command = [
                sys.executable,
                "-m",
                "display",
                "run",
                "--sim",
                "--state-dir",
                state,
                "--exit-after-frames",
                "1",
                "--report-first-frame",
            ]
            spawned = time.time()
            result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
            if result.returncode != 0:
                raise CliError(f"`tablekeeper run --sim` failed: {result.stderr.strip()[-300:]}")
            line = next(x for x in result.stdout.splitlines() if x.startswith("first-frame"))
            starts.append(float(line.split()[2]) - spawned)
        frame_times = _home_frame_times(Path(state), args.frames, env)
    print(
        f"start-up to first frame (tablekeeper run --sim, {args.starts} runs): "
        f"median {statistics.median(starts) * 1000:.0f} ms "
        f"(min {min(starts) * 1000:.0f}, max {max(starts) * 1000:.0f})"
    )
    ms = [t * 1000 for t in frame_times]
    print(
        f"home screen frame time ({len(ms)} frames: update + draw + flip, 800x480): "
        f"median {statistics.median(ms):.2f} ms, 95th percentile "
        f"{sorted(ms)[int(len(ms) * 0.95) - 1]:.2f} ms"
    )
    return 0


def _home_frame_times(state_dir: Path, frames: int, env: dict[str, str]) -> list[float]:
    os.environ.update({k: env[k] for k in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER")})
    import pygame

    from display.launch import RunOptions, build_app

    app = build_app(RunOptions(simulated=True, state_dir=state_dir / "frames"))
    try:
        app.go_home()
        pygame.display.init()
        app.surface = pygame.display.set_mode(app.size)  # dummy driver: nothing to scale
        times = []
        for _ in range(frames):
            began = time.perf_counter()
            for event in pygame.event.get():
                app.handle_pygame_event(event)
            app.update()
            app.render()
            pygame.display.flip()
            times.append(time.perf_counter() - began)
        return times
    finally:
        app.close()
        pygame.display.quit()
