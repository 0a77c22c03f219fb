"""Damaged photos (issue 14, section 5): a file cut short is refused by name, never read as a
half-grey picture - by the vision library, `tablekeeper vision identify` (exit 2) and the
appliance (a message that says to retake). And the photo's padding canvas, found the same with
or without the shortcut for photos that have none."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from test_vision_cli import NAMES, enrolled, run  # noqa: F401  (enrolled is a fixture)

import vision.detect as detect
import vision.tuning as tuning
from vision import DamagedPhotoError, VisionError, decode_photo, read_photo
from vision.photo import photo_damage
from vision.synth import compose_scene, render_card_face

DAMAGED = "the photo is damaged (it ends early)"


def _scene_jpeg(params: list[int] | None = None) -> bytes:
    scene = compose_scene([render_card_face(NAMES[4], 0)], np.random.default_rng(1))
    ok, buf = cv2.imencode(".jpg", scene.image, params or [])
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize(
    "params",
    [[], [cv2.IMWRITE_JPEG_PROGRESSIVE, 1], [cv2.IMWRITE_JPEG_RST_INTERVAL, 2]],
    ids=["baseline", "progressive", "restart-markers"],
)
def test_a_jpeg_cut_anywhere_is_damaged_and_a_whole_one_is_not(params: list[int]) -> None:
    data = _scene_jpeg(params)
    assert photo_damage(data) is None
    assert photo_damage(data + b"\x00\x00 trailing bytes after the end") is None
    assert decode_photo(data).shape[2] == 3
    for share in (0.05, 0.3, 0.7, 0.99):
        cut = data[: int(len(data) * share)]
        with pytest.raises(DamagedPhotoError, match=r"the photo is damaged \(it ends early\)"):
            decode_photo(cut)
    with pytest.raises(DamagedPhotoError):
        decode_photo(data[:-2])  # only the end marker missing


def test_a_png_cut_short_is_damaged() -> None:
    ok, buf = cv2.imencode(".png", np.full((60, 80, 3), 200, np.uint8))
    data = buf.tobytes()
    assert ok and photo_damage(data) is None
    assert photo_damage(data[: len(data) - 20]) == "it ends early"


def test_the_error_says_what_to_do_at_the_table(tmp_path: Path) -> None:
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(_scene_jpeg()[:5000])
    with pytest.raises(DamagedPhotoError) as caught:
        read_photo(cut)
    assert isinstance(caught.value, VisionError)  # one type for every unusable photo
    assert str(caught.value) == DAMAGED
    assert "retake" in caught.value.advice and "damaged" in caught.value.advice
    with pytest.raises(VisionError, match="not a readable image"):
        decode_photo(b"not a photo at all")
    assert "retake" in VisionError("image too small (8x8)").advice


def test_identify_refuses_a_photo_cut_short_with_exit_2(
    enrolled: Path,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = _scene_jpeg()
    whole, cut = tmp_path / "whole.jpg", tmp_path / "cut.jpg"
    whole.write_bytes(data)
    cut.write_bytes(data[: len(data) * 2 // 3])
    assert run(["vision", "identify", str(whole), "--gallery", str(enrolled)]) == 0
    assert NAMES[4] in capsys.readouterr().out
    assert run(["vision", "identify", str(cut), "--gallery", str(enrolled)]) == 2
    out = capsys.readouterr().out
    assert DAMAGED in out and "cut.jpg" in out


def test_the_appliance_says_retake_for_a_photo_it_cannot_use(tmp_path: Path) -> None:
    from flowkit import sim_app

    from display.cards.capture import capture_and_read
    from vision import Gallery

    gallery = Gallery()
    gallery.enroll(NAMES[0], render_card_face(NAMES[0], 0))
    with sim_app(tmp_path / "state") as app:
        app.camera.queue_image(np.zeros((8, 8, 3), np.uint8))  # nothing card-sized fits
        outcome = capture_and_read(app, lambda: gallery)
    assert outcome.reading is None and "retake" in outcome.error


def test_score_by_photo_refuses_a_photo_cut_short(enrolled: Path, tmp_path: Path) -> None:  # noqa: F811
    from display.cli import CliError
    from display.commands.photo import read

    cut = tmp_path / "hand.jpg"
    cut.write_bytes(_scene_jpeg()[:9000])
    with pytest.raises(CliError, match=r"hand\.jpg: the photo is damaged \(it ends early\)"):
        read(cut, enrolled, "rows")


def test_the_padding_canvas_is_found_the_same_without_the_small_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scene = compose_scene([render_card_face(NAMES[4], 0)], np.random.default_rng(1)).image
    h, w = scene.shape[:2]
    photos = [scene]
    for colour in (255, 0, 228):  # letterboxed on a white, a black and an off-white canvas
        canvas = np.full((h + 260, w + 420, 3), colour, np.uint8)
        canvas[130 : 130 + h, 210 : 210 + w] = scene
        photos.append(canvas)
    rim = scene.copy()
    rim[:4], rim[-4:], rim[:, :4], rim[:, -4:] = 235, 235, 235, 235  # a thin light frame only
    photos.append(rim)
    found = [detect.padding_box(photo) for photo in photos]
    shortcut = [
        not detect._edge_may_be_padding(p, tuning.PADDING_SCAN_SIDE / max(p.shape[:2]))
        for p in photos
    ]
    assert shortcut[0]  # a table photo's edge cannot be a canvas: no small copy is made
    assert found[0] == (0, 0, w, h)
    for box in found[1:4]:  # each canvas is found, the picture inside it within a block
        assert abs(box[0] - 210) <= 10 and abs(box[1] - 130) <= 10
        assert abs(box[2] - (210 + w)) <= 10 and abs(box[3] - (130 + h)) <= 10
    monkeypatch.setattr(detect, "_edge_may_be_padding", lambda image, scale: True)
    assert [detect.padding_box(photo) for photo in photos] == found


@pytest.mark.parametrize("numpy_2", [True, False])
def test_hamming_distances_pair_by_pair_match_opencv(
    monkeypatch: pytest.MonkeyPatch, numpy_2: bool
) -> None:
    """Finding and naming count differing bits pair by pair; without numpy 2's bit count (the
    Pi's numpy 1.24) OpenCV counts each row's distance from a zero row: both agree with
    OpenCV's Hamming norm of each pair, from identical descriptors (0) to opposite ones
    (256), and an empty set of pairs gives no distances."""
    from vision.features import hamming_at

    if not numpy_2:
        monkeypatch.delattr(np, "bitwise_count", raising=False)
    elif not hasattr(np, "bitwise_count"):
        pytest.skip("numpy 1 here: only its OpenCV path can run")
    rng = np.random.default_rng(3)
    a = rng.integers(0, 256, (300, 32), dtype=np.uint8)
    b = rng.integers(0, 256, (200, 32), dtype=np.uint8)
    b[0], b[1] = a[0], 255 - a[0]
    rows_a = rng.integers(0, len(a), 20000)
    rows_b = rng.integers(0, len(b), 20000)
    rows_a[:2], rows_b[:2] = 0, [0, 1]
    found = hamming_at(a, rows_a, b, rows_b)
    expected = [cv2.norm(a[i], b[j], cv2.NORM_HAMMING) for i, j in zip(rows_a, rows_b, strict=True)]
    assert found.dtype == np.int32
    assert found.tolist() == expected
    assert found[0] == 0 and found[1] == 256
    none = hamming_at(a, rows_a[:0], b, rows_b[:0])
    assert none.dtype == np.int32 and none.shape == (0,)


@pytest.mark.parametrize("numpy_2", [True, False])
def test_hamming_of_grouped_pairs_matches_pair_by_pair(
    monkeypatch: pytest.MonkeyPatch, numpy_2: bool
) -> None:
    """Finding's pairs come grouped by photo feature: each row of ``a`` repeated for its run
    of candidates gives the distances gathering it pair by pair gives, including rows with
    no candidates at all; and a flat array picked by index is the same on either numpy's
    way of picking."""
    import vision.features as features

    if not numpy_2:
        monkeypatch.delattr(np, "bitwise_count", raising=False)
        monkeypatch.setattr(features, "_TAKE_IS_FAST", False)
    elif not hasattr(np, "bitwise_count"):
        pytest.skip("numpy 1 here: only its OpenCV path can run")
    rng = np.random.default_rng(4)
    a = rng.integers(0, 256, (50, 32), dtype=np.uint8)
    b = rng.integers(0, 256, (400, 32), dtype=np.uint8)
    counts = rng.integers(0, 9, len(a))
    counts[:3] = [0, 5, 0]
    rows_a = np.repeat(np.arange(len(a)), counts)
    rows_b = rng.integers(0, len(b), int(counts.sum()))
    grouped = features.hamming_runs(a, counts, b, rows_b)
    assert grouped.tolist() == features.hamming_at(a, rows_a, b, rows_b).tolist()
    assert grouped.dtype == np.int32
    values = rng.normal(size=100).astype(np.float32)
    at = rng.integers(0, 100, 1000)
    assert features.pick(values, at).tolist() == values[at].tolist()


def test_word_index_counts_each_features_candidates() -> None:
    """The word index's candidate runs: every gallery descriptor under each query descriptor's
    nearest words, as (query, slot) pairs, and per query descriptor how many there are (a
    descriptor with none counts 0)."""
    from vision.features import WordIndex

    rng = np.random.default_rng(6)
    index = WordIndex.build(rng.integers(0, 256, (3000, 32), dtype=np.uint8))
    query = rng.integers(0, 256, (200, 32), dtype=np.uint8)
    query_ids, slots, per_query = index.candidate_runs(query, tuning.PROBES)
    near_query, near_word = index.nearest_words(query, tuning.PROBES)
    expected = [
        (int(q), slot)
        for q, w in zip(near_query, near_word, strict=True)
        for slot in range(int(index.starts[w]), int(index.starts[w + 1]))
    ]
    assert list(zip(query_ids.tolist(), slots.tolist(), strict=True)) == expected
    assert per_query.tolist() == np.bincount(query_ids, minlength=len(query)).tolist()
    assert (np.diff(query_ids) >= 0).all()  # grouped by query, as hamming_runs needs
    _, _, none = WordIndex.empty().candidate_runs(query, tuning.PROBES)
    assert none.tolist() == [0] * len(query)


def test_nearest_words_are_the_nearest_fine_words_of_the_nearest_coarse_words() -> None:
    """Each query's ``PROBES`` nearest fine words among those of its ``COARSE_PROBES``
    nearest coarse words, nearest first, a tie going to the lower word (the coarse words'
    too): distances of a few bits tie often; a coarse word may hold no fine word, or fewer
    than ``PROBES``."""
    from vision.features import WordIndex

    rng = np.random.default_rng(12)

    def few_bits(n: int) -> np.ndarray:
        return (rng.integers(0, 4, (n, 32)) == 0).astype(np.uint8) * 3

    coarse_starts = np.array([0, 4, 4, 6, 7, 12, 20], np.int32)  # sizes 4, 0, 2, 1, 5, 8
    words = few_bits(int(coarse_starts[-1]))
    coarse = few_bits(len(coarse_starts) - 1)
    index = WordIndex(
        words, np.zeros(0, np.int32), np.zeros(len(words) + 1, np.int32), coarse, coarse_starts
    )
    query = few_bits(300)

    def bits(a: np.ndarray, b: np.ndarray) -> int:
        return int(np.unpackbits(a ^ b).sum())

    expected = []
    for q, row in enumerate(query):
        by_coarse = sorted(range(len(coarse)), key=lambda c: (bits(row, coarse[c]), c))
        pool = [
            w
            for c in by_coarse[: tuning.COARSE_PROBES]
            for w in range(int(coarse_starts[c]), int(coarse_starts[c + 1]))
        ]
        nearest = sorted(pool, key=lambda w: (bits(row, words[w]), w))[: tuning.PROBES]
        expected += [(q, w) for w in nearest]
    query_ids, word_ids = index.nearest_words(query, tuning.PROBES)
    assert list(zip(query_ids.tolist(), word_ids.tolist(), strict=True)) == expected
    assert query_ids.dtype == word_ids.dtype == np.int64


def test_repeated_runs_keep_their_type_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """``repeat_runs`` repeats as ``np.repeat`` does, by numpy's repeat or by a running sum
    (numpy 1, long runs), and keeps the values' type: the find step compares the repeated best
    names (int32) with every candidate's, and int32 against int64 costs ~3x."""
    import vision.features as features

    rng = np.random.default_rng(3)
    lengths = rng.integers(0, 40, 2_000)
    assert lengths.sum() > features._SHORT_REPEAT  # long enough for the running sum
    for fast_repeat in (True, False):
        monkeypatch.setattr(features, "_TAKE_IS_FAST", fast_repeat)
        for values in (
            rng.integers(-500, 500, 2_000).astype(np.int32),
            rng.integers(0, 1 << 40, 2_000),
        ):
            for n in (3, 2_000):  # short and long
                out = features.repeat_runs(values[:n], lengths[:n])
                assert out.dtype == values.dtype
                assert np.array_equal(out, np.repeat(values[:n], lengths[:n]))


def test_outlines_found_at_several_sensitivities_are_merged_into_the_larger() -> None:
    """One card found at three edge sensitivities (its outer edge, a pixel in, its inner frame)
    is one outline, the outer edge; a card beside it and a card overlapping it by less than
    the merging overlap stay outlines of their own, whatever the order they were found in."""
    card = np.array([[100, 100], [163, 100], [163, 188], [100, 188]], np.float32)
    inner_frame = card + np.array([[6, 6], [-6, 6], [-6, -6], [6, -6]], np.float32)
    a_pixel_in = card + np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], np.float32)
    beside = card + np.float32([200, 0])
    overlapping = card + np.float32([40, 0])  # overlap 23 x 88 of two 63 x 88: IoU ~0.26
    found = [inner_frame, beside, a_pixel_in, overlapping, card]
    for order in ([0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [2, 0, 4, 1, 3]):
        kept = detect._dedupe([found[i] for i in order])
        assert len(kept) == 3
        assert any(np.array_equal(k, card) for k in kept)
        assert any(np.array_equal(k, beside) for k in kept)
        assert any(np.array_equal(k, overlapping) for k in kept)


@pytest.mark.parametrize("width", [1640, 1100])
def test_the_outline_copy_keeps_the_edges_where_they_are(width: int) -> None:
    """The copy the outlines are searched on has the searched size, and an edge stays where
    the scale puts it, whether the picture was halved first (a 1640-px photo) or averaged
    straight down (a picture whose half would lose too much detail)."""
    height = width * 3 // 4
    edge_x, edge_y = width // 2 + 3, height // 3
    image = np.full((height, width, 3), 230, np.uint8)
    image[:, :edge_x] = (20, 60, 120)  # a dark card edge, vertical
    image[:edge_y, edge_x:] = (40, 40, 40)  # and a horizontal one to its right
    scale = tuning.OUTLINE_LONG_SIDE / width
    small, sigma = detect._outline_copy(image, scale)
    assert small.shape == (round(height * scale), round(width * scale), 3)
    if width == 1640:  # the 2x2 halving, then bilinear up to the searched size
        half = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        expected = cv2.resize(half, small.shape[1::-1], interpolation=cv2.INTER_LINEAR)
        assert np.array_equal(small, expected)
        assert 0.9 < sigma < 1.0  # narrower than OpenCV's 1.1 for five taps
    else:
        assert sigma == 0.0
    # Where an edge is, in copy pixels: how much of a row (a column) is still the dark side.
    row = small[small.shape[0] * 2 // 3, :, 2].astype(np.float64)
    dark_share = (230 - row) / (230 - 120)
    assert abs(dark_share.sum() - edge_x * small.shape[1] / width) < 0.3
    column = small[:, -5, 0].astype(np.float64)
    assert abs(((230 - column) / (230 - 40)).sum() - edge_y * small.shape[0] / height) < 0.3
    assert small[-1, -1].tolist() == [230, 230, 230] and small[-1, 0].tolist() == [20, 60, 120]


def test_the_colour_gradient_is_the_sobel_pair_of_the_channel_that_changes_most() -> None:
    """Per pixel, the outlines' gradient is the 3x3 Sobel pair (OpenCV's default border) of
    the colour channel whose |dx| + |dy| is largest there (the first of equals); a grey
    picture's is its own Sobel pair. Pictures down to one pixel wide."""
    rng = np.random.default_rng(5)
    for shape in ((60, 80, 3), (7, 1, 3), (1, 9, 3), (40, 30)):
        image = cv2.GaussianBlur(rng.integers(0, 256, shape, dtype=np.uint8), (3, 3), 0)
        image[: shape[0] // 2] //= 4  # a flat dark band: ties between channels
        channels = [image] if image.ndim == 2 else cv2.split(image)
        xs = np.stack([cv2.Sobel(c, cv2.CV_16S, 1, 0, ksize=3) for c in channels])
        ys = np.stack([cv2.Sobel(c, cv2.CV_16S, 0, 1, ksize=3) for c in channels])
        strongest = np.argmax(np.abs(xs.astype(np.int32)) + np.abs(ys), axis=0)
        dx, dy = detect._colour_gradient(image)
        assert dx.dtype == dy.dtype == np.int16
        assert np.array_equal(dx, np.take_along_axis(xs, strongest[None], 0)[0])
        assert np.array_equal(dy, np.take_along_axis(ys, strongest[None], 0)[0])


def test_no_contour_a_card_could_fit_around_is_screened_out() -> None:
    """The outline search measures a contour's smallest enclosing rectangle only when its
    bounding box leaves room for a card-sized one: every contour whose rectangle is at least
    ``min_side`` on both sides gets through, whatever its angle, and thin edge runs do not."""
    rng = np.random.default_rng(8)
    min_side = 60.0
    contours, fits = [], []
    for _ in range(600):
        w, h = rng.uniform(2, 160, 2)
        angle = rng.uniform(0, np.pi)
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]]) - [w / 2, h / 2]
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        points = np.vstack(
            [
                a + (b - a) * t
                for a, b in zip(corners, np.roll(corners, -1, 0), strict=True)
                for t in np.linspace(0, 1, 10, endpoint=False)
            ]
        )
        points = np.rint(points @ turn.T + 300).astype(np.int32).reshape(-1, 1, 2)
        contours.append(points)
        fits.append(min(cv2.minAreaRect(points)[1]) >= min_side)
    kept = {id(c) for c in detect._long_enough(contours, min_side)}
    assert all(id(c) in kept for c, fit in zip(contours, fits, strict=True) if fit)
    assert sum(fits) > 50
    # Edge runs long enough to be a card's side but too narrow to be a card are dropped before
    # being measured.
    long_runs = [c for c in contours if max(cv2.boundingRect(c)[2:]) >= min_side]
    assert sum(id(c) not in kept for c in long_runs) > 30


def test_filling_pinholes_takes_away_only_their_own_contours() -> None:
    """The most sensitive edge map's one- and two-pixel holes are filled before contours are
    traced: they are no card, and every other contour comes out exactly as before (random
    speckle over a map with a card-sized ring: holes of every size, some against the map's
    edge)."""
    rng = np.random.default_rng(3)
    edges = np.where(rng.random((240, 320)) < 0.45, 255, 0).astype(np.uint8)
    cv2.rectangle(edges, (40, 30), (200, 210), 255, 3)
    edges[:2] = 255  # an edge along the top of the map: holes right under it
    before, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    filled = edges.copy()
    detect._fill_pinholes(filled)
    after, _ = cv2.findContours(filled, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    assert len(before) - len(after) > 300
    assert (filled >= edges).all()  # no edge pixel is lost
    # A hole of one or two pixels traces as at most six points; every longer contour stays.
    assert [c.tobytes() for c in before if len(c) > 6] == [c.tobytes() for c in after if len(c) > 6]


def test_each_contour_is_measured_on_its_hull_found_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A contour's smallest enclosing rectangle is measured on its hull (the hull the outline
    is then fitted to), not on the contour, which would make OpenCV find the same hull again
    inside: the same rectangle to the last bit (random speckle's contours here; ~1.3 million
    contours of the family photos on both stacks), for one hull a contour."""
    rng = np.random.default_rng(4)
    edges = np.where(rng.random((240, 320)) < 0.4, 255, 0).astype(np.uint8)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    wide = [c for c in contours if len(c) >= 3]
    assert len(wide) > 500
    assert all(cv2.minAreaRect(c) == cv2.minAreaRect(cv2.convexHull(c)) for c in wide)

    picture = _card_on_table(0.0)
    measured: list[bool] = []
    min_area_rect = cv2.minAreaRect

    def on_hull(points: np.ndarray) -> object:
        measured.append(len(cv2.convexHull(points)) == len(points))
        return min_area_rect(points)

    monkeypatch.setattr(detect.cv2, "minAreaRect", on_hull)
    assert len(detect.find_card_quads(picture)) == 1
    assert measured and all(measured)


def _card_on_table(grain_sigma: float) -> np.ndarray:
    """A 1000 x 750 picture (searched as it is) of a crisp card on a brown table whose grain
    is fine noise of ``grain_sigma`` grey levels (0: a plain table)."""
    rng = np.random.default_rng(5)
    grain = cv2.GaussianBlur(rng.normal(0, 1, (750, 1000)).astype(np.float32), (0, 0), 1.2)
    table = np.array([40, 80, 140], np.float32) + grain[..., None] * grain_sigma * 3
    picture = np.clip(table, 0, 255).astype(np.uint8)
    card = np.array([[400, 250], [560, 250], [560, 470], [400, 470]], np.int32)
    cv2.fillConvexPoly(picture, card, (20, 20, 20))
    cv2.rectangle(picture, (420, 270), (540, 450), (200, 220, 230), -1)
    return picture


@pytest.mark.parametrize(("grain_sigma", "maps_traced"), [(0.0, 3), (14.0, 2)])
def test_a_tables_grain_is_not_traced_but_the_card_on_it_is_found(
    monkeypatch: pytest.MonkeyPatch, grain_sigma: float, maps_traced: int
) -> None:
    """Where the most sensitive edge map is mostly the table's grain (wood far off), it is not
    traced: the card's crisp edge is in the other maps. A plain table's map is traced."""
    picture = _card_on_table(grain_sigma)
    traced: list[int] = []
    find_contours = cv2.findContours

    def counted(*args, **kwargs):
        traced.append(1)
        return find_contours(*args, **kwargs)

    monkeypatch.setattr(detect.cv2, "findContours", counted)
    quads = detect.find_card_quads(picture)
    assert len(traced) == maps_traced
    assert len(quads) == 1
    assert np.abs(quads[0] - [[400, 250], [560, 250], [560, 470], [400, 470]]).max() <= 2
