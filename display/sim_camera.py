"""The simulated camera: synthetic table photos from ``vision.synth`` (display wires it; the
device layer only knows a function-backed camera)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from device.camera import FunctionCamera


def photo_damage(data: bytes) -> str | None:
    """Why an image file's bytes cannot be trusted (cut short), or None: the recogniser's check,
    handed to the cameras that read files (``device`` may not import ``vision``)."""
    from vision.photo import photo_damage as damage  # local: OpenCV loads with the first photo

    return damage(data)


DEFAULT_CARD_NAMES = ("Lantern", "Harbour", "Red Kite", "Compass", "Tin Drum")


def synthetic_camera(
    names: Sequence[str] = DEFAULT_CARD_NAMES,
    size: tuple[int, int] = (1280, 960),
    seed: int = 7,
) -> FunctionCamera:
    """A camera whose every capture is a new, reproducible synthetic photo of ``names``.

    The scene maker is imported and the card faces drawn on the first capture, so start-up
    does not pay for a camera nobody uses; if ``vision`` is missing, that capture says so.
    """
    state: dict[str, Any] = {}

    def make_scene() -> Any:
        if not state:
            # start-up time: the scene maker loads OpenCV; a camera nobody uses costs nothing
            from vision.synth import compose_scene, render_card_face

            state["compose"] = compose_scene
            state["faces"] = [render_card_face(name) for name in names]
            state["rng"] = np.random.default_rng(seed)
        scene = state["compose"](
            state["faces"], state["rng"], difficulty="easy", size=size, layout="rows"
        )
        return scene.image

    return FunctionCamera(make_scene, name="synthetic table photos")
