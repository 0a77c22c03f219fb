"""The hardware seam: configuration, buttons/encoder/LEDs/buzzer, and the camera.

The package's face, after gpiozero's own: everything the app needs is importable from
``device`` directly, grouped by the module that owns it::

    from device import Hardware, load_config, camera_from_config, simulated

* :mod:`device.config` - the appliance configuration (TOML, defaults built in).
* :mod:`device.pins` - pin numbers, header positions, the simulated pin factory.
* :mod:`device.hardware` - :class:`Hardware`, gpiozero devices on real or mock pins.
* :mod:`device.simulated` - presses, releases and turns the mock pins (``--sim``, tests).
* :mod:`device.camera` - the camera protocol and its backends.

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
    Picamera2Camera,
    ScriptedCamera,
    camera_from_config,
    check_image_size,
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
from device.pins import HEADER_PIN, pin_label, simulated_pin_factory

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
    # pins
    "HEADER_PIN",
    "pin_label",
    "simulated_pin_factory",
    # hardware
    "Hardware",
    "HardwareError",
    "InputEvent",
    "simulated",
    # camera
    "Camera",
    "CameraError",
    "FolderCamera",
    "FunctionCamera",
    "NoCamera",
    "OpenCVCamera",
    "Picamera2Camera",
    "ScriptedCamera",
    "camera_from_config",
    "check_image_size",
    "read_image",
]
