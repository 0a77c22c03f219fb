"""Finding and naming cards: generated scenes, open-set answers, the gallery format, and a few
real photos from the shared dataset."""

from __future__ import annotations

import csv
import json
import zipfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.relook as relook
import vision.tuning as tuning
from tests.galleries import generated_gallery
from vision import (
    ACCEPT_CONFIDENCE,
    REASON_NOT_IN_GALLERY,
    REASON_TOO_BLURRED,
    Identification,
    VisionError,
    identify,
)
from vision.appearance import (
    confidence_from_look,
    last_word,
    look_contradicts,
    look_disowns,
    look_similarities,
    shares_layout,
)
from vision.detect import cards_in_reading_order
from vision.gallery import Gallery, GalleryError, name_from_filename
from vision.geometry import (
    CARD_CORNERS,
    CARD_H,
    CARD_W,
    corners_from_homography,
    inside,
    inverse,
    quad_area,
    quad_iou,
)
from vision.geometry import in_quad as inside_quad
from vision.layout import two_columns
from vision.name import confidence_from_inliers
from vision.photo import Photo
from vision.plane import completed_cards
from vision.result import Card, UnknownCard
from vision.synth import compose_scene, render_card_face

NAMES = [f"Card {i:02d}" for i in range(16)]


@pytest.fixture(scope="module")
def gallery() -> Gallery:
    return generated_gallery(NAMES)


def _match(result: Identification, corners: np.ndarray):
    centre = corners.mean(axis=0)
    for card in result.cards:
        if inside(centre, card.corners):
            return card
    return None


def test_easy_scene_every_card_named_with_corners_and_orientation(gallery: Gallery) -> None:
    names = NAMES[:5]
    faces = [render_card_face(n, 0) for n in names]
    scene = compose_scene(faces, np.random.default_rng(11), difficulty="easy", table="wood")
    result = identify(scene.image, gallery)
    assert sorted(c.name for c in result.cards) == sorted(names)
    assert result.unknown == []
    for truth in scene.cards:
        card = _match(result, truth.corners)
        assert card is not None and card.name == names[truth.index]
        # Corners in the same order (so the orientation is found) and within a few pixels.
        error = np.linalg.norm(card.corners - truth.corners, axis=1).max()
        assert error < 8.0, error
        assert 0.5 <= card.confidence <= 1.0
        assert card.candidates and card.candidates[0].name == card.name
    assert result.seconds > 0


@pytest.mark.parametrize(("difficulty", "seed"), [("medium", 3), ("hard", 4)])
def test_harder_scenes_never_misname(gallery: Gallery, difficulty: str, seed: int) -> None:
    names = NAMES[5:11]
    faces = [render_card_face(n, 0) for n in names]
    scene = compose_scene(faces, np.random.default_rng(seed), difficulty=difficulty)
    result = identify(scene.image, gallery)
    right = 0
    for truth in scene.cards:
        card = _match(result, truth.corners)
        if card is not None:
            assert card.name == names[truth.index]
            right += 1
    assert right >= len(names) - 1
    assert len(result.cards) <= len(names)


def test_card_not_in_gallery_comes_back_unknown(gallery: Gallery) -> None:
    faces = [render_card_face(n, 0) for n in NAMES[:3]]
    faces.append(render_card_face("Nobody enrolled me", 7))
    scene = compose_scene(faces, np.random.default_rng(21), difficulty="easy", table="felt")
    result = identify(scene.image, gallery)
    assert sorted(c.name for c in result.cards) == sorted(NAMES[:3])
    stranger = next(c for c in scene.cards if c.index == 3)
    assert len(result.unknown) == 1
    unknown = result.unknown[0]
    assert unknown.reason == REASON_NOT_IN_GALLERY
    assert inside(stranger.center, unknown.corners)


def test_blurred_card_comes_back_too_blurred(gallery: Gallery) -> None:
    faces = [render_card_face(n, 0) for n in NAMES[:2]]
    faces.append(cv2.GaussianBlur(render_card_face(NAMES[2], 0), (0, 0), 9))
    scene = compose_scene(faces, np.random.default_rng(3), difficulty="easy", table="felt")
    result = identify(scene.image, gallery)
    assert sorted(c.name for c in result.cards) == sorted(NAMES[:2])
    blurred = next(c for c in scene.cards if c.index == 2)
    assert [u.reason for u in result.unknown] == [REASON_TOO_BLURRED]
    assert inside(blurred.center, result.unknown[0].corners)


def test_two_column_layout_of_identified_cards(gallery: Gallery) -> None:
    names = NAMES[:6]
    faces = [render_card_face(n, 0) for n in names]
    scene = compose_scene(faces, np.random.default_rng(5), layout="columns", table="cloth")
    result = identify(scene.image, gallery)
    left, right = two_columns(result.cards)
    assert [c.name for c in left] == names[:3]
    assert [c.name for c in right] == names[3:]


def test_gallery_is_plain_data_and_round_trips(gallery: Gallery, tmp_path: Path) -> None:
    folder = gallery.save(tmp_path / "g")
    meta = json.loads((folder / "gallery.json").read_text(encoding="utf-8"))
    assert meta["format"] == "tablekeeper-gallery"
    assert [e["name"] for e in meta["entries"]] == NAMES
    with zipfile.ZipFile(folder / "gallery.npz") as archive:
        assert all(n.endswith(".npy") for n in archive.namelist())
    with np.load(folder / "gallery.npz", allow_pickle=False) as arrays:
        assert arrays["descriptors"].dtype == np.uint8
    loaded = Gallery.load(folder)
    assert loaded.names == NAMES and len(loaded) == len(NAMES)
    assert np.array_equal(loaded.descriptors, gallery.descriptors)
    assert np.array_equal(loaded.looks, gallery.looks) and loaded.looks.dtype == np.uint8
    assert loaded.thumbnail(0) is not None
    faces = [render_card_face(n, 0) for n in NAMES[:3]]
    scene = compose_scene(faces, np.random.default_rng(2), difficulty="easy")
    assert sorted(c.name for c in identify(scene.image, loaded).cards) == sorted(NAMES[:3])


def test_broken_galleries_and_images_are_refused(tmp_path: Path, gallery: Gallery) -> None:
    with pytest.raises(GalleryError):
        Gallery.load(tmp_path / "nothing here")
    folder = gallery.save(tmp_path / "g")
    (folder / "gallery.npz").write_bytes(b"not numpy")
    with pytest.raises(GalleryError):
        Gallery.load(folder)
    with pytest.raises(VisionError):
        identify(np.zeros((0, 0, 3), np.uint8), gallery)
    blank = np.full((600, 800, 3), 128, np.uint8)
    empty = identify(blank, gallery)
    assert empty.cards == [] and empty.unknown == []


def test_gallery_saved_before_looks_existed_gets_them_from_its_images(
    gallery: Gallery, tmp_path: Path
) -> None:
    folder = gallery.save(tmp_path / "g")
    with np.load(folder / "gallery.npz", allow_pickle=False) as arrays:
        older = {key: arrays[key] for key in arrays.files if key != "looks"}
    np.savez(folder / "gallery.npz", **older)
    loaded = Gallery.load(folder)
    assert loaded.looks.shape == gallery.looks.shape
    # From the small JPEG copies, so close to the originals rather than equal.
    diff = np.abs(loaded.looks.astype(int) - gallery.looks.astype(int))
    assert diff.mean() < 6


def test_gallery_with_damaged_looks_is_refused(gallery: Gallery, tmp_path: Path) -> None:
    folder = gallery.save(tmp_path / "g")
    with np.load(folder / "gallery.npz", allow_pickle=False) as arrays:
        data = {key: arrays[key] for key in arrays.files}
    data["looks"] = data["looks"][:, :10]
    np.savez(folder / "gallery.npz", **data)
    with pytest.raises(GalleryError, match="looks"):
        Gallery.load(folder)


def test_confidence_from_look_needs_a_close_look_and_a_clear_lead() -> None:
    assert confidence_from_look(0.95, 0.5) >= ACCEPT_CONFIDENCE
    assert confidence_from_look(0.95, 0.5) <= 0.9  # a look alone is never certain
    assert confidence_from_look(0.95, 0.85) == 0.0  # another name looks nearly as close
    assert confidence_from_look(0.6, 0.1) == 0.0  # not close enough to the named card
    assert confidence_from_look(0.9, 0.7) < confidence_from_look(0.9, 0.5)


def _looks(patch: np.ndarray, gallery: Gallery, name: str) -> tuple[float, float]:
    looks = look_similarities(patch, gallery, name)
    assert looks is not None
    return looks


def test_look_confirms_the_right_name_of_a_soft_card_only() -> None:
    names = [f"Look {i:02d}" for i in range(48)]
    g = Gallery()
    for name in names:
        g.enroll(name, render_card_face(name, 0))
    card = render_card_face(names[5], 0)
    soft = cv2.GaussianBlur(card, (0, 0), 3.0)
    noise = np.random.default_rng(3).normal(0, 6, soft.shape)
    soft = np.clip(soft + noise, 0, 255).astype(np.uint8)
    assert confidence_from_look(*_looks(soft, g, names[5])) >= ACCEPT_CONFIDENCE
    assert confidence_from_look(*_looks(soft, g, names[6])) == 0.0
    # The look speaks against a wrong name only when another enrolled card looks far closer.
    looks = look_similarities(soft, g, names[6])
    assert looks is not None and look_contradicts(*looks)
    right = look_similarities(soft, g, names[5])
    assert right is not None and not look_contradicts(*right)
    stranger = render_card_face("Nobody Enrolled Me", 1)
    assert all(confidence_from_look(*_looks(stranger, g, n)) == 0.0 for n in names[:10])
    # A gallery of a few cards still has a typical card (their layout): the look is used ...
    few = Gallery()
    for name in names[:5]:
        few.enroll(name, render_card_face(name, 0))
    assert confidence_from_look(*_looks(soft, few, names[4])) == 0.0  # soft is not in `few`
    # ... but not below LOOK_MIN_GALLERY references.
    small = Gallery()
    for name in names[:4]:
        small.enroll(name, render_card_face(name, 0))
    assert look_similarities(soft, small, names[3]) is None


def test_enrol_from_one_photo_in_reading_order() -> None:
    names = ["Left top", "Middle top", "Right top", "Left bottom"]
    faces = [render_card_face(n, 3) for n in names]
    photo = compose_scene(faces, np.random.default_rng(1), layout="rows", table="felt")
    cards = cards_in_reading_order(photo.image)
    assert len(cards) == len(names)
    g = Gallery()
    for name, card in zip(names, cards, strict=True):
        g.enroll(name, card)
    later = compose_scene(faces[::-1], np.random.default_rng(9), difficulty="medium")
    result = identify(later.image, g)
    for truth in later.cards:
        card = _match(result, truth.corners)
        assert card is not None and card.name == names[::-1][truth.index]


def test_name_from_filename() -> None:
    assert name_from_filename("x/Overlord of the Hauntwoods__DSK_194_normal_258.jpg") == (
        "Overlord of the Hauntwoods"
    )
    assert name_from_filename("Plain Name.png") == "Plain Name"


@pytest.fixture(scope="module")
def real_gallery(real_cards: Path) -> Gallery:
    """The photographed cards' references among a few dozen others from the same set."""
    files = sorted((real_cards / "gallery").glob("*.jpg"))
    wanted = [f for f in files if name_from_filename(f).endswith("Hauntwoods")]
    wanted += [f for f in files if name_from_filename(f).startswith("Hauntwoods")]
    wanted += [f for f in files if f not in wanted][::10]
    g = Gallery()
    g.enroll_files(wanted)
    return g


@pytest.mark.parametrize("photo", ["IMG_5981.jpg", "IMG_5982.jpg", "IMG_5985.jpg"])
def test_real_photos_at_1640_px(real_cards: Path, real_gallery: Gallery, photo: str) -> None:
    with (real_cards / "labels.csv").open(encoding="utf-8") as handle:
        truth = Counter(r["card"] for r in csv.DictReader(handle) if r["photo"] == photo)
    image = cv2.imread(str(real_cards / "photos" / photo))
    assert image is not None
    scale = 1640 / max(image.shape[:2])
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    result = identify(image, real_gallery)
    assert Counter(c.name for c in result.cards) == truth
    assert result.unknown == []


def test_partly_hidden_card_is_completed_from_its_visible_side() -> None:
    to_card = np.eye(3)  # a straight-down photo at the canonical card's scale
    x, y = 100.0, 80.0
    whole = np.array([[x, y], [x + CARD_W, y], [x + CARD_W, y + CARD_H], [x, y + CARD_H]])
    # Its bottom right corner lies under another card: the outline found is cut short.
    cut = np.array(
        [[x, y], [x + CARD_W, y], [x + CARD_W, y + 0.55 * CARD_H], [x, y + 0.8 * CARD_H]]
    )
    guesses = completed_cards(cut.astype(np.float32), to_card)
    assert guesses and max(quad_iou(g, whole) for g in guesses) > 0.95
    # A shape with no square, card-long side gives no guess.
    skew = np.array([[x, y], [x + 0.5 * CARD_W, y + 20], [x + 0.6 * CARD_W, y + 300], [x, y + 200]])
    assert completed_cards(skew.astype(np.float32), to_card) == []


def test_confidence_from_inliers_asks_more_when_other_names_line_up_too() -> None:
    # A small card whose other names get almost nothing: ~28 inliers are enough ...
    assert confidence_from_inliers(28, 3) >= ACCEPT_CONFIDENCE
    # ... but not when another name lines up nearly as much (a layout, not a card) ...
    assert confidence_from_inliers(28, 18) < ACCEPT_CONFIDENCE
    # ... nor a handful of inliers however weak the rival (a not-enrolled card's frame).
    assert confidence_from_inliers(21, 8) < 0.2
    assert confidence_from_inliers(15, 0) < ACCEPT_CONFIDENCE
    assert confidence_from_inliers(120, 10) > 0.99
    assert confidence_from_inliers(40, 40) == 0.0
    for best in range(12, 80, 4):
        assert confidence_from_inliers(best + 4, 10) >= confidence_from_inliers(best, 10)
        assert confidence_from_inliers(best, 12) <= confidence_from_inliers(best, 6)


def test_look_disowns_a_name_the_card_does_not_look_like() -> None:
    names = [f"Look {i:02d}" for i in range(48)]
    g = Gallery()
    for name in names:
        g.enroll(name, render_card_face(name, 0))
    card = cv2.GaussianBlur(render_card_face(names[5], 0), (0, 0), 2.0)
    # Half the card under a glare spot: compared cell by cell it is still itself.
    glared = card.copy()
    glared[: card.shape[0] // 3] = 255
    assert not look_disowns(card, g, names[5])
    assert not look_disowns(glared, g, names[5])
    assert look_disowns(card, g, names[6])
    assert look_disowns(render_card_face("Nobody Enrolled Me", 1), g, names[5])
    few = Gallery()  # five cards: their typical card is still their shared layout
    for name in names[:6]:
        few.enroll(name, render_card_face(name, 0))
    assert not look_disowns(card, few, names[5])
    assert look_disowns(render_card_face("Nobody Enrolled Me", 1), few, names[5])
    small = Gallery()  # too few references for a typical card: the look has no say
    for name in names[:4]:
        small.enroll(name, render_card_face(name, 0))
    assert not look_disowns(card, small, names[3])


def cycle_card(art: str) -> np.ndarray:
    """A card of one cycle: the frame, title and rules text of a generated "Cycle" face, with
    the art of the generated face named ``art``."""
    card = render_card_face("Cycle", 0)
    card[58:278, 14:322] = render_card_face(art, 0)[58:278, 14:322]  # the art box
    return card


def cycle_gallery(rival: np.ndarray) -> Gallery:
    """48 generated cards, "Cycle One" (the cycle with "Art One") and "Cycle Two" (``rival``)."""
    g = Gallery()
    for name in (f"Look {i:02d}" for i in range(48)):
        g.enroll(name, render_card_face(name, 0))
    g.enroll("Cycle One", cycle_card("Art One"))
    g.enroll("Cycle Two", rival)
    return g


def named_cycle_card(confidence: float, inliers: int, rival_inliers: int) -> Card:
    """A "Cycle One" fit over a whole card image, with the given counts."""
    h, w = render_card_face("Cycle", 0).shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return Card("Cycle One", confidence, corners, inliers=inliers, rival_inliers=rival_inliers)


def kept_by_last_word(g: Gallery, image: np.ndarray, card: Card) -> bool:
    """Does the last word keep ``card``'s name for ``image`` (else it reports it unknown)?"""
    named, unknown = last_word(image, g, [card], [])
    assert len(named) + len(unknown) == 1
    return bool(named)


def test_a_name_resting_on_shared_rules_text_needs_the_look_to_confirm_it() -> None:
    """A cycle: two enrolled cards with the same frame and rules text and different art. A
    third card of the cycle, not enrolled, lines up the shared text with both names (many
    inliers, a close rival), so only its art can tell, and the look must confirm the name."""
    g = cycle_gallery(cycle_card("Art Two"))

    def kept(image: np.ndarray, inliers: int, rival: int) -> bool:
        return kept_by_last_word(g, image, named_cycle_card(0.6, inliers, rival))

    assert shares_layout(named_cycle_card(0.6, 77, 61))
    assert not shares_layout(named_cycle_card(1.0, 120, 20))
    stranger = cycle_card("Art Three")
    # Its look is closer to "Cycle One" than to any other name: with a weak rival it passes ...
    assert kept(stranger, 120, 20)
    # ... but a close rival says the features saw only the shared text: it is disowned.
    assert not kept(stranger, 77, 61)
    assert kept(cycle_card("Art One"), 77, 61)  # the enrolled card itself is confirmed
    assert kept(cv2.GaussianBlur(cycle_card("Art One"), (0, 0), 2.0), 77, 61)


def test_a_cycle_mate_lined_up_two_thirds_by_its_rival_is_not_named() -> None:
    """A card that is not enrolled shares its cycle's frame, title bar and rules text with an
    enrolled card, and a second enrolled card of the cycle shares only part of that text (its
    title and first rules line differ): the rival lines up about two thirds of the name's
    inliers, and the look, closer to the name than to any other but not close, let it through
    as a name (the strangers family, seed 2027: an Enduring Courage named Enduring Vitality,
    share 0.67, look 0.57). Above a 60 % share the look must confirm the name; the enrolled
    card itself still passes. The inlier counts are given, not fitted: how many inliers a
    rival lines up on a generated scene differs between OpenCV builds."""
    rival = cycle_card("Art Two")
    own = render_card_face("Cycle Two", 0)
    rival[:58] = own[:58]  # its own title bar ...
    rival[278:315] = own[278:315]  # ... and first rules line
    g = cycle_gallery(rival)

    def kept(image: np.ndarray, inliers: int, rival_inliers: int) -> bool:
        return kept_by_last_word(g, image, named_cycle_card(0.74, inliers, rival_inliers))

    stranger = cycle_card("Art Three")
    assert shares_layout(named_cycle_card(0.74, 67, 45))
    assert not kept(stranger, 67, 45)  # share 0.67: the look decides, and disowns it
    assert kept(stranger, 67, 20)  # share 0.3: closer to Cycle One than to any other name
    assert kept(cycle_card("Art One"), 67, 45)  # the enrolled card itself is confirmed


@pytest.mark.parametrize("key", ["descriptors", "owner", "looks", "word_order"])
def test_gallery_with_fractional_numbers_where_whole_ones_belong_is_refused(
    gallery: Gallery, tmp_path: Path, key: str
) -> None:
    folder = gallery.save(tmp_path / "g")
    with np.load(folder / "gallery.npz", allow_pickle=False) as arrays:
        data = {name: arrays[name] for name in arrays.files}
    damaged = data[key].astype(np.float64)
    damaged.flat[0] = np.nan
    data[key] = damaged
    np.savez(folder / "gallery.npz", **data)
    with pytest.raises(GalleryError, match=f"{key} are float64"):
        Gallery.load(folder)


@pytest.mark.parametrize("seed", [30, 34, 40, 66, 81, 96])
def test_a_stranger_whose_outline_is_lost_is_still_reported(gallery: Gallery, seed: int) -> None:
    """Hard scenes where the stranger's outline is not found (it touches a card, lies steep or
    its edge is faint): its crowd of unexplained features still reports it unknown, with a
    reason and a pick list - never missed, never named (issue 14, section 4). Seeds 66, 81 and
    96 were missed before leftovers searched card-sized windows on the table plane: the crowd
    broke into scraps (a plain art box) or ran into a neighbour's, so none was one card's size."""
    names = NAMES[5:11]
    faces = [render_card_face(n, 0) for n in names]
    faces.append(render_card_face("Nobody enrolled me", 3))
    scene = compose_scene(faces, np.random.default_rng(seed), difficulty="hard")
    result = identify(scene.image, gallery)
    stranger = next(c for c in scene.cards if c.index == 6)
    assert not any(inside(stranger.center, c.corners) for c in result.cards)
    reports = [u for u in result.unknown if inside(stranger.center, u.corners)]
    assert len(reports) == 1 and len(reports[0].candidates) >= 3
    # A report over the card says it is not enrolled; one over part of it (a window laid at
    # its crowd, partly on the table) judges the blur of what it covers, and may say either.
    if quad_iou(reports[0].corners, stranger.corners) >= 0.5:
        assert reports[0].reason == REASON_NOT_IN_GALLERY
    else:
        assert reports[0].reason in (REASON_NOT_IN_GALLERY, REASON_TOO_BLURRED)
    assert {c.name for c in result.cards} <= set(names)


def test_card_windows_take_one_card_from_two_side_by_side() -> None:
    """Two cards' crowds run together are split by the card-sized window: the busiest window
    lies on one card, and holds none of the other's features."""
    from vision.leftovers import _busiest_window, _in_window

    rng = np.random.default_rng(5)
    one = rng.uniform([0, 0], [CARD_W, CARD_H], size=(300, 2))
    other = rng.uniform([CARD_W + 20, 0], [2 * CARD_W + 20, CARD_H], size=(200, 2))
    window = _busiest_window(np.concatenate([one, other]))
    assert window is not None
    assert _in_window(one, window).mean() > 0.85
    assert _in_window(other, window).mean() < 0.15


def _card_in_perspective(seed: int, features: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A card seen as a trapezoid (its quad in the photo, the photo-to-card transform) and
    ``features`` spread evenly over it, in photo pixels."""
    quad = np.array([[100, 100], [300, 100], [360, 400], [40, 400]], np.float32)
    on_plane = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    to_card = cv2.getPerspectiveTransform(quad, on_plane)
    spread = np.random.default_rng(seed).uniform(
        [8, 8], [CARD_W - 8, CARD_H - 8], size=(features, 2)
    )
    on_photo = cv2.perspectiveTransform(spread.reshape(1, -1, 2), inverse(to_card))[0]
    return quad, to_card, on_photo


def test_a_card_window_in_perspective_is_judged_crowded_over_its_own_quad() -> None:
    """A stranger seen in perspective is a trapezoid: its crowd is as dense over the card as
    any card's, but the photo's upright rectangle around it holds bare table besides (the
    warm-cast lighting scene 27 lost its stranger that way, 148 features against a bar of 150).
    The window is judged over the quad it reports, so it is kept."""
    from vision.leftovers import _card_windows

    trapezoid, to_card, pool = _card_in_perspective(3, 180)
    # 180 features: 21 per 10,000 px of the reported quad, 19 of the photo's rectangle.
    upright = cv2.minAreaRect(pool.astype(np.float32))
    grown_upright = upright[1][0] * upright[1][1] * tuning.LEFTOVER_GROW**2
    assert len(pool) < tuning.LEFTOVER_WINDOW_DENSITY * grown_upright / 10000.0
    xs, ys = pool[:, 0].astype(np.int64), pool[:, 1].astype(np.int64)
    table = (xs, ys, np.zeros((500, 500), np.uint8))
    regions = _card_windows(pool, 1.0, to_card, table)
    assert len(regions) == 1
    assert quad_iou(regions[0], trapezoid) > 0.8
    assert len(pool) >= tuning.LEFTOVER_WINDOW_DENSITY * quad_area(regions[0]) / 10000.0


def test_a_card_windows_crowd_counts_every_free_feature_in_its_quad() -> None:
    """The crowded cells only place the window: the card's sparser parts (an edge, a plain
    band) hold free features outside them that lie on the card all the same. The window is
    judged on every free feature in the quad it reports."""
    from vision.leftovers import _card_windows

    _, to_card, features = _card_in_perspective(4, 190)
    crowded = features[:140]  # the rest lie in cells too sparse to pass the crowding
    xs, ys = features[:, 0].astype(np.int64), features[:, 1].astype(np.int64)
    table = (xs, ys, np.zeros((500, 500), np.uint8))
    regions = _card_windows(crowded, 1.0, to_card, table)
    assert len(regions) == 1
    bar = tuning.LEFTOVER_WINDOW_DENSITY * quad_area(regions[0]) / 10000.0
    assert len(crowded) < bar <= len(features)


def test_consensus_plane_is_the_one_most_named_cards_agree_with() -> None:
    """One card with bad corners (a plane far off) does not size the table, however many
    inliers it has."""
    from vision.plane import card_sized, consensus_plane
    from vision.result import Card

    def card(x: float, y: float, inliers: int, stretch: float = 1.0) -> Card:
        corners = np.array(
            [
                [x, y],
                [x + CARD_W / 2, y],
                [x + CARD_W / 2, y + CARD_H / 2 * stretch],
                [x, y + CARD_H / 2 * stretch],
            ],
            np.float32,
        )
        return Card("c", 0.9, corners, inliers=inliers)

    cards = [card(0, 0, 50), card(400, 0, 60), card(0, 400, 40), card(400, 400, 300, 3.5)]
    plane = consensus_plane(cards)
    assert plane is not None
    assert card_sized(cards[0].corners, plane) and not card_sized(cards[3].corners, plane)


def test_positional_matching_with_nothing_close_gives_empty_pairs() -> None:
    from vision.name import positional_matches

    here = np.array([[10.0, 10.0]], np.float32)
    mine = np.zeros((1, 32), np.uint8)
    far_off = np.full((1, 32), 255, np.uint8)  # 256 bits away: no match
    pairs = positional_matches(here, mine, [(here, far_off), (here, mine), (here + 200, mine)])
    assert [(list(i), list(j)) for i, j in pairs] == [([], []), ([0], [0]), ([], [])]


def test_positional_matching_keeps_each_features_closest_descriptor_within_the_radius() -> None:
    """The grid search finds what comparing every pair would: for each reference, a patch
    feature is paired when some reference feature within the radius is close enough, and
    then with one at the smallest distance; also near the card's edges and corners, where the
    search reaches past the card."""
    from vision.geometry import CARD_H, CARD_W
    from vision.name import ReferenceCells, positional_matches

    rng = np.random.default_rng(5)
    r = tuning.POSITION_RADIUS

    def features(n: int) -> tuple[np.ndarray, np.ndarray]:
        points = rng.uniform((0, 0), (CARD_W, CARD_H), (n, 2)).astype(np.float32)
        w, h = CARD_W - 0.01, CARD_H - 0.01  # corners, edges and grid lines
        edges = [[0, 0], [w, h], [0, h], [w, 0], [r, r], [2 * r, 3 * r - 0.01], [w / 2, 0]]
        points[:7] = np.array(edges, np.float32)
        return points, rng.integers(0, 256, (n, 32), dtype=np.uint8)

    points, descriptors = features(300)
    refs = []
    for _ in range(4):
        ref_points, ref_desc = features(400)
        copied = rng.integers(0, 300, 150)  # near, close copies of patch features
        ref_desc[:150] = descriptors[copied]
        ref_desc[:150, :3] ^= rng.integers(0, 256, (150, 3), dtype=np.uint8)
        ref_points[:150] = points[copied] + rng.normal(0, r / 2, (150, 2))
        refs.append((np.clip(ref_points, 0, (CARD_W - 0.01, CARD_H - 0.01)), ref_desc))
    bits = np.unpackbits(descriptors, axis=1).astype(np.int32)
    found = positional_matches(points, descriptors, refs)
    # The references' grid layouts made beforehand (as a gallery keeps them) change nothing.
    laid_out = positional_matches(
        points, descriptors, refs, [ReferenceCells.of(p) for p, _ in refs]
    )
    assert [(i.tolist(), j.tolist()) for i, j in laid_out] == [
        (i.tolist(), j.tolist()) for i, j in found
    ]
    for (ref_points, ref_desc), (ii, jj) in zip(refs, found, strict=True):
        hamming = (bits[:, None, :] != np.unpackbits(ref_desc, axis=1)[None, :, :]).sum(axis=2)
        offset = points[:, None, :] - ref_points[None, :, :]
        within = (offset**2).sum(axis=2) < r * r
        allowed = np.where(within & (hamming <= tuning.MAX_DESCRIPTOR_DISTANCE), hamming, 999)
        expected = np.flatnonzero(allowed.min(axis=1) < 999)
        assert len(expected) > 50  # the test pairs many features
        assert ii.tolist() == expected.tolist()
        assert (allowed[ii, jj] == allowed.min(axis=1)[ii]).all()


def test_a_references_grid_layout_is_made_once_per_gallery_entry(gallery: Gallery) -> None:
    """Naming lays each reference's features out on its grid once per gallery entry, and
    that layout is the one made from the entry's features then and there."""
    from vision.name import ReferenceCells, reference_cells

    kept = reference_cells(gallery, 1)
    assert reference_cells(gallery, 1) is kept
    fresh = ReferenceCells.of(gallery.entry_features(1)[0])
    for field in ("order", "ends", "x", "y", "tie_cell"):
        assert getattr(kept, field).tolist() == getattr(fresh, field).tolist()
    assert reference_cells(gallery, 2) is not kept


def _first_card_of_an_easy_scene(gallery: Gallery) -> tuple[np.ndarray, np.ndarray, int, str]:
    """A generated easy scene's photo as the pipeline sees it, and its first card: true corners,
    its gallery entry and name."""
    from vision.photo import Photo

    faces = [render_card_face(n, 0) for n in NAMES[:5]]
    scene = compose_scene(faces, np.random.default_rng(11), difficulty="easy", table="wood")
    card = scene.cards[0]
    name = NAMES[card.index]
    entry = next(i for i, e in enumerate(gallery.entries) if e.name == name)
    return Photo.of(scene.image).image, card.corners.astype(np.float32), entry, name


@pytest.mark.parametrize(("degrees", "scale"), [(12, 1.08), (-12, 1.08)])
def test_a_card_found_at_corners_a_little_off_is_fitted_again(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch, degrees: float, scale: float
) -> None:
    """Corners fitted from a few photo features (a steep or dim photo) can be a little off: the
    rectified card then lines up with its reference in few places and its name is unsure. It
    is rectified again at the corners its own inliers give and named surely, with the card's
    true corners (issue 14: the seed-2026 scene under exposure x0.35 lost a steep table)."""
    from vision.name import name_region

    image, truth, entry, card_name = _first_card_of_an_easy_scene(gallery)
    centre = truth.mean(axis=0)
    turn = np.deg2rad(degrees)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    off = (((truth - centre) @ rotation.T) * scale + centre).astype(np.float32)

    found = name_region(image, off, gallery, [entry], refit=True)
    assert found is not None
    corners, naming = found
    assert naming.name == card_name and naming.confidence >= 0.9
    assert quad_iou(corners, truth) > 0.9

    monkeypatch.setattr("vision.tuning.REFIT_BELOW", 0.0)  # no second fit: unsure, corners off
    once = name_region(image, off, gallery, [entry], refit=True)
    assert once is not None and once[1].confidence < 0.9
    assert once[1].inliers < naming.inliers / 2
    assert quad_iou(once[0], truth) < quad_iou(corners, truth) - 0.05


def test_the_last_look_runs_only_where_an_unnamed_card_may_lie(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vision.find import NO_VOTES

    scene = compose_scene([render_card_face("Card 03", 0)], np.random.default_rng(5))
    photo = Photo.of(scene.image)
    corners = scene.cards[0].corners.astype(np.float32)
    named = [Card("Card 03", 0.99, corners, inliers=40)]
    rng = np.random.default_rng(1)
    on_card = corners.mean(axis=0) + rng.uniform(-40, 40, (300, 2))
    h, w = photo.gray.shape
    table = rng.uniform([0, 0], [w, h], (25, 2))  # a pattern's few corners over the table
    table = table[[not inside(p, corners) for p in table]]
    # A card the first look saw but could not name: a card-sized crowd away from the named card.
    spots = np.array(
        [[w / 5, h / 5], [4 * w / 5, h / 5], [w / 5, 4 * h / 5], [4 * w / 5, 4 * h / 5]]
    )
    far = spots[np.argmax(np.linalg.norm(spots - corners.mean(axis=0), axis=1))]
    crowd = far + rng.uniform(-60, 60, (80, 2))
    searches: list[int] = []

    def counting_features(*args, **kwargs):
        searches.append(1)
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)

    monkeypatch.setattr(relook, "photo_features", counting_features)
    quiet = np.vstack([on_card, table]).astype(np.float32)
    relook.last_look(photo, gallery, named, [], ACCEPT_CONFIDENCE, quiet, NO_VOTES)
    assert searches == []
    busy = np.vstack([on_card, table, crowd]).astype(np.float32)
    relook.last_look(photo, gallery, named, [], ACCEPT_CONFIDENCE, busy, NO_VOTES)
    assert searches == [1]
    # A card reported unknown may yet be named by the last look: it runs without a crowd.
    unknown = [
        UnknownCard(
            np.array(
                [far + [-90, -120], far + [90, -120], far + [90, 120], far + [-90, 120]], np.float32
            ),
            REASON_NOT_IN_GALLERY,
        )
    ]
    relook.last_look(photo, gallery, named, unknown, ACCEPT_CONFIDENCE, quiet, NO_VOTES)
    assert searches == [1, 1]
    # ... unless the first look saw it in full (a sharp stranger): a finer search adds nothing,
    # and its features are no crowd of an unexplained card.
    seen_in_full = np.vstack([quiet, far + rng.uniform(-80, 80, (400, 2))]).astype(np.float32)
    relook.last_look(photo, gallery, named, unknown, ACCEPT_CONFIDENCE, seen_in_full, NO_VOTES)
    assert searches == [1, 1]


def test_the_last_look_searches_a_crowd_only_after_a_near_miss_or_in_a_steep_photo(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crowd of first-look features away from the named cards sends the last look only when
    some of its votes lie as their reference's features lie on a card of the table's card size
    (a card the first look saw but could not fit), or when the photo is taken steeply. A
    phone's, a score pad's or dice's crowd votes by chance (clutter photos of seeds 2026, 2032
    and 2034: the search ran on 27 of 30 and found nothing there)."""
    from vision.find import Votes
    from vision.geometry import CARD_H, CARD_W, quad_area

    scene = compose_scene([render_card_face("Card 03", 0)], np.random.default_rng(5))
    photo = Photo.of(scene.image)
    corners = scene.cards[0].corners.astype(np.float32)
    named = [Card("Card 03", 0.99, corners, inliers=40)]
    h, w = photo.gray.shape
    spots = np.array(
        [[w / 5, h / 5], [4 * w / 5, h / 5], [w / 5, 4 * h / 5], [4 * w / 5, 4 * h / 5]]
    )
    far = spots[np.argmax(np.linalg.norm(spots - corners.mean(axis=0), axis=1))]
    rng = np.random.default_rng(1)
    crowd = (far + rng.uniform(-60, 60, (80, 2))).astype(np.float32)
    searches: list[int] = []

    def counting_features(*args, **kwargs):
        searches.append(1)
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)

    monkeypatch.setattr(relook, "photo_features", counting_features)
    entry = 1
    features = np.flatnonzero(gallery.owner == entry)[:6]
    entries = np.full(len(features), entry, np.int64)

    def placed(size: float) -> np.ndarray:
        """The reference's features where they lie on a card ``size`` times the named card's,
        turned 30 degrees, at the crowd."""
        short_side = np.sqrt(quad_area(corners * photo.scale) * CARD_W / CARD_H)
        turn = np.deg2rad(30.0)
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        scaled = rotation * size * short_side / CARD_W
        centred = gallery.points[features] - np.array([CARD_W / 2, CARD_H / 2], np.float32)
        return (centred @ scaled.T + far).astype(np.float32)

    def last_look(votes: Votes) -> None:
        relook.last_look(photo, gallery, named, [], ACCEPT_CONFIDENCE, crowd, votes)

    by_chance = Votes(crowd[: len(features)], entries, features)
    last_look(by_chance)
    assert searches == []
    last_look(Votes(placed(3.0), entries, features))  # a card three times too big
    assert searches == []
    last_look(Votes(placed(1.0), entries, features))  # a card the first look nearly fitted
    assert searches == [1]
    # In a photo taken steeply a far card's features hardly vote: any crowd is searched there.
    cx, cy = corners.mean(axis=0)
    seen_steeply = np.array(
        [[cx - 60, cy - 80], [cx + 60, cy - 80], [cx + 110, cy + 80], [cx - 110, cy + 80]],
        np.float32,
    )
    steep = [Card("Card 03", 0.99, seen_steeply, inliers=40)]
    relook.last_look(photo, gallery, steep, [], ACCEPT_CONFIDENCE, crowd, by_chance)
    assert searches == [1, 1]


def test_the_table_view_is_searched_only_where_an_unnamed_card_may_lie(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = compose_scene([render_card_face("Card 03", 0)], np.random.default_rng(5))
    photo = Photo.of(scene.image)
    h, w = photo.gray.shape
    cx, cy = w / 2, h / 2
    # A card seen steeply (its far edge much narrower): the photo needs a straight-down view.
    steep = np.array(
        [[cx - 80, cy - 110], [cx + 80, cy - 110], [cx + 100, cy + 110], [cx - 100, cy + 110]],
        np.float32,
    )
    flat = np.array(
        [[cx - 90, cy - 125], [cx + 90, cy - 125], [cx + 90, cy + 125], [cx - 90, cy + 125]],
        np.float32,
    )
    rng = np.random.default_rng(1)
    on_card = np.array([cx, cy]) + rng.uniform(-50, 50, (300, 2))
    table = rng.uniform([0, 0], [w, h], (25, 2))
    table = table[[not inside(p, flat) and not inside(p, steep) for p in table]]
    crowd = np.array([w / 6, h / 6]) + rng.uniform(-60, 60, (80, 2))
    quiet = np.vstack([on_card, table]).astype(np.float32)
    busy = np.vstack([on_card, table, crowd]).astype(np.float32)
    searches: list[int] = []

    def counting_search(*args, **kwargs):
        searches.append(1)
        return []

    monkeypatch.setattr(relook, "find_in_table_view", counting_search)

    def look(corners: np.ndarray, points: np.ndarray) -> None:
        named = [Card("Card 03", 0.99, corners, inliers=40)]
        more, weak = relook.second_look(photo, gallery, named, [], ACCEPT_CONFIDENCE, points)
        assert more == [] and weak == []

    look(steep, quiet)  # every card the first look saw is named: nothing to search for
    assert searches == []
    look(steep, busy)  # a card-sized crowd of features away from the named card
    assert searches == [1]
    look(flat, busy)  # a photo taken from above has no other view to search
    assert searches == [1]


def test_a_region_named_again_for_the_same_photo_reuses_its_patch_and_features(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An outline is rectified for its shortlist, named by position and then again by
    descriptors alone: while one photo is identified its patch and features are made once,
    and the namings are the same as when each is made afresh."""
    import vision.name as name

    image, corners, entry, _ = _first_card_of_an_easy_scene(gallery)
    made: list[int] = []
    real_features = name.card_features

    def counted_features(*args):
        made.append(1)
        return real_features(*args)

    monkeypatch.setattr(name, "card_features", counted_features)

    afresh = [
        name.name_region(image, corners, gallery, [entry], aligned) for aligned in (True, False)
    ]
    assert len(made) == 2
    made.clear()
    with name.region_memo():
        patch = name.rectified(image, corners)
        assert name.rectified(image, corners) is patch
        again = [
            name.name_region(image, corners, gallery, [entry], aligned) for aligned in (True, False)
        ]
        assert len(made) == 1
        assert name.rectified(image.copy(), corners) is not patch  # another picture
    for fresh_found, memo_found in zip(afresh, again, strict=True):
        assert fresh_found is not None and memo_found is not None
        (fresh_corners, fresh), (memo_corners, memo) = fresh_found, memo_found
        assert np.array_equal(fresh_corners, memo_corners)
        assert (fresh.name, fresh.inliers, fresh.confidence) == (
            memo.name,
            memo.inliers,
            memo.confidence,
        )


def test_matching_by_descriptors_alone_compares_only_the_references_given(
    gallery: Gallery,
) -> None:
    """An outline's descriptor-only naming is checked against the references its features
    voted for, not the look-alike signatures a position-by-position naming adds."""
    from vision.name import name_region

    image, corners, entry, card_name = _first_card_of_an_easy_scene(gallery)

    by_position = name_region(image, corners, gallery, [entry])
    by_descriptors = name_region(image, corners, gallery, [entry], aligned=False)
    assert by_position is not None and by_descriptors is not None
    assert len(by_position[1].scores) > 1  # the closest signatures joined
    assert set(by_descriptors[1].scores) == {card_name}
    assert by_descriptors[1].name == card_name


@pytest.mark.parametrize("pair_bits", [22, 3])
def test_each_querys_nearest_pair_is_its_first_at_the_smallest_distance(
    monkeypatch: pytest.MonkeyPatch, pair_bits: int
) -> None:
    """Finding's nearest pair per photo feature, packed with its distance in 32 bits or (when
    there are too many pairs to number in 32) in 64: a tie goes to the pair listed first."""
    import vision.find as find

    monkeypatch.setattr(find, "_PAIR_BITS_32", pair_bits)  # 3 bits: 8 pairs force 64
    query_ids = np.array([0, 0, 0, 2, 2, 5, 5, 5, 5, 5], np.int64)
    dist = np.array([40, 12, 12, 256, 0, 99, 7, 64, 7, 200], np.int32)
    group_start, group_of_pair, best_pair = find._best_per_query(query_ids, dist)
    assert group_start.tolist() == [0, 3, 5]
    assert group_of_pair.tolist() == [0, 0, 0, 1, 1, 2, 2, 2, 2, 2]
    assert best_pair.tolist() == [1, 4, 6]


def test_runs_expand_to_their_members_in_order() -> None:
    """Candidate slots and positional pairs are runs of consecutive indices, expanded run
    after run; empty runs add nothing."""
    from vision.features import run_members

    starts = np.array([5, 0, 9, 2], np.int32)
    lengths = np.array([3, 0, 1, 2], np.int64)
    assert run_members(starts, lengths).tolist() == [5, 6, 7, 9, 2, 3]
    assert run_members(starts[:0], lengths[:0]).tolist() == []


def test_repeated_runs_match_numpy_repeat() -> None:
    """Each candidate's query id is its run's value repeated (np.repeat, made by a running
    sum): empty runs add nothing, values may fall as well as rise, and an empty run first or
    last changes nothing."""
    from vision.features import repeat_runs, run_members

    values = np.array([4, 4, 1, 7, -2, 3], np.int64)
    lengths = np.array([0, 2, 3, 0, 1, 0], np.int32)
    assert repeat_runs(values, lengths).tolist() == [4, 4, 1, 1, 1, -2]
    assert repeat_runs(values, lengths).dtype == np.int64
    assert repeat_runs(values[:0], lengths[:0]).tolist() == []
    assert repeat_runs(values, np.zeros(6, np.int32)).tolist() == []
    rng = np.random.default_rng(7)
    for _ in range(50):
        runs = rng.integers(0, 4, 30)
        firsts = rng.integers(0, 1000, 30)
        assert np.array_equal(repeat_runs(firsts, runs), np.repeat(firsts, runs))
        members = [i for a, n in zip(firsts, runs, strict=True) for i in range(a, a + n)]
        assert run_members(firsts, runs).tolist() == members


def test_a_sharp_card_its_photo_features_name_beyond_doubt_is_not_cut_out_again(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The photo's own features on a sharp card, brought upright by its fit, name it as surely
    as the cut-out card's features, and place it as exactly: no second ORB pass. A soft card
    (a shaken camera) is still cut out and named from its own features."""
    import vision.features as features
    import vision.name as name
    from vision.find import find_hypotheses

    faces = [render_card_face(n, 0) for n in NAMES[:5]]
    scene = compose_scene(faces, np.random.default_rng(11), difficulty="easy", table="wood")
    cut_outs: list[int] = []
    real_card_features = features.card_features

    def counting_card_features(*args, **kwargs):
        cut_outs.append(1)
        return real_card_features(*args, **kwargs)

    monkeypatch.setattr(name, "card_features", counting_card_features)
    monkeypatch.setattr(name, "patch_features", lambda patch: counting_card_features(patch, 500))

    def named(image: np.ndarray) -> list[Card]:
        photo = Photo.of(image)
        ranked = features.ranked_photo_features(photo.gray, tuning.PHOTO_FEATURES)
        found, _ = find_hypotheses(ranked[0], ranked[1], gallery, photo.work_size)
        cut_outs.clear()
        cards, _ = name.name_hypotheses(
            photo.image, photo.scale, gallery, found, ACCEPT_CONFIDENCE, photo_points=ranked
        )
        return cards

    cards = named(scene.image)
    assert cut_outs == [] and len(cards) >= 4
    for card in cards:
        truth = next(c for c in scene.cards if NAMES[c.index] == card.name)
        assert card.confidence >= tuning.LOOSE_CONFIDENCE
        assert quad_iou(card.corners, truth.corners) > 0.95
    shaken = cv2.blur(scene.image, (15, 1))
    soft_cards = named(shaken)
    assert len(cut_outs) >= len(soft_cards) >= 2  # soft cards: named from their own features


def test_a_card_named_from_the_photos_features_counts_inliers_at_a_cut_out_cards_budget(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card the photo shows big holds far more of the photo's features than the 500 a
    cut-out card gets; naming it from all of them would count twice the inliers, and the
    card with most inliers gives the table plane. Only its strongest PATCH_FEATURES are
    matched, so its inliers stay those a cut-out naming counts."""
    import vision.features as features
    import vision.name as name
    from vision.find import find_hypotheses

    big = render_card_face(NAMES[2], 0, size=(560, 780))
    table = np.full((1232, 1640, 3), (60, 90, 120), np.uint8)
    table[200 : 200 + big.shape[0], 500 : 500 + big.shape[1]] = big
    photo = Photo.of(table)
    ranked = features.ranked_photo_features(photo.gray, tuning.PHOTO_FEATURES)
    found, _ = find_hypotheses(ranked[0], ranked[1], gallery, photo.work_size)
    hyp = next(h for h in found if gallery.entries[h.entry].name == NAMES[2])
    # (named alone, the card would be cut out again for the table plane: asked directly)
    height, width = big.shape[:2]
    corners = np.array(
        [[500, 200], [500 + width, 200], [500 + width, 200 + height], [500, 200 + height]]
    )
    on_card = int(np.count_nonzero(inside_quad(ranked[0], corners)))
    assert on_card > 2 * tuning.PATCH_FEATURES  # the premise: a big card, many features

    matched: list[np.ndarray] = []
    real_name_features = name._name_features

    def recording(feats, *args, **kwargs):
        matched.append(feats[0])
        return real_name_features(feats, *args, **kwargs)

    monkeypatch.setattr(name, "_name_features", recording)
    # the corners the hypothesis gives, as name_hypotheses passes them. How far the fit may
    # move from them, and whether its inliers spread enough to move them at all, are other
    # tests' matters: on the Pi's OpenCV this card's 500 strongest features bunch on 8 % of it
    # and their fit swings 9 % of the card (so it is cut out there); here only the budget is
    # asked about.
    monkeypatch.setattr(tuning, "PHOTO_NAMING_MAX_SHIFT", 1.0)
    monkeypatch.setattr(tuning, "REFINE_MIN_COVER", 0.0)
    found_corners = corners_from_homography(
        np.diag([1 / photo.scale, 1 / photo.scale, 1.0]) @ hyp.homography
    )
    settled = name._settled_by_photo_features(
        photo.image, found_corners, hyp, gallery, [hyp.entry], ranked
    )
    assert settled is not None and settled[1].name == NAMES[2]
    assert len(matched) == 1 and len(matched[0]) == tuning.PATCH_FEATURES
    cut_out = name.name_region(table, settled[0], gallery, [hyp.entry])
    assert cut_out is not None and cut_out[1].name == NAMES[2]
    assert settled[1].inliers <= 1.3 * cut_out[1].inliers


def test_an_outline_no_voting_feature_lies_in_is_reported_without_naming(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Naming an outline costs ~50 ms of turns; one that none of the photo's voting features
    lies in (a knot in the wood, a smear) is still reported by its edges but not named. A photo
    whose features voted nowhere has only its outlines: they are named as before."""
    import vision.outlines as outlines
    from vision.features import photo_features
    from vision.find import NO_VOTES, Votes, find_hypotheses

    faces = [render_card_face(NAMES[3], 0)]
    scene = compose_scene(faces, np.random.default_rng(5), difficulty="easy", table="wood")
    photo = Photo.of(scene.image)
    points, descriptors = photo_features(photo.gray, tuning.PHOTO_FEATURES)
    _, votes = find_hypotheses(points, descriptors, gallery, photo.work_size)
    quads = photo.outlines()
    namings: list[int] = []
    real_name_region = outlines.name_region

    def counted(*args, **kwargs):
        namings.append(1)
        return real_name_region(*args, **kwargs)

    monkeypatch.setattr(outlines, "name_region", counted)

    def named_by_outline(votes: Votes) -> tuple[list[str], int, int]:
        namings.clear()
        cards, unknown, _ = outlines.name_outlines(
            photo, gallery, votes, quads, [], ACCEPT_CONFIDENCE
        )
        return [c.name for c in cards], len(unknown), len(namings)

    assert named_by_outline(votes)[0] == [NAMES[3]]
    assert named_by_outline(NO_VOTES)[0] == [NAMES[3]]
    elsewhere = Votes(votes.points + np.float32(10 * max(photo.work_size)), votes.entries)
    names, reported, tries = named_by_outline(elsewhere)
    assert names == [] and tries == 0
    assert reported >= 1  # the card's outline is still a card-shaped thing with edges


def _outline_namer(gallery: Gallery):
    """An outline namer over an easy scene of one enrolled card, and that card's outline."""
    from vision.find import NO_VOTES
    from vision.outlines import _OutlineNamer

    faces = [render_card_face(NAMES[3], 0)]
    scene = compose_scene(faces, np.random.default_rng(5), difficulty="easy", table="wood")
    photo = Photo.of(scene.image)
    quads = photo.outlines()
    assert quads, "the easy scene's card has an outline"
    return _OutlineNamer(photo, gallery, NO_VOTES, ACCEPT_CONFIDENCE, []), quads[0]


def test_descriptor_only_outline_matching_tries_the_turns_naming_by_position_tries(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Naming by position tries both ends of an outline as its top (all four sides of a
    squarish one); matching by descriptors alone tries the same turns: ORB's descriptors are
    only roughly the same half a turn round, and some cards are named only in one half."""
    namer, quad = _outline_namer(gallery)
    asked: list[tuple[tuple[int, ...], bool]] = []

    def unnamed(quad, shortlist, shifts, aligned):
        asked.append((tuple(shifts), aligned))
        return None

    monkeypatch.setattr(namer, "best_turn", unnamed)
    assert namer.name(quad) is None
    assert asked == [((0, 2), True), ((0, 2), False)]
    # A square outline: its long sides are uncertain.
    centre = quad.mean(axis=0)
    side = float(np.linalg.norm(quad[1] - quad[0]))
    square = centre + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * side / 2
    asked.clear()
    namer.name(square.astype(np.float32))
    assert asked == [((0, 1, 2, 3), True), ((0, 1, 2, 3), False)]
    # Past the photo's budget of namings: two turns by position, none by descriptors.
    namer.tries = tuning.MAX_OUTLINE_TRIES
    asked.clear()
    namer.name(square.astype(np.float32))
    assert asked == [((0, 2), True), ((), False)]


def test_a_descriptor_only_fit_that_kept_the_outline_is_not_checked_again(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A descriptor-only name is checked by position at the corners its fit found; when the
    fit left the outline's corners as they were (in any turn), that check would repeat the
    naming by position just made there, so it is skipped."""
    import vision.outlines as outlines
    from vision.name import Naming

    namer, quad = _outline_namer(gallery)
    checks: list[np.ndarray] = []

    def recorded(image, corners, *args, **kwargs):
        checks.append(np.asarray(corners))
        return None

    monkeypatch.setattr(outlines, "name_region", recorded)
    naming = Naming(0, NAMES[3], 12, 0, 0.9, None, {NAMES[3]: 12})
    for turn in range(4):
        kept = np.roll(quad, -turn, axis=0)
        assert namer.confirmed(quad, (kept, naming), [0]) is None
    assert checks == []
    moved = quad + np.float32(6.0)
    assert namer.confirmed(quad, (moved, naming), [0]) is None
    assert len(checks) == 1 and np.array_equal(checks[0], moved)


def test_a_fanned_card_the_photos_features_fit_askew_is_cut_out_and_named_again(
    real_cards: Path,
) -> None:
    """A fanned card shows 35-50 % of itself: a fit of the photo's own features on that part
    can swing the hidden corners far off (held-out seed 2034's fan photo 1: The Mindskinner
    turned 46 px, and the two cards beside it dropped out of the answer). A photo-feature
    naming whose corners moved more than PHOTO_NAMING_MAX_SHIFT of the card from where the
    find step put them is cut out and named again: every card of that hand is answered."""
    from vision.bench.families import family_photos, stranger_faces
    from vision.bench.main import families_gallery

    gallery, faces, held = families_gallery(real_cards)
    hand = family_photos("fan", 2, 2034, faces, held + stranger_faces(2034))[1]
    result = identify(hand.image, gallery)
    answers = [(c.corners, c.name) for c in result.cards] + [
        (u.corners, None) for u in result.unknown
    ]
    for corners, name in hand.truth:
        best = max(answers, key=lambda answer: quad_iou(answer[0], corners))
        assert quad_iou(best[0], corners) > 0.9
        assert best[1] in (name, None)  # named rightly or reported, never another name


def test_a_naming_fit_moves_corners_only_where_its_inliers_pin_them() -> None:
    """A homography fitted to a strip of a card (the title line a fan shows) explains the strip
    but not the corners it extrapolates to: the Pi stack's fit of seed 2034's fan photo 8 put
    a card 108 px off (its refit 228 px) and two neighbours dropped out of the answer. Such a
    fit leaves the corners where the card was found; the same card seen over its whole face,
    or over a strip too wide to swing, has its corners refined."""
    import vision.name as name

    rng = np.random.default_rng(3)
    # the reference -> patch fit of a card rectified a little off: shifted and slightly scaled
    true_fit = np.array([[1.02, 0.0, -3.0], [0.0, 1.01, 4.0], [0.0, 0.0, 1.0]])
    found = np.array([[100, 50], [436, 50], [436, 518], [100, 518]], np.float32)

    def naming_of(ref: np.ndarray) -> name.Naming:
        exact = cv2.perspectiveTransform(ref.reshape(-1, 1, 2), true_fit).reshape(-1, 2)
        patch = exact + rng.normal(0, 0.7, exact.shape)
        index = np.arange(len(ref))
        inliers, fit, cover, _ = name._geometric_inliers(
            patch.astype(np.float32), ref.astype(np.float32), index, index
        )
        return name.Naming(0, "Card 00", inliers, 0, 1.0, fit, {}, cover)

    title_line = np.column_stack([rng.uniform(40, 150, 60), rng.uniform(30, 42, 60)])
    whole_card = np.column_stack([rng.uniform(40, 300, 60), rng.uniform(40, 430, 60)])
    left_strip = np.column_stack([rng.uniform(36, 140, 60), rng.uniform(40, 430, 60)])
    strip = naming_of(title_line)
    assert strip.inliers >= tuning.MIN_NAME_INLIERS and not strip.pins_corners
    assert name.refined_corners(found, strip) is None  # named, found corners kept
    truly = corners_from_homography(cv2.getPerspectiveTransform(CARD_CORNERS, found) @ true_fit)
    for spread in (whole_card, left_strip):
        naming = naming_of(spread)
        refined = name.refined_corners(found, naming)
        assert naming.pins_corners and refined is not None
        assert np.abs(refined - truly).max() < 3
    few = naming_of(whole_card[: tuning.MIN_NAME_INLIERS - 2])
    assert not few.pins_corners  # too few inliers to say where the corners are


def _votes_cast(votes) -> set[tuple[tuple[float, float], int]]:
    """(where, for which reference) of every vote."""
    points = [tuple(p) for p in votes.points.tolist()]
    return set(zip(points, votes.entries.tolist(), strict=True))


def _finding_with_and_without_skips(
    scene_image: np.ndarray, gallery: Gallery, monkeypatch: pytest.MonkeyPatch
):
    """(features looked up, strongest first) and the finds with and without strengths."""
    import vision.features as features
    import vision.find as find

    photo = Photo.of(scene_image)
    points, descriptors, strength = features.ranked_photo_features(
        photo.gray, tuning.PHOTO_FEATURES
    )
    looked_up = np.zeros(len(points), bool)
    real_voting_pairs_of = find._voting_pairs_of

    def recording(d: np.ndarray, ids: np.ndarray, g: Gallery):
        looked_up[ids] = True
        return real_voting_pairs_of(d, ids, g)

    monkeypatch.setattr(find, "_voting_pairs_of", recording)
    first = find.find_hypotheses(points, descriptors, gallery, photo.work_size, strength)
    every = find.find_hypotheses(points, descriptors, gallery, photo.work_size)
    return photo, points, looked_up, first, every


def test_weaker_features_are_not_looked_up_on_a_card_found_surely_lying_alone(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding looks up the photo's strongest features first; a weaker one on a card they
    fit beyond doubt that lies alone is not looked up (most of finding's cost), one off the
    cards still is. The same cards are found, and each vote is one that feature casts
    anyway."""
    faces = [render_card_face(n, 0) for n in NAMES[:5]]
    scene = compose_scene(faces, np.random.default_rng(11), difficulty="easy", table="wood")
    photo, points, looked_up, first, every = _finding_with_and_without_skips(
        scene.image, gallery, monkeypatch
    )
    assert len(points) > tuning.FIND_FIRST_FEATURES  # the premise: weaker features exist
    assert tuning.FIND_FIRST_FEATURES < looked_up.sum() < 0.9 * len(points)
    on_cards = np.zeros(len(points), bool)
    for card in scene.cards:
        on_cards |= inside_quad(points, card.corners * photo.scale)
    assert looked_up[~on_cards].mean() > 0.95  # off the cards (edges of a fit aside)
    found_names = {gallery.entries[h.entry].name for h in first[0]}
    assert found_names == {gallery.entries[h.entry].name for h in every[0]}
    assert found_names == {NAMES[c.index] for c in scene.cards}
    assert _votes_cast(first[1]) < _votes_cast(every[1])


def test_the_cards_of_a_fanned_hand_keep_every_feature(
    gallery: Gallery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a fan every card overlaps a neighbour's fit: none lies alone, so every feature is
    looked up (the fits of a hand depend on each other) and the find is the one every
    feature gives."""
    from vision.synth_hands import compose_hand

    faces = [render_card_face(n, 0) for n in NAMES[:5]]
    scene = compose_hand(faces, np.random.default_rng(8), layout="fan", table="wood")
    _, _, looked_up, first, every = _finding_with_and_without_skips(
        scene.image, gallery, monkeypatch
    )
    assert looked_up.all()
    assert [h.entry for h in first[0]] == [h.entry for h in every[0]]
    assert len(first[0]) >= 3
    assert _votes_cast(first[1]) == _votes_cast(every[1])
