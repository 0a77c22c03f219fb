"""Synthetic card faces, table textures and table photos with exact ground truth.

Everything here is procedural and deterministic for a given seed / random generator, so tests,
the benchmark and the simulated camera work without any real card images:

- :func:`render_card_face` draws a distinct, feature-rich card face for a name;
- :func:`make_table` draws a table surface (wood, cloth, felt or a busy playmat);
- :func:`compose_scene` lays cards on a table and photographs them with a simulated camera
  (rotation, perspective, scale, lighting gradient, glare, blur, noise, JPEG), returning the image
  and where every card ended up (:class:`Scene`).

Sizes are ``(width, height)`` like OpenCV's; corners are listed top-left, top-right,
bottom-right, bottom-left *of the card face* (so the first edge is the card's top edge wherever
it lies in the picture).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np

Difficulty = Literal["easy", "medium", "hard"]
TableKind = Literal["wood", "cloth", "felt", "playmat"]
TABLE_KINDS: tuple[TableKind, ...] = ("wood", "cloth", "felt", "playmat")
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")

CARD_SIZE = (336, 468)  # width, height: a 63 x 88 mm card at ~135 dpi

_WORDS = (
    "draw discard score bonus each player card your when play hand turn round track side "
    "reveal choose gain lose point extra after before count copy every other until end"
).split()


def _stable_seed(*parts: object) -> int:
    """A seed that is the same on every run and machine (unlike ``hash()``)."""
    return zlib.crc32("\x1f".join(str(p) for p in parts).encode("utf-8"))


def _random_color(rng: np.random.Generator, lo: int = 30, hi: int = 230) -> tuple[int, int, int]:
    c = rng.integers(lo, hi, size=3)
    return int(c[0]), int(c[1]), int(c[2])


def render_card_face(name: str, seed: int = 0, size: tuple[int, int] = CARD_SIZE) -> np.ndarray:
    """Draw a card face for ``name`` (BGR uint8, ``size`` = (width, height)).

    The same ``(name, seed)`` always gives the same picture; different names give visibly
    different cards (frame colour, art, text), with plenty of corners and texture so feature
    matching has something to hold on to. ``seed`` lets a caller make a different "printing".
    """
    width, height = size
    rng = np.random.default_rng(_stable_seed("card", name, seed))
    # Draw at the canonical size, resize at the end so every size looks alike.
    w, h = CARD_SIZE
    frame = np.array(_random_color(rng, 20, 200), dtype=np.uint8)
    card = np.empty((h, w, 3), np.uint8)
    card[:] = frame
    # Frame texture: a gentle diagonal gradient.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    shade = 0.85 + 0.3 * (xx + yy) / (w + h)
    card = np.clip(card.astype(np.float32) * shade[..., None], 0, 255).astype(np.uint8)
    # The random draws happen in this order (title, art, text, footer): keep it, so every
    # (name, seed) keeps its picture.
    title_color = _draw_title(card, name, rng)
    art_bottom = _draw_art(card, rng)
    _draw_text(card, rng, art_bottom, title_color)
    _draw_footer(card, name, seed, rng, title_color)
    if (width, height) != (w, h):
        interp = cv2.INTER_AREA if width < w else cv2.INTER_LINEAR
        card = cv2.resize(card, (width, height), interpolation=interp)
    return card


_MARGIN = 14  # card face px between the edge and the title bar, art and text boxes


def _draw_title(card: np.ndarray, name: str, rng: np.random.Generator) -> tuple[int, int, int]:
    """The title bar with the name and a cost badge; returns the bar's colour."""
    w = card.shape[1]
    margin = _MARGIN
    title_color = _random_color(rng, 150, 250)
    cv2.rectangle(card, (margin, margin), (w - margin, margin + 36), title_color, -1)
    cv2.rectangle(card, (margin, margin), (w - margin, margin + 36), (20, 20, 20), 2)
    label = name if len(name) <= 22 else name[:21] + "."
    cv2.putText(
        card,
        label,
        (margin + 8, margin + 26),
        cv2.FONT_HERSHEY_DUPLEX,
        0.72,
        (10, 10, 10),
        1,
        cv2.LINE_AA,
    )
    # A cost/number badge in the title bar's right end.
    badge = int(rng.integers(0, 10))
    cv2.circle(card, (w - margin - 20, margin + 18), 14, _random_color(rng), -1)
    cv2.putText(
        card,
        str(badge),
        (w - margin - 27, margin + 26),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.6,
        (255, 255, 255),
        2,
        cv2.LINE_AA,
    )
    return title_color


def _draw_art(card: np.ndarray, rng: np.random.Generator) -> int:
    """The art box: a random gradient plus many random shapes; returns its bottom edge."""
    w = card.shape[1]
    margin = _MARGIN
    ax0, ay0, ax1, ay1 = margin, margin + 44, w - margin, margin + 44 + 220
    art = np.zeros((ay1 - ay0, ax1 - ax0, 3), np.float32)
    c0 = np.array(_random_color(rng), np.float32)
    c1 = np.array(_random_color(rng), np.float32)
    t = np.linspace(0, 1, art.shape[0], dtype=np.float32)[:, None, None]
    art[:] = c0 * (1 - t) + c1 * t
    art_u8 = art.astype(np.uint8)
    ah, aw = art_u8.shape[:2]
    for _ in range(int(rng.integers(18, 30))):
        _draw_shape(art_u8, rng, aw, ah)
    card[ay0:ay1, ax0:ax1] = art_u8
    cv2.rectangle(card, (ax0, ay0), (ax1, ay1), (15, 15, 15), 2)
    return ay1


def _draw_shape(art: np.ndarray, rng: np.random.Generator, aw: int, ah: int) -> None:
    """One random circle, polygon, line or rectangle in the art."""
    color = _random_color(rng, 0, 255)
    kind = int(rng.integers(0, 4))
    if kind == 0:
        center = (int(rng.integers(0, aw)), int(rng.integers(0, ah)))
        cv2.circle(art, center, int(rng.integers(6, 45)), color, -1, cv2.LINE_AA)
    elif kind == 1:
        pts = rng.integers(0, [aw, ah], size=(int(rng.integers(3, 6)), 2)).astype(np.int32)
        cv2.fillPoly(art, [pts], color, cv2.LINE_AA)
    elif kind == 2:
        p0 = (int(rng.integers(0, aw)), int(rng.integers(0, ah)))
        p1 = (int(rng.integers(0, aw)), int(rng.integers(0, ah)))
        cv2.line(art, p0, p1, color, int(rng.integers(2, 7)), cv2.LINE_AA)
    else:
        x, y = int(rng.integers(0, aw - 20)), int(rng.integers(0, ah - 20))
        cv2.rectangle(
            art,
            (x, y),
            (x + int(rng.integers(8, 60)), y + int(rng.integers(8, 60))),
            color,
            -1,
        )


def _draw_text(
    card: np.ndarray, rng: np.random.Generator, art_bottom: int, title_color: tuple[int, int, int]
) -> None:
    """The type line, and the rules text box: pale, a few lines of pseudo-words, a symbol or
    two."""
    h, w = card.shape[:2]
    margin = _MARGIN
    ty = art_bottom + 6
    cv2.rectangle(card, (margin, ty), (w - margin, ty + 24), title_color, -1)
    cv2.putText(
        card,
        " ".join(rng.choice(_WORDS, 2)).title(),
        (margin + 6, ty + 17),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.5,
        (10, 10, 10),
        1,
        cv2.LINE_AA,
    )
    bx0, by0, bx1, by1 = margin, ty + 30, w - margin, h - margin - 22
    box_color = tuple(int(v) for v in 200 + rng.integers(0, 50, size=3))
    cv2.rectangle(card, (bx0, by0), (bx1, by1), box_color, -1)
    cv2.rectangle(card, (bx0, by0), (bx1, by1), (30, 30, 30), 1)
    y = by0 + 20
    while y < by1 - 6:
        words = " ".join(rng.choice(_WORDS, int(rng.integers(3, 6))))
        cv2.putText(
            card,
            words,
            (bx0 + 8, y),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            (20, 20, 20),
            1,
            cv2.LINE_AA,
        )
        y += 19
    for _ in range(int(rng.integers(1, 3))):
        sx = int(rng.integers(bx0 + 20, bx1 - 20))
        sy = int(rng.integers(by0 + 15, by1 - 15))
        cv2.drawMarker(card, (sx, sy), _random_color(rng, 0, 150), int(rng.integers(0, 7)), 18, 2)


def _draw_footer(
    card: np.ndarray,
    name: str,
    seed: int,
    rng: np.random.Generator,
    title_color: tuple[int, int, int],
) -> None:
    """A set code and a number, plus a corner stat box."""
    h, w = card.shape[:2]
    margin = _MARGIN
    cv2.putText(
        card,
        f"{zlib.crc32(name.encode()) % 1000:03d}/{seed % 1000:03d}",
        (margin + 4, h - 8),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.4,
        (235, 235, 235),
        1,
        cv2.LINE_AA,
    )
    cv2.rectangle(card, (w - margin - 56, h - margin - 26), (w - margin, h - 4), title_color, -1)
    cv2.putText(
        card,
        f"{int(rng.integers(0, 9))}/{int(rng.integers(0, 9))}",
        (w - margin - 46, h - 10),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.55,
        (10, 10, 10),
        1,
        cv2.LINE_AA,
    )


def _smooth_noise(
    height: int,
    width: int,
    rng: np.random.Generator,
    scale: float,
    *,
    sx: float = 1.0,
    sy: float = 1.0,
) -> np.ndarray:
    """Zero-mean, unit-ish noise with features about ``scale`` pixels across (float32)."""
    small_w = max(2, int(width / (scale * sx)) + 2)
    small_h = max(2, int(height / (scale * sy)) + 2)
    small = rng.standard_normal((small_h, small_w)).astype(np.float32)
    big = cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)
    return big


def make_table(width: int, height: int, kind: str, rng: np.random.Generator) -> np.ndarray:
    """A table surface, BGR uint8 of ``height x width``: wood, cloth, felt or a busy playmat."""
    if kind not in TABLE_KINDS:
        raise ValueError(f"unknown table kind {kind!r}; expected one of {', '.join(TABLE_KINDS)}")
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == "wood":
        base = np.array([40, 90, 160], np.float32) * float(rng.uniform(0.7, 1.15))
        angle = float(rng.uniform(0, math.pi))
        u = xx * math.cos(angle) + yy * math.sin(angle)
        v = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = _smooth_noise(height, width, rng, 120.0) * 25.0
        grain = np.sin((v + warp) / float(rng.uniform(5, 12))) * 0.5 + 0.5
        streaks = _smooth_noise(height, width, rng, 6.0) * 0.08
        planks = np.floor(v / float(rng.uniform(180, 320)))
        plank_tint = (np.sin(planks * 12.9898) * 0.5 + 0.5) * 0.25
        shade = 0.7 + 0.35 * grain + streaks - plank_tint + 0.02 * np.sin(u / 40.0)
        img = base[None, None, :] * shade[..., None]
    elif kind == "cloth":
        base = np.array(_random_color(rng, 60, 200), np.float32)
        period = float(rng.uniform(3, 6))
        weave = 0.5 * (np.sin(xx * 2 * math.pi / period) * np.sin(yy * 2 * math.pi / period))
        shade = 0.9 + 0.08 * weave + 0.06 * _smooth_noise(height, width, rng, 40.0)
        img = base[None, None, :] * shade[..., None]
    elif kind == "felt":
        base = np.array([50, 110, 30], np.float32) * float(rng.uniform(0.7, 1.3))
        shade = 0.92 + 0.05 * _smooth_noise(height, width, rng, 2.0)
        shade += 0.05 * _smooth_noise(height, width, rng, 80.0)
        img = base[None, None, :] * shade[..., None]
    else:  # playmat: busy printed art
        img = np.zeros((height, width, 3), np.float32)
        for c in range(3):
            img[..., c] = 128 + 60 * _smooth_noise(height, width, rng, 150.0)
        canvas = np.clip(img, 0, 255).astype(np.uint8)
        n_shapes = int(width * height / 6000)
        for _ in range(n_shapes):
            color = _random_color(rng, 0, 255)
            x, y = int(rng.integers(0, width)), int(rng.integers(0, height))
            kind_i = int(rng.integers(0, 3))
            if kind_i == 0:
                cv2.circle(canvas, (x, y), int(rng.integers(4, 40)), color, -1, cv2.LINE_AA)
            elif kind_i == 1:
                x1, y1 = x + int(rng.integers(-80, 80)), y + int(rng.integers(-80, 80))
                cv2.line(canvas, (x, y), (x1, y1), color, int(rng.integers(1, 6)), cv2.LINE_AA)
            else:
                pts = (np.array([x, y]) + rng.integers(-50, 50, size=(3, 2))).astype(np.int32)
                cv2.fillPoly(canvas, [pts], color, cv2.LINE_AA)
        canvas = cv2.GaussianBlur(canvas, (0, 0), 1.2)
        return canvas
    return np.clip(img, 0, 255).astype(np.uint8)


@dataclass
class SceneCard:
    """Where one card of the scene ended up. ``index`` points into the list given to
    :func:`compose_scene`; ``corners`` are top-left, top-right, bottom-right, bottom-left of the
    card face in image pixels; ``rotation`` is the in-table rotation in degrees (0 = upright,
    counter-clockwise positive)."""

    index: int
    corners: np.ndarray
    rotation: float

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


@dataclass
class Scene:
    """A synthetic table photo (``image``, BGR uint8) and the exact truth (``cards``), in the
    order the layout placed them (for ``layout="rows"``/``"columns"`` that is the reading /
    column order; each card's ``index`` says which input card it is)."""

    image: np.ndarray
    cards: list[SceneCard] = field(default_factory=list)
    difficulty: str = "easy"
    table_kind: str = "wood"
    blur_sigma: float = 0.0


_SETTINGS: dict[str, dict[str, float]] = {
    # tilt: camera off-vertical (deg); overlap: allowed fraction of card radius overlap;
    # glare: count of glare spots; blur: max gaussian sigma (px, on the final image);
    # noise: gaussian noise sigma; jpeg: lowest quality; light: lighting gradient strength
    "easy": dict(tilt=8, overlap=0.0, glare=0, blur=0.4, noise=2, jpeg=90, light=0.1, scale=1.0),
    "medium": dict(
        tilt=25, overlap=0.0, glare=2, blur=1.0, noise=4, jpeg=80, light=0.25, scale=0.85
    ),
    "hard": dict(tilt=45, overlap=0.12, glare=4, blur=1.6, noise=7, jpeg=65, light=0.4, scale=0.7),
}


def _camera_homography(
    width: int, height: int, tilt_deg: float, rng: np.random.Generator
) -> np.ndarray:
    """Homography from the flat table plane (same pixel frame) to the camera image for a camera
    tilted ``tilt_deg`` off vertical in a random direction, keeping the picture centred."""
    f = 1.2 * max(width, height)  # about a 45 degree horizontal field of view
    tilt = math.radians(tilt_deg)
    direction = float(rng.uniform(0, 2 * math.pi))
    axis = np.array([math.cos(direction), math.sin(direction), 0.0])
    rot, _ = cv2.Rodrigues(axis * tilt)
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]], np.float64)
    k_inv = np.linalg.inv(k)
    h = k @ rot @ k_inv
    # Rescale about the centre so the table still fills the frame roughly the same.
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    warped = cv2.perspectiveTransform(corners[None], h)[0]
    span = warped.max(axis=0) - warped.min(axis=0)
    s = min(width / span[0], height / span[1]) * 1.05
    centre = warped.mean(axis=0)
    fix = np.array(
        [[s, 0, width / 2 - s * centre[0]], [0, s, height / 2 - s * centre[1]], [0, 0, 1]]
    )
    return fix @ h


def _card_plane_corners(cx: float, cy: float, rot: float, card_w: float, card_h: float):
    """The four table-plane corners (TL, TR, BR, BL of the face) of a card centred at
    (cx, cy) and turned ``rot`` degrees counter-clockwise."""
    a = math.radians(rot)
    ca, sa = math.cos(a), math.sin(a)
    local = np.array(
        [
            [-card_w / 2, -card_h / 2],
            [card_w / 2, -card_h / 2],
            [card_w / 2, card_h / 2],
            [-card_w / 2, card_h / 2],
        ]
    )
    # Counter-clockwise on screen (y down): x' = x cos + y sin, y' = -x sin + y cos.
    return np.stack(
        [cx + local[:, 0] * ca + local[:, 1] * sa, cy - local[:, 0] * sa + local[:, 1] * ca],
        axis=1,
    )


def _frame_all_cards(
    cam: np.ndarray,
    placements: list[tuple[float, float, float]],
    card_w: float,
    card_h: float,
    width: int,
    height: int,
) -> np.ndarray:
    """Zoom the camera out (about the picture centre) until every card is wholly in the
    picture with a small margin, as a player framing the photo would."""
    if not placements:
        return cam
    pts = np.vstack([_card_plane_corners(x, y, r, card_w, card_h) for x, y, r in placements])
    img = cv2.perspectiveTransform(pts[None].astype(np.float64), cam)[0]
    margin = 0.02 * min(width, height)
    cx, cy = width / 2, height / 2
    need = max(
        float(np.max(np.abs(img[:, 0] - cx))) / (cx - margin),
        float(np.max(np.abs(img[:, 1] - cy))) / (cy - margin),
    )
    if need <= 1.0:
        return cam
    s = 1.0 / need
    zoom = np.array([[s, 0, cx * (1 - s)], [0, s, cy * (1 - s)], [0, 0, 1]], np.float64)
    return zoom @ cam


def _card_placements(
    n: int,
    width: int,
    height: int,
    card_h: float,
    rng: np.random.Generator,
    overlap: float,
    layout: str | None,
    cam: np.ndarray,
) -> list[tuple[float, float, float]]:
    """(centre x, centre y, rotation degrees) on the table plane for n cards of plane height
    ``card_h``, chosen in the *picture* (through the camera ``cam``) so every card is in view."""
    card_w = card_h * CARD_SIZE[0] / CARD_SIZE[1]
    inv = np.linalg.inv(cam)

    def to_plane(u: float, v: float) -> tuple[float, float]:
        p = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), inv)[0, 0]
        return float(p[0]), float(p[1])

    def in_view(cx: float, cy: float, rot: float) -> bool:
        corners = _card_plane_corners(cx, cy, rot, card_w, card_h)
        img = cv2.perspectiveTransform(corners[None].astype(np.float64), cam)[0]
        m = 0.015 * min(width, height)
        return bool(
            (img[:, 0] > m).all()
            and (img[:, 0] < width - m).all()
            and (img[:, 1] > m).all()
            and (img[:, 1] < height - m).all()
        )

    if layout in ("rows", "columns"):
        image_w = card_w * _local_scale(cam, width / 2, height / 2)
        image_h = card_h * _local_scale(cam, width / 2, height / 2)
        if layout == "columns":
            per_col = math.ceil(n / 2)
            cols, rows = 2, per_col
        else:
            cols = max(1, min(n, int(width // (image_w * 1.25))))
            rows = math.ceil(n / cols)
        cell_w, cell_h = width / cols, height / max(rows, 1)
        out = []
        for i in range(n):
            if layout == "columns":
                col, row = i // per_col, i % per_col
            else:
                row, col = i // cols, i % cols
            u = (col + 0.5) * cell_w + rng.uniform(-0.08, 0.08) * image_w
            v = (row + 0.5) * cell_h + rng.uniform(-0.05, 0.05) * image_h
            cx, cy = to_plane(u, v)
            out.append((cx, cy, float(rng.uniform(-6, 6))))
        return out
    radius = 0.5 * math.hypot(card_w, card_h)
    # Without overlap allowed, keep the cards' circumcircles nearly apart; with it, let them
    # crowd in so corners overlap a little. (Distances on the table plane.)
    min_dist = 2 * radius * (0.92 if overlap <= 0 else (1 - overlap) * 0.8)
    placed: list[tuple[float, float, float]] = []
    for _ in range(n):
        best: tuple[float, float, float] | None = None
        best_gap = -1.0
        for _attempt in range(400):
            cx, cy = to_plane(float(rng.uniform(0, width)), float(rng.uniform(0, height)))
            rot = float(rng.uniform(-180, 180))
            if not in_view(cx, cy, rot):
                continue
            gap = min((math.hypot(cx - px, cy - py) for px, py, _ in placed), default=1e9)
            if gap > best_gap:
                best, best_gap = (cx, cy, rot), gap
            if gap >= min_dist:
                break
        if best is None:  # nothing fits in view: centre it, the framing step zooms out
            cx, cy = to_plane(width / 2, height / 2)
            best = (cx, cy, float(rng.uniform(-180, 180)))
        placed.append(best)
    return placed


def _local_scale(cam: np.ndarray, u: float, v: float) -> float:
    """Picture pixels per table-plane unit around picture point (u, v)."""
    inv = np.linalg.inv(cam)
    p = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), inv)[0, 0]
    pts = np.array([[p, p + [1.0, 0.0], p + [0.0, 1.0]]], np.float64)
    img = cv2.perspectiveTransform(pts, cam)[0]
    a, b = img[1] - img[0], img[2] - img[0]
    return float(math.sqrt(abs(a[0] * b[1] - a[1] * b[0])))


def compose_scene(
    cards: Sequence[np.ndarray],
    rng: np.random.Generator,
    *,
    difficulty: str = "easy",
    size: tuple[int, int] = (1640, 1232),
    table: np.ndarray | str | None = None,
    layout: str | None = None,
) -> Scene:
    """Photograph ``cards`` (BGR card faces) lying on a table.

    ``difficulty`` sets camera tilt (up to 45 degrees for "hard"), crowding/overlap, glare,
    blur, noise, JPEG quality and lighting. ``table`` is a table image, a table kind
    (``"wood"``, ``"cloth"``, ``"felt"``, ``"playmat"``) or None for a random kind.
    ``layout``: None scatters cards at any rotation; ``"rows"`` places them in reading order
    (left to right, top to bottom, nearly upright); ``"columns"`` puts the first half top to
    bottom in a left column and the rest in a right column (a Mixtape's Trk A / Trk B).
    """
    if difficulty not in _SETTINGS:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    if layout not in (None, "rows", "columns"):
        raise ValueError("layout must be None, 'rows' or 'columns'")
    cfg = _SETTINGS[difficulty]
    width, height = size
    n = len(cards)
    if isinstance(table, np.ndarray):
        table_img = cv2.resize(table, (width, height))
        table_kind = "custom"
    else:
        table_kind = table if isinstance(table, str) else str(rng.choice(TABLE_KINDS))
        table_img = make_table(width, height, table_kind, rng)

    # Card height on the table plane: fit n cards, shrink for harder scenes.
    area_per_card = width * height / max(n, 1)
    card_h = math.sqrt(area_per_card * CARD_SIZE[1] / CARD_SIZE[0]) * 0.55
    card_h = min(card_h, height * 0.55)
    card_h *= float(rng.uniform(0.85, 1.05)) * (1.0 if n > 3 else cfg["scale"] ** 0.5)
    if layout == "columns":
        card_h = min(card_h, height / math.ceil(max(n, 1) / 2) * 0.85, width * 0.32 * 1.39)
    elif layout == "rows":
        card_h = min(card_h, height * 0.42)
    cam = _camera_homography(width, height, float(rng.uniform(0, cfg["tilt"])), rng)
    # card_h is the wanted size in the picture's centre; on the table plane that is:
    card_h /= _local_scale(cam, width / 2, height / 2)
    card_w = card_h * CARD_SIZE[0] / CARD_SIZE[1]
    placements = _card_placements(n, width, height, card_h, rng, cfg["overlap"], layout, cam)
    cam = _frame_all_cards(cam, placements, card_w, card_h, width, height)
    image = cv2.warpPerspective(table_img, cam, (width, height), borderMode=cv2.BORDER_REFLECT)
    sleeved = difficulty != "easy" and rng.random() < 0.5
    scene_cards: list[SceneCard] = []
    for index, (face, (cx, cy, rot)) in enumerate(zip(cards, placements, strict=True)):
        plane = _card_plane_corners(cx, cy, rot, card_w, card_h)
        img_corners = cv2.perspectiveTransform(plane[None].astype(np.float64), cam)[0]
        image = _lay_card(image, face, img_corners.astype(np.float32), sleeved)
        scene_cards.append(
            SceneCard(index=index, corners=img_corners.astype(np.float32), rotation=rot)
        )
    lit = _light(image, scene_cards, rng, cfg, card_w, card_h)
    photo, blur_sigma = _camera(lit, rng, cfg)
    return Scene(
        image=photo,
        cards=scene_cards,
        difficulty=difficulty,
        table_kind=table_kind,
        blur_sigma=blur_sigma,
    )


def _lay_card(image: np.ndarray, face: np.ndarray, corners: np.ndarray, sleeved: bool):
    """``image`` with the card ``face`` laid at picture ``corners`` (TL, TR, BR, BL), in a
    sleeve (a slightly larger, slightly glossy translucent rim) when ``sleeved``."""
    height, width = image.shape[:2]
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    h_card = cv2.getPerspectiveTransform(src, corners)
    face_img = face
    if sleeved:
        pad = max(2, int(round(fw * 0.03)))
        sleeve = cv2.copyMakeBorder(
            face, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(200, 200, 200)
        )
        rim = np.zeros(sleeve.shape[:2], np.uint8)
        rim[:] = 1
        rim[pad:-pad, pad:-pad] = 0
        face_img = sleeve
        s_src = np.array(
            [[pad, pad], [fw + pad, pad], [fw + pad, fh + pad], [pad, fh + pad]], np.float32
        )
        h_card = cv2.getPerspectiveTransform(s_src, corners)
    warped = cv2.warpPerspective(face_img, h_card, (width, height), flags=cv2.INTER_AREA)
    mask_src = np.full(face_img.shape[:2], 255, np.uint8)
    mask = cv2.warpPerspective(mask_src, h_card, (width, height), flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    if not sleeved:
        return (image * (1 - alpha) + warped.astype(np.float32) * alpha).astype(np.uint8)
    rim_w = cv2.warpPerspective(rim * 255, h_card, (width, height)).astype(np.float32)
    rim_alpha = (rim_w / 255.0)[..., None] * 0.55
    alpha = alpha * (1 - rim_alpha)
    image = (image * (1 - alpha) + warped.astype(np.float32) * alpha).astype(np.uint8)
    # The rim itself: a faint light veil over the table.
    return np.clip(image + rim_alpha * 30, 0, 255).astype(np.uint8)


def _light(
    image: np.ndarray,
    scene_cards: list[SceneCard],
    rng: np.random.Generator,
    cfg: dict[str, float],
    card_w: float,
    card_h: float,
) -> np.ndarray:
    """The scene lit: a lighting gradient (a lamp off to one side), overall exposure, and
    glare (bright soft spots: a lamp reflected in sleeves or gloss). Float32."""
    height, width = image.shape[:2]
    img = image.astype(np.float32)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    ang = float(rng.uniform(0, 2 * math.pi))
    ramp = (xx - width / 2) * math.cos(ang) + (yy - height / 2) * math.sin(ang)
    ramp /= max(width, height) / 2
    gain = float(rng.uniform(0.85, 1.1)) * (1 + cfg["light"] * 0.5 * ramp)
    img *= gain[..., None]
    for _ in range(int(rng.integers(0, int(cfg["glare"]) + 1))):
        gx, gy = float(rng.uniform(0, width)), float(rng.uniform(0, height))
        if scene_cards and rng.random() < 0.7:
            target = scene_cards[int(rng.integers(0, len(scene_cards)))]
            gx, gy = target.center
            gx += float(rng.uniform(-0.3, 0.3)) * card_w
            gy += float(rng.uniform(-0.3, 0.3)) * card_h
        sigma = float(rng.uniform(0.08, 0.22)) * card_w
        sx, sy = sigma * float(rng.uniform(1.0, 2.5)), sigma
        spot = np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2) / 2)
        img += spot[..., None] * float(rng.uniform(70, 170))
    return img


def _camera(
    img: np.ndarray, rng: np.random.Generator, cfg: dict[str, float]
) -> tuple[np.ndarray, float]:
    """The lit scene as the camera writes it: blur, sensor noise, JPEG; and the blur sigma."""
    photo: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    blur_sigma = float(rng.uniform(0, cfg["blur"]))
    if blur_sigma > 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), blur_sigma)
    noise = rng.normal(0, float(rng.uniform(0.5, 1.0)) * cfg["noise"], photo.shape)
    photo = np.clip(photo + noise.astype(np.float32), 0, 255).astype(np.uint8)
    quality = int(rng.integers(int(cfg["jpeg"]), 96))
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return (decoded if decoded is not None else photo), blur_sigma
