"""``tablekeeper doctor [--json] [--sim]``: what is wrong with this Pi's set-up, one line each,
with the fix; and ``tablekeeper focus``: the one-off focus calibration of a fixed camera.

The checks themselves live in ``device/health.py`` (no pygame there); this module adds the one
that needs pygame - can SDL open the video driver - and formats the verdicts. Exit 0 when every
check passes (skipped ones count as passed), 1 when any fails, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from display.cli import CliError

SERVICE_CONFIG = Path("/etc/tablekeeper/config.toml")
SERVICE_STATE = Path("/var/lib/tablekeeper")
SERVICE_DRIVER = "kmsdrm"  # what the unit sets (SDL_VIDEODRIVER=kmsdrm)

# Run in a child process: a broken EGL/DRM stack can crash SDL outright, and the doctor must
# still report. Prints "driver sizes seconds".
SDL_PROBE = """
import os, time
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
started = time.monotonic()
import pygame
pygame.display.init()
driver = pygame.display.get_driver()
sizes = " ".join(f"{w}x{h}" for w, h in pygame.display.get_desktop_sizes()) or "-"
pygame.display.set_mode((64, 64))
pygame.display.quit()
print(driver, sizes, f"{time.monotonic() - started:.2f}")
"""


def register(commands: Any, benches: Any) -> None:
    doctor = commands.add_parser(
        "doctor",
        help="check this Pi's set-up: groups, screen, camera, pins, state, versions, service",
        description="Check what the appliance needs, one line each with the fix: user and "
        "groups, /dev/dri, the EGL/GBM libraries and Mesa's driver, who holds the screen (DRM "
        "master), SDL's video driver, the camera (one "
        "photo), every configured GPIO pin, the state directory, library versions and the "
        "systemd unit. Stop the service first (`sudo systemctl stop tablekeeper`): it holds "
        "the camera and the pins. Exit 0 when all pass, 1 when any fails.",
    )
    doctor.add_argument("--json", action="store_true", help='print {"checks": [...]} as JSON')
    doctor.add_argument(
        "--sim", action="store_true", help="on a PC: check what applies to simulated mode"
    )
    doctor.add_argument("--config", type=Path, metavar="FILE", help="config file (TOML)")
    doctor.add_argument("--state-dir", type=Path, metavar="DIR", help="state database folder")
    doctor.set_defaults(func=doctor_command)

    focus = commands.add_parser(
        "focus",
        help="find the camera's sharpest lens position once (Camera Module 3)",
        description="With cards on the table under the camera, sweep the lens and report the "
        "sharpest position to put under [camera] as lens_position. Stop the service first.",
    )
    focus.add_argument("--json", action="store_true", help="print the result as JSON")
    focus.add_argument("--config", type=Path, metavar="FILE", help="config file (TOML)")
    focus.set_defaults(func=focus_command)


# -- choosing what to check ------------------------------------------------------------------------
def _config(args: argparse.Namespace) -> tuple[Any, Any]:
    """(config or None, the config check). A missing --config FILE is bad usage (exit 2)."""
    from device.config import ConfigError, load_config  # local: only `doctor` needs device
    from device.health import Check  # local: as above

    path = args.config
    if path is None and not args.sim and not os.environ.get("TABLEKEEPER_CONFIG"):
        path = SERVICE_CONFIG if SERVICE_CONFIG.is_file() else None  # what the unit reads
    if args.config is not None and not args.config.is_file():
        raise CliError(f"no config file at {args.config}")
    try:
        config = load_config(path)
    except ConfigError as error:
        return None, Check("config", False, str(error), "tablekeeper config FILE shows it")
    where = config.source or "built-in defaults (no config file)"
    return config, Check("config", True, f"{where}: valid")


def _state_dir(args: argparse.Namespace) -> Path:
    from display.store import default_state_dir  # local: sqlite3 and the store, doctor only

    if args.state_dir is not None:
        return Path(args.state_dir)
    if not args.sim and not os.environ.get("STATE_DIRECTORY") and SERVICE_STATE.is_dir():
        return SERVICE_STATE  # the unit's StateDirectory=
    return default_state_dir()


def check_sdl(driver: str | None) -> Any:
    """Can SDL open ``driver`` (None: SDL's own choice)? In a child process, 20 s at most."""
    from device.health import Check  # local: only `doctor` needs device

    name = "SDL video"
    env = dict(os.environ)
    if driver:
        env["SDL_VIDEODRIVER"] = driver
    label = driver or "SDL's default driver"
    try:
        done = subprocess.run(
            [sys.executable, "-c", SDL_PROBE],
            env=env,
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Check(name, False, f"{label}: SDL did not answer within 20 s", _sdl_fix(driver))
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines() or [f"exit {done.returncode}"]
        return Check(name, False, f"{label}: {lines[-1]}", _sdl_fix(driver))
    found, sizes, seconds = (done.stdout.split() + ["?", "?", "?"])[:3]
    return Check(name, True, f"{found} opens a window (screens {sizes}) in {seconds} s")


def _sdl_fix(driver: str | None) -> str:
    if driver == "kmsdrm":
        return (
            "stop the service and any desktop (the panel has one owner: see DRM master above), "
            "fix the /dev/dri and EGL/GBM checks above"
        )
    return "set SDL_VIDEODRIVER to a driver this machine has (x11, wayland, kmsdrm, dummy)"


def run_checks(args: argparse.Namespace) -> list[Any]:
    """Every check in order; those that do not apply are skipped with the reason."""
    from device import health  # local: numpy and gpiozero, only for `doctor`
    from device.pins import simulated_pin_factory  # local: as above

    sim = "--sim: "
    config, config_check = _config(args)
    checks = [config_check]
    user = health.service_user()
    if args.sim:
        why = "the simulated app draws in a window, not through KMSDRM"
        checks.append(health.skipped("user and groups", sim + "the service user matters on a Pi"))
        checks.append(health.skipped("/dev/dri", sim + why))
        checks.append(health.skipped("EGL/GBM libraries", sim + why))
        checks.append(health.skipped("DRM master", sim + why))
        checks.append(health.skipped("panel rotation", sim + why))
    else:
        checks.append(health.timed("user and groups", lambda: health.check_user_groups(user)))
        checks.append(health.timed("/dev/dri", lambda: health.check_dri(user)))
        checks.append(health.timed("EGL/GBM libraries", health.check_gl_libraries))
        checks.append(health.timed("DRM master", health.check_drm_master))
        checks.append(health.timed("panel rotation", health.check_panel_rotation))
    driver = os.environ.get("SDL_VIDEODRIVER") or (None if args.sim else SERVICE_DRIVER)
    checks.append(health.timed("SDL video", lambda: check_sdl(driver)))
    if config is None:
        for name in ("camera", "GPIO pins"):
            checks.append(health.skipped(name, "the config could not be read (see above)"))
    else:
        checks += _hardware_checks(args, config, health, simulated_pin_factory)
    state = _state_dir(args)
    checks.append(
        health.timed("state directory", lambda: health.check_state_dir(state, volatile_ok=args.sim))
    )
    need_picamera2 = config is not None and config.camera.backend == "picamera2"
    checks.append(
        health.timed("library versions", lambda: health.check_library_versions(need_picamera2))
    )
    if args.sim:
        checks.append(health.skipped("systemd unit", sim + "the service runs on a Pi"))
    else:
        checks.append(health.timed("systemd unit", lambda: health.check_service(state)))
    return checks


def _hardware_checks(
    args: argparse.Namespace, config: Any, health: Any, mock_factory: Any
) -> list[Any]:
    checks = []
    if args.sim and config.camera.backend != "folder":
        checks.append(
            health.skipped("camera", "--sim: photos are generated scenes or --camera-dir images")
        )
    else:
        checks.append(health.timed("camera", lambda: health.check_camera(config.camera)))
    if args.sim:
        factory = mock_factory()
        try:
            checks.append(health.timed("GPIO pins", lambda: health.check_pins(config, factory)))
        finally:
            factory.reset()
    else:
        try:
            running = health.unit_status().active in ("active", "activating")
        except (OSError, ValueError, subprocess.SubprocessError):
            running = False
        checks.append(health.timed("GPIO pins", lambda: health.check_pins(config, None, running)))
    return checks


# -- the commands ----------------------------------------------------------------------------------
def doctor_command(args: argparse.Namespace) -> int:
    started = time.monotonic()
    checks = run_checks(args)
    failed = [check for check in checks if check.status == "fail"]
    if args.json:
        report = {
            "checks": [check.to_json() for check in checks],
            "ok": not failed,
            "simulated": bool(args.sim),
            "seconds": round(time.monotonic() - started, 3),
        }
        print(json.dumps(report, indent=2))
    else:
        print_report(checks, time.monotonic() - started)
    return 1 if failed else 0


def print_report(checks: list[Any], seconds: float) -> None:
    width = max(len(check.name) for check in checks)
    for check in checks:
        print(f"{check.status.upper():4}  {check.name:<{width}}  {check.detail}")
        if check.status == "fail" and check.fix:
            print(f"{'':4}  {'':<{width}}  fix: {check.fix}")
    failed = sum(check.status == "fail" for check in checks)
    skipped = sum(check.status == "skip" for check in checks)
    verdict = f"{failed} of {len(checks)} checks failed" if failed else "all checks passed"
    print(f"{verdict}, {skipped} skipped ({seconds:.1f} s)")


def focus_command(args: argparse.Namespace) -> int:
    from device.config import ConfigError, load_config  # local: only `focus` needs device
    from device.focus import calibrate_focus  # local: as above
    from device.frames import CameraError  # local: as above
    from device.picamera import Picamera2Camera  # local: as above

    path = args.config
    if path is None and not os.environ.get("TABLEKEEPER_CONFIG") and SERVICE_CONFIG.is_file():
        path = SERVICE_CONFIG
    try:
        camera_config = load_config(path).camera
    except ConfigError as error:
        raise CliError(str(error)) from None
    if camera_config.backend not in ("auto", "picamera2"):
        raise CliError(f"camera.backend is {camera_config.backend}: focus needs the Pi camera")
    camera = Picamera2Camera(
        camera_config.width, camera_config.height, timeout=camera_config.timeout
    )
    try:
        report = calibrate_focus(camera)
    except CameraError as error:
        print(f"tablekeeper focus: {error}", file=sys.stderr)
        return 1
    finally:
        camera.close()
    if args.json:
        print(
            json.dumps(
                {
                    "lens_position": round(report.best, 2),
                    "distance_cm": report.distance_cm and round(report.distance_cm, 1),
                    "config_line": report.config_line,
                    "samples": [[position, value] for position, value in report.samples],
                    "seconds": round(report.seconds, 2),
                },
                indent=2,
            )
        )
    else:
        print(report.sentence())
    return 0
