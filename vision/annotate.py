"""A photo with every card outlined and numbered: named cards green (their top edge yellow),
unknown red; the part of a covered card that shows (a fanned hand) drawn bold; the numbers'
names listed in a panel in a corner, in the order ``vision identify`` prints them."""

from __future__ import annotations

import cv2
import numpy as np

from vision.result import Identification

NAMED_COLOUR = (60, 220, 60)  # BGR
TOP_EDGE_COLOUR = (0, 255, 255)
UNKNOWN_COLOUR = (40, 40, 230)
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def annotate(image: np.ndarray, result: Identification) -> np.ndarray:
    """A copy of ``image`` (the same size) with every card outlined and numbered.

    A name written across each card overlapped its neighbours' in a fan, where a card shows a
    third of its width: each card gets a number in the middle of the part that shows, and the
    names are listed, number by number, in a panel in the corner that hides least of the cards."""
    out = image.copy()
    thickness = max(2, int(round(max(out.shape[:2]) / 500)))
    font = max(0.5, max(out.shape[:2]) / 1600)
    lines: list[tuple[str, tuple[int, int, int]]] = []
    marks: list[tuple[np.ndarray, tuple[int, int, int]]] = []
    for card in result.cards:
        _outline(out, card.corners, card.visible, NAMED_COLOUR, thickness)
        p0, p1 = (tuple(int(v) for v in card.corners[i]) for i in (0, 1))
        cv2.line(out, p0, p1, TOP_EDGE_COLOUR, thickness * 2, cv2.LINE_AA)
        lines.append((f"{card.name} {card.confidence:.2f}", NAMED_COLOUR))
        marks.append((_shown(card.corners, card.visible), NAMED_COLOUR))
    for unk in result.unknown:
        _outline(out, unk.corners, unk.visible, UNKNOWN_COLOUR, thickness)
        closest = f" (closest: {unk.candidates[0].name})" if unk.candidates else ""
        lines.append((f"? {unk.reason}{closest}", UNKNOWN_COLOUR))
        marks.append((_shown(unk.corners, unk.visible), UNKNOWN_COLOUR))
    for number, (part, colour) in enumerate(marks, start=1):
        _badge(out, str(number), _inside_point(part, out.shape[:2]), font, colour)
    quads = [c.corners for c in result.cards] + [u.corners for u in result.unknown]
    _legend(out, lines, font, quads)
    return out


def _shown(corners: np.ndarray, visible: np.ndarray | None) -> np.ndarray:
    return corners if visible is None or len(visible) < 3 else visible


def _outline(
    img: np.ndarray,
    corners: np.ndarray,
    visible: np.ndarray | None,
    colour: tuple[int, int, int],
    thickness: int,
) -> None:
    """The card's whole outline, thin where another card covers it, and the part that shows
    bold."""
    whole = corners.astype(np.int32).reshape(-1, 1, 2)
    if visible is None or len(visible) < 3:
        cv2.polylines(img, [whole], True, colour, thickness, cv2.LINE_AA)
        return
    cv2.polylines(img, [whole], True, colour, max(1, thickness // 2), cv2.LINE_AA)
    shown = np.asarray(visible, np.float32).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(img, [shown], True, colour, thickness, cv2.LINE_AA)


def _inside_point(polygon: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int]:
    """The point of ``polygon`` farthest from its edges (a narrow strip's middle line, not its
    centroid, which can fall outside a bent strip), found on a mask of its bounding box."""
    poly = np.asarray(polygon, np.float32).reshape(-1, 2)
    x0, y0 = np.floor(poly.min(axis=0)).astype(int)
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int)
    step = max(1, int(max(x1 - x0, y1 - y0) // 200))  # ~200 px masks: cheap, close enough
    mask = np.zeros(((y1 - y0) // step + 3, (x1 - x0) // step + 3), np.uint8)
    local = np.round((poly - [x0, y0]) / step).astype(np.int32) + 1
    cv2.fillPoly(mask, [local.reshape(-1, 1, 2)], 255)
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    row, col = np.unravel_index(int(np.argmax(depth)), depth.shape)
    height, width = shape
    x = int(np.clip(x0 + (col - 1) * step, 0, width - 1))
    y = int(np.clip(y0 + (row - 1) * step, 0, height - 1))
    return x, y


def _badge(
    img: np.ndarray, text: str, at: tuple[int, int], font: float, colour: tuple[int, int, int]
) -> None:
    """``text`` in a black box centred at ``at``, in ``colour``."""
    weight = max(2, int(round(font * 2)))
    (tw, th), _ = cv2.getTextSize(text, _FONT, font * 1.4, weight)
    x, y = at[0] - tw // 2, at[1] + th // 2
    pad = max(4, th // 3)
    cv2.rectangle(img, (x - pad, y - th - pad), (x + tw + pad, y + pad), (0, 0, 0), -1)
    cv2.rectangle(img, (x - pad, y - th - pad), (x + tw + pad, y + pad), colour, 2)
    cv2.putText(img, text, (x, y), _FONT, font * 1.4, colour, weight, cv2.LINE_AA)


def _legend(
    img: np.ndarray,
    lines: list[tuple[str, tuple[int, int, int]]],
    font: float,
    quads: list[np.ndarray],
) -> None:
    """The numbered names, one a line, on a dark panel in the corner of the photo that hides
    least of the cards (``quads``)."""
    if not lines:
        return
    weight = max(1, int(round(font * 1.5)))
    texts = [f"{number}  {text}" for number, (text, _) in enumerate(lines, start=1)]
    sizes = [cv2.getTextSize(t, _FONT, font, weight)[0] for t in texts]
    pitch = int(max(h for _, h in sizes) * 1.8)
    pad = pitch // 2
    rows, columns = img.shape[:2]
    width = min(columns, max(w for w, _ in sizes) + 2 * pad)
    height = min(rows, pitch * len(texts) + pad)
    cards = np.zeros((rows, columns), np.uint8)
    for quad in quads:
        cv2.fillPoly(cards, [np.asarray(quad, np.float32).astype(np.int32).reshape(-1, 1, 2)], 1)
    corners = [(0, 0), (columns - width, 0), (0, rows - height), (columns - width, rows - height)]
    left, top = min(
        corners, key=lambda c: int(cards[c[1] : c[1] + height, c[0] : c[0] + width].sum())
    )
    panel = img[top : top + height, left : left + width]
    panel[:] = (panel * 0.25).astype(img.dtype)  # darkened, the photo still faintly behind
    for row, (text, (_, colour)) in enumerate(zip(texts, lines, strict=True)):
        baseline = top + pad + pitch * row + pitch // 2
        cv2.putText(img, text, (left + pad, baseline), _FONT, font, colour, weight, cv2.LINE_AA)
