"""The camera seam: folder, function, scripted and absent cameras; failures are CameraError."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

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
    read_image,
)
from device.config import parse_config


def write(path: Path, value: int, size: tuple[int, int] = (40, 30)) -> np.ndarray:
    image = np.full((size[1], size[0], 3), value, np.uint8)
    image[0, 0] = (255, 0, 0)  # blue in BGR: checks no channel swap
    assert cv2.imwrite(str(path), image)
    return image


def test_folder_camera_returns_images_in_name_order_round_and_round(tmp_path: Path):
    write(tmp_path / "b.png", 20)
    write(tmp_path / "a.png", 10)
    (tmp_path / "notes.txt").write_text("not an image")
    camera = FolderCamera(tmp_path)
    assert isinstance(camera, Camera)
    values = [int(camera.capture()[5, 5, 0]) for _ in range(3)]
    assert values == [10, 20, 10]
    assert tuple(camera.capture()[0, 0]) == (255, 0, 0)


def test_empty_or_missing_folder_is_a_message(tmp_path: Path):
    with pytest.raises(CameraError, match="no images in"):
        FolderCamera(tmp_path).capture()
    with pytest.raises(CameraError, match="no images in"):
        FolderCamera(tmp_path / "gone").capture()


def test_unreadable_file_is_a_message(tmp_path: Path):
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"not really a png")
    with pytest.raises(CameraError, match="broken.png is not an image"):
        read_image(bad)
    with pytest.raises(CameraError, match="no image file"):
        read_image(tmp_path / "missing.png")


def test_function_camera_checks_and_wraps_failures():
    grey = FunctionCamera(lambda: np.zeros((4, 5), np.uint8), "grey")
    assert grey.capture().shape == (4, 5, 3)
    bgra = FunctionCamera(lambda: np.zeros((4, 5, 4), np.uint8))
    assert bgra.capture().shape == (4, 5, 3)

    def explode() -> np.ndarray:
        raise RuntimeError("scene generator bug")

    with pytest.raises(CameraError, match="scene generator bug"):
        FunctionCamera(explode, "synthetic").capture()
    with pytest.raises(CameraError, match="returned no image"):
        FunctionCamera(lambda: None).capture()


def test_scripted_camera_serves_queued_images_first(tmp_path: Path):
    write(tmp_path / "queued.png", 77)
    camera = ScriptedCamera(FunctionCamera(lambda: np.full((3, 3, 3), 5, np.uint8)))
    camera.queue_file(tmp_path / "queued.png")
    camera.queue_image(np.full((2, 2, 3), 9, np.uint8))
    assert camera.capture()[1, 1, 0] == 77
    assert camera.capture()[1, 1, 0] == 9
    assert camera.capture()[1, 1, 0] == 5


def test_no_camera_explains_itself():
    with pytest.raises(CameraError, match="no camera is configured"):
        NoCamera().capture()


def test_missing_usb_camera_is_a_message_not_a_crash():
    camera = OpenCVCamera(index=63)
    with pytest.raises(CameraError, match="/dev/video63"):
        camera.capture()
    camera.close()


def test_picamera2_missing_is_a_message(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as on a PC
    with pytest.raises(CameraError, match="picamera2 is not installed"):
        Picamera2Camera(640, 480).capture()


class FakePicamera2:
    """Stands in for picamera2.Picamera2 with the documented calls the backend makes."""

    calls: list[str] = []

    def __init__(self) -> None:
        self.camera_controls: dict[str, object] = {}
        FakePicamera2.calls = ["init"]

    def create_still_configuration(self, main: dict[str, object]) -> dict[str, object]:
        FakePicamera2.calls.append(f"still {main['size']} {main['format']}")
        return {"main": main}

    def configure(self, config: dict[str, object]) -> None:
        FakePicamera2.calls.append("configure")

    def start(self) -> None:
        FakePicamera2.calls.append("start")

    def capture_array(self, stream: str) -> np.ndarray:
        FakePicamera2.calls.append(f"capture {stream}")
        return np.zeros((8, 10, 3), np.uint8)

    def stop(self) -> None:
        FakePicamera2.calls.append("stop")

    def close(self) -> None:
        FakePicamera2.calls.append("close")


def test_picamera2_backend_uses_still_rgb888_and_closes(monkeypatch: pytest.MonkeyPatch):
    module = type(sys)("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr("device.camera.time.sleep", lambda s: None)
    camera = Picamera2Camera(2304, 1296, autofocus=True)  # no AfMode control: fixed focus
    assert camera.capture().shape == (8, 10, 3)
    camera.close()
    assert FakePicamera2.calls == [
        "init",
        "still (2304, 1296) RGB888",
        "configure",
        "start",
        "capture main",
        "stop",
        "close",
    ]


def test_camera_from_config_picks_backends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    assert isinstance(camera_from_config(parse_config().camera), OpenCVCamera)  # auto, no Pi
    folder = parse_config(f'[camera]\nbackend = "folder"\nfolder = "{tmp_path}"\n').camera
    assert isinstance(camera_from_config(folder), FolderCamera)
    assert isinstance(
        camera_from_config(parse_config('[camera]\nbackend = "none"\n').camera), NoCamera
    )


def test_auto_picks_picamera2_without_importing_it(tmp_path: Path, monkeypatch):
    # An installed picamera2 whose import would be slow (here: would fail loudly): choosing the
    # backend must only look for it, so start-up never pays for the import.
    package = tmp_path / "picamera2"
    package.mkdir()
    (package / "__init__.py").write_text("raise RuntimeError('imported at start-up')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    camera = camera_from_config(parse_config().camera)
    assert isinstance(camera, Picamera2Camera) and "picamera2" not in sys.modules
