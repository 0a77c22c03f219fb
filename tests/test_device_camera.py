"""The camera seam: folder, function, scripted and absent cameras; failures are CameraError."""

from __future__ import annotations

import sys
import threading
import time
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
    OrientedCamera,
    Picamera2Camera,
    ScriptedCamera,
    camera_from_config,
    orient,
    read_image,
)
from device.config import parse_config
from device.focus import calibrate_focus, sharpness


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


def test_missing_usb_camera_is_a_message_not_a_crash(capfd: pytest.CaptureFixture[str]):
    camera = OpenCVCamera(index=63)
    with pytest.raises(CameraError, match="/dev/video63"):
        camera.capture()
    camera.close()
    # Our message says it in words; OpenCV's own "[ WARN:0] can't open camera" lines would
    # repeat it in the doctor's output and the journal.
    assert "WARN" not in capfd.readouterr().err


def test_picamera2_missing_is_a_message(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as on a PC
    with pytest.raises(CameraError, match="picamera2 is not installed"):
        Picamera2Camera(640, 480).capture()


class FakePicamera2:
    """Stands in for picamera2.Picamera2 with the documented calls the backend makes.

    ``stall`` names a call that blocks until ``release`` is set (a driver that stops
    answering); with ``autofocus`` the module reports AfMode and LensPosition controls, and its
    pictures are sharpest at lens position ``sharp_at``."""

    def __init__(self, *, autofocus: bool = False, stall: str = "", sharp_at: float = 3.0):
        self.camera_controls: dict[str, object] = {}
        if autofocus:
            self.camera_controls = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0)}
        self.calls = ["init"]
        self.controls: dict[str, object] = {}
        self.stall = stall
        self.release = threading.Event()
        self.sharp_at = sharp_at
        self.lens = 1.0
        self.pattern = np.random.default_rng(3).integers(0, 256, (48, 64), dtype=np.uint8)

    def _maybe_stall(self, call: str) -> None:
        self.calls.append(call)
        if call.split()[0] == self.stall:
            self.release.wait(30)

    def create_still_configuration(self, main: dict[str, object]) -> dict[str, object]:
        self.calls.append(f"still {main['size']} {main['format']}")
        return {"main": main}

    def configure(self, config: dict[str, object]) -> None:
        self._maybe_stall("configure")

    def set_controls(self, controls: dict[str, object]) -> None:
        self.controls.update(controls)
        self.lens = float(controls.get("LensPosition", self.lens))  # type: ignore[arg-type]
        self.calls.append(f"controls {sorted(controls.items())}")

    def start(self) -> None:
        self._maybe_stall("start")

    def capture_metadata(self) -> dict[str, object]:
        return {"LensPosition": self.lens}

    def capture_array(self, stream: str) -> np.ndarray:
        self._maybe_stall(f"capture {stream}")
        picture = self.pattern.astype(np.float32)
        for _ in range(round(2 * abs(self.lens - self.sharp_at))):  # out of focus: blurred
            picture = (
                picture
                + np.roll(picture, 1, 0)
                + np.roll(picture, -1, 0)
                + np.roll(picture, 1, 1)
                + np.roll(picture, -1, 1)
            ) / 5
        return np.repeat(picture.astype(np.uint8)[:, :, None], 3, axis=2)

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


def pi_camera(fake: FakePicamera2, **options: object) -> Picamera2Camera:
    return Picamera2Camera(2304, 1296, open_backend=lambda: fake, settle_seconds=0, **options)  # type: ignore[arg-type]


def test_picamera2_backend_uses_still_rgb888_and_closes():
    fake = FakePicamera2()  # no AfMode control: a fixed-focus module, no focus controls sent
    camera = pi_camera(fake)
    assert camera.capture().shape == (48, 64, 3)
    camera.close()
    assert fake.calls == [
        "init",
        "still (2304, 1296) RGB888",
        "configure",
        "start",
        "capture main",
        "stop",
        "close",
    ]


def test_picamera2_fails_to_import_for_any_reason_is_a_message(monkeypatch):
    module = type(sys)("picamera2")

    def broken(name: str) -> object:
        raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    module.__getattr__ = broken  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    with pytest.raises(CameraError, match="picamera2 does not load .*numpy<2"):
        Picamera2Camera(640, 480).capture()


def test_continuous_autofocus_is_set_once_and_no_cycle_runs_per_photo():
    fake = FakePicamera2(autofocus=True)
    camera = pi_camera(fake)
    camera.capture()
    camera.capture()
    assert fake.controls == {"AfMode": 2}  # continuous, set at start
    assert [c for c in fake.calls if c.startswith("controls")] == ["controls [('AfMode', 2)]"]
    assert not any("autofocus" in c for c in fake.calls)
    camera.close()


def test_a_fixed_lens_position_is_set_at_start_and_clamped_to_the_module():
    fake = FakePicamera2(autofocus=True)
    camera = pi_camera(fake, lens_position=3.25)
    camera.capture()
    assert fake.controls == {"AfMode": 0, "LensPosition": 3.25}  # manual: the lens stays put
    camera.close()
    far = FakePicamera2(autofocus=True)
    pi_camera(far, lens_position=30.0).capture()
    assert far.controls["LensPosition"] == 15.0


@pytest.mark.parametrize("call", ["configure", "start", "capture"])
def test_a_stalled_camera_is_a_message_within_its_timeout(call: str):
    fake = FakePicamera2(stall=call)
    camera = pi_camera(fake, timeout=0.3)
    started = time.monotonic()
    with pytest.raises(CameraError, match=r"did not answer within 0.3 s"):
        camera.capture()
    assert time.monotonic() - started < 2.0  # the deadline, not the driver, decides
    # While the call is stuck, the next photo is refused at once instead of queueing behind it.
    started = time.monotonic()
    with pytest.raises(CameraError, match="still stuck"):
        camera.capture()
    assert time.monotonic() - started < 0.2
    # The driver comes back: the next photo opens the camera afresh and works.
    fake.stall = ""
    fake.release.set()
    deadline = time.monotonic() + 5
    while camera._deadline.stuck and time.monotonic() < deadline:
        time.sleep(0.01)
    assert camera.capture().shape == (48, 64, 3)
    assert "close" in fake.calls  # the camera left open by the stuck call was closed first
    camera.close()


def test_opening_gets_three_timeouts_then_is_a_message():
    release = threading.Event()

    def stuck_open() -> FakePicamera2:  # an import or a Picamera2() that never returns
        release.wait(30)
        return FakePicamera2()

    camera = Picamera2Camera(640, 480, timeout=0.1, open_backend=stuck_open, settle_seconds=0)
    started = time.monotonic()
    with pytest.raises(CameraError, match=r"did not answer within 0.3 s \(opening the camera\)"):
        camera.capture()
    assert 0.25 < time.monotonic() - started < 2.0
    release.set()


def test_a_stalled_camera_through_the_app_is_a_message(tmp_path: Path):
    from device.hardware import Hardware
    from display.app import App
    from display.clock import FakeClock
    from display.store import Store

    fake = FakePicamera2(stall="capture")
    config = parse_config()
    clock = FakeClock()
    hardware = Hardware(config, simulated=True, now=clock.now)
    app = App(
        config=config,
        hardware=hardware,
        camera=pi_camera(fake, timeout=0.2),
        store=Store(tmp_path),
        clock=clock,
        simulated=True,
    )
    try:
        image, problem = app.capture()
        assert image is None and problem is not None and "did not answer" in problem
    finally:
        fake.release.set()
        app.close()


def test_focus_calibration_finds_the_sharpest_lens_position():
    fake = FakePicamera2(autofocus=True, sharp_at=3.4)
    camera = pi_camera(fake)
    ticks = iter(range(1000))
    report = calibrate_focus(camera, clock=lambda: float(next(ticks)))
    camera.close()
    assert report.best == pytest.approx(3.4, abs=0.3)
    assert report.lens_range == (0.0, 15.0)
    assert len(report.samples) >= 13
    assert report.config_line.startswith("lens_position = 3.")
    assert "under [camera]" in report.sentence() and "cm away" in report.sentence()


def test_focus_calibration_explains_a_fixed_focus_module_or_a_blank_table():
    with pytest.raises(CameraError, match="no focus motor"):
        calibrate_focus(pi_camera(FakePicamera2()))
    blank = FakePicamera2(autofocus=True)
    blank.pattern[:] = 128  # nothing to focus on
    with pytest.raises(CameraError, match="put a few cards under the camera"):
        calibrate_focus(pi_camera(blank))


def test_sharpness_grows_with_detail():
    rng = np.random.default_rng(1)
    detailed = rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
    smooth = np.full((60, 80, 3), 90, np.uint8)
    assert sharpness(detailed) > 100 * max(sharpness(smooth), 1e-3)


def test_stalled_usb_camera_is_a_message(monkeypatch):
    camera = OpenCVCamera(index=0, timeout=0.2)
    release = threading.Event()
    monkeypatch.setattr(camera, "_open", lambda: release.wait(30))
    with pytest.raises(CameraError, match="did not answer within 0.2 s"):
        camera.capture()
    release.set()


@pytest.mark.parametrize(
    ("rotate", "flip", "expected"),
    [
        (0, "none", [[1, 2, 3], [4, 5, 6]]),
        (180, "none", [[6, 5, 4], [3, 2, 1]]),
        (90, "none", [[4, 1], [5, 2], [6, 3]]),
        (270, "none", [[3, 6], [2, 5], [1, 4]]),
        (0, "horizontal", [[3, 2, 1], [6, 5, 4]]),
        (0, "vertical", [[4, 5, 6], [1, 2, 3]]),
        (90, "horizontal", [[1, 4], [2, 5], [3, 6]]),
    ],
)
def test_orient_turns_clockwise_then_mirrors(rotate: int, flip: str, expected: list):
    image = np.array([[1, 2, 3], [4, 5, 6]], np.uint8)[:, :, None].repeat(3, axis=2)
    turned = orient(image, rotate, flip)
    assert turned[:, :, 0].tolist() == expected
    assert turned.flags["C_CONTIGUOUS"]


def test_a_camera_mounted_upside_down_keeps_the_cards_in_order(tmp_path: Path):
    # Three "cards" left to right on the table; the camera sees them upside down (right to left).
    table = np.zeros((20, 60, 3), np.uint8)
    for index, value in enumerate((50, 150, 250)):
        table[5:15, 5 + 20 * index : 15 + 20 * index] = value
    upside_down = table[::-1, ::-1].copy()
    raw = FunctionCamera(lambda: upside_down, "mounted camera")
    camera = camera_from_config(parse_config('[camera]\nbackend = "none"\nrotate = 180\n').camera)
    assert isinstance(camera, OrientedCamera)
    camera.inner = raw
    photo = camera.capture()
    order = [int(photo[10, 10 + 20 * i, 0]) for i in range(3)]
    assert order == [50, 150, 250]


def test_camera_from_config_never_raises(monkeypatch):
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("driver exploded")

    monkeypatch.setattr("device.camera.Picamera2Camera", broken)
    camera = camera_from_config(parse_config('[camera]\nbackend = "picamera2"\n').camera)
    with pytest.raises(CameraError, match="could not be set up: driver exploded"):
        camera.capture()


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


def test_the_cameras_that_read_files_refuse_one_their_damage_check_refuses(tmp_path: Path):
    write(tmp_path / "a.png", 10)
    calls: list[int] = []

    def cut_short(data: bytes) -> str | None:
        calls.append(len(data))
        return "it ends early"

    with pytest.raises(CameraError, match=r"a\.png is damaged \(it ends early\)"):
        FolderCamera(tmp_path, damage=cut_short).capture()
    scripted = ScriptedCamera(NoCamera(), damage=cut_short)
    scripted.queue_file(tmp_path / "a.png")
    with pytest.raises(CameraError, match=r"a\.png is damaged"):
        scripted.capture()
    folder = parse_config(f'[camera]\nbackend = "folder"\nfolder = "{tmp_path}"\n').camera
    with pytest.raises(CameraError, match="damaged"):
        camera_from_config(folder, damage=cut_short).capture()
    assert len(calls) == 3 and calls[0] == (tmp_path / "a.png").stat().st_size
    assert int(FolderCamera(tmp_path).capture()[5, 5, 0]) == 10  # no check: read as ever
