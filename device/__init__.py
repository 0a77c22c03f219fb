"""The hardware seam: configuration, buttons/encoder/LEDs/buzzer, the camera, and the Pi's
service side.

The package's face, after gpiozero's own: everything the app needs is importable from
``device`` directly, grouped by the module that owns it::

    from device import Hardware, load_config, camera_from_config, simulated

* :mod:`device.config` - the appliance configuration (TOML, defaults built in).
* :mod:`device.pins` - pin numbers, header positions, the simulated pin factory, why a pin
  cannot be claimed.
* :mod:`device.hardware` - :class:`Hardware`, gpiozero devices on real or mock pins; a busy pin
  disables only its part (:attr:`Hardware.problems`).
* :mod:`device.simulated` - presses, releases and turns the mock pins (``--sim``, tests).
* :mod:`device.camera` - the camera protocol and its backends; :mod:`device.frames` (what a
  frame is), :mod:`device.picamera` and :mod:`device.webcam` (the real cameras, each call under
  a :mod:`device.deadline`).
* :mod:`device.service` - the last failure, noted by systemd or the app, for the next start.

Imported on their own (commands only, kept off the app's start-up): :mod:`device.focus` (the
one-off focus calibration, ``tablekeeper focus``) and :mod:`device.health` (the device checks of
``tablekeeper doctor``, and what systemd says about the unit).

``device`` never imports pygame, ``display``, ``games`` or ``vision``.
"""

from device import simulated
from device.camera import (
    Camera,
    CameraError,
    FolderCamera,
    FunctionCamera,
    NoCamera,
    OpenCVCamera,
    OrientedCamera,
    Picamera2Camera,
    ScriptedCamera,
    camera_from_config,
    check_image_size,
    orient,
    read_image,
)
from device.config import (
    ACTION_KEYS,
    DEFAULT_CONFIG_TOML,
    CameraConfig,
    Config,
    ConfigError,
    PinConfig,
    ScreenConfig,
    config_path,
    load_config,
    parse_config,
)
from device.hardware import Hardware, HardwareError, InputEvent
from device.pins import HEADER_PIN, PinProblem, pin_label, simulated_pin_factory
from device.service import LastFailure, read_last_failure, record_crash, take_last_failure

__all__ = [
    # config
    "ACTION_KEYS",
    "DEFAULT_CONFIG_TOML",
    "CameraConfig",
    "Config",
    "ConfigError",
    "PinConfig",
    "ScreenConfig",
    "config_path",
    "load_config",
    "parse_config",
    # pins and hardware
    "HEADER_PIN",
    "Hardware",
    "HardwareError",
    "InputEvent",
    "PinProblem",
    "pin_label",
    "simulated",
    "simulated_pin_factory",
    # camera
    "Camera",
    "CameraError",
    "FolderCamera",
    "FunctionCamera",
    "NoCamera",
    "OpenCVCamera",
    "OrientedCamera",
    "Picamera2Camera",
    "ScriptedCamera",
    "camera_from_config",
    "check_image_size",
    "orient",
    "read_image",
    # service
    "LastFailure",
    "read_last_failure",
    "record_crash",
    "take_last_failure",
]
