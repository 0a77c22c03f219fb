"""Card outlines from edges, rectification, and image-quality measures.

Outlines are the second cue (the first is feature matching in :mod:`vision.recognize`): they
find cards that are not in the gallery, or too blurred to match, so those can be reported as
unknown with a reason, and they give enrolment-from-a-photo its card positions.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.features import CARD_ASPECT, CARD_CORNERS, CARD_H, CARD_W, to_gray

FIND_LONG_SIDE = 1000  # outline search works on a copy about this big


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left of an upright *portrait* card
    seen in the picture: the long sides are the card's left and right edges, and of the two
    short edges the one higher in the picture is taken as the top."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    centre = q.mean(axis=0)
    angles = np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0])
    q = q[np.argsort(angles)]  # clockwise on screen (y down), starting anywhere
    sides = [float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4)]
    # Short edges: pick the pair (0-1, 2-3) or (1-2, 3-0) with the smaller total length.
    start = 0 if sides[0] + sides[2] < sides[1] + sides[3] else 1
    # Edge start->start+1 is a short edge; choose which short edge is the top.
    a = (q[start] + q[(start + 1) % 4]) / 2
    b = (q[(start + 2) % 4] + q[(start + 3) % 4]) / 2
    if b[1] < a[1]:
        start = (start + 2) % 4
    return np.array([q[(start + i) % 4] for i in range(4)], np.float32)


def rectify(image: np.ndarray, corners: np.ndarray, size: tuple[int, int] = (CARD_W, CARD_H)):
    """The card inside ``corners`` (TL, TR, BR, BL) warped upright to ``size`` (w, h).

    When the card is much larger in the picture than ``size`` it is warped at a multiple of the
    size and then shrunk with area averaging, so fine print does not alias."""
    width, height = size
    c = np.asarray(corners, np.float32).reshape(4, 2)
    span = max(
        float(np.linalg.norm(c[1] - c[0])),
        float(np.linalg.norm(c[2] - c[3])),
    )
    factor = int(np.clip(np.floor(span / width), 1, 4))
    dst = np.array(
        [[0, 0], [width * factor, 0], [width * factor, height * factor], [0, height * factor]],
        np.float32,
    )
    h = cv2.getPerspectiveTransform(c, dst)
    warped = cv2.warpPerspective(
        image,
        h,
        (width * factor, height * factor),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    if factor > 1:
        warped = cv2.resize(warped, (width, height), interpolation=cv2.INTER_AREA)
    return warped


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


def _quad_from_contour(contour: np.ndarray) -> tuple[np.ndarray | None, bool]:
    """The contour's hull as four corners, and whether that is only its bounding box (no
    four-sided polygon fits the hull)."""
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32), False
    box = cv2.boxPoints(cv2.minAreaRect(hull))
    return np.asarray(box, np.float32), True


def _area(quad: np.ndarray) -> float:
    return float(cv2.contourArea(np.asarray(quad, np.float32).reshape(-1, 1, 2)))


def find_card_quads(image: np.ndarray, *, min_fraction: float = 0.04) -> list[np.ndarray]:
    """Card-shaped outlines in ``image``: corner arrays (TL, TR, BR, BL; image pixels).

    Looks for closed, convex, card-proportioned outlines in edge maps at two sensitivities
    (so both crisp and faint card edges are found). Pieces of the picture's own border (a
    padded canvas, the photo edge) are not cards and are dropped. ``min_fraction``: the smallest
    card side accepted, as a fraction of the picture's short side.
    """
    full_h, full_w = image.shape[:2]
    scale = min(1.0, FIND_LONG_SIDE / max(full_h, full_w))
    small = image
    if scale < 1.0:
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    dx, dy = _colour_gradient(cv2.GaussianBlur(small, (5, 5), 0))
    h, w = dx.shape
    # Padding is found on a small copy (it needs no detail), then scaled up.
    tiny_scale = min(1.0, 250 / max(h, w))
    tiny = cv2.resize(small, None, fx=tiny_scale, fy=tiny_scale, interpolation=cv2.INTER_AREA)
    bx0, by0, bx1, by1 = content_box(tiny)
    box = (
        int(bx0 / tiny_scale),
        int(by0 / tiny_scale),
        int(np.ceil(bx1 / tiny_scale)) if bx1 < tiny.shape[1] else w,
        int(np.ceil(by1 / tiny_scale)) if by1 < tiny.shape[0] else h,
    )
    min_side = min_fraction * min(h, w) * 1.5
    max_area = 0.6 * h * w
    found: list[np.ndarray] = []
    kernel = np.ones((3, 3), np.uint8)
    for low, high in ((20, 60), (40, 120), (80, 200)):
        edges = cv2.dilate(cv2.Canny(dx, dy, low, high, L2gradient=True), kernel)
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if len(contour) < 8:
                continue
            _, _, bw, bh = cv2.boundingRect(contour)
            if max(bw, bh) < min_side:
                continue
            rect = cv2.minAreaRect(contour)
            rw, rh = rect[1]
            if min(rw, rh) < min_side or rw * rh > max_area:
                continue
            hull = cv2.convexHull(contour)
            area = cv2.contourArea(hull)
            quad, quad_is_box = _quad_from_contour(contour)
            if quad is None or not cv2.isContourConvex(quad.reshape(-1, 1, 2).astype(np.int32)):
                continue
            # The outline must be a filled quadrilateral: its hull nearly all inside the fitted
            # quad. (Measured against the quad, not the upright bounding rectangle: a card seen
            # steeply is a sheared parallelogram that fills only ~65% of its bounding box.)
            if area < 0.85 * max(rw * rh if quad_is_box else 0.0, _area(quad)):
                continue
            if not plausible_card(quad, (w, h)):
                continue
            # The picture's border (or a white canvas edge) is not a card.
            if _touches_border(quad, box, margin=3.0 + 1.0 / tiny_scale):
                continue
            found.append(quad)
    quads = _dedupe([order_corners(q / scale) for q in found])
    # An outline wholly inside another (a card's art box or text box) is not a card.
    return [
        q
        for q in quads
        if not any(
            o is not q
            and cv2.contourArea(o.reshape(-1, 1, 2)) > cv2.contourArea(q.reshape(-1, 1, 2))
            and all(inside(p, o) for p in q)
            for o in quads
        )
    ]


def _colour_gradient(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel, the x/y gradient of whichever colour channel changes most there, so an edge
    between two colours of equal brightness (a dark green card border on green felt) counts."""
    if image.ndim == 2:
        image = image[..., None]
    gx = cv2.Sobel(image, cv2.CV_16S, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_16S, 0, 1, ksize=3)
    if gx.ndim == 2:
        return gx, gy
    magnitude = np.abs(gx) + np.abs(gy)  # int16 is enough: |Sobel| <= 1020 per axis
    dx, dy, best = gx[..., 0], gy[..., 0], magnitude[..., 0]
    for c in (1, 2):
        stronger = magnitude[..., c] > best
        dx = np.where(stronger, gx[..., c], dx)
        dy = np.where(stronger, gy[..., c], dy)
        best = np.maximum(best, magnitude[..., c])
    return np.ascontiguousarray(dx), np.ascontiguousarray(dy)


def content_box(image: np.ndarray, tolerance: int = 10) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the photo inside any uniform padding (a phone photo letterboxed on
    a white canvas, say): rows and columns at the edges that are all one colour are not part
    of the scene, and the edge of the canvas is not a card's edge."""
    h, w = image.shape[:2]
    pixels = image.reshape(h, w, -1).astype(np.int16)
    border = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    pad = np.median(border, axis=0)
    if not ((pad >= 225).all() or (pad <= 30).all()):
        return 0, 0, w, h  # padding is white or black; a plain tablecloth is not padding
    plain = (np.abs(pixels - pad) <= tolerance).all(axis=2)
    rows = plain.mean(axis=1) >= 0.98
    cols = plain.mean(axis=0) >= 0.98

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


def edge_support(image: np.ndarray, quad: np.ndarray, strength: float = 60.0) -> float:
    """How well the picture backs up an outline: for each side, the share of points along it
    (ends left out) with a strong colour edge within a few pixels; the weakest side's share.
    A card lying on a table scores near 1; a loop in wood grain or a playmat pattern, whose
    sides are partly made up, scores low."""
    full_h, full_w = image.shape[:2]
    q = np.asarray(quad, np.float64).reshape(4, 2)
    span = max(float(np.ptp(q[:, 0])), float(np.ptp(q[:, 1])), 1.0)
    scale = min(1.0, 400.0 / span)  # look at the outline at about 400 px across
    x0 = max(0, int(q[:, 0].min()) - 8)
    y0 = max(0, int(q[:, 1].min()) - 8)
    x1 = min(full_w, int(np.ceil(q[:, 0].max())) + 8)
    y1 = min(full_h, int(np.ceil(q[:, 1].max())) + 8)
    crop = image[y0:y1, x0:x1]
    if crop.size == 0:
        return 0.0
    if scale < 1.0:
        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    dx, dy = _colour_gradient(cv2.GaussianBlur(crop, (3, 3), 0))
    magnitude = np.hypot(dx.astype(np.float32), dy.astype(np.float32))
    magnitude = cv2.dilate(magnitude, np.ones((5, 5), np.uint8))  # a few pixels' leeway
    local = (q - [x0, y0]) * scale
    h, w = magnitude.shape
    weakest = 1.0
    for i in range(4):
        a, b = local[i], local[(i + 1) % 4]
        t = np.linspace(0.15, 0.85, 24)[:, None]
        pts = a + (b - a) * t
        xs = np.clip(np.round(pts[:, 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(pts[:, 1]).astype(int), 0, h - 1)
        weakest = min(weakest, float((magnitude[ys, xs] > strength).mean()))
    return weakest


def _touches_border(quad: np.ndarray, box: tuple[int, int, int, int], margin: float = 3.0) -> bool:
    x0, y0, x1, y1 = box
    x, y = quad[:, 0], quad[:, 1]
    near = (x < x0 + margin) | (x > x1 - 1 - margin) | (y < y0 + margin) | (y > y1 - 1 - margin)
    return bool(near.sum() >= 2)


def plausible_card(
    quad: np.ndarray, size: tuple[int, int] | None = None, *, fitted: bool = False
) -> bool:
    """Could this quadrilateral be a card photographed from up to ~45 degrees off vertical?

    ``fitted``: the corners come from a fit of the card's own features (not from edges), so
    only a degenerate shape is refused: a card near the edge of a wide-angle, steeply tilted
    picture is seen from further off vertical than the camera is tilted, and looks thinner
    and more sheared than an outline search may accept."""
    q = order_corners(quad)
    if not cv2.isContourConvex(q.reshape(-1, 1, 2).astype(np.float32)):
        return False
    sides = [float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4)]
    if min(sides) < 8:
        return False
    short = (sides[0] + sides[2]) / 2
    long = (sides[1] + sides[3]) / 2
    aspect = short / long
    # Seen from 45 degrees a card's long side can shrink to its short side's length (a card
    # near the camera of a steep photo looks square), so up to square is plausible.
    if not (CARD_ASPECT * (0.45 if fitted else 0.62) < aspect <= 1.0):
        return False
    # Opposite sides of a card seen in perspective stay within a factor ~2 of each other.
    spread = 3.0 if fitted else 2.0
    if max(sides[0], sides[2]) > spread * min(sides[0], sides[2]):
        return False
    if max(sides[1], sides[3]) > spread * min(sides[1], sides[3]):
        return False
    # Corner angles between ~32 and ~148 degrees (steep views shear a card a lot).
    for i in range(4):
        a = q[(i - 1) % 4] - q[i]
        b = q[(i + 1) % 4] - q[i]
        cos = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
        if abs(cos) > (0.92 if fitted else 0.85):
            return False
    return True


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals."""
    pa = np.asarray(a, np.float32).reshape(-1, 2)
    pb = np.asarray(b, np.float32).reshape(-1, 2)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - inter
    return float(inter / union) if union > 0 else 0.0


def inside(point: tuple[float, float] | np.ndarray, quad: np.ndarray) -> bool:
    contour = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    p = (float(point[0]), float(point[1]))
    return cv2.pointPolygonTest(contour, p, False) >= 0


def _dedupe(quads: list[np.ndarray], iou: float = 0.6) -> list[np.ndarray]:
    """Merge near-identical outlines (the same card found at several edge sensitivities),
    preferring the larger one (the card's outer edge rather than an inner frame)."""
    quads = sorted(quads, key=lambda q: -cv2.contourArea(q.reshape(-1, 1, 2)))
    kept: list[np.ndarray] = []
    for q in quads:
        if all(quad_iou(q, k) < iou for k in kept):
            kept.append(q)
    return kept


def card_from_image(image: np.ndarray) -> np.ndarray:
    """The upright card in a single-card image, at the canonical size.

    A scan (the picture is card-shaped: the card fills it, portrait or landscape) is used
    whole; otherwise it is a photo of one card on a table and the largest card outline in it is
    rectified (its top taken as the short edge higher in the picture)."""
    h, w = image.shape[:2]
    aspect = min(h, w) / max(h, w)
    if abs(aspect - CARD_ASPECT) < 0.03:
        card = image if h >= w else cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        return cv2.resize(
            card,
            (CARD_W, CARD_H),
            interpolation=cv2.INTER_AREA if card.shape[1] > CARD_W else cv2.INTER_CUBIC,
        )
    quads = find_card_quads(image)
    if quads:
        biggest = max(quads, key=lambda q: cv2.contourArea(q.reshape(-1, 1, 2)))
        if cv2.contourArea(biggest.reshape(-1, 1, 2)) > 0.05 * h * w:
            return rectify(image, biggest)
    raise ValueError("no card found in the image (not card-shaped, and no card outline)")


def corners_from_homography(h: np.ndarray) -> np.ndarray:
    """Where the canonical card's corners land under ``h`` (canonical -> picture)."""
    return cv2.perspectiveTransform(CARD_CORNERS[None].astype(np.float64), h)[0].astype(np.float32)


def cards_in_reading_order(image: np.ndarray) -> list[np.ndarray]:
    """Every card outline in a photo, rectified upright, in reading order (rows top to bottom,
    each left to right) - for enrolling several cards from one photo."""
    from vision.layout import reading_sequence

    outer = find_card_quads(image)
    ordered = reading_sequence(
        outer, center=lambda q: (float(q[:, 0].mean()), float(q[:, 1].mean()))
    )
    return [rectify(image, q) for q in ordered]
