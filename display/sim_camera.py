"""The simulated camera: synthetic table photos from ``vision.synth`` (display wires it; the
device layer only knows a function-backed camera)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from device.camera import FunctionCamera, NoCamera

DEFAULT_CARD_NAMES = ("Lantern", "Harbour", "Red Kite", "Compass", "Tin Drum")


def synthetic_camera(
    names: Sequence[str] = DEFAULT_CARD_NAMES,
    size: tuple[int, int] = (1280, 960),
    seed: int = 7,
) -> Any:
    """A camera whose every capture is a new, reproducible synthetic photo of ``names``."""
    try:
        import numpy as np

        from vision.synth import compose_scene, render_card_face
    except ImportError as error:
        return NoCamera(f"no camera images: the scene maker is missing ({error})")
    faces = [render_card_face(name) for name in names]
    rng = np.random.default_rng(seed)

    def make_scene() -> Any:
        return compose_scene(faces, rng, difficulty="easy", size=size, layout="rows").image

    return FunctionCamera(make_scene, name="synthetic table photos")
