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
REFERENCE_FEATURES = 300
PATCH_FEATURES = 500
_SCALE_FACTOR = 1.3
_LEVELS = 3


def card_orb(n_features: int) -> cv2.ORB:
    """The ORB detector for upright canonical card images (references and rectified cards)."""
    return cv2.ORB.create(
        nfeatures=n_features,
        scaleFactor=_SCALE_FACTOR,
        nlevels=_LEVELS,
        edgeThreshold=19,
        patchSize=31,
        fastThreshold=12,
    )


def photo_orb(n_features: int) -> cv2.ORB:
    """The ORB detector for whole photos: more pyramid levels, cards may be any size."""
    return cv2.ORB.create(
        nfeatures=n_features,
        scaleFactor=1.25,
        nlevels=6,
        edgeThreshold=19,
        patchSize=31,
        fastThreshold=10,
    )


def to_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def card_features(card: np.ndarray, n_features: int) -> tuple[np.ndarray, np.ndarray]:
    """(points float32 N x 2, descriptors uint8 N x 32) of an upright canonical card image."""
    gray = to_gray(card)
    if gray.shape[:2] != (CARD_H, CARD_W):
        gray = cv2.resize(gray, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    keypoints, descriptors = card_orb(n_features).detectAndCompute(gray, None)
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
    """Inverted file: gallery descriptor ids grouped by visual word."""

    words: np.ndarray  # W x 32 uint8
    order: np.ndarray  # descriptor ids sorted by word
    starts: np.ndarray  # W + 1 offsets into ``order``

    @classmethod
    def build(cls, descriptors: np.ndarray) -> WordIndex:
        if len(descriptors) == 0:
            return cls(np.zeros((0, 32), np.uint8), np.zeros(0, np.int32), np.zeros(1, np.int32))
        # About 60 descriptors per word: enough to keep the word look-up cheap, few enough
        # that each probe compares a photo descriptor with only a handful of references.
        n_words = int(np.clip(len(descriptors) // 60, 1, 4096))
        words, labels = build_vocabulary(descriptors, n_words)
        order = np.argsort(labels, kind="stable").astype(np.int32)
        starts = np.searchsorted(labels[order], np.arange(len(words) + 1)).astype(np.int32)
        return cls(words, order, starts)

    def candidates(self, query: np.ndarray, probes: int) -> tuple[np.ndarray, np.ndarray]:
        """For each query descriptor, the gallery descriptors under its ``probes`` nearest
        words: (query ids, gallery ids), grouped by query id in ascending order."""
        if len(query) == 0 or len(self.words) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        k = min(probes, len(self.words))
        matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        knn = matcher.knnMatch(query, self.words, k=k)
        word_table = np.full((len(query), k), -1, np.int64)
        for i, row in enumerate(knn):
            for j, m in enumerate(row):
                word_table[i, j] = m.trainIdx
        query_ids = np.repeat(np.arange(len(query)), k)
        word_ids = word_table.ravel()
        valid = word_ids >= 0
        query_ids, word_ids = query_ids[valid], word_ids[valid]
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
