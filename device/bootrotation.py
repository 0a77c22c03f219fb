"""Rotation the kernel or the firmware applies to the panel or its touches, read from the boot
files: the Raspberry Pi docs' own ways to turn a display (``video=DSI-1:...,rotate=`` on the
kernel command line; ``display_lcd_rotate=``, ``lcd_rotate=`` and the touch overlays' ``invx``,
``invy``, ``swapxy`` and ``rotation=`` parameters in config.txt).

Without a desktop SDL ignores the panel's rotation but the touch controller's inversions still
apply, and Tablekeeper turns the picture and the touches itself (``[screen] rotate``): with both,
the touches (or the picture) are turned twice. ``tablekeeper doctor`` and the start-up log name
every such setting found, with its file and line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

CMDLINE = Path("/proc/cmdline")
#: Bookworm and Trixie keep it in /boot/firmware; older images in /boot.
CONFIG_TXT = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
_ROTATE_SETTINGS = re.compile(
    r"^(display_rotate|display_lcd_rotate|display_hdmi_rotate|lcd_rotate)\s*="
)
_TOUCH_PARAMETERS = ("invx", "invy", "swapxy", "touchscreen-inverted", "touchscreen-swapped")


def boot_rotations(cmdline: Path = CMDLINE, config_txt: Sequence[Path] = CONFIG_TXT) -> list[str]:
    """Each setting that turns the panel or its touches: "/proc/cmdline: video=DSI-1:720x1280@60,
    rotate=90", "/boot/firmware/config.txt line 42: dtoverlay=vc4-kms-dsi-ili9881-7inch,invx"."""
    found = []
    try:
        words = cmdline.read_text(encoding="utf-8", errors="replace").split()
    except OSError:
        words = []
    for word in words:
        if word.startswith("video=") and re.search(r"[:,](rotate=|reflect_[xy])", word):
            found.append(f"{cmdline}: {word}")
    for path in config_txt:
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, start=1):
            setting = line.split("#", 1)[0].strip()
            if _ROTATE_SETTINGS.match(setting) and not setting.endswith("=0"):
                found.append(f"{path} line {number}: {setting}")
            elif setting.startswith(("dtoverlay=", "dtparam=")):
                parameters = setting.split("=", 1)[1].split(",")
                if setting.startswith("dtoverlay="):
                    parameters = parameters[1:]  # the first is the overlay's name
                if any(_turns(parameter.strip()) for parameter in parameters):
                    found.append(f"{path} line {number}: {setting}")
        break  # the first config.txt found is the one the firmware reads
    return found


def _turns(parameter: str) -> bool:
    """An overlay parameter that turns or mirrors the panel or its touches."""
    if parameter.startswith("rotation="):
        return parameter != "rotation=0"
    return parameter.split("=", 1)[0].startswith(_TOUCH_PARAMETERS)


def rotation_warning(found: Sequence[str]) -> str | None:
    """One line for the log and doctor, or None when nothing else turns the panel."""
    if not found:
        return None
    return (
        f"the kernel or firmware also turns the panel or its touches ({'; '.join(found)}): "
        "Tablekeeper turns the picture and the touches itself ([screen] rotate), so one of them "
        "is turned twice"
    )


ROTATION_FIX = (
    "remove those settings (and reboot); set the turn in /etc/tablekeeper/config.toml instead: "
    '[screen] rotate = 0, 90, 180, 270 or "auto"'
)
