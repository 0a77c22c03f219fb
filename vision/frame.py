"""Frame: which of a reference's features near the card's edge are its own, and which it shares
with every card of its layout.

A card's outer band (``INTERIOR_X`` / ``INTERIOR_Y`` of each edge) is mostly frame: the
border, the edges of the title bar and the type line, which every card of a layout prints at
the same place, so a frame feature lines up with any reference of that layout and must not
count towards a name. But not all of it: a room card (two half-cards printed sideways) runs its
two title bars along the left edge, inside that band, and a fan shows little more of it than
those titles (Smoky Lounge: 102 inliers, 88 of them in the band, 5 counted).

What a layout shares the gallery shows: references of other names with a feature at the same
place (within ``FRAME_SHARE_RADIUS``; the scans are rectified to the same canonical card) and a
close descriptor. A band feature that no other name shares is the reference's own (its title's
letters) and counts like the interior; one that another name shares is frame. That judgement
needs cards of the same layout in the gallery: a reference that shares its band with fewer than
``FRAME_MIN_SIBLINGS`` other names (a small gallery, a layout enrolled once) cannot tell its
frame from its title, and its band does not count at all (the fixed band, as before).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Protocol

import numpy as np

import vision.tuning as tuning
from vision.features import hamming_at
from vision.geometry import CARD_H, CARD_W


class _Reference(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def count(self) -> int: ...


class Gallery(Protocol):
    """What judging the frame reads of a :class:`vision.gallery.Gallery` (which saves and
    loads the verdicts, so this module cannot import it)."""

    @property
    def entries(self) -> Sequence[_Reference]: ...
    @property
    def descriptors(self) -> np.ndarray: ...
    @property
    def frame_counted(self) -> np.ndarray | None: ...
    def entry_features(self, entry: int) -> tuple[np.ndarray, np.ndarray]: ...


_COUNTED: weakref.WeakKeyDictionary[Gallery, list[np.ndarray]] = weakref.WeakKeyDictionary()


def interior(points: np.ndarray) -> np.ndarray:
    """Which card positions (canonical px) lie inside the outer band that may be frame."""
    x, y = points[:, 0], points[:, 1]
    mx, my = tuning.INTERIOR_X, tuning.INTERIOR_Y
    return (x > mx * CARD_W) & (x < (1 - mx) * CARD_W) & (y > my * CARD_H) & (y < (1 - my) * CARD_H)


def counted_features(gallery: Gallery, entry: int) -> np.ndarray:
    """Per feature of reference ``entry``: does an inlier on it count towards the name (inside
    the band, or in it but shared with no other name's reference)? Read from the saved gallery
    when it holds them (:func:`every_reference_counted`, stored by ``Gallery.save``); else made
    for every reference at once on the gallery's first naming, and again when references are
    enrolled: 0.33 s for the 372 real scans of the families bench (0.58 s on the Pi's library
    stack), which a cold ``vision identify`` would pay on every call. Made one by one as
    references were first named, the first photos of a session each paid for a few more (the
    families bench's warm median rose ~5 ms a photo on both stacks)."""
    counted = _COUNTED.get(gallery)
    if counted is None or len(counted) != len(gallery.entries):
        stored = gallery.frame_counted
        if stored is not None and len(stored) == len(gallery.descriptors):
            counted = [stored[e.start : e.start + e.count] for e in gallery.entries]
        else:
            index = _BandIndex(gallery)
            counted = [index.judge(gallery, k) for k in range(index.entries)]
        _COUNTED[gallery] = counted
    return counted[entry]


def every_reference_counted(gallery: Gallery) -> np.ndarray:
    """:func:`counted_features` of every reference, one row per gallery feature (what the
    gallery stores, with :func:`settings` to tell when the tuning has moved on)."""
    if len(gallery.entries) == 0:
        return np.zeros(0, bool)
    return np.concatenate([counted_features(gallery, k) for k in range(len(gallery.entries))])


def settings() -> np.ndarray:
    """The tuning the verdicts depend on: stored verdicts made with other values are stale."""
    return np.array(
        [
            tuning.INTERIOR_X,
            tuning.INTERIOR_Y,
            tuning.FRAME_SHARE_RADIUS,
            tuning.FRAME_SIBLING_FEATURES,
            tuning.FRAME_MIN_SIBLINGS,
            tuning.MAX_DESCRIPTOR_DISTANCE,
        ],
        np.float64,
    )


class _BandIndex:
    """Every reference's band features on a grid of ``FRAME_SHARE_RADIUS``-sized cells (their
    positions, descriptors and card names, sorted by cell)."""

    def __init__(self, gallery: Gallery) -> None:
        self.entries = len(gallery.entries)
        names = {n: i for i, n in enumerate(dict.fromkeys(e.name for e in gallery.entries))}
        self.name_of_entry = np.array([names[e.name] for e in gallery.entries], np.int64)
        self.names = len(names)
        bands = [
            np.flatnonzero(~interior(gallery.entry_features(k)[0])) for k in range(self.entries)
        ]
        empty = np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)
        points = np.concatenate(
            [empty[0]] + [gallery.entry_features(k)[0][b] for k, b in enumerate(bands)]
        ).astype(np.float32)
        descriptors = np.concatenate(
            [empty[1]] + [gallery.entry_features(k)[1][b] for k, b in enumerate(bands)]
        )
        owner = np.repeat(np.arange(self.entries), [len(b) for b in bands])
        self.width = int(CARD_W / tuning.FRAME_SHARE_RADIUS) + 4
        key = self._key(points)
        order = np.argsort(key, kind="stable")
        self.key = key[order]
        self.x, self.y = (
            np.ascontiguousarray(points[order, 0]),
            np.ascontiguousarray(points[order, 1]),
        )
        self.descriptors = descriptors[order]
        self.name = self.name_of_entry[owner[order]]

    def _key(self, points: np.ndarray) -> np.ndarray:
        cell = np.floor(points / tuning.FRAME_SHARE_RADIUS).astype(np.int64) + 1
        return cell[:, 1] * self.width + cell[:, 0]

    def judge(self, gallery: Gallery, entry: int) -> np.ndarray:
        """:func:`counted_features` of one reference: its band features that another name's
        reference shares (within the radius, a close descriptor) are frame, the rest its own;
        with fewer than ``FRAME_MIN_SIBLINGS`` names sharing ``FRAME_SIBLING_FEATURES`` of
        them, its layout is not known well enough, and the whole band is left out."""
        points, descriptors = gallery.entry_features(entry)
        counted = interior(points)
        band = np.flatnonzero(~counted)
        if len(band) == 0 or len(self.key) == 0:
            return counted
        mine, theirs = self._near(points[band].astype(np.float32))
        other = self.name[theirs] != self.name_of_entry[entry]
        mine, theirs = mine[other], theirs[other]
        close = hamming_at(descriptors[band], mine, self.descriptors, theirs)
        keep = close <= tuning.MAX_DESCRIPTOR_DISTANCE
        mine, theirs = mine[keep], theirs[keep]
        # Names sharing the band, each counted once per feature of it: siblings share many.
        sharing = np.zeros((self.names, len(band)), bool)
        sharing[self.name[theirs], mine] = True
        siblings = int((sharing.sum(axis=1) >= tuning.FRAME_SIBLING_FEATURES).sum())
        if siblings >= tuning.FRAME_MIN_SIBLINGS:
            shared = np.zeros(len(band), bool)
            shared[mine] = True
            counted[band] = ~shared
        return counted

    def _near(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pairs (row of ``points``, index feature) within ``FRAME_SHARE_RADIUS``."""
        r = tuning.FRAME_SHARE_RADIUS
        key = self._key(points)
        found_i, found_j = [], []
        for dy in (-1, 0, 1):
            lo = np.searchsorted(self.key, key + dy * self.width - 1, "left")
            hi = np.searchsorted(self.key, key + dy * self.width + 1, "right")
            counts = hi - lo
            found_i.append(np.repeat(np.arange(len(points)), counts))
            found_j.append(
                np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
            )
        i, j = np.concatenate(found_i), np.concatenate(found_j)
        dx = self.x[j] - points[i, 0]
        dy = self.y[j] - points[i, 1]
        near = np.flatnonzero(dx * dx + dy * dy <= r * r)
        return i[near], j[near]
