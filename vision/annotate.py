"""A photo with every card outlined: named cards green (their top edge yellow), unknown red."""

from __future__ import annotations

import cv2
import numpy as np

from vision.result import Identification

NAMED_COLOUR = (60, 220, 60)  # BGR
TOP_EDGE_COLOUR = (0, 255, 255)
UNKNOWN_COLOUR = (40, 40, 230)


def annotate(image: np.ndarray, result: Identification) -> np.ndarray:
    """A copy of ``image`` with every card outlined: green named (top edge thick), red unknown."""
    out = image.copy()
    thickness = max(2, int(round(max(out.shape[:2]) / 500)))
    font = max(0.5, max(out.shape[:2]) / 1600)
    for card in result.cards:
        pts = card.corners.astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, NAMED_COLOUR, thickness, cv2.LINE_AA)
        p0, p1 = card.corners[0].astype(int), card.corners[1].astype(int)
        cv2.line(
            out,
            tuple(int(v) for v in p0),
            tuple(int(v) for v in p1),
            TOP_EDGE_COLOUR,
            thickness * 2,
            cv2.LINE_AA,
        )
        _label(out, f"{card.name} {card.confidence:.2f}", card.center, font, NAMED_COLOUR)
    for unk in result.unknown:
        pts = unk.corners.astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, UNKNOWN_COLOUR, thickness, cv2.LINE_AA)
        _label(out, f"? {unk.reason}", unk.center, font, UNKNOWN_COLOUR)
    return out


def _label(img: np.ndarray, text: str, at: tuple[float, float], font: float, color) -> None:
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, 2)
    x, y = int(at[0] - tw / 2), int(at[1])
    cv2.rectangle(img, (x - 4, y - th - 6), (x + tw + 4, y + 6), (0, 0, 0), -1)
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, font, color, 2, cv2.LINE_AA)
