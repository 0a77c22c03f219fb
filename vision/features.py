"""Local features and the fast approximate index used to find cards.

Every reference card is stored as a small budget of ORB features (binary 256-bit descriptors and
their positions on the upright 336 x 468 reference card). To look them up quickly the gallery's
descriptors are clustered into "visual words" (binary k-majority, a k-means for bit strings); a
photo's descriptor is compared only with the gallery descriptors filed under its few nearest
words instead of all of them (about 1/300 of the work of a brute-force search, measured in
``tablekeeper bench vision``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CARD_W, CARD_H = 336, 468  # the canonical upright card: every reference is stored at this size
CARD_ASPECT = CARD_W / CARD_H  # 63 x 88 mm
CARD_CORNERS = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)

# Feature budget per reference card, and the detector used on references and rectified cards.
REFERENCE_FEATURES = 500
# Pyramid levels of reference features (1.3x apart: down to 0.35x, for cards that are small in
# the photo).
REFERENCE_LEVELS = 5
PATCH_FEATURES = 500
COARSE_PROBES = 3  # coarse words searched per photo descriptor
DESCRIPTORS_PER_WORD = 30  # average bucket size of the fine vocabulary
_SCALE_FACTOR = 1.3
_LEVELS = 3


def card_orb(n_features: int, levels: int = _LEVELS) -> cv2.ORB:
    """The ORB detector for upright canonical card images (references and rectified cards)."""
    return cv2.ORB.create(
        nfeatures=n_features,
        scaleFactor=_SCALE_FACTOR,
        nlevels=levels,
        edgeThreshold=19,
        patchSize=31,
        fastThreshold=12,
    )


def photo_orb(n_features: int, fast_threshold: int = 10) -> cv2.ORB:
    """The ORB detector for whole photos: more pyramid levels, cards may be any size."""
    return cv2.ORB.create(
        nfeatures=n_features,
        scaleFactor=1.25,
        nlevels=6,
        edgeThreshold=19,
        patchSize=31,
        fastThreshold=fast_threshold,
    )


def photo_features(
    gray: np.ndarray, n_features: int, mask: np.ndarray | None = None, fast_threshold: int = 10
) -> tuple[np.ndarray, np.ndarray]:
    """(points, descriptors) of a whole photo: the ``n_features`` strongest ORB corners.

    (Spreading the budget over a grid, so a busy table cannot take most of it, was measured
    and did not find more cards: the cards' own corners are strong enough.)"""
    keypoints, descriptors = photo_orb(n_features, fast_threshold).detectAndCompute(gray, mask)
    if descriptors is None or not keypoints:
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)
    return np.array([kp.pt for kp in keypoints], np.float32), descriptors


def to_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def card_features(
    card: np.ndarray, n_features: int, levels: int = _LEVELS
) -> tuple[np.ndarray, np.ndarray]:
    """(points float32 N x 2, descriptors uint8 N x 32) of an upright canonical card image."""
    gray = to_gray(card)
    if gray.shape[:2] != (CARD_H, CARD_W):
        gray = cv2.resize(gray, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    keypoints, descriptors = card_orb(n_features, levels).detectAndCompute(gray, None)
    if descriptors is None or not keypoints:
        return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8)
    points = np.array([kp.pt for kp in keypoints], np.float32)
    return points, descriptors


_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], np.uint8)


def hamming(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise Hamming distances between two equally long stacks of 32-byte descriptors."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2
        x = np.ascontiguousarray(a).view(np.uint64) ^ np.ascontiguousarray(b).view(np.uint64)
        return np.bitwise_count(x).sum(axis=1, dtype=np.int32)
    # numpy 1.x (the Raspberry Pi's apt picamera2 pins it): a byte look-up table.
    return _POPCOUNT[np.bitwise_xor(a, b)].sum(axis=1, dtype=np.int32)


def build_vocabulary(
    descriptors: np.ndarray, n_words: int, iterations: int = 3, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Cluster binary descriptors into ``n_words`` words; returns (words, label per descriptor)."""
    n = len(descriptors)
    n_words = max(1, min(n_words, n))
    rng = np.random.default_rng(seed)
    words = descriptors[rng.choice(n, n_words, replace=False)].copy()
    matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
    labels = np.zeros(n, np.int32)
    bits = np.unpackbits(descriptors, axis=1)
    for step in range(iterations + 1):
        labels = np.array([m.trainIdx for m in matcher.match(descriptors, words)], np.int32)
        if step == iterations:
            break
        order = np.argsort(labels, kind="stable")
        sorted_labels = labels[order]
        starts = np.searchsorted(sorted_labels, np.arange(n_words))
        counts = np.bincount(labels, minlength=n_words)
        filled = counts > 0
        sums = np.add.reduceat(bits[order].astype(np.int32), starts[filled], axis=0)
        majority = (2 * sums > counts[filled][:, None]).astype(np.uint8)
        words[filled] = np.packbits(majority, axis=1)
    return words, labels


@dataclass
class WordIndex:
    """Inverted file: gallery descriptor ids grouped by visual word, with a two-level
    vocabulary (a few dozen coarse words, each split into fine words) so that finding a photo
    descriptor's nearest words costs ~100 comparisons instead of thousands."""

    words: np.ndarray  # W x 32 uint8, fine words grouped by coarse word
    order: np.ndarray  # descriptor ids sorted by word
    starts: np.ndarray  # W + 1 offsets into ``order``
    coarse: np.ndarray  # C x 32 uint8 coarse words
    coarse_starts: np.ndarray  # C + 1 offsets into ``words``

    @classmethod
    def empty(cls) -> WordIndex:
        return cls(
            np.zeros((0, 32), np.uint8),
            np.zeros(0, np.int32),
            np.zeros(1, np.int32),
            np.zeros((0, 32), np.uint8),
            np.zeros(1, np.int32),
        )

    @classmethod
    def build(cls, descriptors: np.ndarray) -> WordIndex:
        if len(descriptors) == 0:
            return cls.empty()
        # About 60 descriptors per fine word: enough to keep the word look-up cheap, few
        # enough that each probe compares a photo descriptor with only a handful of references.
        n_coarse = int(np.clip(round(np.sqrt(len(descriptors) / 60)), 1, 64))
        coarse, coarse_labels = build_vocabulary(descriptors, n_coarse)
        n_coarse = len(coarse)
        fine_words: list[np.ndarray] = []
        labels = np.zeros(len(descriptors), np.int64)
        coarse_starts = [0]
        for c in range(n_coarse):
            members = np.flatnonzero(coarse_labels == c)
            if len(members) == 0:
                coarse_starts.append(coarse_starts[-1])
                continue
            n_fine = int(np.clip(len(members) // DESCRIPTORS_PER_WORD, 1, 512))
            words, sub = build_vocabulary(descriptors[members], n_fine, iterations=2, seed=c)
            labels[members] = coarse_starts[-1] + sub
            fine_words.append(words)
            coarse_starts.append(coarse_starts[-1] + len(words))
        all_words = np.vstack(fine_words)
        order = np.argsort(labels, kind="stable").astype(np.int32)
        starts = np.searchsorted(labels[order], np.arange(len(all_words) + 1)).astype(np.int32)
        return cls(all_words, order, starts, coarse, np.array(coarse_starts, np.int32))

    def nearest_words(self, query: np.ndarray, probes: int) -> tuple[np.ndarray, np.ndarray]:
        """(query ids, word ids): each query's ``probes`` nearest fine words among the fine
        words of its two nearest coarse words; grouped by query id, ascending."""
        k_coarse = min(COARSE_PROBES, len(self.coarse))
        _, top = cv2.batchDistance(
            query, self.coarse, cv2.CV_32S, normType=cv2.NORM_HAMMING, K=k_coarse
        )
        rows_out, words_out, dist_out = [], [], []
        for c in range(len(self.coarse)):
            lo, hi = int(self.coarse_starts[c]), int(self.coarse_starts[c + 1])
            if hi <= lo:
                continue
            rows = np.flatnonzero((top == c).any(axis=1))
            if len(rows) == 0:
                continue
            k = min(probes, hi - lo)
            dist, idx = cv2.batchDistance(
                query[rows], self.words[lo:hi], cv2.CV_32S, normType=cv2.NORM_HAMMING, K=k
            )
            rows_out.append(np.repeat(rows, k))
            words_out.append(idx.ravel().astype(np.int64) + lo)
            dist_out.append(dist.ravel())
        if not rows_out:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        rows_all = np.concatenate(rows_out)
        words_all = np.concatenate(words_out)
        dist_all = np.concatenate(dist_out)
        order = np.lexsort((dist_all, rows_all))
        rows_all, words_all = rows_all[order], words_all[order]
        group = np.r_[True, rows_all[1:] != rows_all[:-1]]
        starts = np.flatnonzero(group)
        rank = np.arange(len(rows_all)) - np.repeat(starts, np.diff(np.r_[starts, len(rows_all)]))
        keep = rank < probes
        return rows_all[keep].astype(np.int64), words_all[keep]

    def candidates(self, query: np.ndarray, probes: int) -> tuple[np.ndarray, np.ndarray]:
        """For each query descriptor, the gallery descriptors under its ``probes`` nearest
        words: (query ids, gallery ids), grouped by query id in ascending order."""
        if len(query) == 0 or len(self.words) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        query_ids, word_ids = self.nearest_words(query, probes)
        lengths = (self.starts[word_ids + 1] - self.starts[word_ids]).astype(np.int64)
        total = int(lengths.sum())
        rep_query = np.repeat(query_ids, lengths)
        first = np.repeat(
            self.starts[word_ids].astype(np.int64) - (np.cumsum(lengths) - lengths), lengths
        )
        gallery_ids = self.order[first + np.arange(total)].astype(np.int64)
        return rep_query, gallery_ids


def global_descriptor(card: np.ndarray) -> np.ndarray:
    """A compact whole-card signature (float32, unit length) of an upright card image.

    A blurred low-resolution luminance layout plus a coarse colour layout: cheap to compare
    against every reference (one matrix product), robust to small rectification errors, used
    only to shortlist references for the feature check.
    """
    small = cv2.resize(card, (24, 33), interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lum = cv2.GaussianBlur(lab[..., 0], (3, 3), 0)[1:-1, 1:-1]
    lum = lum - lum.mean()
    lum /= float(np.linalg.norm(lum)) + 1e-6
    chroma = cv2.resize(lab[..., 1:], (6, 8), interpolation=cv2.INTER_AREA) - 128.0
    chroma /= float(np.linalg.norm(chroma)) + 20.0
    out = np.concatenate([lum.ravel(), 0.5 * chroma.ravel()]).astype(np.float32)
    out /= float(np.linalg.norm(out)) + 1e-6
    return out


LOOK_SIZE = (42, 58)  # width, height of a card's look: about 1/8 of the canonical card


def card_look(card: np.ndarray) -> np.ndarray:
    """A card's look: the upright card image at about 1/8 size (colour, uint8, 38 x 54 after
    a two-pixel margin is dropped), slightly blurred. At this size blur, noise and a few
    pixels of misalignment hardly matter, while the art and colours of two cards still differ
    (see :func:`look_vectors`)."""
    small = cv2.resize(card, LOOK_SIZE, interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    return np.ascontiguousarray(small[2:-2, 2:-2])


def look_vectors(looks: np.ndarray, typical: np.ndarray) -> np.ndarray:
    """Looks (K x 54 x 38 x 3) as unit vectors of how each card differs from the typical card
    (``typical``: the gallery's mean look). Taking the typical card away first removes what
    every card of one game shares (frame, title bar, text box), so the correlation of two
    vectors says whether two images show the same *card*, not just the same layout."""
    diff = looks.astype(np.float32).reshape(len(looks), -1) - typical.reshape(1, -1)
    diff -= diff.mean(axis=1, keepdims=True)
    diff /= np.linalg.norm(diff, axis=1, keepdims=True) + 1e-6
    return diff


LOOK_CELLS = (4, 3)  # rows, columns of the grid a look is cut into for the robust comparison
_CELL = (13, 12)  # rows, columns of look pixels per cell (the look is 54 x 38)


def look_cells(residuals: np.ndarray) -> np.ndarray:
    """Looks with the typical card taken away (K x 54 x 38 x 3 float32) cut into a 4 x 3 grid
    of cells, each a zero-mean unit vector: K x 12 x D. Comparing cell by cell and taking the
    median lets a card half under another card or a glare spot still be compared fairly."""
    rows, cols = LOOK_CELLS
    h, w = _CELL
    k = len(residuals)
    grid = residuals[:, : rows * h, : cols * w].reshape(k, rows, h, cols, w, -1)
    cells = grid.transpose(0, 1, 3, 2, 4, 5).reshape(k, rows * cols, -1).astype(np.float32)
    cells -= cells.mean(axis=2, keepdims=True)
    cells /= np.linalg.norm(cells, axis=2, keepdims=True) + 1e-6
    return cells
