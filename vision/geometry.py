"""The canonical card and quadrilaterals: corner order, overlap, shape checks, rectification.

Every card is compared at one canonical upright size, ``CARD_W x CARD_H`` (a 63 x 88 mm card
at ~135 dpi). Corners are always listed top-left, top-right, bottom-right, bottom-left of the
card face, so the first edge is the card's top wherever it lies in the picture.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

import vision.tuning as tuning

CARD_W, CARD_H = 336, 468  # the canonical upright card: every reference is stored at this size
CARD_ASPECT = CARD_W / CARD_H  # 63 x 88 mm
CARD_CORNERS = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners as top-left, top-right, bottom-right, bottom-left of an upright *portrait* card
    seen in the picture: the long sides are the card's left and right edges, and of the two
    short edges the one higher in the picture is taken as the top."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    # Plain floats, not numpy calls on four points: outline screening runs this thousands of
    # times a photo (19 -> 8 us a call).
    corners = q.tolist()
    cx = (corners[0][0] + corners[1][0] + corners[2][0] + corners[3][0]) / 4
    cy = (corners[0][1] + corners[1][1] + corners[2][1] + corners[3][1]) / 4
    # Clockwise on screen (y down), starting anywhere.
    clockwise = sorted(range(4), key=lambda i: math.atan2(corners[i][1] - cy, corners[i][0] - cx))
    pts = [corners[i] for i in clockwise]
    sides = _side_lengths(pts)
    # Short edges: pick the pair (0-1, 2-3) or (1-2, 3-0) with the smaller total length.
    start = 0 if sides[0] + sides[2] < sides[1] + sides[3] else 1
    # Edge start->start+1 is a short edge; choose which short edge is the top.
    a_y = pts[start][1] + pts[(start + 1) % 4][1]
    b_y = pts[(start + 2) % 4][1] + pts[(start + 3) % 4][1]
    if b_y < a_y:
        start = (start + 2) % 4
    return q[[clockwise[(start + i) % 4] for i in range(4)]]


def _side_lengths(pts: list[list[float]]) -> list[float]:
    """Lengths of the four sides (corner i to corner i + 1) of a quadrilateral's corners."""
    return [
        math.hypot(pts[(i + 1) % 4][0] - pts[i][0], pts[(i + 1) % 4][1] - pts[i][1])
        for i in range(4)
    ]


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


def rotation(radians: float) -> np.ndarray:
    """The 2x2 matrix turning a point ``radians`` (anticlockwise on paper, clockwise in a photo
    whose y runs down) about the origin."""
    c, s = np.cos(radians), np.sin(radians)  # numpy's, as every caller computed them
    return np.array([[c, -s], [s, c]])


def inverse(matrix: np.ndarray) -> np.ndarray:
    """``np.linalg.inv`` of a small matrix (a 3 x 3 homography), without LAPACK: on the Pi's
    numpy (1.24, with OpenBLAS 0.3.21) every LAPACK call wakes OpenBLAS's helper threads, and
    their spinning cost ~1 ms of CPU a call (~13 calls a photo) for microseconds of work.
    ``np.linalg.LinAlgError`` when the matrix is singular, as numpy's."""
    ok, inverted = cv2.invert(np.asarray(matrix, np.float64), flags=cv2.DECOMP_LU)
    if not ok:
        raise np.linalg.LinAlgError("singular matrix")
    return np.asarray(inverted)


def quad_area(quad: np.ndarray) -> float:
    return float(cv2.contourArea(np.asarray(quad, np.float32).reshape(-1, 1, 2)))


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


def in_quad(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Which points lie inside the convex quadrilateral ``quad`` (either winding; any convex
    polygon will do)."""
    q = np.asarray(quad, np.float64).reshape(-1, 2)
    p = np.asarray(points, np.float64).reshape(-1, 2).T
    # Every edge at once, edge by point (each edge's row a run of the points): the same sums
    # as edge by edge, in a few numpy calls that each run along the points. A point's four
    # signs side by side (point by edge) made numpy walk rows of four: 1,200 points took
    # 267 -> 96 us (default stack), 144 -> 49 us (Pi's numpy 1.24); finding tests a photo's
    # 4,000 features against each card it fits (~16 quads a fanned photo).
    # The next corner by slicing, not np.roll (its axis checks): ~6 us of ~20 a call, both
    # stacks; ~50 calls a photo.
    edge = np.concatenate((q[1:], q[:1])) - q
    s = edge[:, 0:1] * (p[1] - q[:, 1:2]) - edge[:, 1:2] * (p[0] - q[:, 0:1])
    return np.asarray((s >= 0).all(axis=0) | (s <= 0).all(axis=0))


def corners_from_homography(h: np.ndarray) -> np.ndarray:
    """Where the canonical card's corners land under ``h`` (canonical -> picture)."""
    return cv2.perspectiveTransform(CARD_CORNERS[None].astype(np.float64), h)[0].astype(np.float32)


def plausible_card(
    quad: np.ndarray, size: tuple[int, int] | None = None, *, fitted: bool = False
) -> bool:
    """Could this quadrilateral be a card photographed from up to ~45 degrees off vertical?

    ``fitted``: the corners come from a fit of the card's own features (not from edges), so
    only a degenerate shape is refused: a card near the edge of a wide-angle, steeply tilted
    picture is seen from further off vertical than the camera is tilted, and looks thinner
    and more sheared than an outline search may accept."""
    q = order_corners(quad)
    if not cv2.isContourConvex(q.reshape(-1, 1, 2)):
        return False
    pts = q.tolist()
    sides = _side_lengths(pts)
    if min(sides) < tuning.MIN_SIDE:
        return False
    short = (sides[0] + sides[2]) / 2
    long = (sides[1] + sides[3]) / 2
    aspect = short / long
    # Seen from 45 degrees a card's long side can shrink to its short side's length (a card
    # near the camera of a steep photo looks square), so up to square is plausible.
    if not (CARD_ASPECT * tuning.ASPECT_SHARE[fitted] < aspect <= 1.0):
        return False
    # Opposite sides of a card seen in perspective stay within a factor ~2 of each other.
    spread = tuning.OPPOSITE_SPREAD[fitted]
    if max(sides[0], sides[2]) > spread * min(sides[0], sides[2]):
        return False
    if max(sides[1], sides[3]) > spread * min(sides[1], sides[3]):
        return False
    # Corner angles between ~32 and ~148 degrees (steep views shear a card a lot).
    return _max_corner_cos(pts) <= tuning.CORNER_COS[fitted]


def max_corner_cos(q: np.ndarray) -> float:
    """The largest |cos| of the four corner angles of quadrilateral ``q`` (0: all square)."""
    return _max_corner_cos(np.asarray(q, np.float64).reshape(4, 2).tolist())


def _max_corner_cos(pts: list[list[float]]) -> float:
    worst = 0.0
    for i in range(4):
        px, py = pts[i]
        ax, ay = pts[(i - 1) % 4][0] - px, pts[(i - 1) % 4][1] - py
        bx, by = pts[(i + 1) % 4][0] - px, pts[(i + 1) % 4][1] - py
        cos = (ax * bx + ay * by) / (math.hypot(ax, ay) * math.hypot(bx, by) + 1e-9)
        worst = max(worst, abs(cos))
    return worst
