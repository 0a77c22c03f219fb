"""Galleries the vision tests share: references enrolled from generated card faces."""

from __future__ import annotations

from collections.abc import Iterable

from vision.gallery import Gallery
from vision.synth import render_card_face


def generated_gallery(names: Iterable[str]) -> Gallery:
    """A gallery of one generated face per name (variant 0), marked as generated."""
    gallery = Gallery()
    for name in names:
        gallery.enroll(name, render_card_face(name, 0), source="generated")
    return gallery
