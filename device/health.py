"""The device's side of ``tablekeeper doctor``: is this Pi set up for the appliance?

Each check returns a :class:`Check` - a one-line verdict and, when it fails, the fix. Nothing
here imports pygame (the display's doctor command adds the SDL check); every probe that touches
the system takes its dependencies as arguments, so the tests can stand in for a Pi.
"""

from __future__ import annotations

import ctypes.util
import errno
import fcntl
import grp
import os
import pwd
import secrets
import shutil
import stat
import subprocess
import sysconfig
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpiozero import Device

from device.bootrotation import ROTATION_FIX, boot_rotations, rotation_warning
from device.camera import Camera, camera_from_config, module_installed
from device.config import CameraConfig, Config
from device.pins import pin_label, pin_trouble
from device.service import read_last_failure

UNIT = "tablekeeper.service"
GROUPS = ("video", "render", "input", "gpio")
SERVICE_USER = "tablekeeper"
#: The libraries SDL's KMSDRM driver loads at run time (the pygame-ce wheel does not bundle them).
GL_LIBRARIES = {"EGL": "libegl1", "GLESv2": "libgles2", "gbm": "libgbm1", "drm": "libdrm2"}
#: The package with Mesa's DRI driver (vc4/v3d_dri.so on Bookworm; on Trixie it depends on the
#: libgallium library the driver lives in). Bookworm's libgbm1 loads the driver at run time but
#: does not depend on it, so Raspberry Pi OS Lite may lack it: "MESA-LOADER: failed to open vc4".
MESA_DRIVER_PACKAGE = "libgl1-mesa-dri"
MIN_FREE_BYTES = 100 * 1024 * 1024
#: File systems whose writes are lost at power-off (an overlayroot upper layer, a RAM disk).
VOLATILE_FILESYSTEMS = ("overlay", "tmpfs", "ramfs")


@dataclass
class Check:
    """One verdict. ``skipped`` says why a check did not run (it then counts as passed)."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    skipped: str = ""
    seconds: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> str:
        return "skip" if self.skipped else ("pass" if self.ok else "fail")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "ok": self.ok,
            "detail": self.detail,
            "status": self.status,
            "fix": self.fix,
            "skipped": bool(self.skipped),
        }
        if self.skipped:
            data["skip_reason"] = self.skipped
        if self.seconds is not None:
            data["seconds"] = round(self.seconds, 3)
        return data | self.extra


def skipped(name: str, why: str) -> Check:
    return Check(name, True, f"skipped: {why}", skipped=why)


def timed(name: str, probe: Callable[[], Check]) -> Check:
    """``probe()`` with its duration; an unexpected exception becomes a failed check."""
    started = time.monotonic()
    try:
        check = probe()
    except Exception as error:  # a doctor must report, not crash
        check = Check(name, False, f"the check itself failed: {type(error).__name__}: {error}")
    check.seconds = time.monotonic() - started
    return check


# -- what systemd says about the unit ------------------------------------------------------------
Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


def run_command(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, timeout=15, check=False)


@dataclass(frozen=True)
class UnitStatus:
    installed: bool
    enabled: str  # UnitFileState: enabled, disabled, masked... ("" unknown)
    active: str  # active, activating, failed, inactive...
    sub_state: str  # running, auto-restart (between two tries), dead...
    result: str  # the last run's Result: success, exit-code, watchdog...
    exit_status: str  # ExecMainStatus of the last run
    restarts: str  # NRestarts since the unit was last started by hand


def unit_status(runner: Runner = run_command, unit: str = UNIT) -> UnitStatus:
    """What ``systemctl show`` says about the unit (OSError when there is no systemctl)."""
    properties = "LoadState,UnitFileState,ActiveState,SubState,Result,ExecMainStatus,NRestarts"
    shown = runner(["systemctl", "show", unit, "--property", properties])
    values = {}
    for line in shown.stdout.splitlines():
        key, _, value = line.partition("=")
        values[key] = value
    return UnitStatus(
        installed=values.get("LoadState") == "loaded",
        enabled=values.get("UnitFileState", ""),
        active=values.get("ActiveState", ""),
        sub_state=values.get("SubState", ""),
        result=values.get("Result", ""),
        exit_status=values.get("ExecMainStatus", ""),
        restarts=values.get("NRestarts", ""),
    )


# -- user, groups, /dev/dri, libraries -------------------------------------------------------------
def service_user() -> str:
    """The user the service runs as if it exists here, else whoever runs the doctor."""
    try:
        pwd.getpwnam(SERVICE_USER)
        return SERVICE_USER
    except KeyError:
        return pwd.getpwuid(os.getuid()).pw_name


def user_groups(user: str) -> set[str]:
    entry = pwd.getpwnam(user)
    names = set()
    for gid in os.getgrouplist(user, entry.pw_gid):
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            continue
    return names


def check_user_groups(user: str, groups: Callable[[str], set[str]] = user_groups) -> Check:
    name = "user and groups"
    try:
        have = groups(user)
    except KeyError:
        return Check(name, False, f"there is no user {user}", "sudo systemd/install.sh")
    missing = [group for group in GROUPS if group not in have]
    if missing:
        return Check(
            name,
            False,
            f"{user} is not in {', '.join(missing)} (screen: video/render, touch: input, "
            "buttons: gpio)",
            f"sudo usermod --append --groups {','.join(GROUPS)} {user}; then restart the service",
        )
    return Check(name, True, f"{user} is in {', '.join(GROUPS)}")


def _can_read_write(path: Path, user: str, groups: set[str]) -> bool:
    info = path.stat()
    entry = pwd.getpwnam(user)
    if entry.pw_uid == 0:
        return True
    if info.st_uid == entry.pw_uid:
        return info.st_mode & stat.S_IRUSR != 0 and info.st_mode & stat.S_IWUSR != 0
    try:
        group = grp.getgrgid(info.st_gid).gr_name
    except KeyError:
        group = ""
    if group in groups:
        return info.st_mode & stat.S_IRGRP != 0 and info.st_mode & stat.S_IWGRP != 0
    return info.st_mode & stat.S_IROTH != 0 and info.st_mode & stat.S_IWOTH != 0


def check_dri(
    user: str, dri: Path = Path("/dev/dri"), groups: Callable[[str], set[str]] = user_groups
) -> Check:
    name = "/dev/dri"
    nodes = sorted(dri.glob("card*")) + sorted(dri.glob("renderD*")) if dri.is_dir() else []
    if not any(node.name.startswith("card") for node in nodes):
        return Check(
            name,
            False,
            f"no display device in {dri} (the KMS driver is not loaded)",
            "keep dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt and reboot",
        )
    have = groups(user)
    refused = [node.name for node in nodes if not _can_read_write(node, user, have)]
    if refused:
        return Check(
            name,
            False,
            f"{user} cannot open {', '.join(refused)} in {dri}",
            f"sudo usermod --append --groups video,render {user}",
        )
    return Check(name, True, f"{user} can open {', '.join(node.name for node in nodes)}")


def library_dirs(environ: dict[str, str] | None = None) -> list[Path]:
    """Where Mesa's driver may be: this machine's multiarch library folder (Debian's
    /usr/lib/aarch64-linux-gnu on a 64-bit Pi OS), the 32-bit one, then the plain ones;
    ``LIBGL_DRIVERS_PATH`` (folders of ``*_dri.so``, as Mesa reads it) first."""
    environ = dict(os.environ) if environ is None else environ
    dirs = [Path(part).parent for part in environ.get("LIBGL_DRIVERS_PATH", "").split(":") if part]
    multiarch = sysconfig.get_config_var("MULTIARCH")
    for name in (multiarch, "aarch64-linux-gnu", "arm-linux-gnueabihf"):
        if name:
            dirs.append(Path("/usr/lib") / name)
    dirs += [Path("/usr/lib64"), Path("/usr/lib"), Path("/usr/local/lib")]
    return list(dict.fromkeys(dirs))


def find_mesa_driver(dirs: Sequence[Path]) -> Path | None:
    """Mesa's DRI driver in one of ``dirs``: a ``dri/*_dri.so`` (Bookworm's Mesa 22: vc4, v3d
    on a Pi) or ``libgallium*.so`` (Mesa 24.2 on, Trixie: the drivers live in it), else None.
    Pi drivers are named before any other."""
    for preferred in ("vc4_dri.so", "v3d_dri.so"):
        for folder in dirs:
            if (folder / "dri" / preferred).exists():
                return folder / "dri" / preferred
    for folder in dirs:
        for pattern in ("libgallium*.so", "dri/*_dri.so"):
            found = sorted(folder.glob(pattern))
            if found:
                return found[0]
    return None


def mesa_driver_missing(dirs: Sequence[Path] | None = None) -> str | None:
    """None, or one sentence naming the package when Mesa's DRI driver is nowhere."""
    dirs = library_dirs() if dirs is None else dirs
    if find_mesa_driver(dirs) is not None:
        return None
    return (
        "Mesa's DRI driver (vc4/v3d_dri.so, or libgallium on Trixie) is not installed, so EGL "
        f"cannot start; install it: sudo apt install {MESA_DRIVER_PACKAGE}"
    )


def check_gl_libraries(
    find: Callable[[str], str | None] = ctypes.util.find_library,
    dirs: Sequence[Path] | None = None,
) -> Check:
    """The libraries SDL's KMSDRM driver loads, and the Mesa driver libEGL/libgbm load in turn
    (present libraries alone do not open the screen on Bookworm Lite)."""
    name = "EGL/GBM libraries"
    missing = [package for library, package in GL_LIBRARIES.items() if not find(library)]
    if missing:
        return Check(
            name,
            False,
            f"SDL's KMSDRM driver cannot find {', '.join(missing)}: the screen will not open",
            f"sudo apt install {' '.join([*missing, MESA_DRIVER_PACKAGE])}",
        )
    dirs = library_dirs() if dirs is None else dirs
    driver = find_mesa_driver(dirs)
    if driver is None:
        return Check(
            name,
            False,
            "EGL/GBM libraries found, but not Mesa's DRI driver (vc4/v3d_dri.so, or libgallium "
            f"on Trixie) in {', '.join(str(d) for d in dirs if d.is_dir()) or 'any library folder'}"
            ": the screen will not open (MESA-LOADER: failed to open vc4)",
            f"sudo apt install {MESA_DRIVER_PACKAGE}",
        )
    found = ", ".join(f"{find(library)}" for library in GL_LIBRARIES)
    return Check(name, True, f"found {found} and the driver {driver}")


# -- who owns the screen --------------------------------------------------------------------------
#: DRM_IOCTL_SET_MASTER / DROP_MASTER: _IO('d', 0x1e) and _IO('d', 0x1f) (drm.h).
DRM_IOCTL_SET_MASTER = 0x641E
DRM_IOCTL_DROP_MASTER = 0x641F


def kms_cards(dri: Path = Path("/dev/dri"), sysfs: Path = Path("/sys/class/drm")) -> list[Path]:
    """The display cards: those with connectors in sysfs (card1-DSI-1, card0-HDMI-A-1...). A Pi 5
    also has a render-only card (v3d) that nobody needs to be master of."""
    cards = sorted(dri.glob("card*")) if dri.is_dir() else []
    with_connectors = [card for card in cards if any(sysfs.glob(f"{card.name}-*"))]
    return with_connectors or cards


def try_drm_master(card: Path) -> int:
    """0 when this process could become DRM master of ``card`` (it is dropped again at once),
    else the errno: EBUSY (someone else is master), EACCES/EPERM (no permission)."""
    try:
        fd = os.open(card, os.O_RDWR | os.O_CLOEXEC)
    except OSError as error:
        return error.errno or errno.EACCES
    try:
        try:
            fcntl.ioctl(fd, DRM_IOCTL_SET_MASTER)
        except OSError as error:
            return error.errno or errno.EBUSY
        try:
            fcntl.ioctl(fd, DRM_IOCTL_DROP_MASTER)
        except OSError:
            pass
        return 0
    finally:
        os.close(fd)


def card_holders(card: Path, proc: Path = Path("/proc")) -> list[str]:
    """Who has ``card`` open: "lightdm (pid 612)"..., from the processes' open files (those this
    user may see; run the doctor with sudo to see everyone's)."""
    target = str(card.resolve())
    holders = []
    for entry in proc.glob("[0-9]*"):
        if entry.name == str(os.getpid()):
            continue
        try:
            links = list((entry / "fd").iterdir())
        except OSError:
            continue
        for link in links:
            try:
                if os.readlink(link) == target:
                    command = (entry / "comm").read_text().strip()
                    holders.append(f"{command} (pid {entry.name})")
                    break
            except OSError:
                continue
    return sorted(set(holders), key=lambda text: int(text.rsplit(" ", 1)[-1].rstrip(")")))


def check_drm_master(
    dri: Path = Path("/dev/dri"),
    sysfs: Path = Path("/sys/class/drm"),
    attempt: Callable[[Path], int] = try_drm_master,
    holders: Callable[[Path], list[str]] = card_holders,
) -> Check:
    """SDL's KMSDRM driver must become DRM master of the display card, and skips a card it
    cannot ("kmsdrm not available"): a desktop's display manager or the boot splash (plymouth)
    holding it keeps the appliance off the screen."""
    name = "DRM master"
    cards = kms_cards(dri, sysfs)
    if not cards:
        return skipped(name, f"no display card in {dri} (see /dev/dri)")
    refused = []
    for card in cards:
        error = attempt(card)
        if error == 0:
            return Check(name, True, f"{card} is free: the appliance can draw on it")
        refused.append((card, error))
    busy = [(card, holders(card)) for card, error in refused if error == errno.EBUSY]
    if busy:
        card, who = busy[0]
        owner = ", ".join(who) if who else "another program (sudo tablekeeper doctor names it)"
        return Check(
            name,
            False,
            f"{card} is held by {owner}: SDL cannot become DRM master ('kmsdrm not available')",
            "boot to the console (sudo systemctl set-default multi-user.target, or raspi-config: "
            "System Options > Boot: Console) and reboot; or stop the desktop while the appliance "
            "runs (sudo systemctl stop display-manager); stop the service before running doctor",
        )
    card, error = refused[0]
    return Check(
        name,
        False,
        f"cannot open {card} to become its DRM master: {os.strerror(error)}",
        "sudo usermod --append --groups video,render tablekeeper; run doctor as the service user",
    )


def check_panel_rotation(found: Sequence[str] | None = None) -> Check:
    """Nothing but Tablekeeper turns the panel or its touches (the boot files'
    ``video=...,rotate=``, ``lcd_rotate=``, touch overlays' ``invx``/``invy``/``swapxy``)."""
    name = "panel rotation"
    found = boot_rotations() if found is None else found
    warning = rotation_warning(found)
    if warning is not None:
        return Check(name, False, warning, ROTATION_FIX)
    return Check(
        name, True, "the kernel and firmware leave the turn to Tablekeeper ([screen] rotate)"
    )


# -- camera and pins ------------------------------------------------------------------------------
def check_camera(
    config: CameraConfig, make: Callable[[CameraConfig], Camera] = camera_from_config
) -> Check:
    """Open the configured camera, take one photo, say how long it took."""
    name = "camera"
    camera = make(config)
    started = time.monotonic()
    try:
        image = camera.capture()
    except Exception as error:  # CameraError, or anything a driver throws
        return Check(
            name,
            False,
            f"{camera.name}: {error}",
            "stop the service first (one program at a time can use a camera); Pi camera: "
            "check the ribbon cable and `rpicam-hello --list-cameras`; USB: `ls /dev/video*`",
        )
    finally:
        camera.close()
    took = time.monotonic() - started
    height, width = image.shape[:2]
    return Check(
        name,
        True,
        f"{camera.name}: one {width}x{height} photo in {took:.2f} s (opening included)",
        extra={"capture_seconds": round(took, 3), "width": width, "height": height},
    )


def check_pins(config: Config, factory: Any = None, service_running: bool = False) -> Check:
    """Every configured pin can be claimed right now (``factory``: gpiozero's default)."""
    name = "GPIO pins"
    if factory is None:
        try:
            with warnings.catch_warnings():  # gpiozero warns about each library it skips
                warnings.simplefilter("ignore")
                Device.ensure_pin_factory()
        except Exception as error:  # no pin library, no GPIO chip
            return Check(
                name, False, f"no GPIO: {error}", "sudo apt install python3-lgpio (a Raspberry Pi)"
            )
        factory = Device.pin_factory
    wired = config.pins.assigned(config.seat_count)
    troubles = [
        f"{key}: {why}" for key, pin in wired if (why := pin_trouble(pin, factory)) is not None
    ]
    if troubles:
        fix = "move those parts to free pins in [pins] (tablekeeper config --defaults lists them)"
        if service_running:
            fix = "the service holds the pins while it runs: sudo systemctl stop tablekeeper"
        return Check(name, False, "; ".join(troubles), fix)
    labels = ", ".join(pin_label(pin) for _, pin in wired[:3])
    return Check(name, True, f"all {len(wired)} configured pins can be claimed ({labels}, ...)")


# -- state, libraries, service --------------------------------------------------------------------
def filesystem_type(path: Path, mountinfo: Path = Path("/proc/self/mountinfo")) -> str:
    """The type of the file system holding ``path`` ("ext4", "overlay"...), "" if unknown."""
    try:
        lines = mountinfo.read_text().splitlines()
    except OSError:
        return ""
    best, kind = "", ""
    target = str(path.resolve())
    for line in lines:
        left, _, right = line.partition(" - ")
        fields = left.split()
        if len(fields) < 5 or not right:
            continue
        mount = fields[4].replace("\\040", " ")
        inside = target == mount or target.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best):
            best, kind = mount, right.split()[0]
    return kind


def check_state_dir(
    path: Path, volatile_ok: bool = False, fs_type: Callable[[Path], str] = filesystem_type
) -> Check:
    """Writable (a file written, synced and removed), room to spare, and on a file system that
    keeps its writes over a power cut (``volatile_ok``: a simulated run on a PC may use /tmp)."""
    name = "state directory"
    try:
        path.mkdir(parents=True, exist_ok=True)
        _write_probe(path)
    except OSError as error:
        return Check(
            name, False, f"cannot write in {path}: {error.strerror or error}", _state_fix(path)
        )
    free = shutil.disk_usage(path).free
    kind = fs_type(path)
    detail = f"{path} is writable ({kind or 'file system unknown'}), {free / 2**20:.0f} MB free"
    if kind in VOLATILE_FILESYSTEMS and not volatile_ok:
        return Check(
            name,
            False,
            f"{path} is on {kind}: games saved there are lost at power-off",
            "put the state on the writable data partition (README, Raspberry Pi: read-only root)",
        )
    if free < MIN_FREE_BYTES:
        return Check(name, False, detail, "free some space: the state database needs room")
    return Check(name, True, detail, extra={"free_bytes": free})


def _write_probe(folder: Path) -> None:
    """Write, sync and remove a fresh file in ``folder``. ``sudo tablekeeper doctor`` runs this
    as root in a folder the service user owns: the name is new and random, and the file is
    created exclusively without following links, so a planted ``.doctor-write-test`` link (or
    any other) can never make root write through it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(10):
        probe = folder / f".doctor-write-test-{secrets.token_hex(8)}"
        try:
            fd = os.open(probe, flags, 0o600)
        except FileExistsError:
            continue  # somebody's file by that name: never touch it, take another name
        try:
            os.write(fd, b"tablekeeper")
            os.fsync(fd)
        finally:
            os.close(fd)
            os.unlink(probe)
        return
    raise FileExistsError(errno.EEXIST, "no fresh name for a write probe", str(folder))


def _state_fix(path: Path) -> str:
    return f"sudo install -d -o {SERVICE_USER} -g {SERVICE_USER} -m 0750 {path}"


def apt_version(package: str, runner: Runner = run_command) -> str:
    """The installed version of an apt package, "" if not installed (or no dpkg)."""
    try:
        done = runner(["dpkg-query", "--show", "--showformat=${Version}", package])
    except (OSError, ValueError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _major(version: str) -> int | None:
    digits = version.split(":")[-1].split(".")[0]  # "1:1.24.2-1" -> 1
    return int(digits) if digits.isdigit() else None


def check_library_versions(
    need_picamera2: bool,
    apt: Callable[[str], str] = apt_version,
    installed: Callable[[str], bool] = module_installed,
    load: Callable[[str], Any] = __import__,
) -> Check:
    """numpy, OpenCV and (where it is installed) apt's picamera2 must agree."""
    name = "library versions"
    numpy = load("numpy")
    found = [f"numpy {numpy.__version__}"]
    try:
        cv2 = load("cv2")
    except Exception as error:  # a wheel built for another numpy fails here
        return Check(name, False, f"OpenCV does not load: {error}", _pins_fix())
    found.append(f"OpenCV {cv2.__version__}")
    apt_numpy = apt("python3-numpy")
    if installed("picamera2"):
        apt_major, venv_major = _major(apt_numpy), _major(numpy.__version__)
        if apt_major is not None and venv_major is not None and apt_major != venv_major:
            return Check(
                name,
                False,
                f"numpy {numpy.__version__} in use, but apt's picamera2 is built on apt's "
                f"numpy {apt_numpy} ({', '.join(found)})",
                _pins_fix(),
            )
        try:
            picamera2 = load("picamera2")
        except Exception as error:  # "numpy.dtype size changed", a missing libcamera...
            return Check(name, False, f"picamera2 does not load: {error}", _pins_fix())
        found.append(f"picamera2 {getattr(picamera2, '__version__', '(apt)')}")
    elif need_picamera2:
        return Check(
            name,
            False,
            f"picamera2 is not installed ({', '.join(found)})",
            "sudo apt install python3-picamera2 (a venv made with --system-site-packages)",
        )
    if apt_numpy:
        found.append(f"apt numpy {apt_numpy}")
    return Check(name, True, ", ".join(found))


def _pins_fix() -> str:
    return (
        "reinstall the pins for your release: sudo systemd/install.sh (Bookworm: numpy<2 and "
        "opencv-python-headless<4.12; Trixie: apt's numpy 2)"
    )


def check_service(state_dir: Path, runner: Runner = run_command) -> Check:
    """The unit is installed and enabled; how its last run ended."""
    name = "systemd unit"
    try:
        status = unit_status(runner)
    except (OSError, ValueError) as error:
        return Check(name, False, f"cannot ask systemd: {error}", "sudo systemd/install.sh")
    if not status.installed:
        return Check(name, False, f"{UNIT} is not installed", "sudo systemd/install.sh")
    detail = (
        f"{UNIT} {status.enabled or 'state unknown'}, {status.active or 'unknown'}"
        f"{f' ({status.sub_state})' if status.sub_state else ''}; "
        f"last run: {status.result or 'unknown'} (status {status.exit_status or '-'}), "
        f"{status.restarts or '0'} restarts"
    )
    failure = read_last_failure(state_dir)
    if failure is not None:
        detail += f"; noted: {failure.sentence()}"
    extra = {"enabled": status.enabled, "active": status.active, "result": status.result}
    if status.enabled != "enabled":
        return Check(name, False, detail, f"sudo systemctl enable --now {UNIT}", extra=extra)
    if status.active == "failed" or status.sub_state == "auto-restart":
        return Check(name, False, detail, f"journalctl -u {UNIT} -b shows why", extra=extra)
    return Check(name, True, detail, extra=extra)
