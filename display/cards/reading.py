"""One photo as the recogniser read it, in a form the screens can correct and save.

A :class:`Reading` is a list of :class:`ReadCard` in the order the game reads them (reading
order for a Remix hand; Trk A then Trk B for a mixtape), each with its corners in the photo, the
name the recogniser gave (or ``None``), its confidence, the closest other names (for the pick
list) and whether the player has confirmed or corrected it. Everything is plain JSON, so a
reading being corrected survives a restart in the screen's snapshot.

Status of a card:

* ``ok``       - named with confidence at least :data:`DOUBT_BELOW`, or settled by the player;
* ``doubtful`` - named, but with a lower confidence: the player must confirm or correct it;
* ``unknown``  - a card-shaped thing the recogniser could not name: the player must pick it
  (or remove it if it is not a card).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

DOUBT_BELOW = 0.8  # confidences under this are shown as doubtful and must be confirmed
#: The steps of taking and reading a photo, as ``tablekeeper bench flows`` reports them (the
#: last, score, is the screen's: the frame that turns the reading into the score).
FLOW_STEPS = ("capture", "save", "decode", "find", "name", "score")
#: The recogniser's own steps (vision.recognize) that find cards; the others name them.
FINDING = ("features", "find", "second_look", "outlines", "last_look")
OK, DOUBTFUL, UNKNOWN = "ok", "doubtful", "unknown"
#: The recogniser's reason for a card it could not name because the photo smeared its detail
#: (``vision.result.REASON_TOO_BLURRED``; written here so the screens load without OpenCV).
TOO_BLURRED = "too blurred"


@dataclass
class ReadCard:
    name: str | None
    confidence: float
    corners: list[list[float]]
    candidates: list[tuple[str, float]] = field(default_factory=list)
    reason: str = ""
    settled: bool = False  # confirmed or corrected by the player
    read_as: str | None = None  # what the recogniser said, kept when the player corrects it
    column: str = ""  # "A" / "B" for a mixtape's columns, "" otherwise
    #: the part of the card that shows when other cards lie over it (a fanned hand), as a
    #: polygon in the photo; empty: the whole card shows (its corners)
    visible: list[list[float]] = field(default_factory=list)

    @property
    def status(self) -> str:
        if self.name is None:
            return UNKNOWN
        if self.settled or self.confidence >= DOUBT_BELOW:
            return OK
        return DOUBTFUL

    @property
    def blurred(self) -> bool:
        """Not named because the photo smeared it: a steadier retake can name it."""
        return self.status == UNKNOWN and self.reason == TOO_BLURRED

    @property
    def center(self) -> tuple[float, float]:
        if not self.corners:
            return (0.0, 0.0)
        xs = [float(x) for x, _ in self.corners]
        ys = [float(y) for _, y in self.corners]
        return sum(xs) / len(xs), sum(ys) / len(ys)

    @property
    def outline(self) -> list[list[float]]:
        """What the photo review draws round the card: the part that shows (a fanned card's
        strip, not an outline running under its neighbours), else its corners."""
        return self.visible if len(self.visible) >= 3 else self.corners

    @property
    def label_point(self) -> tuple[float, float]:
        """Where the card's number goes: the middle of the part that shows (a fanned card's
        centre lies under the next card)."""
        if len(self.visible) < 3:
            return self.center
        return _polygon_centroid(self.visible)

    @property
    def corrected(self) -> bool:
        return self.settled and self.read_as != self.name

    def settle(self, name: str) -> None:
        """The player says this card is ``name``."""
        if not self.settled:
            self.read_as = self.name
        self.name = name
        self.settled = True

    def to_json(self) -> dict[str, Any]:
        # "visible" only when other cards lie over the card: a saved reading of cards lying
        # apart keeps the keys it always had
        shown = [[round(float(x), 1), round(float(y), 1)] for x, y in self.visible]
        return {
            "name": self.name,
            "confidence": round(float(self.confidence), 3),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "candidates": [[n, round(float(c), 3)] for n, c in self.candidates],
            "reason": self.reason,
            "settled": self.settled,
            "read_as": self.read_as,
            "column": self.column,
            **({"visible": shown} if shown else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReadCard:
        return cls(
            name=data.get("name"),
            confidence=float(data.get("confidence", 0.0)),
            corners=[[float(x), float(y)] for x, y in data.get("corners", [])],
            candidates=[(str(n), float(c)) for n, c in data.get("candidates", [])],
            reason=str(data.get("reason", "")),
            settled=bool(data.get("settled", False)),
            read_as=data.get("read_as"),
            column=str(data.get("column", "")),
            visible=[[float(x), float(y)] for x, y in data.get("visible", [])],
        )


def _polygon_centroid(points: list[list[float]]) -> tuple[float, float]:
    """The centre of area of a simple polygon (its vertices' mean when it has no area)."""
    area = cx = cy = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True):
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-9:
        return (
            sum(float(x) for x, _ in points) / len(points),
            sum(float(y) for _, y in points) / len(points),
        )
    return cx / (3.0 * area), cy / (3.0 * area)


@dataclass
class Reading:
    cards: list[ReadCard]
    seconds: float = 0.0
    size: tuple[int, int] = (0, 0)  # photo width, height
    #: wall seconds of the steps of :data:`FLOW_STEPS` this photo went through (a Pi owner's
    #: figures, see ``bench flows``); not saved
    steps: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def unresolved(self) -> list[int]:
        return [i for i, c in enumerate(self.cards) if c.status != OK]

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.cards if c.name is not None]

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [c.to_json() for c in self.cards],
            "seconds": round(self.seconds, 3),
            "size": list(self.size),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reading:
        size = data.get("size", [0, 0])
        return cls(
            [ReadCard.from_json(c) for c in data.get("cards", [])],
            float(data.get("seconds", 0.0)),
            (int(size[0]), int(size[1])),
        )


def read_photo(image: np.ndarray, gallery: Any, layout: str = "rows") -> Reading:
    """Identify every card in ``image``; ``layout`` "rows" (reading order) or "columns" (left
    column top to bottom, then the right one: a mixtape's Trk A then Trk B).

    Raises ``vision.recognize.VisionError`` for an unusable image.
    """
    # start-up time: vision loads OpenCV; the CLI and the appliance pay for it at the first photo
    from vision.layout import reading_sequence, two_columns
    from vision.recognize import identify

    started = time.perf_counter()
    result = identify(image, gallery)
    cards: list[ReadCard] = []
    for card in result.cards:
        others = [(k.name, k.confidence) for k in card.candidates if k.name != card.name]
        cards.append(
            ReadCard(
                card.name,
                float(card.confidence),
                card.corners.tolist(),
                others,
                visible=_polygon(card.visible),
            )
        )
    for unknown in result.unknown:
        cards.append(
            ReadCard(
                None,
                0.0,
                [[float(x), float(y)] for x, y in unknown.corners],
                [(k.name, k.confidence) for k in unknown.candidates],
                unknown.reason,
                visible=_polygon(unknown.visible),
            )
        )
    if layout == "columns":
        left, right = two_columns(cards)
        for read in left:
            read.column = "A"
        for read in right:
            read.column = "B"
        ordered = left + right
    else:
        ordered = reading_sequence(cards)
    seconds = time.perf_counter() - started
    timed = sum(result.timings.values())
    finding = sum(v for k, v in result.timings.items() if k in FINDING)
    steps = {
        # identify's time outside its steps: vision.photo.Photo.of (light, work copy, grey)
        "decode": max(0.0, result.seconds - timed),
        "find": finding,
        "name": timed - finding + max(0.0, seconds - result.seconds),  # and putting in order
    }
    return Reading(ordered, seconds, result.image_size, steps)


def _polygon(points: np.ndarray | None) -> list[list[float]]:
    return [] if points is None else [[float(x), float(y)] for x, y in points]


def card_quads(image: np.ndarray) -> list[np.ndarray]:
    """Card outlines in reading order: what ``vision.detect.cards_in_reading_order`` rectifies
    (enrolment needs the outlines themselves, to draw the names on the photo)."""
    # start-up time: vision loads OpenCV
    from vision.detect import find_card_quads
    from vision.layout import reading_sequence

    return reading_sequence(
        find_card_quads(image), center=lambda q: (float(q[:, 0].mean()), float(q[:, 1].mean()))
    )
