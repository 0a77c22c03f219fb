"""Card outlines from colour edges, and how sharp a card image is.

Outlines are the second cue (the first is feature matching, :mod:`vision.find`): they find
cards that are not in the gallery, or too blurred to match, so those can be reported as
unknown with a reason, and they give enrolment-from-a-photo its card positions. The geometry
they rely on (corner order, shape checks, rectification) is in :mod:`vision.geometry`;
``rectify`` is also offered here, where the appliance's enrolment screen imports it from.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import cv2
import numpy as np

import vision.tuning as tuning
from vision.features import to_gray
from vision.geometry import (
    CARD_ASPECT,
    CARD_H,
    CARD_W,
    inside,
    order_corners,
    plausible_card,
    quad_area,
    quad_iou,
    rectify,
)
from vision.layout import reading_sequence

__all__ = [
    "card_from_image",
    "cards_in_reading_order",
    "content_box",
    "edge_support",
    "find_card_quads",
    "rectify",
    "sharpness",
]


def sharpness(card: np.ndarray) -> float:
    """How sharp an upright card image is, independent of its contrast: fine-detail energy over
    coarse-detail energy at a fixed card size (about 1 for crisp print, near 0 when blurred)."""
    gray = cv2.resize(
        to_gray(card).astype(np.float32), (CARD_W // 2, CARD_H // 2), interpolation=cv2.INTER_AREA
    )
    b1 = cv2.GaussianBlur(gray, (0, 0), 1.0)
    b3 = cv2.GaussianBlur(gray, (0, 0), 3.0)
    fine = float(np.mean(np.abs(gray - b1)))
    coarse = float(np.mean(np.abs(b1 - b3))) + 1e-3
    return fine / coarse


@functools.cache
def _line_gaussian(sigma: float, degrees: int) -> np.ndarray:
    """A Gaussian blur along one direction only (a 2-D kernel that is a blurred line)."""
    size = int(6 * sigma) | 1
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    weights = np.exp(-0.5 * ((np.arange(size) - centre) / sigma) ** 2)
    dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    for t, weight in enumerate(weights / weights.sum()):
        kernel[round(centre + (t - centre) * dy), round(centre + (t - centre) * dx)] += weight
    return kernel


# OpenCV's filter2D multiplies only a kernel's non-zero taps, but a kernel over 11 x 11 is
# applied by a Fourier transform of the whole picture instead (0.5-0.7 ms a call on a card,
# against ~0.05 ms directly, OpenCV 4.11 and 5.1).
_DIRECT_KERNEL_SIDE = 11


def _line_blur(gray: np.ndarray, sigma: float, degrees: int) -> np.ndarray:
    """``gray`` blurred along one direction (:func:`_line_gaussian`). A kernel too big for
    OpenCV's direct filter is applied as its two halves (the taps up to the centre, and those
    past it), each no bigger than that and anchored where the whole kernel is: the same sums,
    added in another order."""
    parts = _line_kernel_parts(sigma, degrees)
    blurred = np.asarray(cv2.filter2D(gray, -1, parts[0][0], anchor=parts[0][1]), np.float32)
    for kernel, anchor in parts[1:]:
        blurred += np.asarray(cv2.filter2D(gray, -1, kernel, anchor=anchor), np.float32)
    return blurred


@functools.cache
def _line_kernel_parts(
    sigma: float, degrees: int
) -> tuple[tuple[np.ndarray, tuple[int, int]], ...]:
    """:func:`_line_gaussian` as kernels OpenCV applies directly, each with its anchor
    (x, y): the whole kernel when small enough, else its taps up to and including the centre
    (in row-major order: along the line, the first half) and those past it, each cut to its
    bounding box with the centre in it."""
    kernel = _line_gaussian(sigma, degrees)
    size = kernel.shape[0]
    centre = size // 2
    if size <= _DIRECT_KERNEL_SIDE:
        return ((kernel, (centre, centre)),)
    rows, cols = np.nonzero(kernel)
    first = (rows < centre) | ((rows == centre) & (cols <= centre))
    parts = []
    for half in (first, ~first):
        r0 = min(int(rows[half].min()), centre)
        r1 = max(int(rows[half].max()), centre) + 1
        c0 = min(int(cols[half].min()), centre)
        c1 = max(int(cols[half].max()), centre) + 1
        part = np.zeros((r1 - r0, c1 - c0), np.float32)
        part[rows[half] - r0, cols[half] - c0] = kernel[rows[half], cols[half]]
        assert max(part.shape) <= _DIRECT_KERNEL_SIDE
        parts.append((part, (centre - c0, centre - r0)))
    return tuple(parts)


def streak_sharpness(card: np.ndarray) -> tuple[float, float]:
    """:func:`sharpness` along the card's blurriest direction (of four: across, down and the
    two diagonals), and that over the sharpest direction's. A shaken camera smears detail along
    one direction only, leaving the others crisp, so the card as a whole can still look sharp;
    along the smear it does not, and the two directions disagree."""
    gray = cv2.resize(
        to_gray(card).astype(np.float32), (CARD_W // 2, CARD_H // 2), interpolation=cv2.INTER_AREA
    )
    ratios = []
    for degrees in (0, 45, 90, 135):
        b1 = _line_blur(gray, 1.0, degrees)
        b3 = _line_blur(gray, 3.0, degrees)
        fine = float(np.mean(np.abs(gray - b1)))
        coarse = float(np.mean(np.abs(b1 - b3))) + 1e-3
        ratios.append(fine / coarse)
    return min(ratios), min(ratios) / max(max(ratios), 1e-6)


def _quad_from_hull(hull: np.ndarray) -> tuple[np.ndarray | None, bool]:
    """A contour's hull as four corners, and whether that is only its bounding box (no
    four-sided polygon fits the hull)."""
    peri = cv2.arcLength(hull, True)
    for eps in tuning.QUAD_EPSILONS:
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32), False
    box = cv2.boxPoints(cv2.minAreaRect(hull))
    return np.asarray(box, np.float32), True


def find_card_quads(
    image: np.ndarray,
    *,
    min_fraction: float = tuning.MIN_CARD_FRACTION,
    padding: tuple[int, int, int, int] | None = None,
) -> list[np.ndarray]:
    """Card-shaped outlines in ``image``: corner arrays (TL, TR, BR, BL; image pixels).

    Looks for closed, convex, card-proportioned outlines in edge maps at two sensitivities
    (so both crisp and faint card edges are found). Pieces of the picture's own border (a
    padded canvas, the photo edge) are not cards and are dropped. ``min_fraction``: the smallest
    card side accepted, as a fraction of the picture's short side. ``padding``: the picture
    inside any padding canvas (:func:`padding_box` of ``image``), if already known.
    """
    full_h, full_w = image.shape[:2]
    scale = min(1.0, tuning.OUTLINE_LONG_SIDE / max(full_h, full_w))
    small, sigma = _outline_copy(image, scale)
    blur = tuning.OUTLINE_BLUR
    dx, dy = _colour_gradient(cv2.GaussianBlur(small, (blur, blur), sigma))
    h, w = dx.shape
    if padding is None:
        box = padding_box(small)
    else:  # the same box on the copy searched (the whole copy where it was the whole picture)
        x0, y0, x1, y1 = padding
        box = (
            int(x0 * scale),
            int(y0 * scale),
            w if x1 >= full_w else int(np.ceil(x1 * scale)),
            h if y1 >= full_h else int(np.ceil(y1 * scale)),
        )
    tiny_scale = min(1.0, tuning.PADDING_SCAN_SIDE / max(h, w))
    min_side = min_fraction * min(h, w) * tuning.MIN_SIDE_STRETCH
    max_area = tuning.MAX_CARD_AREA * h * w
    found: list[np.ndarray] = []
    kernel = np.ones((tuning.EDGE_CLOSE_PX, tuning.EDGE_CLOSE_PX), np.uint8)
    # A crisp edge is traced the same at every sensitivity: a contour already measured gives
    # the same outline again, which _dedupe would drop (~18 % of the long contours).
    measured: set[bytes] = set()
    most_sensitive = min(tuning.CANNY_THRESHOLDS)
    for low, high in tuning.CANNY_THRESHOLDS:
        if (low, high) == most_sensitive and len(tuning.CANNY_THRESHOLDS) > 1:
            if _grain(dx, dy, low, high):
                continue
        edges = cv2.dilate(cv2.Canny(dx, dy, low, high, L2gradient=True), kernel)
        if (low, high) == most_sensitive:
            _fill_pinholes(edges)
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in _long_enough(contours, min_side):
            key = contour.tobytes()
            if key in measured:
                continue
            measured.add(key)
            # The smallest rectangle around the contour is that around its hull: OpenCV finds
            # the hull first and measures that (the same numbers to the last bit for every
            # contour of the family photos, seeds 2026-2038: 1.3 million on the default stack,
            # 1.1 million on the Pi's). Measured on the hull, the hull is found once, not twice,
            # for the half of the contours that pass: the loop's ~1.5 ms a photo less ~0.2.
            hull = cv2.convexHull(contour)
            rect = cv2.minAreaRect(hull)
            rw, rh = rect[1]
            if min(rw, rh) < min_side or rw * rh > max_area:
                continue
            area = cv2.contourArea(hull)
            quad, quad_is_box = _quad_from_hull(hull)
            if quad is None or not cv2.isContourConvex(quad.reshape(-1, 1, 2).astype(np.int32)):
                continue
            # The outline must be a filled quadrilateral: its hull nearly all inside the fitted
            # quad. (Measured against the quad, not the upright bounding rectangle: a card seen
            # steeply is a sheared parallelogram that fills only ~65% of its bounding box.)
            if area < tuning.QUAD_FILL * max(rw * rh if quad_is_box else 0.0, quad_area(quad)):
                continue
            if not plausible_card(quad, (w, h)):
                continue
            # The picture's border (or a white canvas edge) is not a card.
            if _touches_border(quad, box, margin=tuning.BORDER_MARGIN + 1.0 / tiny_scale):
                continue
            found.append(quad)
    return _outermost(_dedupe([order_corners(q / scale) for q in found]))


def _grain(dx: np.ndarray, dy: np.ndarray, low: int, high: int) -> bool:
    """Is the most sensitive edge map (Canny ``low``, ``high`` of the gradient ``dx``, ``dy``)
    mostly a table's grain? Wood seen from afar (every small-card photo, a third of the
    families' photos) lights up 15-20 % of its pixels, cloth or felt 2-10 %, and tracing it
    costs half the outline search there (~6,000 loops of grain against ~700 elsewhere: 20 ms
    of 42 on the small photos, more than the other two maps together). On seeds 2026, 2032
    and 2034, of the outlines only that map found on the 60 of 180 family photos past
    ``GRAIN_EDGE_SHARE``, none was named or reported (grain loops, not card-sized beside the
    named cards): a card's edge on wood is crisp enough for the other two maps. The photos
    that needed it (a shaken card's faint edge) were at 12 % at most and are traced as ever.
    The share is measured on every ``GRAIN_BAND_EVERY``-th band of ``GRAIN_BAND_ROWS`` rows
    (within 1 % of the whole map's on 120 photos): the whole map's Canny cost ~6 ms on wood,
    the bands' ~0.3 ms."""
    rows, every = tuning.GRAIN_BAND_ROWS, tuning.GRAIN_BAND_EVERY
    height, width = dx.shape
    bands = height // rows
    if bands < every:
        edges = cv2.Canny(dx, dy, low, high, L2gradient=True)
    else:
        cut = bands * rows
        sampled = [
            np.ascontiguousarray(g[:cut].reshape(bands, rows, width)[::every].reshape(-1, width))
            for g in (dx, dy)
        ]
        edges = cv2.Canny(sampled[0], sampled[1], low, high, L2gradient=True)
    return cv2.countNonZero(edges) > tuning.GRAIN_EDGE_SHARE * edges.size


def _outermost(quads: list[np.ndarray]) -> list[np.ndarray]:
    """``quads`` without any wholly inside another: a card's art box or text box is not a card.
    (Only an outline whose box holds the other's can hold it: the corners are tested for those.)"""
    areas = [quad_area(q) for q in quads]
    boxes = [(*q.min(axis=0).tolist(), *q.max(axis=0).tolist()) for q in quads]
    return [
        q
        for q, area, box in zip(quads, areas, boxes, strict=True)
        if not any(
            o_area > area
            and o_box[0] <= box[0]
            and o_box[1] <= box[1]
            and box[2] <= o_box[2]
            and box[3] <= o_box[3]
            and all(inside(p, o) for p in q)
            for o, o_area, o_box in zip(quads, areas, boxes, strict=True)
        )
    ]


def _outline_copy(image: np.ndarray, scale: float) -> tuple[np.ndarray, float]:
    """``image`` at ``scale`` (<= 1) for the edge search, and the sigma of the Gaussian of
    ``OUTLINE_BLUR`` taps that smooths it before the gradient (0: OpenCV's own for that size).

    A picture whose half is still nearly the searched size (``OUTLINE_HALF_DETAIL``) is halved
    by 2x2 averages, then brought up to that size bilinearly: on OpenCV 4.11 averaging a
    1640-px photo straight down to 0.61x took 10.5 ms (its general path), halving it 0.5 ms and
    the bilinear step 1 ms. The edge search was tuned on the straight average, so the Gaussian
    is narrowed to give the same smoothing in all (variances add): averaging straight down
    smooths by a box one copy pixel wide (1/12 px²), the halving by a box of ``2 * scale`` px
    ((2s)²/12) and bilinear interpolation by (2s)²/6 more on average. Without that, faint
    card edges in over-exposed photos were lost (exposure x1.5 of the tuning lights: 196
    cards named against 199 by the straight average; 198 with it). The edges' geometry stays
    that of the searched size (the dilation and the shortest contour are counted in its
    pixels). Other pictures are averaged straight down as before."""
    if scale >= 1.0:
        return image, 0.0
    h, w = image.shape[:2]
    # The half is smaller than the searched size but at least OUTLINE_HALF_DETAIL of it.
    if 0.5 < scale <= 0.5 / tuning.OUTLINE_HALF_DETAIL:
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        half = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        copy = cv2.resize(half, size, interpolation=cv2.INTER_LINEAR)
        sigma = np.sqrt(_kernel_sigma(tuning.OUTLINE_BLUR) ** 2 + 1 / 12 - scale**2)
        return copy, float(sigma)
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), 0.0


def _kernel_sigma(taps: int) -> float:
    """The sigma OpenCV gives a Gaussian of ``taps`` taps when none is asked for."""
    return 0.3 * ((taps - 1) * 0.5 - 1) + 0.8


# A hole of the edge map one pixel high and one or two wide, and the pixels around it.
_PINHOLE_RING = np.array([[0, 1, 1, 0], [1, 0, 0, 1], [0, 1, 1, 0]], np.uint8)


def _fill_pinholes(edges: np.ndarray) -> None:
    """Fill (in place) the holes of a dilated edge map that are one pixel, or two side by
    side: the most sensitive map's texture leaves thousands (a third of all the contours
    findContours traces), and none can be a card. Filling a hole takes away its own contour
    and changes no other (each contour is the border between one edge region and one hole or
    the background), so the outlines are the same; tracing a third fewer contours saves
    ~1 ms a photo on that map (2-4 ms on wood with small cards far off) for ~0.35 ms of
    filling (on the other maps the filling costs what it saves). Only holes whose ring lies
    wholly inside the map's outermost pixels are filled (past them counts as no edge, as
    findContours counts it), so a hole against the map's edge is left as it is."""
    inner = edges[1:-1, 1:-1]
    ring = cv2.erode(
        inner, _PINHOLE_RING, anchor=(1, 1), borderType=cv2.BORDER_CONSTANT, borderValue=0
    )
    # Where the ring is whole, both pixels inside it are hole or edge: both become edge.
    inner |= ring
    inner[:, 1:] |= ring[:, :-1]


def _long_enough(contours: Sequence[np.ndarray], min_side: float) -> list[np.ndarray]:
    """The contours of at least ``MIN_CONTOUR_POINTS`` points whose bounding box reaches
    ``min_side`` on its longer side (shorter ones are specks and texture) and is wide enough
    for a card-sized rectangle to fit around the contour. Screened in a few
    array operations: a photo's edge maps hold ~7,000 contours, and one OpenCV call each
    cost ~7 ms a photo."""
    lengths = np.fromiter(map(len, contours), np.int64, len(contours))
    long = np.flatnonzero(lengths >= tuning.MIN_CONTOUR_POINTS)
    if len(long) == 0:
        return []
    points = np.concatenate([contours[i] for i in long.tolist()]).reshape(-1, 2)
    starts = np.cumsum(lengths[long]) - lengths[long]
    # The bounding box as cv2.boundingRect gives it: integer points, both ends counted.
    extent = np.maximum.reduceat(points, starts) - np.minimum.reduceat(points, starts) + 1
    # A contour whose box is narrower than min_side / sqrt(2) cannot pass the card-size test
    # (the smaller side of cv2.minAreaRect), so it is not measured: that rectangle's area is
    # at most the box's, and its longer side at least the box's longer side over sqrt(2) (its
    # diagonal spans the contour), so its smaller side is at most sqrt(2) x the box's smaller
    # side. About 40 % of a photo's minAreaRect calls were on such contours (edge runs
    # along wood grain or a cloth's stripes).
    wide = _SQRT2 * extent.min(axis=1) + _ROUNDING >= min_side
    return [contours[i] for i in long[(extent.max(axis=1) >= min_side) & wide].tolist()]


_SQRT2 = math.sqrt(2.0)
_ROUNDING = 0.01  # px: minAreaRect's float sides may come out a hair above the exact bound


def _colour_gradient(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel, the x/y gradient of whichever colour channel changes most there, so an edge
    between two colours of equal brightness (a dark green card border on green felt) counts."""
    # Each channel's 3x3 Sobel pair in one pass (cv2.spatialGradient: the same numbers as two
    # cv2.Sobel calls, border included). On OpenCV 4.11 (the Pi's) that took 2.7 ms for a
    # 1000 x 751 copy's three channels against 4.4 ms by Sobel calls; on 5.1 both 2.8 ms.
    if image.ndim == 2 or image.shape[2] == 1:
        gx, gy = cv2.spatialGradient(image.reshape(image.shape[:2]))
        return gx, gy
    # OpenCV's per-pixel operations, not numpy's: several times faster on a whole photo. The
    # channels are split before the gradient (bytes, not the gradients' 16-bit words: half the
    # memory to move; the gradient of each channel is the same either way).
    gradients = [cv2.spatialGradient(c) for c in cv2.split(image)]
    gxs = [gx for gx, _ in gradients]
    gys = [gy for _, gy in gradients]
    # |Sobel| <= 1020 per axis, so |dx| + |dy| fits int16. The magnitudes are made in place in
    # two buffers: a fresh photo-sized array per step cost more than the arithmetic.
    dx, dy = gxs[0], gys[0]
    best = np.abs(gxs[0])
    best += np.abs(gys[0])
    magnitude, part = np.empty_like(best), np.empty_like(best)
    for c in (1, 2):
        np.abs(gxs[c], out=magnitude)
        np.abs(gys[c], out=part)
        magnitude += part
        stronger = cv2.compare(magnitude, best, cv2.CMP_GT)
        cv2.copyTo(gxs[c], stronger, dx)
        cv2.copyTo(gys[c], stronger, dy)
        cv2.max(best, magnitude, dst=best)
    return dx, dy


def padding_box(image: np.ndarray) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the photo inside any padding canvas, in ``image`` pixels: found on
    a small copy (it needs no detail), then scaled up (:func:`content_box`)."""
    h, w = image.shape[:2]
    tiny_scale = min(1.0, tuning.PADDING_SCAN_SIDE / max(h, w))
    if tiny_scale < 1.0 and not _edge_may_be_padding(image, tiny_scale):
        return 0, 0, w, h  # what content_box would find on the small copy, without making it
    tiny = cv2.resize(image, None, fx=tiny_scale, fy=tiny_scale, interpolation=cv2.INTER_AREA)
    bx0, by0, bx1, by1 = content_box(tiny)
    return (
        int(bx0 / tiny_scale),
        int(by0 / tiny_scale),
        int(np.ceil(bx1 / tiny_scale)) if bx1 < tiny.shape[1] else w,
        int(np.ceil(by1 / tiny_scale)) if by1 < tiny.shape[0] else h,
    )


_BLOCK_MARGIN = 3  # px added to each side of a small-copy pixel's block: covers any rounding


def _edge_may_be_padding(image: np.ndarray, tiny_scale: float) -> bool:
    """Could the small copy of ``image`` (area-averaged at ``tiny_scale``) have a white or black
    edge, as padding has? Each of its edge pixels averages a block of the picture's edge, so it
    lies between that block's darkest and brightest values, and the median of its edge between
    the medians of those bounds. When no bound allows padding, :func:`content_box` would find
    none, in a sixth of the time of the copy (most photos have no canvas)."""
    h, w = image.shape[:2]
    # The small copy's size as cv2.resize rounds it, and its pixels' blocks, grown to be sure.
    tiny_w, tiny_h = max(1, int(np.rint(w * tiny_scale))), max(1, int(np.rint(h * tiny_scale)))
    depth = int(np.ceil(max(w / tiny_w, h / tiny_h, 1.0 / tiny_scale))) + _BLOCK_MARGIN
    strips = (
        (image[:depth], 0, tiny_w, w),  # the top edge: its rows reduced, then column blocks
        (image[h - depth :], 0, tiny_w, w),
        (image[:, :depth], 1, tiny_h, h),  # the left edge: its columns, then row blocks
        (image[:, w - depth :], 1, tiny_h, h),
    )
    lines = [
        [
            np.ascontiguousarray(cv2.reduce(strip, across, op).reshape(n_in, 1, -1))
            for op in (cv2.REDUCE_MIN, cv2.REDUCE_MAX)
        ]
        for strip, across, _, n_in in strips
    ]
    # Every bound lies between the edge's darkest and brightest values: when those allow no
    # padding, neither do the blocks' (a photo of a table: ~0.6 ms of the blocks saved).
    if not _padding_colour(
        np.max([bright.max(axis=(0, 1)) for _, bright in lines], axis=0),
        np.min([dark.min(axis=(0, 1)) for dark, _ in lines], axis=0),
    ):
        return False
    lows, highs = [], []
    for (_, _, n_out, n_in), (darkest, brightest) in zip(strips, lines, strict=True):
        steps = (n_in / n_out, 1.0 / tiny_scale)
        j = np.arange(n_out)
        first = np.clip(np.floor(j * min(steps)).astype(np.int64) - _BLOCK_MARGIN, 0, n_in - 1)
        last = np.ceil((j + 1) * max(steps)).astype(np.int64) + _BLOCK_MARGIN
        window = np.ones((int((last - first).max()), 1), np.uint8)  # the longest block
        # A window's min / max from each block's first pixel on (past the end: ignored).
        lows.append(cv2.erode(darkest, window, anchor=(0, 0)).reshape(n_in, -1)[first])
        highs.append(cv2.dilate(brightest, window, anchor=(0, 0)).reshape(n_in, -1)[first])
    return _padding_colour(
        np.median(np.concatenate(highs), axis=0), np.median(np.concatenate(lows), axis=0)
    )


def _padding_colour(brightest: np.ndarray, darkest: np.ndarray) -> bool:
    """Is an edge colour (per channel: its brightest and darkest estimate, the same value when
    known exactly) white or black, as a padding canvas is? A plain tablecloth is not padding."""
    return bool(
        (brightest >= tuning.PADDING_WHITE).all() or (darkest <= tuning.PADDING_BLACK).all()
    )


def content_box(
    image: np.ndarray, tolerance: int = tuning.PADDING_TOLERANCE
) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the photo inside any uniform padding (a phone photo letterboxed on
    a white canvas, say): rows and columns at the edges that are all one colour are not part
    of the scene, and the edge of the canvas is not a card's edge."""
    h, w = image.shape[:2]
    pixels = image.reshape(h, w, -1).astype(np.int16)
    border = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    pad = np.median(border, axis=0)
    if not _padding_colour(pad, pad):
        return 0, 0, w, h
    plain = (np.abs(pixels - pad) <= tolerance).all(axis=2)
    rows = plain.mean(axis=1) >= tuning.PADDING_SHARE
    cols = plain.mean(axis=0) >= tuning.PADDING_SHARE

    def run(flags: np.ndarray) -> int:
        n = 0
        while n < len(flags) and flags[n]:
            n += 1
        return n

    y0, y1 = run(rows), h - run(rows[::-1])
    x0, x1 = run(cols), w - run(cols[::-1])
    if x1 - x0 < w // 4 or y1 - y0 < h // 4:  # a plain picture, or nearly: no padding
        return 0, 0, w, h
    return x0, y0, x1, y1


def edge_support(
    image: np.ndarray,
    quad: np.ndarray,
    strength: float = tuning.EDGE_STRENGTH,
    view_side: float = tuning.EDGE_VIEW_SIDE,
) -> float:
    """How well the picture backs up an outline: for each side, the share of points along it
    (ends left out) with a strong colour edge within a few pixels; the weakest side's share.
    A card lying on a table scores near 1; a loop in wood grain or a playmat pattern, whose
    sides are partly made up, scores low."""
    full_h, full_w = image.shape[:2]
    q = np.asarray(quad, np.float64).reshape(4, 2)
    span = max(float(np.ptp(q[:, 0])), float(np.ptp(q[:, 1])), 1.0)
    scale = min(1.0, view_side / span)  # look at the outline at about ``view_side`` px
    margin = tuning.EDGE_CROP_MARGIN
    x0 = max(0, int(q[:, 0].min()) - margin)
    y0 = max(0, int(q[:, 1].min()) - margin)
    x1 = min(full_w, int(np.ceil(q[:, 0].max())) + margin)
    y1 = min(full_h, int(np.ceil(q[:, 1].max())) + margin)
    crop = image[y0:y1, x0:x1]
    if crop.size == 0:
        return 0.0
    if scale < 1.0:
        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    dx, dy = _colour_gradient(cv2.GaussianBlur(crop, (3, 3), 0))
    magnitude = np.hypot(dx.astype(np.float32), dy.astype(np.float32))
    leeway = np.ones((tuning.EDGE_LEEWAY_PX, tuning.EDGE_LEEWAY_PX), np.uint8)
    magnitude = cv2.dilate(magnitude, leeway)  # a few pixels' leeway
    local = (q - [x0, y0]) * scale
    h, w = magnitude.shape
    weakest = 1.0
    for i in range(4):
        a, b = local[i], local[(i + 1) % 4]
        ends = tuning.EDGE_SIDE_ENDS
        t = np.linspace(ends, 1 - ends, tuning.EDGE_SAMPLES)[:, None]
        pts = a + (b - a) * t
        xs = np.clip(np.round(pts[:, 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(pts[:, 1]).astype(int), 0, h - 1)
        weakest = min(weakest, float((magnitude[ys, xs] > strength).mean()))
    return weakest


def _touches_border(quad: np.ndarray, box: tuple[int, int, int, int], margin: float) -> bool:
    x0, y0, x1, y1 = box
    x, y = quad[:, 0], quad[:, 1]
    near = (x < x0 + margin) | (x > x1 - 1 - margin) | (y < y0 + margin) | (y > y1 - 1 - margin)
    return bool(near.sum() >= 2)


def _dedupe(quads: list[np.ndarray], iou: float = tuning.NESTED_DEDUPE_IOU) -> list[np.ndarray]:
    """Merge near-identical outlines (the same card found at several edge sensitivities),
    preferring the larger one (the card's outer edge rather than an inner frame)."""
    quads = sorted(quads, key=lambda q: -quad_area(q))
    kept: list[np.ndarray] = []
    # Overlap can be no more than the bounding boxes' and the union no less than the larger
    # area (each kept one's): only pairs whose boxes allow the IoU are measured exactly (a
    # photo's ~100 outlines made ~470 measurements).
    boxes = np.array([[*q.min(axis=0), *q.max(axis=0)] for q in quads]).reshape(-1, 4)
    kept_boxes: list[np.ndarray] = []
    kept_areas: list[float] = []
    for q, box in zip(quads, boxes, strict=True):
        if kept:
            others = np.array(kept_boxes)
            # np.maximum, not np.clip: numpy 1's clip checks its bounds on every call.
            overlap = np.maximum(
                np.minimum(others[:, 2:], box[2:]) - np.maximum(others[:, :2], box[:2]), 0.0
            ).prod(axis=1)
            close = np.flatnonzero(overlap >= iou * np.array(kept_areas))
            if any(quad_iou(q, kept[i]) >= iou for i in close):
                continue
        kept.append(q)
        kept_boxes.append(box)
        kept_areas.append(quad_area(q))
    return kept


def card_from_image(image: np.ndarray) -> np.ndarray:
    """The upright card in a single-card image, at the canonical size.

    A scan (the picture is card-shaped: the card fills it, portrait or landscape) is used
    whole; otherwise it is a photo of one card on a table and the largest card outline in it is
    rectified (its top taken as the short edge higher in the picture)."""
    h, w = image.shape[:2]
    aspect = min(h, w) / max(h, w)
    if abs(aspect - CARD_ASPECT) < tuning.SCAN_ASPECT_TOLERANCE:
        card = image if h >= w else cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        return cv2.resize(
            card,
            (CARD_W, CARD_H),
            interpolation=cv2.INTER_AREA if card.shape[1] > CARD_W else cv2.INTER_CUBIC,
        )
    quads = find_card_quads(image)
    if quads:
        biggest = max(quads, key=lambda q: cv2.contourArea(q.reshape(-1, 1, 2)))
        if cv2.contourArea(biggest.reshape(-1, 1, 2)) > tuning.MIN_PHOTO_CARD_SHARE * h * w:
            return rectify(image, biggest)
    raise ValueError("no card found in the image (not card-shaped, and no card outline)")


def cards_in_reading_order(image: np.ndarray) -> list[np.ndarray]:
    """Every card outline in a photo, rectified upright, in reading order (rows top to bottom,
    each left to right) - for enrolling several cards from one photo."""
    outer = find_card_quads(image)
    ordered = reading_sequence(
        outer, center=lambda q: (float(q[:, 0].mean()), float(q[:, 1].mean()))
    )
    return [rectify(image, q) for q in ordered]
