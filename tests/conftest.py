"""Shared test set-up: headless SDL, and where the shared fixtures live."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# OpenCV reads its pixel limit when it loads, and a test module may import cv2 before vision or
# device set it (vision/pixels.py, device/frames.py): the suite's process gets it here.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", "40000000")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ``../shared/`` (the shared fixtures beside the repository; CI has them).
    When the folder is absent the calling test is skipped with one line naming it."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} ({SHARED} with the shared fixtures is not beside the repo)")
    return path


@pytest.fixture
def isolated_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An appliance built in the test reads no user's config, and its mock pins are released
    after (``pytestmark = pytest.mark.usefixtures("isolated_app")`` in a module)."""
    from gpiozero import Device

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("TABLEKEEPER_CONFIG", raising=False)
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.reset()


@pytest.fixture(scope="session")
def real_cards() -> Path:
    """The shared real-photo dataset: ``gallery/``, ``photos/``, ``labels.csv``."""
    return shared_path("datasets", "real-cards")
