"""Image bombs and damaged cards (issue 35): a small file claiming a huge picture is refused
before decoding, whatever its format, in every reader (photos, the camera folder, enrolment,
galleries); enrolment refuses a card image cut short like identification does."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.camera import CameraError, FolderCamera
from device.frames import MAX_IMAGE_PIXELS, image_file_size, read_image
from display.checks.bombs import jpeg_bomb, png_bomb, tiff_bomb, webp_bomb
from display.cli import main
from vision import VisionError, decode_photo
from vision import pixels as vision_pixels
from vision.gallery import Gallery, GalleryError
from vision.synth import render_card_face

ROOT = Path(__file__).resolve().parents[1]
BOMBS: dict[str, tuple[Callable[[], bytes], str, tuple[int, int]]] = {
    "tiff": (tiff_bomb, ".tif", (30000, 30000)),
    "jpeg": (jpeg_bomb, ".jpg", (30000, 30000)),
    "webp": (webp_bomb, ".webp", (16383, 16383)),
    "png": (png_bomb, ".png", (30000, 30000)),
}


def test_device_and_vision_hold_the_same_limit() -> None:
    assert MAX_IMAGE_PIXELS == vision_pixels.MAX_IMAGE_PIXELS


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_the_header_check_reads_every_format(kind: str) -> None:
    make, _suffix, size = BOMBS[kind]
    data = make()
    assert len(data) < 1_000_000 and image_file_size(data) == size


@pytest.mark.parametrize("suffix", [".jpg", ".png", ".webp", ".tif", ".bmp", ".ppm"])
def test_the_header_check_reads_real_files(suffix: str) -> None:
    ok, encoded = cv2.imencode(suffix, np.zeros((37, 53, 3), np.uint8))
    assert ok and image_file_size(encoded.tobytes()) == (53, 37)


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_the_camera_folder_refuses_a_bomb(tmp_path: Path, kind: str) -> None:
    make, suffix, _size = BOMBS[kind]
    (tmp_path / f"bomb{suffix}").write_bytes(make())
    with pytest.raises(CameraError, match="megapixels are refused"):
        read_image(tmp_path / f"bomb{suffix}")
    with pytest.raises(CameraError, match="megapixels are refused"):
        FolderCamera(tmp_path).capture()


@pytest.mark.parametrize("kind", sorted(BOMBS))
def test_opencv_itself_refuses_a_bomb_the_header_check_missed(kind: str) -> None:
    """In a fresh interpreter (OpenCV reads the limit when it loads): ``import vision`` sets it,
    and decode_photo turns OpenCV's refusal into a VisionError."""
    make, _suffix, _size = BOMBS[kind]
    code = (
        "import sys, resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))\n"
        "from vision import VisionError, decode_photo\n"
        "try:\n"
        "    decode_photo(sys.stdin.buffer.read())\n"
        "except VisionError as error:\n"
        "    print(error)\n"
        # VmHWM, the child's own peak: ru_maxrss would carry this test process's across exec
        "print(next(int(line.split()[1]) // 1024 for line in open('/proc/self/status')\n"
        "           if line.startswith('VmHWM:')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=make(), capture_output=True, cwd=ROOT, timeout=60
    )
    refusal, peak_mb = done.stdout.decode().splitlines()
    assert "larger than 40 megapixels" in refusal, done.stderr.decode()[-500:]
    assert int(peak_mb) < 400


def test_decode_photo_refuses_in_this_process_too() -> None:
    with pytest.raises(VisionError, match="megapixels"):
        decode_photo(tiff_bomb())


@pytest.fixture(scope="module")
def gallery(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("gallery")
    references = Gallery()
    references.enroll("Brass Key", render_card_face("Brass Key", 0), "generated")
    references.save(folder)
    return folder


@pytest.mark.parametrize("kind", ["tiff", "jpeg", "webp"])
def test_identify_refuses_in_one_line(
    tmp_path: Path, kind: str, gallery: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make, suffix, _size = BOMBS[kind]
    photo = tmp_path / f"bomb{suffix}"
    photo.write_bytes(make())
    code = main(["vision", "identify", str(photo), "--gallery", str(gallery)])
    err = capsys.readouterr().err
    assert code == 2 and "megapixels are refused" in err and len(err.strip().splitlines()) == 1


def test_enrolment_refuses_a_bomb_and_a_card_cut_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = tmp_path / "cards"
    cards.mkdir()
    ok, encoded = cv2.imencode(".jpg", render_card_face("Brass Key", 0))
    assert ok
    whole = encoded.tobytes()
    (cards / "Brass Key.jpg").write_bytes(whole[: len(whole) * 2 // 3])  # a copy cut short
    gallery = tmp_path / "gallery"
    code = main(["vision", "enroll", "--gallery", str(gallery), "--from-files", str(cards)])
    err = capsys.readouterr().err
    assert code == 2 and "damaged" in err and len(err.strip().splitlines()) == 1
    assert not (gallery / "images").exists() or not any((gallery / "images").iterdir())
    (cards / "Brass Key.jpg").unlink()
    (cards / "Ember Lily.tif").write_bytes(tiff_bomb())
    with pytest.raises(GalleryError, match="megapixels"):
        Gallery().enroll_files([cards / "Ember Lily.tif"])
