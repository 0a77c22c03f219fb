"""The frame a layout shares, told from a reference's own features in the card's outer band
(vision.frame): a room card's titles along its left edge name it; its shared frame does not."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.frame as frame
import vision.name as name
import vision.tuning as tuning
from tests.galleries import generated_gallery
from tests.test_vision_hands import NAMES
from vision.features import card_features
from vision.frame import counted_features, interior
from vision.gallery import Gallery
from vision.geometry import CARD_W
from vision.synth import render_card_face

ROOMS = {
    "Smoky Parlour": "Misty Salon",
    "Walk-In Pantry": "Cold Cellar",
    "Grand Stairway": "Upper Hall",
    "Boiler Room": "Coal Chute",
    "Quiet Study": "Dusty Archive",
}
TITLES = (8, 32, 50, 430)  # x0, x1, y0, y1 on the upright card: inside the 10 % band


def room_face(title: str) -> np.ndarray:
    """One layout for every room (the same generated face), its two titles printed sideways
    along the left edge, where the fixed band leaves every feature out as frame."""
    face = render_card_face("Room Layout", 0)
    x0, x1, y0, y1 = TITLES
    strip = np.full((x1 - x0, y1 - y0), 235, np.uint8)
    cv2.putText(strip, title, (6, 18), cv2.FONT_HERSHEY_DUPLEX, 0.62, 10, 1, cv2.LINE_AA)
    face[y0:y1, x0:x1] = cv2.rotate(strip, cv2.ROTATE_90_COUNTERCLOCKWISE)[:, :, None]
    return face


def rooms_gallery(rooms: dict[str, str]) -> Gallery:
    gallery = generated_gallery(NAMES[:12])
    for room, other_half in rooms.items():
        gallery.enroll(room, room_face(f"{room} // {other_half}"), source="generated")
    return gallery


def fanned(face: np.ndarray) -> np.ndarray:
    """The card as a fan shows it: its left 35 %, the next card over the rest."""
    shown = face.copy()
    cut = int(0.35 * CARD_W)
    shown[:, cut:] = render_card_face(NAMES[20], 0)[:, : CARD_W - cut]
    return shown


def naming_of(face: np.ndarray, gallery: Gallery) -> name.Naming:
    features = card_features(fanned(face), tuning.PATCH_FEATURES)
    naming = name._name_features(features, gallery, list(range(len(gallery))))
    assert naming is not None
    return naming


def test_a_room_card_in_a_fan_is_named_by_its_titles_along_the_edge() -> None:
    """Five rooms of one layout: what tells them apart lies in the band the fixed interior
    leaves out (each named 0.0 that way, its rivals lining up as much). The titles are each
    reference's own, so they count, and each fanned room is named."""
    gallery = rooms_gallery(ROOMS)
    for room, other_half in ROOMS.items():
        naming = naming_of(room_face(f"{room} // {other_half}"), gallery)
        assert naming.name == room
        assert naming.confidence >= tuning.ACCEPT_CONFIDENCE


def test_a_room_that_is_not_enrolled_is_not_named_by_the_layout_it_shares() -> None:
    gallery = rooms_gallery(ROOMS)
    naming = naming_of(room_face("Sunken Garden // Lost Greenhouse"), gallery)
    assert naming.confidence < tuning.ACCEPT_CONFIDENCE


def test_only_a_references_own_band_features_count() -> None:
    """A room's counted band features lie on its titles; the frame every room shares (the
    rest of its band) is left out."""
    gallery = rooms_gallery(ROOMS)
    x0, x1, y0, y1 = TITLES
    for entry in range(len(gallery) - len(ROOMS), len(gallery)):
        points = gallery.entry_features(entry)[0]
        own = counted_features(gallery, entry) & ~interior(points)
        x, y = points[own, 0], points[own, 1]
        on_titles = (x >= x0 - 4) & (x <= x1 + 4) & (y >= y0 - 4) & (y <= y1 + 4)
        assert own.sum() >= 30 and on_titles.mean() >= 0.9


def test_a_layout_enrolled_too_rarely_counts_no_band_feature() -> None:
    """Two rooms alone cannot tell their shared frame from their titles (fewer than
    FRAME_MIN_SIBLINGS other names share their band): the whole band is left out, as before;
    enrolling more rooms, the band is judged again."""
    two = dict(list(ROOMS.items())[:2])
    assert tuning.FRAME_MIN_SIBLINGS > len(two) - 1
    gallery = rooms_gallery(two)
    rooms = range(len(gallery) - len(two), len(gallery))
    for entry in rooms:
        points = gallery.entry_features(entry)[0]
        assert (counted_features(gallery, entry) == interior(points)).all()
    for room, other_half in list(ROOMS.items())[2:]:
        gallery.enroll(room, room_face(f"{room} // {other_half}"), source="generated")
    for entry in rooms:
        points = gallery.entry_features(entry)[0]
        assert (counted_features(gallery, entry) & ~interior(points)).sum() >= 30


def test_a_naming_resting_on_its_bands_own_features_does_not_place_the_card() -> None:
    """A room named from its titles along one edge is sure of its name, not of its corners:
    the fit to that strip swings the corners it extrapolates to (seed 2028's fan: 20 px off,
    two neighbours lost). Its corners and refit are judged on the inliers inside the band."""
    gallery = rooms_gallery(ROOMS)
    room, other_half = next(iter(ROOMS.items()))
    naming = naming_of(room_face(f"{room} // {other_half}"), gallery)
    assert naming.placing is not None and naming.placing < naming.inliers
    assert naming.placing_inliers == naming.placing
    assert naming.placing_confidence < naming.confidence
    strip = name.Naming(0, room, 44, 5, 0.94, None, {}, 0.3, placing=8)
    assert not strip.pins_corners
    assert name.Naming(0, room, 44, 5, 0.94, None, {}, 0.3).pins_corners


def test_a_saved_gallery_keeps_its_frame_verdicts_until_the_tuning_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judging every reference's band costs a third of a second for 400 scans: a cold
    ``vision identify`` reads the verdicts the gallery was saved with instead. A gallery saved
    with other frame settings (or before they were stored) is judged afresh."""
    gallery = rooms_gallery(ROOMS)
    made = frame.every_reference_counted(gallery)
    gallery.save(tmp_path / "g")

    def judged_again(*_: object) -> None:
        raise AssertionError("the saved verdicts were not used")

    with monkeypatch.context() as patch:
        patch.setattr(frame, "_BandIndex", judged_again)
        loaded = Gallery.load(tmp_path / "g")
        assert (frame.every_reference_counted(loaded) == made).all()

    monkeypatch.setattr(tuning, "FRAME_SIBLING_FEATURES", tuning.FRAME_SIBLING_FEATURES + 1)
    stale = Gallery.load(tmp_path / "g")
    assert stale.frame_counted is None
    assert len(frame.every_reference_counted(stale)) == len(made)
