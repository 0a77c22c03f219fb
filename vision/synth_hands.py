"""Generated photos of hands as players lay them: fans, patterned cloths, clutter, motion blur,
a far camera. Built on :mod:`vision.synth` (same cards, camera and light), with exact truth.

- :func:`make_pattern_table`: gingham and plaid tablecloths whose checks are card-sized;
- :func:`compose_hand`: cards in a fan (each one covering the right part of the one before, as a
  hand is spread to save room), in a Mixtape's two overlapping columns (``"tape"``, laid by the
  rulebook: :func:`compose_tape`) or scattered flat, on any table, with props beside them (phone,
  coins, dice, a score-pad page, fingers over a card's corner), an optional motion blur along a
  random direction and an optional card width in pixels (the camera far from the table).

A prop is never a card: the truth lists the cards only, so a box on a prop is a false report.
:mod:`vision.synth`'s own scenes are untouched (their random draws, hence every seed's picture,
stay as they were).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import cv2
import numpy as np

from vision.synth import (
    _SETTINGS,
    CARD_SIZE,
    TABLE_KINDS,
    Scene,
    SceneCard,
    _camera,
    _camera_homography,
    _card_plane_corners,
    _frame_all_cards,
    _lay_card,
    _light,
    _local_scale,
    _random_color,
    make_table,
)

PatternKind = Literal["gingham", "plaid"]
PATTERN_KINDS: tuple[PatternKind, ...] = ("gingham", "plaid")
PROP_KINDS = ("phone", "coins", "dice", "page", "fingers")
CARD_ASPECT = CARD_SIZE[0] / CARD_SIZE[1]


def make_pattern_table(
    width: int, height: int, kind: str, rng: np.random.Generator, check_px: float
) -> np.ndarray:
    """A checked tablecloth (BGR uint8): ``"gingham"`` (white and one colour, the crossings
    darker) or ``"plaid"`` (two colours and thin lines); checks about ``check_px`` across."""
    if kind not in PATTERN_KINDS:
        raise ValueError(f"unknown pattern {kind!r}; expected one of {', '.join(PATTERN_KINDS)}")
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = float(rng.uniform(-0.3, 0.3))
    u = xx * math.cos(angle) + yy * math.sin(angle)
    v = -xx * math.sin(angle) + yy * math.cos(angle)
    period = 2.0 * check_px
    band_u = ((u / period) % 1.0) < 0.5
    band_v = ((v / period) % 1.0) < 0.5
    colour = np.array(_random_color(rng, 40, 200), np.float32)
    white = np.array([235, 235, 232], np.float32)
    if kind == "gingham":
        weight = 0.5 * band_u.astype(np.float32) + 0.5 * band_v.astype(np.float32)
        img = white * (1 - weight[..., None]) + colour * weight[..., None]
    else:
        second = np.array(_random_color(rng, 40, 200), np.float32)
        weight = 0.5 * band_u.astype(np.float32) + 0.5 * band_v.astype(np.float32)
        img = colour * (1 - weight[..., None]) + second * weight[..., None]
        line_period = period / 3.0
        lines = (np.abs((u % line_period) - line_period / 2) < 1.5) | (
            np.abs((v % line_period) - line_period / 2) < 1.5
        )
        img[lines] = img[lines] * 0.55 + np.array([240, 240, 240], np.float32) * 0.45
    weave = 0.04 * np.sin(xx * 2 * math.pi / 4.0) * np.sin(yy * 2 * math.pi / 4.0)
    img *= (1.0 + weave)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _fan_placements(
    n: int, card_w: float, card_h: float, centre: tuple[float, float], rng: np.random.Generator
) -> list[tuple[float, float, float]]:
    """(x, y, degrees) of a fan, left to right, on the table plane: each card shows 35-50 % of
    its width before the next covers it, turned a little more clockwise than the one before."""
    shown = float(rng.uniform(0.35, 0.5))
    step = shown * card_w
    radius = float(rng.uniform(1.6, 2.6)) * card_h  # the pivot sits below the hand
    dtheta = step / radius
    cx, cy = centre
    pivot = (cx, cy + radius)
    turn = float(rng.uniform(-12, 12))  # the whole fan a little turned on the table
    out = []
    for i in range(n):
        theta = (i - (n - 1) / 2) * dtheta + math.radians(turn)
        x = pivot[0] + radius * math.sin(theta)
        y = pivot[1] - radius * math.cos(theta)
        out.append((x, y, -math.degrees(theta)))
    return out


def _scatter_placements(
    n: int, card_w: float, card_h: float, centre: tuple[float, float], rng: np.random.Generator
) -> list[tuple[float, float, float]]:
    """Cards lying apart in the middle of the table (a grid with jitter), nearly upright."""
    cols = max(1, math.ceil(math.sqrt(n * 1.3)))
    rows = math.ceil(n / cols)
    out = []
    for i in range(n):
        row, col = divmod(i, cols)
        x = centre[0] + (col - (cols - 1) / 2) * card_w * 1.45 + rng.uniform(-0.1, 0.1) * card_w
        y = centre[1] + (row - (rows - 1) / 2) * card_h * 1.3 + rng.uniform(-0.1, 0.1) * card_h
        out.append((x, y, float(rng.uniform(-15, 15))))
    return out


# I Made You a Mixtape, "Add Track Cards": each new Track card overlaps the card above it, its
# top edge on the top line of that card's player count marker, its sides aligned with the
# column. On our generated faces the bottom-right stat box stands in for that marker: its top
# line lies 40 px above the bottom of a 468 px face, so a card laid exactly by the rule covers
# 8.5 % of the one above; players tuck a column tighter to save room, and a card covering much
# more than 45 % would hide the art below the title. A photo's tape covers between these.
TAPE_RULE_COVER = 40 / CARD_SIZE[1]
TAPE_COVER = (TAPE_RULE_COVER, 0.45)


def _tape_placements(
    trk_a: int,
    trk_b: int,
    card_w: float,
    card_h: float,
    centre: tuple[float, float],
    rng: np.random.Generator,
) -> list[tuple[float, float, float]]:
    """(x, y, degrees) of a Mixtape on the table plane: Trk A's cards top to bottom in the left
    column, then Trk B's in the right. Each card covers the bottom ``TAPE_COVER`` of the one
    above it (drawn once per photo, give or take a little per card, as a hand lays it), its
    sides aligned with its column's (a few percent of a card's width astray, a degree or so
    turned); the whole tape lies a little turned on the table."""
    cover = float(rng.uniform(*TAPE_COVER))
    gap = float(rng.uniform(0.15, 0.6)) * card_w  # between the two columns
    turn = math.radians(float(rng.uniform(-5, 5)))
    ca, sa = math.cos(turn), math.sin(turn)
    longest = max(trk_a, trk_b, 1)
    height = card_h * (1 + (longest - 1) * (1 - cover))
    out = []
    for column, count in enumerate((trk_a, trk_b)):
        x = (column - 0.5) * (card_w + gap)
        y = -height / 2 + card_h / 2
        for _ in range(count):
            jx = float(rng.uniform(-0.03, 0.03)) * card_w
            u, v = x + jx, y  # in the tape's own frame, then turned onto the table
            # the tape turned counter-clockwise on screen by ``turn`` (as _card_plane_corners)
            px = centre[0] + u * ca + v * sa
            py = centre[1] - u * sa + v * ca
            out.append((px, py, math.degrees(turn) + float(rng.uniform(-1.5, 1.5))))
            step = 1 - cover + float(rng.uniform(-0.03, 0.03))
            y += step * card_h
    return out


def compose_tape(
    trk_a: Sequence[np.ndarray],
    trk_b: Sequence[np.ndarray],
    rng: np.random.Generator,
    *,
    table: str = "wood",
    difficulty: str = "easy",
    size: tuple[int, int] = (1640, 1232),
    card_width_px: float | None = None,
) -> Scene:
    """Photograph a Mixtape laid by the rulebook: ``trk_a``'s cards top to bottom in the left
    column, ``trk_b``'s in the right, each card overlapping the bottom of the one above it
    (:func:`compose_hand` with ``layout="tape"``). The scene's cards are Trk A's top to
    bottom, then Trk B's."""
    return compose_hand(
        [*trk_a, *trk_b],
        rng,
        layout="tape",
        trk_a=len(trk_a),
        table=table,
        difficulty=difficulty,
        size=size,
        card_width_px=card_width_px,
    )


def compose_hand(
    cards: Sequence[np.ndarray],
    rng: np.random.Generator,
    *,
    layout: str = "fan",
    table: str = "wood",
    props: Sequence[str] = (),
    difficulty: str = "easy",
    size: tuple[int, int] = (1640, 1232),
    card_width_px: float | None = None,
    motion_px: float = 0.0,
    trk_a: int | None = None,
) -> Scene:
    """Photograph ``cards`` laid as a ``"fan"`` (in the order given, left to right, each on top
    of the one before), ``"tape"`` (a Mixtape: the first ``trk_a`` cards, by default half of
    them, top to bottom in the left column and the rest in the right, each overlapping the one
    above it, :func:`compose_tape`) or ``"scatter"`` (apart, nearly upright) on ``table`` (a kind of
    :func:`vision.synth.make_table` or of :data:`PATTERN_KINDS`), with ``props`` (of
    :data:`PROP_KINDS`) beside them. ``card_width_px``: the cards' width in the picture (default:
    the hand fills about half of it). ``motion_px``: a motion blur that long, in a random
    direction. The scene's cards are listed in the order laid (a fan's left to right, a tape's
    Trk A top to bottom then Trk B's), each on top of those before it."""
    if layout not in ("fan", "tape", "scatter"):
        raise ValueError("layout must be 'fan', 'tape' or 'scatter'")
    for prop in props:
        if prop not in PROP_KINDS:
            raise ValueError(f"unknown prop {prop!r}; expected one of {', '.join(PROP_KINDS)}")
    cfg = dict(_SETTINGS[difficulty])
    width, height = size
    n = len(cards)
    left = (n + 1) // 2 if trk_a is None else trk_a
    if not 0 <= left <= n:
        raise ValueError(f"trk_a must be between 0 and the {n} cards")
    if card_width_px is None and layout == "tape":
        # the longer column, its cards covering a third of each other, fills most of the height
        tall = 1 + (max(left, n - left, 1) - 1) * (1 - sum(TAPE_COVER) / 2)
        card_width_px = min(width * 0.3, height * 0.85 / tall * CARD_ASPECT)
    elif card_width_px is None:
        span = 1 + 0.45 * (n - 1) if layout == "fan" else 1.45 * math.ceil(math.sqrt(n * 1.3))
        card_width_px = min(width * 0.55 / span, height * 0.4 * CARD_ASPECT)
    cam = _camera_homography(width, height, float(rng.uniform(0, cfg["tilt"])), rng)
    card_w = card_width_px / _local_scale(cam, width / 2, height / 2)
    card_h = card_w / CARD_ASPECT
    inv = np.linalg.inv(cam)
    mid = cv2.perspectiveTransform(np.array([[[width / 2, height / 2]]], np.float64), inv)[0, 0]
    centre = (float(mid[0]), float(mid[1]))
    if layout == "fan":
        placements = _fan_placements(n, card_w, card_h, centre, rng)
    elif layout == "tape":
        placements = _tape_placements(left, n - left, card_w, card_h, centre, rng)
    else:
        placements = _scatter_placements(n, card_w, card_h, centre, rng)
    cam = _frame_all_cards(cam, placements, card_w, card_h, width, height)
    if table in PATTERN_KINDS:
        check = card_width_px * float(rng.uniform(0.7, 1.3))
        table_img = make_pattern_table(width, height, table, rng, check)
        image = table_img  # the cloth as seen: checks card-sized in the picture
    elif table in TABLE_KINDS:
        table_img = make_table(width, height, table, rng)
        image = cv2.warpPerspective(table_img, cam, (width, height), borderMode=cv2.BORDER_REFLECT)
    else:
        raise ValueError(f"unknown table {table!r}")
    scene_cards: list[SceneCard] = []
    picture: list[np.ndarray] = []
    for index, (face, (cx, cy, rot)) in enumerate(zip(cards, placements, strict=True)):
        plane = _card_plane_corners(cx, cy, rot, card_w, card_h)
        corners = cv2.perspectiveTransform(plane[None].astype(np.float64), cam)[0]
        image = _lay_card(image, face, corners.astype(np.float32), False)
        scene_cards.append(SceneCard(index=index, corners=corners.astype(np.float32), rotation=rot))
        picture.append(corners)
    shown_w = float(np.median([np.linalg.norm(c[1] - c[0]) for c in picture])) if picture else 100
    taken = list(picture)
    for prop in props:
        image = _draw_prop(image, prop, picture, taken, shown_w, rng)
    cfg["glare"] = min(cfg["glare"], 1)
    lit = _light(image, scene_cards, rng, cfg, card_w, card_h)
    if motion_px > 0:
        lit = motion_blur(lit, motion_px, float(rng.uniform(0, 180)))
    photo, blur_sigma = _camera(lit, rng, cfg)
    return Scene(photo, scene_cards, difficulty, table, blur_sigma)


def smear_card(scene: Scene, index: int, length: float, degrees: float = 30.0) -> np.ndarray:
    """``scene``'s photo with card ``index`` alone smeared by a motion blur ``length`` px long
    at ``degrees``: a card still moving as the photo was taken (a player placing it), the rest
    of the table held still. The smear reaches just past the card, as a moving card's does."""
    image = scene.image
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(scene.cards[index].corners).astype(np.int32), 255)
    reach = int(length) + 3
    moved = cv2.dilate(mask, np.ones((reach, reach), np.uint8)) > 0
    out = image.copy()
    out[moved] = motion_blur(image, length, degrees)[moved]
    return out


def motion_blur(img: np.ndarray, length: float, degrees: float) -> np.ndarray:
    """``img`` smeared along a line ``length`` px long at ``degrees`` (a hand-held shake, or
    a card still moving)."""
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    half = (length - 1) / 2
    p0 = (round(c - dx * half), round(c - dy * half))
    p1 = (round(c + dx * half), round(c + dy * half))
    cv2.line(kernel, p0, p1, 1.0, 1)
    kernel /= kernel.sum()
    return cv2.filter2D(img, -1, kernel)


def _free_spot(
    taken: list[np.ndarray],
    shape: tuple[int, int],
    half: float,
    rng: np.random.Generator,
) -> tuple[float, float] | None:
    """A point at least ``half`` px from every card or prop already drawn (``taken``) with room
    inside the picture, or None when there is none (the prop is then left out)."""
    height, width = shape
    edge = 0.6 * half  # a prop may run a little past the picture's edge
    if width <= 2 * edge or height <= 2 * edge:
        return None
    for _ in range(300):
        x = float(rng.uniform(edge, width - edge))
        y = float(rng.uniform(edge, height - edge))
        gap = min(
            (-cv2.pointPolygonTest(c.astype(np.float32), (x, y), True) for c in taken),
            default=1e9,
        )
        if gap > half:
            return x, y
    return None


def _box_around(cx: float, cy: float, half: float) -> np.ndarray:
    return np.array(
        [
            [cx - half, cy - half],
            [cx + half, cy - half],
            [cx + half, cy + half],
            [cx - half, cy + half],
        ],
        np.float32,
    )


def _rotated_box(cx: float, cy: float, w: float, h: float, degrees: float) -> np.ndarray:
    return cv2.boxPoints(((cx, cy), (w, h), degrees)).astype(np.int32)


def _draw_prop(
    image: np.ndarray,
    kind: str,
    picture: list[np.ndarray],
    taken: list[np.ndarray],
    card_w: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """``image`` with one prop drawn, sized against a card ``card_w`` px wide (63 mm), away from
    the cards and the props in ``taken`` (which gets the prop's footprint); fingers lie over a
    corner of the top card (never its top-left corner and title, which a fan needs)."""
    out = image.copy()
    mm = card_w / 63.0
    shape = (out.shape[0], out.shape[1])
    room = {"phone": 85 * mm, "coins": 45 * mm, "dice": 35 * mm, "page": 95 * mm}
    if kind in room:
        spot = _free_spot(taken, shape, room[kind], rng)
        if spot is None:
            return out
        taken.append(_box_around(spot[0], spot[1], room[kind]))
        PROP_DRAWERS[kind](out, spot, mm, rng)
    elif kind == "fingers" and picture:
        _draw_fingers(out, picture[-1], mm, rng)
    return out


def _draw_phone(
    out: np.ndarray, spot: tuple[float, float], mm: float, rng: np.random.Generator
) -> None:
    w, h = 72 * mm, 150 * mm
    cx, cy = spot
    angle = float(rng.uniform(0, 180))
    cv2.fillPoly(out, [_rotated_box(cx, cy, w, h, angle)], (25, 25, 28), cv2.LINE_AA)
    screen = _rotated_box(cx, cy, w * 0.9, h * 0.88, angle)
    wall = _random_color(rng, 40, 220)
    cv2.fillPoly(out, [screen], wall, cv2.LINE_AA)
    for _ in range(int(rng.integers(8, 20))):  # app icons: a grid of small squares
        a, b = float(rng.uniform(-0.35, 0.35)) * w, float(rng.uniform(-0.4, 0.4)) * h
        turn = math.radians(angle)
        ix = cx + a * math.cos(turn) - b * math.sin(turn)
        iy = cy + a * math.sin(turn) + b * math.cos(turn)
        cv2.fillPoly(
            out, [_rotated_box(ix, iy, 9 * mm, 9 * mm, angle)], _random_color(rng), cv2.LINE_AA
        )


def _draw_coins(
    out: np.ndarray, spot: tuple[float, float], mm: float, rng: np.random.Generator
) -> None:
    cx, cy = spot
    for _ in range(int(rng.integers(3, 7))):
        r = int(float(rng.uniform(9, 13)) * mm)
        x = int(cx + rng.uniform(-30, 30) * mm)
        y = int(cy + rng.uniform(-30, 30) * mm)
        metal = (40, 150, 190) if rng.random() < 0.5 else (170, 170, 165)
        cv2.circle(out, (x, y), r, metal, -1, cv2.LINE_AA)
        cv2.circle(out, (x, y), r, (40, 40, 40), 2, cv2.LINE_AA)
        cv2.circle(out, (x, y), int(r * 0.75), tuple(int(c * 0.8) for c in metal), 1)


def _draw_dice(
    out: np.ndarray, spot: tuple[float, float], mm: float, rng: np.random.Generator
) -> None:
    cx, cy = spot
    for _ in range(int(rng.integers(1, 4))):
        s = float(rng.uniform(14, 18)) * mm
        die_x = cx + float(rng.uniform(-20, 20)) * mm
        die_y = cy + float(rng.uniform(-20, 20)) * mm
        angle = float(rng.uniform(0, 90))
        body = (235, 235, 235) if rng.random() < 0.5 else (40, 40, 190)
        cv2.fillPoly(out, [_rotated_box(die_x, die_y, s, s, angle)], body, cv2.LINE_AA)
        pip = (20, 20, 20) if body[0] > 200 else (240, 240, 240)
        for _ in range(int(rng.integers(1, 7))):
            px = die_x + float(rng.uniform(-0.3, 0.3)) * s
            py = die_y + float(rng.uniform(-0.3, 0.3)) * s
            cv2.circle(out, (int(px), int(py)), max(1, int(s * 0.08)), pip, -1, cv2.LINE_AA)


def _draw_page(
    out: np.ndarray, spot: tuple[float, float], mm: float, rng: np.random.Generator
) -> None:
    w, h = 100 * mm, 148 * mm  # an A6 score pad: nearly a card's shape, larger
    cx, cy = spot
    angle = float(rng.uniform(-20, 20))
    box = _rotated_box(cx, cy, w, h, angle)
    cv2.fillPoly(out, [box], (228, 232, 236), cv2.LINE_AA)
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    for k in range(1, 14):  # ruled lines and scribbled scores
        off = -h / 2 + k * h / 14
        x0, y0 = cx - ux * w * 0.45 - uy * off, cy - uy * w * 0.45 + ux * off
        x1, y1 = cx + ux * w * 0.45 - uy * off, cy + uy * w * 0.45 + ux * off
        cv2.line(out, (int(x0), int(y0)), (int(x1), int(y1)), (200, 170, 150), 1)
        if rng.random() < 0.6:
            cv2.putText(
                out,
                f"{int(rng.integers(0, 99))}",
                (int(x0 + ux * 10 * mm), int(y0 + uy * 10 * mm) - 2),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.25 * mm,
                (120, 60, 30),
                1,
                cv2.LINE_AA,
            )


PROP_DRAWERS = {"phone": _draw_phone, "coins": _draw_coins, "dice": _draw_dice, "page": _draw_page}


def _draw_fingers(out: np.ndarray, card: np.ndarray, mm: float, rng: np.random.Generator) -> None:
    corner = card[int(rng.integers(1, 4))]
    centre = card.mean(axis=0)
    away = corner - centre
    away /= max(1e-6, float(np.linalg.norm(away)))
    skin = (
        int(rng.integers(90, 160)),
        int(rng.integers(130, 180)),
        int(rng.integers(180, 230)),
    )
    tip = corner - away * 8 * mm
    base = corner + away * 70 * mm
    for offset in (-0.5, 0.5):
        side = np.array([-away[1], away[0]]) * offset * 17 * mm
        p0, p1 = tip + side, base + side
        cv2.line(
            out,
            (int(p0[0]), int(p0[1])),
            (int(p1[0]), int(p1[1])),
            skin,
            int(16 * mm),
            cv2.LINE_AA,
        )
