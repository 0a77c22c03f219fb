"""Shared test set-up: headless SDL, and where the shared fixtures live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ``../shared/`` (the shared fixtures beside the repository; CI has them).
    When the folder is absent the calling test is skipped with one line naming it."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} ({SHARED} with the shared fixtures is not beside the repo)")
    return path


@pytest.fixture(scope="session")
def real_cards() -> Path:
    """The shared real-photo dataset: ``gallery/``, ``photos/``, ``labels.csv``."""
    return shared_path("datasets", "real-cards")
